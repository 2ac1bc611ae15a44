package dev.sqlguard.postgresql.internal;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.JDBCType;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.ResultColumn;
import dev.sqlguard.domain.port.ResultCursor;

/**
 * One streaming query. The query is "live" on the server until {@link ResultSet#next()} has
 * returned false; while it is live, a cancel, the deadline or an early close sends
 * {@code pg_cancel_backend(pid)} over a control connection, under the cursor's lock, and the
 * connection is then evicted from the pool so that a late signal can never reach a later query.
 */
final class PostgresCursor implements ResultCursor {
    private static final Logger LOG = Logger.getLogger(PostgresCursor.class.getName());

    private final Connection connection;
    private final PreparedStatement statement;
    private final int pid;
    private final PostgresExecutor executor;
    private final long deadline;
    private final QueryPlan plan;
    private final Object lock = new Object();

    private ResultSet rs;
    private List<ResultColumn> columns;
    private int[] types;
    private ScheduledFuture<?> timer;
    private boolean live;
    private boolean signalled;
    private boolean closed;
    private volatile boolean cancelled;
    private volatile boolean timedOut;

    PostgresCursor(Connection connection, PreparedStatement statement, int pid, PostgresExecutor executor, long deadline, QueryPlan plan) {
        this.connection = connection;
        this.statement = statement;
        this.pid = pid;
        this.executor = executor;
        this.deadline = deadline;
        this.plan = plan;
    }

    /** Starts the query; the watchdog stops it at the deadline if it is still live. */
    void start(ScheduledExecutorService watchdog) {
        synchronized (lock) {
            live = true;
        }
        long delay = Math.max(0, deadline - System.nanoTime());
        timer = watchdog.schedule(this::onDeadline, delay, TimeUnit.NANOSECONDS);
        try {
            rs = statement.executeQuery();
            describe(rs.getMetaData());
        } catch (SQLException | RuntimeException e) {
            GuardException mapped = failure(e);
            close();
            throw mapped;
        }
    }

    private void describe(ResultSetMetaData md) throws SQLException {
        int n = md.getColumnCount();
        if (n != plan.outputs().size()) {
            throw new GuardException(ErrorCode.INTERNAL_ERROR, "The result columns do not match the checked plan.");
        }
        List<ResultColumn> out = new ArrayList<>(n);
        types = new int[n];
        for (int i = 1; i <= n; i++) {
            String label = md.getColumnLabel(i);
            if (!plan.outputs().get(i - 1).name().equals(label)) {
                throw new GuardException(ErrorCode.INTERNAL_ERROR, "The result columns do not match the checked plan.");
            }
            // pgjdbc reports timestamptz as TIMESTAMP: tell them apart by the server's type name
            types[i - 1] = "timestamptz".equals(md.getColumnTypeName(i)) ? Types.TIMESTAMP_WITH_TIMEZONE : md.getColumnType(i);
            out.add(new ResultColumn(label, typeName(types[i - 1])));
        }
        columns = List.copyOf(out);
    }

    private static String typeName(int type) {
        try {
            return JDBCType.valueOf(type).getName();
        } catch (IllegalArgumentException e) {
            return "OTHER";
        }
    }

    @Override
    public List<ResultColumn> columns() {
        return columns;
    }

    @Override
    public boolean next() {
        if (cancelled) {
            throw new GuardException(ErrorCode.CANCELLED);
        }
        if (timedOut || System.nanoTime() - deadline > 0) {
            onDeadline();
            throw new GuardException(ErrorCode.EXCEEDED_TIME_LIMIT);
        }
        synchronized (lock) {
            if (closed) {
                throw new GuardException(ErrorCode.CANCELLED, "The result is closed.");
            }
        }
        try {
            boolean more = rs.next();
            if (!more) {
                synchronized (lock) {
                    live = false;
                }
            }
            return more;
        } catch (SQLException | RuntimeException e) {
            throw failure(e);
        }
    }

    @Override
    public Object get(int index) {
        try {
            int column = index + 1;
            return switch (types[index]) {
                case Types.DATE -> rs.getObject(column, LocalDate.class);
                case Types.TIME -> rs.getObject(column, LocalTime.class);
                case Types.TIMESTAMP -> rs.getObject(column, LocalDateTime.class);
                case Types.TIMESTAMP_WITH_TIMEZONE -> rs.getObject(column, OffsetDateTime.class);
                case Types.DECIMAL, Types.NUMERIC -> rs.getBigDecimal(column);
                case Types.ARRAY, Types.STRUCT, Types.OTHER, Types.SQLXML, Types.BLOB, Types.CLOB -> rs.getString(column);
                default -> plain(rs.getObject(column));
            };
        } catch (SQLException | RuntimeException e) {
            throw failure(e);
        }
    }

    private static Object plain(Object value) {
        if (value instanceof java.sql.Timestamp t) {
            return t.toLocalDateTime();
        }
        if (value instanceof java.sql.Date d) {
            return d.toLocalDate();
        }
        if (value instanceof java.sql.Time t) {
            return t.toLocalTime();
        }
        if (value instanceof Float f) {
            return new BigDecimal(f.toString()).doubleValue();
        }
        if (value instanceof org.postgresql.util.PGobject o) {
            return o.getValue();
        }
        return value;
    }

    @Override
    public void cancel() {
        cancelled = true;
        stopIfLive();
    }

    private void onDeadline() {
        timedOut = true;
        stopIfLive();
    }

    private void stopIfLive() {
        synchronized (lock) {
            if (!live || closed) {
                return;
            }
            signalled = true;
            if (executor.cancel(pid)) {
                live = false;
            }
        }
    }

    private GuardException failure(Exception e) {
        if (e instanceof GuardException g) {
            return g;
        }
        if (timedOut) {
            return new GuardException(ErrorCode.EXCEEDED_TIME_LIMIT, ErrorCode.EXCEEDED_TIME_LIMIT.defaultMessage(), e);
        }
        if (cancelled) {
            return new GuardException(ErrorCode.CANCELLED, ErrorCode.CANCELLED.defaultMessage(), e);
        }
        if (e instanceof SQLException s) {
            LOG.log(Level.FINE, "query failed", s);
            return SqlErrors.map(s);
        }
        LOG.log(Level.FINE, "query failed", e);
        return new GuardException(ErrorCode.INTERNAL_ERROR, ErrorCode.INTERNAL_ERROR.defaultMessage(), e);
    }

    @Override
    public void close() {
        stopIfLive();
        boolean evict;
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            evict = signalled;
        }
        if (timer != null) {
            timer.cancel(false);
        }
        PostgresExecutor.closeQuietly(rs);
        PostgresExecutor.closeQuietly(statement);
        executor.release(connection, evict);
    }
}
