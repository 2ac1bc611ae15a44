package dev.sqlguard.app.agent;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import dev.sqlguard.app.GuardedCalls;
import dev.sqlguard.app.GuardedPath;
import dev.sqlguard.app.SqlGuard;
import dev.sqlguard.app.agent.internal.AnswerNumbers;
import dev.sqlguard.app.tools.AgentSource;
import dev.sqlguard.domain.QueryRequest;

import dev.sqlguard.domain.ToolResult;

/**
 * Runs an {@link EvaluationSet} through a planner and scores each answer.
 *
 * <p>For each question the reference SQL runs on the same guarded path as the agent's queries;
 * every cell of its result (except ignored columns) is an expected value. An answer is
 * <em>correct</em> when each expected number appears in its text (as written, to the precision
 * shown: {@code 3,358.21}, {@code $5.76 million} and {@code 19.3%} all count) and each expected text
 * value appears (case-insensitively). It is <em>verified</em> when the run ANSWERED and the claim
 * verifier found no unsupported number.
 */
public final class Evaluation {
    private final AnalystPlanner planner;
    private final GuardedCalls calls;
    private final AgentSource source;

    /**
     * @param planner the planner to evaluate (its model and sources)
     * @param calls the guarded entry the reference SQL runs through
     * @param source the source the set's questions are about
     */
    public Evaluation(AnalystPlanner planner, GuardedCalls calls, AgentSource source) {
        this.planner = requireNonNull(planner, "planner is null");
        this.calls = requireNonNull(calls, "calls is null");
        this.source = requireNonNull(source, "source is null");
    }

    /**
     * An evaluation of {@code planner} whose reference SQL runs on {@code sourceId} of {@code guard},
     * through its guarded path.
     *
     * @throws dev.sqlguard.domain.GuardException {@code UNKNOWN_SOURCE}, or the engine's error when it cannot start
     */
    public static Evaluation of(SqlGuard guard, AnalystPlanner planner, String sourceId) {
        return of(guard.guardedPath(List.of(sourceId)), planner);
    }

    /** An evaluation whose reference SQL runs on the first source of {@code path}, with the path's caller attributes. */
    public static Evaluation of(GuardedPath path, AnalystPlanner planner) {
        return new Evaluation(planner, path.calls(), AgentSource.of(path).get(0));
    }

    public EvaluationReport run(EvaluationSet set) {
        List<EvaluationReport.Item> items = new ArrayList<>();
        for (EvaluationQuestion question : set.questions()) {
            items.add(score(question));
        }
        return new EvaluationReport(set.name(), source.id(), items);
    }

    public EvaluationReport.Item score(EvaluationQuestion question) {
        ToolResult reference = calls.query(source.engine(), QueryRequest.of(source.id(), question.sql())
                .withAttributes(source.attributes()));
        AnalyticalResponse response = planner.ask(question.question(), Optional.of(source.id()));
        boolean verified = response.status() == AnalyticalResponse.Status.ANSWERED && response.verification().fullyVerified();
        List<String> unsupported = response.verification().check().unsupported();
        if (reference.error().isPresent()) {
            return new EvaluationReport.Item(question.id(), question.question(), response.status(), verified, false, List.of(),
                    unsupported, response.turnsUsed(), response.toolCallsUsed(),
                    Optional.of(reference.error().get().code().name()));
        }
        List<String> missing = missing(question, reference, response);
        boolean correct = response.status() == AnalyticalResponse.Status.ANSWERED && missing.isEmpty();
        return new EvaluationReport.Item(question.id(), question.question(), response.status(), verified, correct, missing,
                unsupported, response.turnsUsed(), response.toolCallsUsed(), Optional.empty());
    }

    /** The expected values of {@code reference} that the answer does not contain. */
    static List<String> missing(EvaluationQuestion question, ToolResult reference, AnalyticalResponse response) {
        String text = response.answer() + "\n" + String.join("\n", response.keyFindings());
        List<AnswerNumbers.Written> numbers = AnswerNumbers.in(text);
        String lower = text.toLowerCase(Locale.ROOT);
        List<String> missing = new ArrayList<>();
        if (reference.rows().isEmpty()) {
            missing.add("(the reference query returned no row)");
        }
        for (List<Object> row : reference.rows()) {
            for (int c = 0; c < row.size(); c++) {
                if (question.ignoreColumns().contains(reference.columns().get(c).name().toLowerCase(Locale.ROOT))) {
                    continue;
                }
                Object cell = row.get(c);
                if (cell instanceof Number n) {
                    BigDecimal expected = new BigDecimal(n.toString());
                    if (!AnswerNumbers.contains(numbers, expected)) {
                        missing.add(expected.toPlainString());
                    }
                } else if (cell != null && !lower.contains(cell.toString().toLowerCase(Locale.ROOT))) {
                    missing.add(cell.toString());
                }
            }
        }
        return missing;
    }
}
