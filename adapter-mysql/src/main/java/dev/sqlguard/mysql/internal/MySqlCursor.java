package dev.sqlguard.mysql.internal;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.JDBCType;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
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
 * One streaming query. The query stays "live" on the server until {@link ResultSet#next()} has
 * returned false; while it is live, a cancel, the deadline or an early close sends
 * {@code KILL QUERY <id>} over a control connection, under the cursor's lock so that the id can
 * never belong to a later query on a reused connection.
 */
final class MySqlCursor implements ResultCursor {
    private static final Logger LOG = Logger.getLogger(MySqlCursor.class.getName());

    private final Connection connection;
    private final PreparedStatement statement;
    private final long connectionId;
    private final MySqlExecutor owner;
    private final long deadline;
    private final QueryPlan plan;
    private final Object lock = new Object();

    private ResultSet rs;
    private List<ResultColumn> columns;
    private int[] types;
    private ScheduledFuture<?> timer;
    private boolean live;
    private boolean closed;
    private volatile boolean cancelled;
    private volatile boolean timedOut;
    /** A kill was attempted or the connection aborted: the statement may still be unwinding on the server. */
    private volatile boolean stopped;
    /** The caller's thread is inside the driver, waiting for the server. */
    private volatile boolean inServerCall;
    private ScheduledExecutorService watchdog;

    MySqlCursor(Connection connection, PreparedStatement statement, long connectionId, MySqlExecutor owner,
                long deadline, QueryPlan plan) {
        this.connection = connection;
        this.statement = statement;
        this.connectionId = connectionId;
        this.owner = owner;
        this.deadline = deadline;
        this.plan = plan;
    }

    /** Starts the query; the watchdog kills it at the deadline if it is still live. */
    void start(ScheduledExecutorService watchdog) throws SQLException {
        this.watchdog = watchdog;
        synchronized (lock) {
            live = true;
        }
        long delay = Math.max(0, deadline - System.nanoTime());
        timer = watchdog.schedule(this::onDeadline, delay, TimeUnit.NANOSECONDS);
        try {
            inServerCall = true;
            try {
                rs = statement.executeQuery();
            } finally {
                inServerCall = false;
            }
            if (pastDeadline()) {
                throw new GuardException(ErrorCode.EXCEEDED_TIME_LIMIT);
            }
            describe(rs.getMetaData());
        } catch (SQLException | RuntimeException e) {
            GuardException mapped = failure(e);
            if (e instanceof SQLException) {
                synchronized (lock) {
                    live = false; // the server ended the statement itself: nothing to kill
                }
            }
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
            types[i - 1] = md.getColumnType(i);
            out.add(new ResultColumn(label, typeName(md.getColumnType(i))));
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
            boolean more;
            inServerCall = true;
            try {
                more = rs.next();
            } finally {
                inServerCall = false;
            }
            if (pastDeadline()) {
                // a server that answered late (or a row that arrived past the deadline) is never an OK result
                onDeadline();
                throw new GuardException(ErrorCode.EXCEEDED_TIME_LIMIT);
            }
            if (!more) {
                synchronized (lock) {
                    live = false;
                }
                refuseIncomplete();
            }
            return more;
        } catch (SQLException | RuntimeException e) {
            throw failure(e);
        }
    }

    /** MariaDB ends a recursive CTE at max_recursive_iterations with only a warning: an incomplete result is refused. */
    private void refuseIncomplete() throws SQLException {
        for (SQLWarning w = statement.getWarnings(); w != null; w = w.getNextWarning()) {
            if (w.getErrorCode() == 1931) {
                throw new GuardException(ErrorCode.QUERY_FAILED, SqlErrors.RECURSION_MESSAGE);
            }
        }
    }

    @Override
    public Object get(int index) {
        try {
            int column = index + 1;
            return switch (types[index]) {
                case Types.DATE -> rs.getObject(column, LocalDate.class);
                case Types.TIME, Types.TIME_WITH_TIMEZONE -> rs.getObject(column, LocalTime.class);
                case Types.TIMESTAMP, Types.TIMESTAMP_WITH_TIMEZONE -> rs.getObject(column, LocalDateTime.class);
                case Types.DECIMAL, Types.NUMERIC -> rs.getBigDecimal(column);
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
        return value;
    }

    @Override
    public void cancel() {
        cancelled = true;
        killIfLive();
    }

    private boolean pastDeadline() {
        return System.nanoTime() - deadline >= 0;
    }

    /**
     * At the deadline: kill the query; if the kill cannot be sent in time, or the caller's thread is
     * still waiting for the server a grace period later (a hung server), abort the connection, which
     * closes its socket and unblocks that thread.
     */
    private void onDeadline() {
        timedOut = true;
        boolean sent = killIfLive();
        if (!sent && inServerCall) {
            abortConnection();
        } else if (inServerCall && watchdog != null) {
            try {
                watchdog.schedule(() -> {
                    if (inServerCall) {
                        abortConnection();
                    }
                }, MySqlExecutor.GRACE_MILLIS, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                abortConnection();
            }
        }
    }

    private void abortConnection() {
        stopped = true;
        owner.abort(connection);
    }

    /** Kills the statement if it is live; true if the server took the kill (or nothing needed killing). */
    private boolean killIfLive() {
        synchronized (lock) {
            if (!live || closed) {
                return true;
            }
            stopped = true;
            boolean sent = owner.kill(connectionId);
            if (sent) {
                live = false;
            } else {
                LOG.log(Level.WARNING, "could not kill a running query in time; its connection is aborted");
            }
            return sent;
        }
    }

    private GuardException failure(Exception e) {
        if (e instanceof GuardException g) {
            return g;
        }
        if (timedOut || pastDeadline()) {
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
        boolean sent = killIfLive();
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
        }
        if (timer != null) {
            timer.cancel(false);
        }
        if (!sent) {
            abortConnection(); // closing the result would drain a query that was not killed
        } else if (stopped) {
            try {
                connection.setNetworkTimeout(Runnable::run, (int) MySqlExecutor.GRACE_MILLIS); // bound the wait for the killed statement's end
            } catch (SQLException | RuntimeException e) {
                abortConnection();
            }
        }
        MySqlExecutor.closeQuietly(rs);
        MySqlExecutor.closeQuietly(statement);
        MySqlExecutor.closeQuietly(connection);
        owner.finished(connectionId, stopped);
    }
}
