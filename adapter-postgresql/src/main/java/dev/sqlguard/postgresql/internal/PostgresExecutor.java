package dev.sqlguard.postgresql.internal;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

import com.zaxxer.hikari.HikariDataSource;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.port.ExecutionPort;
import dev.sqlguard.domain.port.ResultCursor;

/**
 * Runs rendered plans on pinned, server-side read-only connections. Each query runs in its own
 * read-only transaction (the pool's connections are not in autocommit, so pgjdbc streams rows with a
 * fetch size instead of reading the whole result); before the query, the same transaction reads the
 * session back from the server ({@link SessionPin#verify}) and runs nothing when it is not the pinned
 * one. A query that is cut, cancelled or times out is stopped with {@code pg_cancel_backend} from a
 * control connection, and its connection is evicted from the pool. Thread-safe.
 */
public final class PostgresExecutor implements ExecutionPort {
    private static final Logger LOG = Logger.getLogger(PostgresExecutor.class.getName());
    /** Rows fetched per round trip. */
    static final int FETCH_SIZE = 256;

    private final HikariDataSource queries;
    private final HikariDataSource control;
    private final SessionPin pin;
    private final ScheduledExecutorService watchdog;
    private final AtomicLong cancelsSent = new AtomicLong();

    public PostgresExecutor(HikariDataSource queries, HikariDataSource control, SessionPin pin, ScheduledExecutorService watchdog) {
        this.queries = requireNonNull(queries, "queries is null");
        this.control = requireNonNull(control, "control is null");
        this.pin = requireNonNull(pin, "pin is null");
        this.watchdog = requireNonNull(watchdog, "watchdog is null");
    }

    @Override
    public ResultCursor execute(QueryPlan plan) {
        long deadline = System.nanoTime() + plan.limits().timeout().toNanos();
        Connection connection;
        try {
            connection = queries.getConnection();
        } catch (SQLException e) {
            LOG.log(Level.FINE, "pool checkout failed", e);
            throw new GuardException(ErrorCode.ENGINE_UNAVAILABLE, ErrorCode.ENGINE_UNAVAILABLE.defaultMessage(), e);
        }
        PreparedStatement statement = null;
        try {
            if (connection.getAutoCommit()) {
                throw new GuardException(ErrorCode.READ_ONLY_NOT_ENFORCED, "The database connection is not in a transaction, so no query was run.");
            }
            int pid = pin.verify(connection);
            statement = connection.prepareStatement(plan.executableSql(), ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
            statement.setFetchSize(FETCH_SIZE);
            bind(statement, plan.parameters());
            PostgresCursor cursor = new PostgresCursor(connection, statement, pid, this, deadline, plan);
            cursor.start(watchdog);
            return cursor;
        } catch (GuardException e) {
            closeQuietly(statement);
            release(connection, false);
            throw e;
        } catch (SQLException e) {
            LOG.log(Level.FINE, "query failed to start", e);
            closeQuietly(statement);
            release(connection, false);
            throw SqlErrors.map(e);
        }
    }

    /** How many {@code pg_cancel_backend} calls the server accepted for this source (a metric, and proof in tests). */
    public long cancelsSent() {
        return cancelsSent.get();
    }

    /** Stops whatever backend {@code pid} runs, from a control connection; true when the server accepted the signal. */
    boolean cancel(int pid) {
        try (Connection c = control.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT pg_catalog.pg_cancel_backend(?)")) {
            ps.setInt(1, pid);
            try (ResultSet rs = ps.executeQuery()) {
                boolean sent = rs.next() && rs.getBoolean(1);
                if (sent) {
                    cancelsSent.incrementAndGet();
                }
                return sent;
            } finally {
                c.rollback();
            }
        } catch (SQLException e) {
            LOG.log(Level.WARNING, "could not cancel a running query (SQLSTATE " + e.getSQLState() + ")");
            return false;
        }
    }

    /** Ends the transaction and returns the connection; one that was signalled is evicted, so no late cancel can reach the next query. */
    void release(Connection connection, boolean signalled) {
        try {
            connection.rollback();
        } catch (SQLException e) {
            LOG.log(Level.FINE, "rollback failed", e);
            signalled = true;
        }
        if (signalled) {
            queries.evictConnection(connection);
        } else {
            closeQuietly(connection);
        }
    }

    private static void bind(PreparedStatement statement, List<Object> parameters) throws SQLException {
        for (int i = 0; i < parameters.size(); i++) {
            Object v = parameters.get(i);
            int index = i + 1;
            if (v == null) {
                statement.setNull(index, java.sql.Types.OTHER);
            } else if (v instanceof String s) {
                statement.setString(index, s);
            } else if (v instanceof Boolean b) {
                statement.setBoolean(index, b);
            } else if (v instanceof Integer n) {
                statement.setInt(index, n);
            } else if (v instanceof Long l) {
                statement.setLong(index, l);
            } else if (v instanceof BigInteger b) {
                statement.setBigDecimal(index, new BigDecimal(b));
            } else if (v instanceof BigDecimal b) {
                statement.setBigDecimal(index, b);
            } else if (v instanceof Double d) {
                statement.setDouble(index, d);
            } else if (v instanceof LocalDate || v instanceof LocalTime || v instanceof LocalDateTime || v instanceof OffsetDateTime) {
                statement.setObject(index, v);
            } else {
                throw new GuardException(ErrorCode.UNSUPPORTED_PARAMETER, "Parameter " + index + " has an unsupported type.");
            }
        }
    }

    static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            LOG.log(Level.FINE, "close failed", e);
        }
    }
}
