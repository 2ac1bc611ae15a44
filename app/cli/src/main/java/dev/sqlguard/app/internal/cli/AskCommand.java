package dev.sqlguard.app.internal.cli;

import java.util.List;
import java.util.Optional;

import dev.sqlguard.app.SqlGuard;
import dev.sqlguard.app.agent.AnalystPlanner;
import dev.sqlguard.app.agent.AnalyticalResponse;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "ask", mixinStandardHelpOptions = true,
        description = {"Answers a question about the data with the configured model, through the guarded tools.",
                "Prints the analytical response (answer, key findings, every query run, chart, claim verification).",
                "Model: the config file's model: section, else SQLGUARD_MODEL_BASE_URL, SQLGUARD_MODEL, SQLGUARD_MODEL_API_KEY.",
                "Exit codes: 0 answered (or a clarifying question), 2 usage or no model configured,",
                "3 the answer was blocked by the claim policy, 4 the model was unavailable or the budget ran out."})
final class AskCommand extends AbstractAgentCommand {
    enum Format { json, text }

    @Option(names = "--format", paramLabel = "json|text", defaultValue = "json", description = "json (default) or text.")
    Format format;

    @Parameters(paramLabel = "QUESTION", arity = "1..*", description = "The question (several words are joined by spaces).")
    List<String> question;

    AskCommand(CliContext ctx) {
        super(ctx);
    }

    @Override
    List<String> sourceIds(SqlGuard guard) {
        return sourceOr(guard.sources());
    }

    @Override
    int run(SqlGuard guard, AnalystPlanner planner, List<String> sourceIds) {
        String text = String.join(" ", question).strip();
        if (text.isEmpty()) {
            ctx.warn("the question is blank.");
            return ExitCodes.USAGE;
        }
        AnalyticalResponse response = planner.ask(text, Optional.ofNullable(source));
        ctx.stdout().print(format == Format.text ? response.toText() : response.toJson());
        ctx.stdout().println();
        ctx.stdout().flush();
        if (response.status() == AnalyticalResponse.Status.MODEL_UNAVAILABLE) {
            ctx.warn(response.answer());
        }
        return exitCode(response.status());
    }

    static int exitCode(AnalyticalResponse.Status status) {
        return switch (status) {
            case ANSWERED, CLARIFICATION_NEEDED -> ExitCodes.OK;
            case BLOCKED -> ExitCodes.REJECTED;
            case BUDGET_EXHAUSTED, MODEL_UNAVAILABLE -> ExitCodes.ERROR;
        };
    }
}
