package dev.sqlguard.app.agent;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.sqlguard.app.GuardedCalls;
import dev.sqlguard.app.GuardedPath;
import dev.sqlguard.app.SqlGuard;
import dev.sqlguard.app.agent.AnalyticalResponse.ExecutedQuery;
import dev.sqlguard.app.agent.AnalyticalResponse.Status;
import dev.sqlguard.app.agent.AnalyticalResponse.Verification;
import dev.sqlguard.app.agent.internal.AnswerText;
import dev.sqlguard.app.agent.internal.SystemPrompt;
import dev.sqlguard.app.tools.AgentTools;
import dev.sqlguard.app.tools.AgentSource;
import dev.sqlguard.app.tools.ToolOutcome;
import dev.sqlguard.app.tools.ChartOutput;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

import dev.sqlguard.domain.SafeText;
import dev.sqlguard.domain.ToolError;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.verify.ClaimPolicy;
import dev.sqlguard.ports.model.ChatMessage;
import dev.sqlguard.ports.model.ModelPort;
import dev.sqlguard.ports.model.ModelReply;
import dev.sqlguard.ports.model.ModelRequest;
import dev.sqlguard.ports.model.ToolCall;
import dev.sqlguard.ports.model.ToolSpec;

/**
 * A bounded tool-calling loop that turns a question into an {@link AnalyticalResponse}.
 *
 * <p>Bounds: at most {@code maxTurns} model replies, at most {@code maxToolCalls} tool calls, and a
 * retry budget of {@code maxSqlRetries} failed tool calls (REJECTED or ERROR). A failure whose
 * {@code retryable} flag is false, or one failure beyond the budget, closes the data tools: the
 * model is told so and gets one more turn to answer from what it has; asking for data again then
 * ends the run as BUDGET_EXHAUSTED. The model only ever sees tool results, whose messages are
 * already safe. Nothing here throws for a model, tool or budget problem: every run ends in a
 * response with a status. Thread-safe: each {@link #ask} keeps its own conversation.
 */
public final class AnalystPlanner {
    private static final Logger LOG = LoggerFactory.getLogger(AnalystPlanner.class);

    private final ModelPort model;
    private final GuardedCalls calls;
    private final List<AgentSource> sources;
    private final AnswerVerifier verifier;
    private final AgentSettings settings;

    public AnalystPlanner(ModelPort model, GuardedCalls calls, List<AgentSource> sources, AnswerVerifier verifier,
                          AgentSettings settings) {
        this.model = requireNonNull(model, "model is null");
        this.calls = requireNonNull(calls, "calls is null");
        this.sources = List.copyOf(sources);
        if (this.sources.isEmpty()) {
            throw new IllegalArgumentException("no source");
        }
        this.verifier = requireNonNull(verifier, "verifier is null");
        this.settings = requireNonNull(settings, "settings is null");
    }

    /** A planner with the standard claim verifier ({@link DomainAnswerVerifier#standard()}). */
    public AnalystPlanner(ModelPort model, GuardedCalls calls, List<AgentSource> sources, AgentSettings settings) {
        this(model, calls, sources, DomainAnswerVerifier.standard(), settings);
    }

    /**
     * A planner that answers questions with {@code model} over {@code sourceIds} of {@code guard},
     * through its guarded path and audit sink. Starts those sources' engines.
     *
     * @throws GuardException {@code UNKNOWN_SOURCE}, or the engine's error when one cannot start
     * @throws IllegalArgumentException when {@code sourceIds} is empty
     */
    public static AnalystPlanner of(SqlGuard guard, ModelPort model, AgentSettings settings, List<String> sourceIds) {
        return of(guard.guardedPath(sourceIds), model, settings);
    }

    /**
     * A planner on a guarded path, for example a caller's ({@link dev.sqlguard.app.GuardedCaller#guardedPath}):
     * every statement its tools run carries the path's attributes.
     */
    public static AnalystPlanner of(GuardedPath path, ModelPort model, AgentSettings settings) {
        return new AnalystPlanner(model, path.calls(), AgentSource.of(path), settings);
    }

    public AgentSettings settings() {
        return settings;
    }

    /** Answers a question using every source. */
    public AnalyticalResponse ask(String question) {
        return ask(question, Optional.empty());
    }

    /**
     * Answers a question using one source, or every source when {@code sourceId} is empty.
     *
     * @throws IllegalArgumentException when {@code sourceId} names no configured source (a caller error)
     */
    public AnalyticalResponse ask(String question, Optional<String> sourceId) {
        requireNonNull(question, "question is null");
        if (question.isBlank()) {
            throw new IllegalArgumentException("question is blank");
        }
        List<AgentSource> used = sourceId.map(id -> sources.stream().filter(s -> s.id().equals(id)).toList()).orElse(sources);
        if (used.isEmpty()) {
            throw new IllegalArgumentException("unknown source: " + sourceId.orElseThrow() + "; sources: "
                    + sources.stream().map(AgentSource::id).toList());
        }
        return new Run(question, new AgentTools(calls, used, settings.chartDirectory()), used).run();
    }

    /** The state of one question. */
    private final class Run {
        private final String question;
        private final AgentTools tools;
        private final List<ToolSpec> specs;
        private final List<ChatMessage> messages = new ArrayList<>();
        private final List<ExecutedQuery> queries = new ArrayList<>();
        private final List<ToolResult> evidenceResults = new ArrayList<>();
        private final List<Object> evidenceValues = new ArrayList<>();
        private Optional<ChartOutput> chart = Optional.empty();
        private int turns;
        private int toolCalls;
        private int failures;
        private Optional<String> closed = Optional.empty();

        Run(String question, AgentTools tools, List<AgentSource> used) {
            this.question = question;
            this.tools = tools;
            this.specs = tools.specs();
            messages.add(ChatMessage.system(SystemPrompt.of(used)));
            messages.add(ChatMessage.user(question));
        }

        AnalyticalResponse run() {
            boolean nudged = false;
            while (true) {
                if (turns >= settings.maxTurns()) {
                    return exhausted("the limit of " + settings.maxTurns() + " model turns");
                }
                ModelReply reply;
                try {
                    reply = model.complete(new ModelRequest(messages, specs));
                } catch (GuardException e) {
                    return unavailable(SafeText.clean(e.safeMessage(), ErrorCode.MODEL_UNAVAILABLE));
                } catch (RuntimeException e) {
                    LOG.warn("model port failed: " + e.getClass().getSimpleName());
                    LOG.debug("model port failure", e);
                    return unavailable(ErrorCode.MODEL_UNAVAILABLE.defaultMessage());
                }
                turns++;
                if (reply.toolCalls().isEmpty()) {
                    String text = reply.content().orElse("").strip();
                    if (!text.isEmpty()) {
                        return answered(text);
                    }
                    if (nudged) {
                        return exhausted("two replies without an answer or a tool call");
                    }
                    nudged = true;
                    messages.add(ChatMessage.assistant(Optional.empty(), List.of()));
                    messages.add(ChatMessage.user("Reply with your answer, or call a tool."));
                    continue;
                }
                if (closed.isPresent() && reply.toolCalls().stream().anyMatch(c -> AgentTools.isDataTool(c.name()))) {
                    return exhausted(closed.get());
                }
                messages.add(ChatMessage.assistant(reply.content(), reply.toolCalls()));
                boolean wasClosed = closed.isPresent();
                for (ToolCall call : reply.toolCalls()) {
                    if (toolCalls >= settings.maxToolCalls()) {
                        return exhausted("the limit of " + settings.maxToolCalls() + " tool calls");
                    }
                    toolCalls++;
                    ToolOutcome outcome = tools.call(call);
                    messages.add(ChatMessage.tool(call.id(), outcome.modelJson()));
                    record(outcome);
                    if (outcome.clarification().isPresent()) {
                        return clarification(outcome.clarification().get());
                    }
                    if (outcome.failed()) {
                        count(outcome.error().orElseThrow());
                    }
                }
                if (!wasClosed && closed.isPresent()) {
                    messages.add(ChatMessage.user("No further queries will run: " + closed.get()
                            + ". Answer now from the tool results you have, or say that the question cannot be answered."));
                }
            }
        }

        private void record(ToolOutcome outcome) {
            evidenceValues.addAll(outcome.shownValues());
            outcome.results().stream().filter(r -> r.error().isEmpty()).forEach(evidenceResults::add);
            if (AgentTools.isDataTool(outcome.tool())) {
                for (ToolResult result : outcome.results()) {
                    queries.add(ExecutedQuery.of(outcome.tool(), result, settings.previewRows()));
                }
            }
            if (outcome.chart().isPresent()) {
                chart = outcome.chart();
            }
        }

        private void count(ToolError error) {
            failures++;
            if (closed.isPresent()) {
                return;
            }
            if (!error.retryable()) {
                closed = Optional.of("a non-retryable error (" + error.code().name() + ") ended the SQL retries");
            } else if (failures > settings.maxSqlRetries()) {
                closed = Optional.of("the retry budget of " + settings.maxSqlRetries() + " failed tool calls was used up");
            }
        }

        private AnalyticalResponse answered(String content) {
            AnswerText text = AnswerText.parse(content);
            ClaimCheck check;
            boolean performed;
            try {
                check = verifier.verify(text.verifiableText(), question,
                        new ConversationEvidence(evidenceResults, evidenceValues));
                performed = true;
            } catch (RuntimeException e) {
                LOG.warn("claim verifier failed: " + e.getClass().getSimpleName());
                LOG.debug("claim verifier failure", e);
                check = ClaimCheck.none();
                performed = false;
            }
            Verification verification = new Verification(settings.claimPolicy(), performed, check);
            if (settings.claimPolicy() == ClaimPolicy.BLOCK && !verification.fullyVerified()) {
                String refusal = performed
                        ? "The answer was withheld: these numbers in it are not supported by any query result: "
                                + String.join(", ", check.unsupported()) + "."
                        : "The answer was withheld: its numbers could not be verified.";
                return response(Status.BLOCKED, refusal, List.of(), verification, Optional.empty());
            }
            return response(Status.ANSWERED, text.answer(), text.findings(), verification, Optional.empty());
        }

        private AnalyticalResponse clarification(String questionForUser) {
            return response(Status.CLARIFICATION_NEEDED, "The request needs clarification: " + questionForUser, List.of(),
                    notVerified(), Optional.of(questionForUser));
        }

        private AnalyticalResponse exhausted(String reason) {
            return response(Status.BUDGET_EXHAUSTED, "No answer: " + reason + " was reached after " + turns + " model turns and "
                    + toolCalls + " tool calls.", List.of(), notVerified(), Optional.empty());
        }

        private AnalyticalResponse unavailable(String message) {
            return response(Status.MODEL_UNAVAILABLE, "No answer: " + message, List.of(), notVerified(), Optional.empty());
        }

        private Verification notVerified() {
            return new Verification(settings.claimPolicy(), false, ClaimCheck.none());
        }

        private AnalyticalResponse response(Status status, String answer, List<String> findings, Verification verification,
                                            Optional<String> clarification) {
            return new AnalyticalResponse(status, question, answer, findings, queries, chart, verification, turns, toolCalls,
                    clarification);
        }
    }
}
