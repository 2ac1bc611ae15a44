package dev.sqlguard.domain.port;

import java.util.function.Consumer;

import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.QueryRequest;

/**
 * Analyzes a request with a parser that agrees with the engine and turns it into a {@link QueryPlan}
 * whose facts (tables, column uses, functions, outputs, amplifying calls) the source's
 * {@link dev.sqlguard.domain.GuardrailPolicy#authorize} decides on. It never touches data. A validator
 * refuses what it cannot analyze, and may stop a call early by asking the policy's named checks
 * ({@link dev.sqlguard.domain.GuardrailPolicy#requireFunction}) before its engine sees the statement;
 * it never decides on a policy list itself.
 */
public interface StatementValidator {
    /**
     * @return the plan to execute
     * @throws GuardException with a policy or user error code when the request is refused
     */
    QueryPlan validate(QueryRequest request);

    /**
     * The two phases of a check: the validator analyzes the request and reports its facts, then
     * {@code decision} (the host's {@link dev.sqlguard.domain.GuardrailPolicy#authorize}) decides on them,
     * then the validator may cross-check the plan with its engine (an {@code EXPLAIN}) before it returns
     * it. {@code decision} runs exactly once per call. A validator whose engine reads the statement after
     * the analysis overrides this to decide before it does; by default the decision follows
     * {@link #validate(QueryRequest)}.
     *
     * @throws GuardException the first refusal: the validator's or the decision's
     */
    default QueryPlan validate(QueryRequest request, Consumer<QueryPlan> decision) {
        QueryPlan plan = validate(request);
        decision.accept(plan);
        return plan;
    }
}
