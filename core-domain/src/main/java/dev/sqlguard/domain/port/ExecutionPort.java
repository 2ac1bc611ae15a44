package dev.sqlguard.domain.port;

import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.QueryPlan;

/**
 * Runs validated plans on an engine, read-only. Implementations enforce the plan's limits with
 * the engine's own mechanisms (time, memory, threads) and hand rows back as a {@link ResultCursor};
 * they never materialize a whole result.
 */
public interface ExecutionPort {
    /**
     * Starts {@code plan} and returns a cursor over its rows. The plan's timeout counts from the
     * moment this method is called and keeps counting while the caller reads the cursor.
     *
     * @throws GuardException with a safe message when the query cannot start
     */
    ResultCursor execute(QueryPlan plan);
}
