package dev.sqlguard.jdbc;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.sqlguard.domain.CallDeadline;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

/**
 * The connection an execution port runs one call on: from its pool, or a new one to the server;
 * and the call's one deadline ({@link CallDeadline}) for every JDBC wait of the call. Each helper
 * takes the statement's own time limit, which applies only when no call runs on this thread (an
 * engine used without the use case, in a test): a call's deadline is never extended.
 */
public final class CallConnection {
    private static final Logger LOG = LoggerFactory.getLogger(CallConnection.class);

    /** Gives a connection: a pool's {@code getConnection}, or a driver's {@code connect}. */
    @FunctionalInterface
    public interface Opener {
        Connection open() throws SQLException;
    }

    /**
     * Gives a connection within {@code timeoutMillis}: a pool's checkout with that timeout (HikariCP's
     * {@code HikariPool.getConnection(long)}), or a connect whose login timeout it sets.
     */
    @FunctionalInterface
    public interface TimedOpener {
        Connection open(long timeoutMillis) throws SQLException;
    }

    private CallConnection() {
    }

    /**
     * The connection {@code opener} gives, or {@code ENGINE_UNAVAILABLE} with its default message (a
     * model may retry) when it gives none: no pooled connection was free in time, or the server
     * could not be reached. The driver's error stays the cause, for the logs, never the message.
     */
    public static Connection open(Opener opener) {
        try {
            return opener.open();
        } catch (SQLException e) {
            LOG.debug("no connection for a call", e);
            throw new GuardException(ErrorCode.ENGINE_UNAVAILABLE, ErrorCode.ENGINE_UNAVAILABLE.defaultMessage(), e);
        }
    }

    /**
     * {@link #open(Opener)} with the checkout bounded by the time the call has left (a pool's fixed
     * checkout timeout once let a 1 s call wait 5 s for a frozen server). A checkout that fails is
     * {@code ENGINE_UNAVAILABLE} (retryable), whatever the time; a call whose time is already up
     * before the checkout is {@code EXCEEDED_TIME_LIMIT}.
     */
    public static Connection open(TimedOpener opener, Duration limit) {
        requireNonNull(opener, "opener is null");
        long remaining = remainingMillis(limit);
        if (remaining <= 0) {
            throw new GuardException(ErrorCode.EXCEEDED_TIME_LIMIT, JdbcCursor.TIMED_OUT);
        }
        return open(() -> opener.open(remaining));
    }

    /** The deadline, as a {@link System#nanoTime()} value, of a statement with time limit {@code limit} on this thread. */
    public static long deadlineNanos(Duration limit) {
        return CallDeadline.deadlineNanosFor(requireNonNull(limit, "limit is null"));
    }

    /** Milliseconds left for a statement with time limit {@code limit} on this thread, never negative. */
    public static long remainingMillis(Duration limit) {
        return Math.max(0, (deadlineNanos(limit) - System.nanoTime()) / 1_000_000);
    }

    /**
     * Bounds every read on {@code connection} by the time left ({@code Connection.setNetworkTimeout}),
     * for a round trip that no watchdog stops (a session check, an {@code EXPLAIN}, a catalog read):
     * a server that stops answering then fails the read at the deadline instead of the driver's own
     * socket timeout. A pool resets the timeout when the connection comes back.
     *
     * @throws GuardException EXCEEDED_TIME_LIMIT when no time is left
     */
    public static void bound(Connection connection, Duration limit) throws SQLException {
        bound(connection, limit, Long.MAX_VALUE);
    }

    /**
     * {@link #bound(Connection, Duration)}, at most {@code capMillis}: for a driver that retries a
     * failed request until its network timeout (Trino's client), so that a server that is down is
     * reported as such while the call still has time, instead of as the call's timeout.
     */
    public static void bound(Connection connection, Duration limit, long capMillis) throws SQLException {
        long remaining = Math.min(capMillis, remainingMillis(limit));
        if (remaining <= 0) {
            throw new GuardException(ErrorCode.EXCEEDED_TIME_LIMIT, JdbcCursor.TIMED_OUT);
        }
        connection.setNetworkTimeout(Runnable::run, (int) Math.min(Integer.MAX_VALUE, Math.max(1, remaining)));
    }

    /**
     * Closes the connection's socket at once ({@code Connection.abort}), unblocking a thread that
     * waits on the server, as a {@link JdbcCursor.StopPath#abortAfter} abort does; a failure is
     * logged, never thrown. A pool then evicts the connection.
     */
    public static void abort(Connection connection) {
        try {
            connection.abort(Runnable::run);
        } catch (SQLException | RuntimeException e) {
            LOG.debug("abort failed", e);
        }
    }
}
