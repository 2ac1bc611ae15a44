package dev.sqlguard.app.internal.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.sqlguard.app.SqlGuard;
import dev.sqlguard.app.agent.AnalystPlanner;
import dev.sqlguard.app.agent.AnalyticalResponse;
import dev.sqlguard.app.agent.Evaluation;
import dev.sqlguard.app.agent.EvaluationQuestion;
import dev.sqlguard.app.agent.EvaluationReport;
import dev.sqlguard.app.agent.EvaluationSet;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "eval", mixinStandardHelpOptions = true,
        description = {"Runs the shipped 20-question evaluation set against the configured model.",
                "Reports how many answers are fully verified and correct. Each reference answer is computed by SQL on the same source.",
                "The source defaults to 'demo' (the set's source); it must hold the demo claims table.",
                "Exit codes: 0 the set ran, 2 usage or no model configured, 4 the model was unavailable (the run stops)."})
final class EvalCommand extends AbstractAgentCommand {
    enum Format { json, text }

    /** As every command: JSON on stdout by default, text for people with --format text. */
    @Option(names = "--format", paramLabel = "json|text", defaultValue = "json", description = "json (default) or text.")
    Format format;

    /** The shipped set, read when the command runs: parsing it needs Jackson's data binding, which --help does not. */
    private EvaluationSet set;

    EvalCommand(CliContext ctx) {
        super(ctx);
    }

    private EvaluationSet set() {
        if (set == null) {
            set = EvaluationSet.demo();
        }
        return set;
    }

    @Override
    List<String> sourceIds(SqlGuard guard) {
        EvaluationSet set = set();
        if (source == null && !guard.sources().contains(set.source())) {
            if (guard.sources().size() != 1) {
                ctx.warn("the configuration has no source '" + set.source() + "'; choose one with --source "
                        + guard.sources() + ".");
                return List.of();
            }
            return guard.sources();
        }
        return sourceOr(List.of(set.source()));
    }

    @Override
    int run(SqlGuard guard, AnalystPlanner planner, List<String> sourceIds) {
        EvaluationSet set = set();
        Evaluation evaluation;
        try {
            evaluation = Evaluation.of(caller.guardedPath(List.of(sourceIds.get(0))), planner);
        } catch (GuardException e) {
            ctx.warn(e.safeMessage());
            return e.code() == ErrorCode.UNKNOWN_SOURCE ? ExitCodes.USAGE : ExitCodes.ERROR;
        }
        List<EvaluationReport.Item> items = new ArrayList<>();
        int code = ExitCodes.OK;
        for (EvaluationQuestion question : set.questions()) {
            EvaluationReport.Item item = evaluation.score(question);
            items.add(item);
            ctx.stderr().println(String.format(Locale.ROOT, "sqlguard: eval %s %s verified=%s correct=%s (%d/%d)",
                    item.id(), item.status().wireName(), item.verified(), item.correct(), items.size(), set.questions().size()));
            if (item.status() == AnalyticalResponse.Status.MODEL_UNAVAILABLE) {
                ctx.warn("the model endpoint is unavailable; the evaluation stopped after " + items.size() + " question(s).");
                code = ExitCodes.ERROR;
                break;
            }
        }
        EvaluationReport report = new EvaluationReport(set.name(), sourceIds.get(0), items);
        ctx.stdout().print(format == Format.json ? report.toJson() + "\n" : report.toText());
        ctx.stdout().flush();
        return code;
    }
}
