package dev.sqlguard.domain.port;

import java.util.function.Consumer;

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

    /**
     * {@link #execute(QueryPlan)}, handing the cursor to {@code created} as soon as it exists, before
     * the engine returns the first rows (an aggregate can run for its whole time before that), so
     * that {@link ResultCursor#cancel()} can stop a statement that is still starting. The default
     * hands the cursor over once it has started.
     */
    default ResultCursor execute(QueryPlan plan, Consumer<ResultCursor> created) {
        ResultCursor cursor = execute(plan);
        created.accept(cursor);
        return cursor;
    }
}
