package dev.sqlguard.duckdb.internal;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.duckdb.DuckDBChunkedResult;
import org.duckdb.DuckDBPreparedStatement;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.QueryPlan;

/**
 * Finds out why a streamed query failed when the driver will not say. DuckDB JDBC 2.0.0.1 with
 * {@code jdbc_stream_results=true} turns every error raised while a result streams (out of memory,
 * a conversion, a division by zero) into "Invalid Input Error: Invalid result set", with no cause,
 * no SQLState and code 0. The same plan, run once more through the driver's chunked API
 * ({@link DuckDBPreparedStatement#query()}, DuckDB's C API), reports DuckDB's own error; that API
 * streams too (measured: 20M rows under a 20 MB limit, the process grew by 14 MB), so the re-run
 * needs no more memory than the failed run.
 *
 * <p>The re-run is a diagnosis, never an answer: it runs on a fresh connection of the same locked
 * instance (same settings, same memory limit), within what is left of the call's deadline, under
 * the spill guard, and its rows are read by chunk and dropped. Its own error, mapped as any DuckDB
 * error, replaces the opaque one. When it cannot tell (it succeeds, because the memory another
 * query held is free now; it reaches the deadline; it fails opaquely again), the call keeps the
 * original failure. A cancel during the re-run ends the call as {@code CANCELLED}.
 */
final class StreamedFailure implements SpillGuard.Query {
    private static final Logger LOG = LoggerFactory.getLogger(StreamedFailure.class);

    private final Object lock = new Object();
    /** Guarded by {@link #lock}: the statement of the re-run while it runs. */
    private DuckDBPreparedStatement statement;
    /** Guarded by {@link #lock}: why the re-run was stopped, the first reason only. */
    private GuardException stopped;

    /**
     * Re-runs {@code plan} and returns the error to report for it.
     *
     * @param original the error the opaque failure mapped to; returned when the re-run cannot tell
     * @param deadlineNanos the call's deadline ({@link System#nanoTime()})
     */
    GuardException diagnose(QueryPlan plan, GuardException original, long deadlineNanos, FreshConnections connections,
                            ScheduledExecutorService watchdog, Optional<SpillGuard> spill) {
        long remaining = deadlineNanos - System.nanoTime();
        if (remaining <= 0 || stopReason() != null) {
            return outcome(original);
        }
        Connection connection;
        try {
            connection = connections.take();
            connections.prepared(connection, null); // the re-run prepares its own; one prepared ahead is closed
        } catch (GuardException e) {
            return original; // the source is closing: nothing to learn
        }
        ScheduledFuture<?> timer = null;
        spill.ifPresent(guard -> guard.started(this));
        try {
            DuckDBPreparedStatement prepared = (DuckDBPreparedStatement) connection.prepareStatement(plan.executableSql());
            try {
                DuckDbExecution.bind(prepared, plan.values());
                synchronized (lock) {
                    if (stopped != null) {
                        return outcome(original);
                    }
                    statement = prepared;
                }
                timer = watchdog.schedule(() -> stop(new GuardException(ErrorCode.EXCEEDED_TIME_LIMIT)), remaining,
                        TimeUnit.NANOSECONDS);
                try (DuckDBChunkedResult result = prepared.query()) {
                    while (stopReason() == null && result.nextChunk()) {
                        // rows are not the answer: only how the run ends is
                    }
                }
                return outcome(original); // it ran to its end (or was stopped): no better reason than the original
            } finally {
                synchronized (lock) {
                    statement = null;
                }
                DuckDbInstance.closeQuietly(prepared);
            }
        } catch (SQLException e) {
            if (stopReason() != null || ErrorMapper.isOpaque(e)) {
                return outcome(original);
            }
            GuardException diagnosed = ErrorMapper.map(e);
            LOG.atDebug().log(() -> "a streamed query's opaque failure was " + diagnosed.code() + " when run again");
            return diagnosed;
        } catch (RuntimeException e) {
            LOG.debug("the re-run of a failed streamed query failed", e);
            return outcome(original);
        } finally {
            if (timer != null) {
                timer.cancel(false);
            }
            spill.ifPresent(guard -> guard.ended(this));
            connections.retire(connection);
        }
    }

    /** Stops the re-run (a cancel, the deadline, the spill bound). Safe from any thread. */
    @Override
    public void stop(GuardException reason) {
        synchronized (lock) {
            if (stopped == null) {
                stopped = reason;
            }
            if (statement != null) {
                try {
                    statement.cancel();
                } catch (SQLException | RuntimeException e) {
                    LOG.debug("could not stop the re-run of a failed query", e);
                }
            }
        }
    }

    private GuardException stopReason() {
        synchronized (lock) {
            return stopped;
        }
    }

    /** A cancel wins; anything else that cut the re-run short leaves the original failure. */
    private GuardException outcome(GuardException original) {
        GuardException reason = stopReason();
        if (reason != null && reason.code() == ErrorCode.CANCELLED) {
            return new GuardException(ErrorCode.CANCELLED, "The query was stopped.");
        }
        return original;
    }

}
