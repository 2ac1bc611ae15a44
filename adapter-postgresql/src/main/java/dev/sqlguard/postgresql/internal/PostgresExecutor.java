package dev.sqlguard.postgresql.internal;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

import com.zaxxer.hikari.HikariDataSource;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.OutputColumn;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.port.ExecutionPort;
import dev.sqlguard.domain.port.ResultCursor;
import dev.sqlguard.jdbc.CallConnection;
import dev.sqlguard.jdbc.JdbcCursor;
import dev.sqlguard.jdbc.JdbcParameters;

/**
 * Runs rendered plans on pinned, server-side read-only connections. Each query runs in its own
 * read-only transaction (the pool's connections are not in autocommit, so pgjdbc streams rows with a
 * fetch size instead of reading the whole result); before the query, the same transaction reads the
 * session back from the server ({@link SessionPin#verify}) and runs nothing when it is not the pinned
 * one. The kit's {@link JdbcCursor} streams the rows; a query that is cut, cancelled or times out is
 * stopped with {@code pg_cancel_backend} from a control connection, sent again while the caller still
 * waits (the server drops a cancel that arrives before the backend runs the statement), a query
 * whose server stays silent {@link #GRACE} after that has its connection aborted, and a connection
 * that was stopped is evicted from the pool, so that a late signal can never reach a later query.
 * Thread-safe.
 */
public final class PostgresExecutor implements ExecutionPort {
    private static final Logger LOG = Logger.getLogger(PostgresExecutor.class.getName());
    /** Rows fetched per round trip. */
    static final int FETCH_SIZE = 256;
    /** How long a {@code pg_cancel_backend}, and the wait for a cancelled query to return, may take. */
    public static final Duration GRACE = Duration.ofMillis(500);
    /** The date and time classes pgjdbc binds with {@code setObject}: the local ones and OffsetDateTime. */
    private static final Set<Class<?>> TEMPORALS = Set.of(LocalDate.class, LocalTime.class, LocalDateTime.class, OffsetDateTime.class);

    private final HikariDataSource queries;
    private final HikariDataSource control;
    private final SessionPin pin;
    private final ScheduledExecutorService watchdog;
    private final AtomicLong cancelsSent = new AtomicLong();

    /**
     * @param control pinned connections for {@code pg_cancel_backend}, never used by queries
     * @param watchdog runs each query's deadline and the abort of a silent server; the stop it sends
     *     can block for up to {@link #GRACE}, so give it more than one thread
     */
    public PostgresExecutor(HikariDataSource queries, HikariDataSource control, SessionPin pin, ScheduledExecutorService watchdog) {
        this.queries = requireNonNull(queries, "queries is null");
        this.control = requireNonNull(control, "control is null");
        this.pin = requireNonNull(pin, "pin is null");
        this.watchdog = requireNonNull(watchdog, "watchdog is null");
    }

    @Override
    public ResultCursor execute(QueryPlan plan) {
        long deadline = System.nanoTime() + plan.limits().timeout().toNanos();
        Connection connection = CallConnection.open(queries::getConnection);
        PreparedStatement statement = null;
        boolean handedOver = false;
        try {
            if (connection.getAutoCommit()) {
                throw new GuardException(ErrorCode.READ_ONLY_NOT_ENFORCED, "The database connection is not in a transaction, so no query was run.");
            }
            int pid = pin.verify(connection);
            statement = connection.prepareStatement(plan.executableSql(), ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
            statement.setFetchSize(FETCH_SIZE);
            JdbcParameters.bind(statement, plan.parameters(), java.sql.Types.OTHER, TEMPORALS);
            JdbcCursor cursor = JdbcCursor.over(connection, statement)
                    .deadline(deadline, watchdog)
                    .stopper(() -> {
                        if (!cancel(pid)) {
                            throw new SQLException("pg_cancel_backend was not taken");
                        }
                    })
                    .abortAfter(GRACE, PostgresExecutor::abort)
                    .repeatStop() // a cancel that lands before the backend runs the statement is dropped
                    .types(PostgresValues.TYPES)
                    .values(PostgresValues.READER)
                    .columns(PostgresValues.DESCRIBER)
                    .expectLabels(plan.outputs().stream().map(OutputColumn::name).toList())
                    .errors(SqlErrors::map)
                    .release(this::release)
                    .build();
            handedOver = true; // from here the cursor releases the connection
            cursor.start();
            return cursor;
        } catch (GuardException e) {
            if (!handedOver) {
                JdbcCursor.closeQuietly(statement);
                release(connection, false);
            }
            throw e;
        } catch (SQLException e) {
            LOG.log(Level.FINE, "query failed to start", e);
            JdbcCursor.closeQuietly(statement);
            release(connection, false);
            throw SqlErrors.map(e);
        }
    }

    /** How many {@code pg_cancel_backend} calls the server accepted for this source (a metric, and proof in tests). */
    public long cancelsSent() {
        return cancelsSent.get();
    }

    /**
     * Stops whatever backend {@code pid} runs, from a control connection, waiting at most
     * {@link #GRACE} for the server's answer; true when the server accepted the signal.
     */
    boolean cancel(int pid) {
        try (Connection c = control.getConnection()) {
            c.setNetworkTimeout(Runnable::run, (int) GRACE.toMillis());
            try (PreparedStatement ps = c.prepareStatement("SELECT pg_catalog.pg_cancel_backend(?)")) {
                ps.setInt(1, pid);
                try (ResultSet rs = ps.executeQuery()) {
                    boolean sent = rs.next() && rs.getBoolean(1);
                    if (sent) {
                        cancelsSent.incrementAndGet();
                    }
                    return sent;
                }
            } finally {
                c.rollback();
            }
        } catch (SQLException e) {
            LOG.log(Level.WARNING, "could not cancel a running query (SQLSTATE " + e.getSQLState() + ")");
            return false;
        }
    }

    /** Closes the connection's socket at once, unblocking a thread reading from it; the release then evicts it. */
    private static void abort(Connection connection) {
        try {
            connection.abort(Runnable::run);
        } catch (SQLException | RuntimeException e) {
            LOG.log(Level.FINE, "abort failed", e);
        }
    }

    /** Ends the transaction and returns the connection; one that was stopped is evicted, so no late cancel can reach the next query. */
    void release(Connection connection, boolean stopped) {
        boolean evict = stopped;
        try {
            connection.rollback();
        } catch (SQLException e) {
            LOG.log(Level.FINE, "rollback failed", e);
            evict = true;
        }
        if (evict) {
            queries.evictConnection(connection);
        } else {
            JdbcCursor.closeQuietly(connection);
        }
    }
}
