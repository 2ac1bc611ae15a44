package dev.sqlguard.app.agent;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

import dev.sqlguard.app.agent.internal.ResponseFormat;
import dev.sqlguard.app.tools.ChartOutput;
import dev.sqlguard.domain.LimitKind;
import dev.sqlguard.domain.ResultColumn;
import dev.sqlguard.domain.ToolError;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.verify.ClaimPolicy;

/**
 * The structured answer to one question: what the model concluded, and everything a reader needs
 * to check it (every SQL statement run with a preview of its rows and the limits it hit, the chart,
 * and the verification of the answer's numbers).
 *
 * @param status how the run ended
 * @param question the question asked
 * @param answer the answer text (for BLOCKED: a refusal listing the unsupported numbers; for the
 *     other non-answers: a sentence saying why there is none)
 * @param keyFindings the findings the model listed
 * @param queries every data-tool call, in order, with its outcome
 * @param chart the last chart drawn, if any
 * @param verification the claim verification of the model's answer
 * @param turnsUsed model replies used
 * @param toolCallsUsed tool calls used
 * @param clarification the question for the user, when status is CLARIFICATION_NEEDED
 */
public record AnalyticalResponse(Status status, String question, String answer, List<String> keyFindings,
                                 List<ExecutedQuery> queries, Optional<ChartOutput> chart, Verification verification,
                                 int turnsUsed, int toolCallsUsed, Optional<String> clarification) {
    public enum Status {
        ANSWERED, CLARIFICATION_NEEDED, BUDGET_EXHAUSTED, BLOCKED, MODEL_UNAVAILABLE;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public AnalyticalResponse {
        requireNonNull(status, "status is null");
        requireNonNull(question, "question is null");
        requireNonNull(answer, "answer is null");
        keyFindings = List.copyOf(keyFindings);
        queries = List.copyOf(queries);
        requireNonNull(chart, "chart is null");
        requireNonNull(verification, "verification is null");
        if (turnsUsed < 0 || toolCallsUsed < 0) {
            throw new IllegalArgumentException("negative counts");
        }
        requireNonNull(clarification, "clarification is null");
        if ((status == Status.CLARIFICATION_NEEDED) != clarification.isPresent()) {
            throw new IllegalArgumentException("a clarification goes with status CLARIFICATION_NEEDED only");
        }
    }

    /**
     * The verification of the answer's numbers.
     *
     * @param policy the policy that applied
     * @param performed whether a model answer was checked at all
     * @param check the numbers found, supported, unsupported and exempt
     */
    public record Verification(ClaimPolicy policy, boolean performed, ClaimCheck check) {
        public Verification {
            requireNonNull(policy, "policy is null");
            requireNonNull(check, "check is null");
        }

        /** Whether an answer was checked and every number in it is supported. */
        public boolean fullyVerified() {
            return performed && check.verified();
        }
    }

    /** One data-tool call: the SQL that ran (if it got that far), a bounded preview and the limits hit. */
    public record ExecutedQuery(String tool, String source, ToolStatus status, Optional<String> sql, List<ResultColumn> columns,
                                List<List<Object>> previewRows, int returnedCount, boolean truncated,
                                Set<LimitKind> limitsHit, Optional<ToolError> error) {
        public ExecutedQuery {
            requireNonNull(tool, "tool is null");
            requireNonNull(source, "source is null");
            requireNonNull(status, "status is null");
            requireNonNull(sql, "sql is null");
            columns = List.copyOf(columns);
            List<List<Object>> copy = new ArrayList<>();
            for (List<Object> row : previewRows) {
                copy.add(Collections.unmodifiableList(new ArrayList<>(row)));
            }
            previewRows = Collections.unmodifiableList(copy);
            limitsHit = Set.copyOf(limitsHit);
            requireNonNull(error, "error is null");
        }

        /** A result with at most {@code previewRows} of its rows. */
        public static ExecutedQuery of(String tool, ToolResult result, int previewRows) {
            List<List<Object>> rows = result.rows().subList(0, Math.min(previewRows, result.rows().size()));
            return new ExecutedQuery(tool, result.source(), result.status(), result.sql(), result.columns(), rows,
                    result.returnedCount(), result.truncated(), result.limitsHit(), result.error());
        }
    }

    /** Pretty-printed JSON (the {@code ask} command's default output). */
    public String toJson() {
        return ResponseFormat.json(this);
    }

    /** A readable rendering for a terminal ({@code --format text}). */
    public String toText() {
        return ResponseFormat.text(this);
    }
}
