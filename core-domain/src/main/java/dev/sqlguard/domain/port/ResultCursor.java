package dev.sqlguard.domain.port;

import java.util.List;

import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.ResultColumn;

/**
 * A forward-only stream of rows from a running query. The caller reads as many rows as it needs,
 * then closes the cursor; an engine must stop the query on the server when a cursor is closed
 * before its end or cancelled, never drain it.
 *
 * <p>Values are plain Java objects: {@code null}, {@link Boolean}, {@link Number} subclasses,
 * {@link String}, {@code java.time} types, {@code byte[]}, {@link java.util.UUID}, {@link List} or
 * {@link java.util.Map} for nested values, or anything else whose {@code toString} is meaningful.
 * The domain's projector turns them into JSON-safe scalars.
 */
public interface ResultCursor extends AutoCloseable {
    /** The output columns, in order. */
    List<ResultColumn> columns();

    /**
     * Advances to the next row.
     *
     * @return false at the end of the result
     * @throws GuardException when the query fails, times out or was cancelled
     */
    boolean next();

    /** The value of column {@code index} (0-based) of the current row. */
    Object get(int index);

    /** Stops the query from any thread; a blocked or later {@link #next()} then throws {@link GuardException}. */
    void cancel();

    /** Stops the query if it is still running and releases every resource. Never throws. */
    @Override
    void close();
}
