package dev.sqlguard.domain.port;

import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.QueryRequest;

/**
 * Checks a request against a source's {@link dev.sqlguard.domain.GuardrailPolicy} with a parser
 * that agrees with the engine, and turns it into a {@link QueryPlan}. It never touches data.
 */
public interface StatementValidator {
    /**
     * @return the plan to execute
     * @throws GuardException with a policy or user error code when the request is refused
     */
    QueryPlan validate(QueryRequest request);
}
