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
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.postgresql.PGConnection;

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
    private static final Logger LOG = LoggerFactory.getLogger(PostgresExecutor.class);
    /** Rows fetched per round trip when a result streams. */
    static final int FETCH_SIZE = 256;
    /**
     * The largest row cap (the rendered SQL's {@code LIMIT}, the row limit + 1) whose result is read
     * in one round trip instead of streamed. PostgreSQL runs no parallel plan for a statement
     * executed with a row limit per fetch, which streaming needs; under this cap the rows are
     * bounded by the SQL itself, and their bytes by the driver's {@code maxResultBuffer}.
     */
    static final int WHOLE_RESULT_ROWS = 10_000;
    /** How long a {@code pg_cancel_backend}, and the wait for a cancelled query to return, may take. */
    public static final Duration GRACE = Duration.ofMillis(500);
    /** The classes pgjdbc binds with {@code setObject}: the local date and time ones, OffsetDateTime, and UUID (as {@code uuid}). */
    private static final Set<Class<?>> TEMPORALS = Set.of(LocalDate.class, LocalTime.class, LocalDateTime.class, OffsetDateTime.class,
            java.util.UUID.class);

    private final HikariDataSource queries;
    private final HikariDataSource control;
    private final SessionPin pin;
    private final ScheduledExecutorService watchdog;
    private final Executor releaser;
    /** A random text that only this executor's session check puts in its failure. */
    private final String marker = "sqlguard-session-check-" + java.util.UUID.randomUUID().toString().replace("-", "");
    /** The session check with this executor's marker, built once; empty when the pin cannot be written as one. */
    private final Optional<SessionPin.Check> check;
    private final AtomicLong cancelsSent = new AtomicLong();
    /** Whether the session check goes in the query's round trip (the driver's backend pid is the server's). */
    private volatile boolean pipelined;

    /**
     * @param control pinned connections for {@code pg_cancel_backend}, never used by queries
     * @param watchdog runs each query's deadline and the abort of a silent server; the stop it sends
     *     can block for up to {@link #GRACE}, so give it more than one thread
     */
    public PostgresExecutor(HikariDataSource queries, HikariDataSource control, SessionPin pin, ScheduledExecutorService watchdog,
                            Executor releaser) {
        this.queries = requireNonNull(queries, "queries is null");
        this.control = requireNonNull(control, "control is null");
        this.pin = requireNonNull(pin, "pin is null");
        this.watchdog = requireNonNull(watchdog, "watchdog is null");
        this.releaser = requireNonNull(releaser, "releaser is null");
        this.check = pin.checkFor(marker);
    }

    /**
     * Reads the session of a pooled connection back, as each query would, and decides from it
     * whether the session check can go in the query's own round trip: only when the backend that
     * answers is the one the driver names (no pooler in between), since that pid is what a stop
     * signals before the check has answered.
     */
    public void confirmSession() throws SQLException {
        try (Connection c = queries.getConnection()) {
            int pid = pin.verify(c);
            c.rollback();
            pipelined = pid == c.unwrap(PGConnection.class).getBackendPID() && check.isPresent();
        }
    }

    /** Whether the session check goes in the query's round trip (see {@link #confirmSession()}). */
    public boolean pipelined() {
        return pipelined;
    }

    @Override
    public ResultCursor execute(QueryPlan plan) {
        if (pipelined) {
            boolean[] unconfirmed = new boolean[1];
            try {
                return run(plan, unconfirmed);
            } catch (GuardException e) {
                if (!unconfirmed[0]) {
                    throw e;
                }
                // the server confirmed the session but not the backend the driver names: a pooler between
                // us and the server hands out backends of its own, so every later query reads the pid back first
                pipelined = false;
                LOG.warn("the PostgreSQL backend the driver names is not the one that answers (a connection pooler?);"
                        + " each query now reads the session back in a round trip of its own");
            }
        }
        return run(plan, null);
    }

    /**
     * Runs {@code plan} on a pinned connection. Pipelined ({@code unconfirmed} not null), the session
     * check ({@link SessionPin#check}) goes in the same round trip as the query, with the backend pid
     * the driver names, and the server runs the query only when the check passes; otherwise the
     * session is read back first ({@link SessionPin#verify}), which gives the pid.
     */
    private ResultCursor run(QueryPlan plan, boolean[] unconfirmed) {
        // the call's one deadline: the checkout, the session check and the query all draw on it
        long deadline = CallConnection.deadlineNanos(plan.limits().timeout());
        Connection connection = CallConnection.open(ms -> Checkout.within(queries, ms), plan.limits().timeout());
        PreparedStatement statement = null;
        boolean handedOver = false;
        try {
            if (connection.getAutoCommit()) {
                throw new GuardException(ErrorCode.READ_ONLY_NOT_ENFORCED, "The database connection is not in a transaction, so no query was run.");
            }
            Optional<String> checkFirst = Optional.empty();
            int pid;
            if (unconfirmed != null) {
                int named = connection.unwrap(PGConnection.class).getBackendPID();
                pid = named;
                checkFirst = check.map(c -> c.sql(named));
            } else {
                CallConnection.bound(connection, plan.limits().timeout()); // a round trip no watchdog stops
                pid = pin.verify(connection);
                // the query's reads: the deadline plus the grace, a backstop behind the watchdog's cancel and abort
                connection.setNetworkTimeout(Runnable::run,
                        (int) Math.max(1, CallConnection.remainingMillis(plan.limits().timeout()) + 2 * GRACE.toMillis()));
            }
            Optional<String> pinFirst = attributePin(plan);
            String sql;
            if (checkFirst.isPresent()) {
                // the attributes are pinned by the session check's own row: no statement of their own in the round trip
                sql = checkFirst.get() + pinFirst.map(p -> ", " + p).orElse("") + "; " + plan.executableSql();
            } else {
                sql = pinFirst.map(p -> "SELECT " + p + "; ").orElse("") + plan.executableSql();
            }
            statement = connection.prepareStatement(sql, ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
            statement.setFetchSize(fetchSize(plan));
            List<Object> values = plan.values();
            if (pinFirst.isPresent()) {
                List<Object> all = new ArrayList<>(new java.util.TreeMap<>(plan.attributes()).values());
                all.addAll(values);
                values = all;
            }
            JdbcParameters.bind(statement, values, java.sql.Types.OTHER, TEMPORALS);
            JdbcCursor.Builder cursor = JdbcCursor.over(connection, statement);
            if (checkFirst.isPresent()) {
                cursor.execution(s -> afterCheck((PreparedStatement) s, unconfirmed));
            } else if (pinFirst.isPresent()) {
                cursor.execution(s -> afterPin((PreparedStatement) s));
            }
            JdbcCursor started = cursor
                    .deadline(deadline, watchdog)
                    .stopping(JdbcCursor.StopPath.by(() -> {
                        if (!cancel(pid)) {
                            throw new SQLException("pg_cancel_backend was not taken");
                        }
                    })
                            .abortAfter(GRACE, CallConnection::abort)
                            .repeated()) // a cancel that lands before the backend runs the statement is dropped
                    .flavor(PostgresValues.FLAVOR)
                    .expectLabels(plan.outputs().stream().map(OutputColumn::name).toList())
                    .errors(SqlErrors::map)
                    .release(this::release)
                    .build();
            handedOver = true; // from here the cursor releases the connection
            started.start();
            return started;
        } catch (GuardException e) {
            if (!handedOver) {
                JdbcCursor.closeQuietly(statement);
                release(connection, false);
            }
            throw e;
        } catch (SQLException e) {
            LOG.debug("query failed to start", e);
            JdbcCursor.closeQuietly(statement);
            release(connection, false);
            throw SqlErrors.map(e);
        }
    }

    /**
     * Runs the session check and the query sent after it in one round trip, and gives the query's
     * result. When the check fails, the query did not run: the session is read back on the same
     * connection, which names what differs ({@link SessionPin#verify}); when that read finds the
     * session pinned, only the backend differed, and {@code unconfirmed} says so.
     */
    private ResultSet afterCheck(PreparedStatement statement, boolean[] unconfirmed) throws SQLException {
        try {
            statement.execute();
        } catch (SQLException e) {
            if (!SessionPin.isCheckFailure(e, marker)) {
                throw e;
            }
            Connection connection = statement.getConnection();
            connection.rollback();
            pin.verify(connection); // throws what is not pinned
            connection.rollback();
            unconfirmed[0] = true;
            throw new GuardException(ErrorCode.ENGINE_UNAVAILABLE, "The database session could not be confirmed, so no query was run.");
        }
        try (ResultSet check = statement.getResultSet()) {
            if (check == null || !check.next() || check.getInt(1) != 1) {
                throw new GuardException(ErrorCode.READ_ONLY_NOT_ENFORCED, "The database session could not be checked, so no query was run.");
            }
        }
        return nextResult(statement);
    }

    /** Runs the attribute pin and the query sent after it in one round trip, and gives the query's result. */
    private static ResultSet afterPin(PreparedStatement statement) throws SQLException {
        if (!statement.execute()) {
            throw new GuardException(ErrorCode.INTERNAL_ERROR, ErrorCode.INTERNAL_ERROR.defaultMessage());
        }
        return nextResult(statement);
    }

    /** The next result of a statement sent with others, closing the one before. */
    private static ResultSet nextResult(PreparedStatement statement) throws SQLException {
        if (!statement.getMoreResults()) {
            throw new GuardException(ErrorCode.INTERNAL_ERROR, ErrorCode.INTERNAL_ERROR.defaultMessage());
        }
        return statement.getResultSet();
    }

    /** The prefix of every setting the executor pins from a call's attributes: {@code sqlguard.<attribute>}. */
    public static final String ATTRIBUTE_SETTING_PREFIX = "sqlguard.";
    private static final java.util.regex.Pattern ATTRIBUTE_NAME = java.util.regex.Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    /**
     * The calls that pin the caller's attributes the plan binds ({@link QueryPlan#attributes}) as settings
     * local to the call's transaction, {@code pg_catalog.set_config('sqlguard.<name>', ?, true), ...} in the
     * attributes' name order (the select list of a statement of their own, or more columns of the session
     * check's row, before the query in the same round trip), so that a row-level security policy keyed on
     * {@code current_setting('sqlguard.<name>', true)} (the {@code postgres-rls} export) sees the same
     * caller as the row filters; the transaction's rollback ends them, so none reaches the next call on
     * the connection. Empty when the plan binds no attribute.
     */
    static Optional<String> attributePin(QueryPlan plan) {
        if (plan.attributes().isEmpty()) {
            return Optional.empty();
        }
        List<String> calls = new ArrayList<>();
        for (String name : new java.util.TreeMap<>(plan.attributes()).keySet()) {
            if (!ATTRIBUTE_NAME.matcher(name).matches()) {
                throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "An attribute's name cannot name a database setting, so no query was run.");
            }
            calls.add("pg_catalog.set_config('" + ATTRIBUTE_SETTING_PREFIX + name + "', ?, true)");
        }
        return Optional.of(String.join(", ", calls));
    }

    /**
     * Rows per round trip for {@code plan}: all at once (0) when its row cap is at most
     * {@link #WHOLE_RESULT_ROWS}, so that the server may run a parallel plan; otherwise streamed.
     */
    static int fetchSize(QueryPlan plan) {
        return plan.limits().maxRows() + 1 <= WHOLE_RESULT_ROWS ? 0 : FETCH_SIZE;
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
        // the whole stop, checkout included, within the grace: it runs under the cursor's lock, which the
        // caller's close waits for (a frozen server once held a call 2 s past its limit here)
        long until = System.nanoTime() + GRACE.toNanos();
        Connection c;
        try {
            c = Checkout.within(control, GRACE.toMillis());
        } catch (SQLException e) {
            LOG.warn("could not cancel a running query (SQLSTATE " + e.getSQLState() + ")");
            return false;
        }
        try {
            c.setNetworkTimeout(Runnable::run, (int) Math.max(1, (until - System.nanoTime()) / 1_000_000));
            boolean sent;
            try (PreparedStatement ps = c.prepareStatement("SELECT pg_catalog.pg_cancel_backend(?)")) {
                ps.setInt(1, pid);
                try (ResultSet rs = ps.executeQuery()) {
                    sent = rs.next() && rs.getBoolean(1);
                }
            }
            c.rollback();
            c.close();
            if (sent) {
                cancelsSent.incrementAndGet();
            }
            return sent;
        } catch (SQLException e) {
            LOG.warn("could not cancel a running query (SQLSTATE " + e.getSQLState() + ")");
            CallConnection.abort(c); // a control connection that did not answer in time is not waited for again
            control.evictConnection(c);
            return false;
        }
    }

    /**
     * Ends the transaction and returns the connection, off the caller's path: the rollback's round
     * trip runs on the releaser while the call's answer is already on its way. A connection that was
     * stopped is evicted at once, so no late cancel can reach the next query.
     */
    void release(Connection connection, boolean stopped) {
        if (!stopped) {
            try {
                releaser.execute(() -> finish(connection, false));
                return;
            } catch (RejectedExecutionException e) {
                // the engine is closing: end it here
            }
        }
        finish(connection, stopped);
    }

    private void finish(Connection connection, boolean stopped) {
        boolean evict = stopped;
        try {
            connection.rollback();
        } catch (SQLException e) {
            LOG.debug("rollback failed", e);
            evict = true;
        }
        if (evict) {
            queries.evictConnection(connection);
        } else {
            JdbcCursor.closeQuietly(connection);
        }
    }
}
