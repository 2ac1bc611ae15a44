package dev.sqlguard.mysql.internal;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;

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
 * Runs rendered plans on pinned, server-side read-only connections. Before every query it asks the
 * server (not the driver) whether the session is read-only, in the pinned sql_mode and under the
 * time limit, and refuses to run otherwise. Results stream ({@code fetchSize = Integer.MIN_VALUE});
 * a query that is cut, cancelled or times out is killed from a control connection before its
 * result is closed, because closing a streamed result would drain it. Every network step is bounded
 * by the call's deadline: the session check and the query's reads by the connection's network
 * timeout, the kill by the reserved {@link KillChannel}'s own bound, and a query that does not return
 * after the kill by aborting its connection. Thread-safe.
 */
public final class MySqlExecutor implements ExecutionPort {
    private static final Logger LOG = LoggerFactory.getLogger(MySqlExecutor.class);
    /** How long a kill, and the wait for a killed query to return, may take past the deadline. */
    static final long GRACE_MILLIS = 500;
    /** How long a killed query is waited for before its concurrency slot is given back anyway. */
    static final long UNWIND_CAP_MILLIS = 120_000;

    private final DataSource queries;
    private final KillChannel control;
    private final ServerFlavor flavor;
    private final ServerFlavor.Pins pins;
    private final ScheduledExecutorService watchdog;
    private final Semaphore slots;
    private final int maxConcurrent;
    private final AtomicLong killsSent = new AtomicLong();
    /** Slots held by stopped queries that the server was last seen still running (not merely flagged {@code Killed}). */
    private final java.util.concurrent.atomic.AtomicInteger stillStopping = new java.util.concurrent.atomic.AtomicInteger();
    /** Server connection ids that a running query of this source holds now (a stopped query's connection may serve a new one). */
    private final Set<Long> inUse = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final Set<String> pinnedMode;
    /** What the session check compares with, worked out once: its text, the pinned time limit. */
    private final String checkSql;
    private final BigDecimal pinnedTimeout;
    /** The last sql_mode text the server reported that was the pinned set (a connection reports the same text every time). */
    private volatile String pinnedModeText = "";

    /**
     * @param queries connections pinned with {@link ServerFlavor#pinSql(ServerFlavor.Pins)}
     * @param control the reserved connection for {@code KILL QUERY}, opened at startup
     * @param pins what every query connection was pinned to
     * @param watchdog runs the kill at each query's deadline and watches killed queries unwind
     * @param maxConcurrent queries on the server at once, running or killed and still unwinding
     */
    public MySqlExecutor(DataSource queries, KillChannel control, ServerFlavor flavor, ServerFlavor.Pins pins,
                         ScheduledExecutorService watchdog, int maxConcurrent) {
        this.queries = requireNonNull(queries, "queries is null");
        this.control = requireNonNull(control, "control is null");
        this.flavor = requireNonNull(flavor, "flavor is null");
        this.pins = requireNonNull(pins, "pins is null");
        this.pinnedMode = pins.modeSet();
        this.checkSql = flavor.checkSql();
        this.pinnedTimeout = new BigDecimal(flavor.timeoutValue(pins.timeoutMillis()));
        this.watchdog = requireNonNull(watchdog, "watchdog is null");
        this.maxConcurrent = maxConcurrent;
        this.slots = new Semaphore(maxConcurrent);
    }

    /**
     * How long a call waits for one of the source's query slots: more calls than slots at once
     * (an agent's burst) wait for the short queries ahead of them, while slots held by killed
     * queries the server is still unwinding (tens of seconds) refuse the call soon.
     */
    static final long SLOT_WAIT_MS = 2_000;

    private boolean takeSlot(long deadline) {
        long wait = Math.min(SLOT_WAIT_MS, remainingMillis(deadline));
        try {
            return slots.tryAcquire(Math.max(0, wait), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public ResultCursor execute(QueryPlan plan) {
        // the call's one deadline (from when the call was accepted): the slot, the checkout, the session check and the query
        long deadline = CallConnection.deadlineNanos(plan.limits().timeout());
        if (!takeSlot(deadline)) {
            throw new GuardException(ErrorCode.ENGINE_UNAVAILABLE, busyMessage(maxConcurrent, stillStopping.get()));
        }
        boolean handedOver = false;
        try {
            Connection connection;
            try {
                connection = Checkout.within(queries, Math.max(1, remainingMillis(deadline)));
            } catch (SQLException e) {
                LOG.debug("pool checkout failed", e);
                if (System.nanoTime() - deadline >= 0) {
                    throw new GuardException(ErrorCode.EXCEEDED_TIME_LIMIT, ErrorCode.EXCEEDED_TIME_LIMIT.defaultMessage(), e);
                }
                throw new GuardException(ErrorCode.ENGINE_UNAVAILABLE, ErrorCode.ENGINE_UNAVAILABLE.defaultMessage(), e);
            }
            PreparedStatement statement = null;
            long inUseId = -1;
            try {
                // every read of the session check is bounded by the call's deadline
                connection.setNetworkTimeout(watchdog, (int) Math.max(1, remainingMillis(deadline)));
                long connectionId = verifySession(connection);
                inUse.add(connectionId);
                inUseId = connectionId;
                if (System.nanoTime() - deadline >= 0) {
                    throw new GuardException(ErrorCode.EXCEEDED_TIME_LIMIT);
                }
                // the query's reads: the deadline plus the grace, a backstop behind the watchdog's kill and abort
                connection.setNetworkTimeout(watchdog, (int) Math.max(1, remainingMillis(deadline) + 2 * GRACE_MILLIS));
                statement = connection.prepareStatement(plan.executableSql(), ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
                statement.setFetchSize(Integer.MIN_VALUE);
                statement.setQueryTimeout((int) Math.max(1, (remainingMillis(deadline) + 999) / 1000));
                JdbcParameters.bind(statement, plan.values(), java.sql.Types.NULL, JdbcParameters.OFFSET_TEMPORALS);
                JdbcCursor cursor = JdbcCursor.over(connection, statement)
                        .deadline(deadline, watchdog)
                        .stopping(JdbcCursor.StopPath.by(() -> {
                            if (!kill(connectionId)) {
                                throw new SQLException("KILL QUERY was not taken within the grace period");
                            }
                        }).abortAfter(Duration.ofMillis(GRACE_MILLIS), CallConnection::abort))
                        .flavor(MySqlValues.FLAVOR)
                        .labelsFromPlan(plan.outputs().stream().map(OutputColumn::name).toList())
                        .errors(SqlErrors::map)
                        .onClose(done -> finished(connectionId, done.halted()))
                        .build();
                handedOver = true; // from here the cursor gives the slot back
                cursor.start();
                return cursor;
            } catch (GuardException e) {
                if (!handedOver) {
                    inUse.remove(inUseId);
                    JdbcCursor.closeQuietly(statement);
                    abortQuietly(connection, e.code() == ErrorCode.EXCEEDED_TIME_LIMIT);
                }
                throw e;
            } catch (SQLException e) {
                LOG.debug("query failed to start", e);
                if (!handedOver) {
                    inUse.remove(inUseId);
                }
                JdbcCursor.closeQuietly(statement);
                boolean late = System.nanoTime() - deadline >= 0;
                abortQuietly(connection, late);
                if (late) {
                    throw new GuardException(ErrorCode.EXCEEDED_TIME_LIMIT, ErrorCode.EXCEEDED_TIME_LIMIT.defaultMessage(), e);
                }
                throw SqlErrors.map(e);
            }
        } finally {
            if (!handedOver) {
                slots.release();
            }
        }
    }

    /**
     * The refusal of a call that found every slot taken. Slots held by stopped queries are named only
     * when the server was seen still running them: a connection the server merely flags {@code Killed}
     * while it idles holds no slot.
     */
    static String busyMessage(int maxConcurrent, int stillStopping) {
        if (stillStopping <= 0) {
            return "This source is already running its limit of " + maxConcurrent + " queries at once; retry when one has ended.";
        }
        return "This source is already running its limit of " + maxConcurrent + " queries at once (" + stillStopping
                + " of them stopped and still ending on the server); retry when one has ended.";
    }

    private static long remainingMillis(long deadline) {
        return Math.max(0, (deadline - System.nanoTime()) / 1_000_000);
    }

    /** Closes a connection, or aborts it (closes its socket at once) when the server may be hung. */
    private void abortQuietly(Connection connection, boolean abort) {
        if (abort) {
            CallConnection.abort(connection);
        }
        JdbcCursor.closeQuietly(connection);
    }

    /** Sends {@code KILL QUERY id} on the reserved connection, waiting at most the grace; true if the server took it. */
    boolean kill(long connectionId) {
        boolean sent = control.kill(connectionId, GRACE_MILLIS);
        if (sent) {
            killsSent.incrementAndGet();
        }
        return sent;
    }

    /**
     * A query has ended on the client. When it was killed or its connection aborted, its slot comes
     * back only once the server no longer runs a statement on that connection, so that retries of a
     * runaway query cannot pile up on the server. "Running" is a statement in the processlist
     * ({@code INFO}), not the {@code COMMAND} column: MariaDB shows an idle connection that took a
     * {@code KILL QUERY} as {@code Killed} until its next statement (measured on 10.11), which is
     * what every cut streamed result leaves behind, and which held the slot for the whole unwind cap.
     */
    void finished(long connectionId, boolean stopped) {
        inUse.remove(connectionId);
        if (!stopped) {
            slots.release();
            return;
        }
        long started = System.nanoTime();
        boolean[] counted = new boolean[1];
        Runnable release = () -> {
            if (counted[0]) {
                stillStopping.decrementAndGet();
            }
            slots.release();
        };
        Runnable[] poll = new Runnable[1];
        poll[0] = () -> {
            // a connection that already serves another query of this source no longer runs the stopped one
            Optional<Boolean> running = inUse.contains(connectionId) ? Optional.of(false)
                    : control.stillRunning(connectionId, GRACE_MILLIS);
            boolean gone = running.map(r -> !r).orElse(false);
            if (gone || (System.nanoTime() - started) / 1_000_000 > UNWIND_CAP_MILLIS) {
                release.run();
                return;
            }
            if (running.orElse(false) && !counted[0]) {
                counted[0] = true;
                stillStopping.incrementAndGet();
            }
            reschedule(poll[0], 200, release);
        };
        reschedule(poll[0], 0, release); // at once: a cut result usually ended on the server with its kill
    }

    private void reschedule(Runnable poll, long delayMillis, Runnable release) {
        try {
            watchdog.schedule(poll, delayMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            release.run(); // the engine is closing
        }
    }

    /** How many times the reserved kill connection was re-opened after a failure (tests and metrics). */
    public long killConnectionReopened() {
        return control.reopened();
    }

    /** Queries of this source on the server, running or unwinding (tests and metrics). */
    public int queriesOnServer() {
        return maxConcurrent - slots.availablePermits();
    }

    /** How many {@code KILL QUERY} statements the server accepted for this source (a metric, and proof in tests). */
    public long killsSent() {
        return killsSent.get();
    }

    /** The startup check of one pooled connection: the same as before every query. */
    public void verifySessionForStartup(Connection connection) throws SQLException {
        verifySession(connection);
    }

    /** Checks the server's own view of the session; returns its connection id. */
    long verifySession(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(checkSql)) {
            if (!rs.next()) {
                throw new GuardException(ErrorCode.READ_ONLY_NOT_ENFORCED);
            }
            if (rs.getLong(1) != 1) {
                throw new GuardException(ErrorCode.READ_ONLY_NOT_ENFORCED);
            }
            requirePinnedMode(rs.getString(2));
            BigDecimal timeout = rs.getBigDecimal(3);
            if (timeout == null || timeout.signum() <= 0 || timeout.compareTo(pinnedTimeout) > 0) {
                throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "The database session has no statement time limit, so no query was run.");
            }
            if (rs.getLong(5) > pins.groupConcatMaxLen() || rs.getLong(6) > pins.recursionLimit()) {
                throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "The database session is not under the pinned limits, so no query was run.");
            }
            return rs.getLong(4);
        }
    }

    /** Refuses a session whose sql_mode is not the pinned set; a text already seen to be that set is not parsed again. */
    private void requirePinnedMode(String reported) {
        if (reported != null && reported.equals(pinnedModeText)) {
            return;
        }
        if (!ServerFlavor.modes(reported).equals(pinnedMode)) {
            throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "The database session is not in the pinned SQL mode, so no query was run.");
        }
        pinnedModeText = reported;
    }

    /**
     * The reserved connection for {@code KILL QUERY} and for watching killed queries unwind. It is
     * opened at startup (so a server at {@code max_connections} cannot lock the kill path out),
     * checked every minute, and re-opened in the background as soon as it fails. Every use waits at
     * most the given bound, for the lock and for the server's answer; a kill that cannot be sent in
     * time returns false and the caller aborts the query's connection instead.
     */
    public static final class KillChannel implements AutoCloseable {
        /** Opens and pins a new control connection. */
        @FunctionalInterface
        public interface Opener {
            Connection open() throws SQLException;
        }

        @FunctionalInterface
        private interface Call<T> {
            T apply(Connection c) throws SQLException;
        }

        private final Opener opener;
        private final ScheduledExecutorService background;
        private final ReentrantLock lock = new ReentrantLock();
        private final AtomicLong reopened = new AtomicLong();
        private Connection connection; // guarded by lock
        private volatile boolean reopening;
        private volatile boolean closed;

        /** Opens the reserved connection now; startup fails if it cannot. */
        public KillChannel(Opener opener, ScheduledExecutorService background) throws SQLException {
            this.opener = requireNonNull(opener, "opener is null");
            this.background = requireNonNull(background, "background is null");
            this.connection = opener.open();
            background.scheduleWithFixedDelay(this::keepAlive, 60, 60, TimeUnit.SECONDS);
        }

        boolean kill(long connectionId, long waitMillis) {
            return use(waitMillis, c -> {
                try (Statement s = c.createStatement()) {
                    s.execute("KILL QUERY " + connectionId);
                }
                return true;
            }).orElse(false);
        }

        /**
         * Whether the server still runs a statement on that connection (empty: could not tell in time).
         * A statement runs while the processlist shows its text ({@code INFO}); an idle connection has
         * none, whether its {@code COMMAND} reads {@code Sleep} or, after a {@code KILL QUERY} that
         * found nothing left to stop, {@code Killed}.
         */
        Optional<Boolean> stillRunning(long connectionId, long waitMillis) {
            return use(waitMillis, c -> {
                try (PreparedStatement ps = c.prepareStatement("SELECT INFO FROM information_schema.PROCESSLIST WHERE ID = ?")) {
                    ps.setLong(1, connectionId);
                    try (ResultSet rs = ps.executeQuery()) {
                        return rs.next() && rs.getString(1) != null;
                    }
                }
            });
        }

        /** How many times the channel was re-opened after a failure (tests and metrics). */
        public long reopened() {
            return reopened.get();
        }

        private void keepAlive() {
            use(2_000, c -> {
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 1")) {
                    return rs.next();
                }
            });
        }

        private <T> Optional<T> use(long waitMillis, Call<T> call) {
            if (closed) {
                return Optional.empty();
            }
            try {
                if (!lock.tryLock(waitMillis, TimeUnit.MILLISECONDS)) {
                    return Optional.empty();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
            try {
                if (connection == null) {
                    reopenSoon(0);
                    return Optional.empty();
                }
                connection.setNetworkTimeout(background, (int) Math.max(1, waitMillis));
                return Optional.ofNullable(call.apply(connection));
            } catch (SQLException e) {
                LOG.warn("the reserved kill connection failed (error " + e.getErrorCode() + "); re-opening it");
                JdbcCursor.closeQuietly(connection);
                connection = null;
                reopenSoon(0);
                return Optional.empty();
            } finally {
                lock.unlock();
            }
        }

        private void reopenSoon(long delayMillis) {
            if (closed || reopening) {
                return;
            }
            reopening = true;
            try {
                background.schedule(this::reopen, delayMillis, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                reopening = false;
            }
        }

        private void reopen() {
            Connection fresh;
            try {
                fresh = opener.open(); // outside the lock: a kill never waits for a connect
            } catch (SQLException e) {
                LOG.debug("re-opening the kill connection failed", e);
                reopening = false;
                reopenSoon(1_000);
                return;
            }
            lock.lock();
            try {
                if (closed || connection != null) {
                    JdbcCursor.closeQuietly(fresh);
                } else {
                    connection = fresh;
                    reopened.incrementAndGet();
                }
            } finally {
                reopening = false;
                lock.unlock();
            }
        }

        @Override
        public void close() {
            closed = true;
            lock.lock();
            try {
                JdbcCursor.closeQuietly(connection);
                connection = null;
            } finally {
                lock.unlock();
            }
        }
    }
}
