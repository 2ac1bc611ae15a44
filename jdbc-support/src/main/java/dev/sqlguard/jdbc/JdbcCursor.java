package dev.sqlguard.jdbc;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.ResultColumn;
import dev.sqlguard.domain.port.ResultCursor;

/**
 * One streamed JDBC query as a {@link ResultCursor}, with the stop path every engine needs written
 * once: a watchdog stops the query at its deadline, {@link #cancel()} and an adapter's own bounds
 * ({@link #stop(GuardException)}) stop it from any thread, and {@link #close()} stops a query that
 * is still running instead of draining it. What differs between engines comes in two collaborators:
 * the engine's {@link Flavor} (how its driver's values, types and column names read, and what a
 * finished result must still pass) and its {@link StopPath} (how a running statement is stopped:
 * {@code Statement.cancel()}, a {@code KILL QUERY} over a control connection, ..., and what happens
 * when the server does not answer the stop). The stop runs only while the statement runs, under a
 * lock that {@link #close()} takes before it releases the connection, so a stop can never reach a
 * later query on a reused connection. It may be sent more than once (a cancel, then the deadline).
 *
 * <p>The first reason to stop wins, and every later call reports it: a query stopped at its
 * deadline fails with {@code EXCEEDED_TIME_LIMIT} whatever error the driver raises as it dies.
 * Values are read eagerly in {@link #next()} through the engine's {@link Flavor}, so
 * {@link #get(int)} never touches the driver. Not thread-safe except for {@link #cancel()},
 * {@link #stop(GuardException)} and {@link #close()}.
 */
public final class JdbcCursor implements ResultCursor {
    private static final Logger LOG = LoggerFactory.getLogger(JdbcCursor.class);

    /** The message of a query stopped at its deadline. */
    public static final String TIMED_OUT = "The query ran longer than the time limit and was stopped; narrow it or aggregate more.";

    /** How the engine stops a statement that is running (from any thread; may be called again for a later reason). */
    @FunctionalInterface
    public interface Stopper {
        void stop() throws SQLException;
    }

    /** Reads one column of the current row as a value the domain accepts. */
    @FunctionalInterface
    public interface ValueReader {
        Object read(ResultSet rs, int column, int jdbcType) throws SQLException;
    }

    /**
     * How an engine's results read: {@link #read} is the engine's {@link ValueReader}; the other
     * methods have the standard JDBC meaning unless the engine's driver needs otherwise. A
     * {@link ValueReader} alone is a flavor with every other default ({@link Builder#values}).
     */
    @FunctionalInterface
    public interface Flavor extends ValueReader {
        /**
         * The {@link java.sql.Types} code a column's values are read as (1-based), handed to
         * {@link #read}: {@code ResultSetMetaData.getColumnType} by default; for a driver whose
         * reported type is too coarse (pgjdbc reports {@code timestamptz} as {@code TIMESTAMP}).
         */
        default int type(ResultSetMetaData metadata, int column) throws SQLException {
            return metadata.getColumnType(column);
        }

        /** Describes one output column (1-based): by default its label and the driver's type name. */
        default ResultColumn describe(ResultSetMetaData metadata, int column) throws SQLException {
            return new ResultColumn(metadata.getColumnLabel(column), metadata.getColumnTypeName(column));
        }

        /**
         * Checks a result once its last row has been read, before {@code next()} returns false (a
         * driver may report an incomplete result only as a warning); a refusal there fails the call.
         * Nothing by default.
         */
        default void atEnd(Statement statement) throws SQLException {
        }
    }

    /** The engine's mapping of a driver error to a safe error (no driver text, paths or data). */
    @FunctionalInterface
    public interface ErrorMapper {
        GuardException map(SQLException e);
    }

    /**
     * How the engine stops a running statement, and what it does when the server does not take or
     * answer the stop. Immutable: each method gives a new path.
     */
    public static final class StopPath {
        private static final StopPath CANCEL = new StopPath(null, false, 0, null, false);

        private final Stopper stopper;
        private final boolean closeResult;
        private final long graceNanos;
        private final Consumer<Connection> abort;
        private final boolean repeat;

        private StopPath(Stopper stopper, boolean closeResult, long graceNanos, Consumer<Connection> abort, boolean repeat) {
            this.stopper = stopper;
            this.closeResult = closeResult;
            this.graceNanos = graceNanos;
            this.abort = abort;
            this.repeat = repeat;
        }

        /** {@code Statement.cancel()}: the default. */
        public static StopPath cancel() {
            return CANCEL;
        }

        /** The engine's own stop ({@code KILL QUERY} over a control connection, {@code pg_cancel_backend}, ...). */
        public static StopPath by(Stopper stopper) {
            return new StopPath(requireNonNull(stopper, "stopper is null"), false, 0, null, false);
        }

        /**
         * Also close the result set to stop the query: with some streaming drivers (DuckDB) a blocked
         * {@code next()} returns only when its result set is closed, whatever {@code cancel()} did.
         */
        public StopPath closingResult() {
            return new StopPath(stopper, true, graceNanos, abort, repeat);
        }

        /**
         * For a server that may stop answering: when a stop cannot be delivered (the stopper throws),
         * or the caller's thread still waits on the server {@code grace} after a stop, {@code abort}
         * closes the connection's socket ({@code Connection.abort}), which unblocks that thread; and a
         * stopped cursor waits at most {@code grace} for the statement's end when it closes.
         */
        public StopPath abortAfter(java.time.Duration grace, Consumer<Connection> abort) {
            if (grace.isNegative() || grace.isZero()) {
                throw new IllegalArgumentException("grace must be positive");
            }
            return new StopPath(stopper, closeResult, grace.toNanos(), requireNonNull(abort, "abort is null"), repeat);
        }

        /**
         * After {@link #abortAfter}: a server that took a stop may still have dropped it, because the
         * stop arrived before the statement ran (PostgreSQL ignores a cancel while its backend waits
         * for the next message, and the query then runs on until the session's own timeout), so the
         * stop is sent again every 50 ms while the caller still waits on the server, until the
         * statement ends or the grace aborts the connection. Only for an engine whose release never
         * lets a stopped connection serve another query ({@link Releaser}, {@code halted}): a repeated
         * stop could otherwise reach the next one.
         */
        public StopPath repeated() {
            if (abort == null) {
                throw new IllegalStateException("a repeated stop needs abortAfter");
            }
            return new StopPath(stopper, closeResult, graceNanos, abort, true);
        }
    }

    /**
     * Runs the statement and gives the query's result, for an engine that sends more than the query
     * in its round trip (a check of the session that the server runs first, say). A
     * {@link GuardException} it throws means it ended the statement itself: the cursor then sends
     * no stop.
     */
    @FunctionalInterface
    public interface Execution {
        ResultSet run(Statement statement) throws SQLException;
    }

    /** Takes the connection back once the cursor no longer needs it. */
    @FunctionalInterface
    public interface Releaser {
        /**
         * @param halted whether a stop reached the statement or the connection was aborted
         *     ({@link JdbcCursor#halted()}): a server that stops queries by an asynchronous signal
         *     may still deliver it, so such a connection should not serve another query
         */
        void release(Connection connection, boolean halted);
    }

    private final Connection connection;
    private final Statement statement;
    private final Optional<String> sql;
    private final Optional<Execution> execution;
    private final ScheduledExecutorService watchdog;
    private final long deadlineNanos;
    private final Stopper stopper;
    private final boolean closeResultToStop;
    private final Flavor flavor;
    private final ErrorMapper errors;
    private final Optional<List<String>> expectedLabels;
    private final boolean labelsFromPlan;
    private final Releaser release;
    private final Consumer<JdbcCursor> onClose;
    private final long graceNanos;
    private final Consumer<Connection> abort;
    private final boolean repeatStop;

    /** How long after a stop that found the statement still starting it is sent again. */
    private static final long RESTOP_MILLIS = 50;

    private final Object lock = new Object();
    private final AtomicReference<GuardException> stopReason = new AtomicReference<>();
    /** Guarded by {@link #lock}: the statement runs (from start until its end, its failure or close). */
    private boolean live;
    /** Guarded by {@link #lock}. */
    private boolean closed;
    /** Guarded by {@link #lock} while assigned; read by the owning thread. */
    private ResultSet rs;
    /** The armed deadline, disarmed when the cursor closes. */
    private volatile Deadlines.Armed timer;
    /** The caller's thread is inside the driver, waiting for the server. */
    private volatile boolean inServerCall;
    /** A stop reached the running statement, or its connection was aborted: it may still be unwinding on the server. */
    private volatile boolean halted;
    /** Guarded by {@link #lock}: the grace before an abort runs (armed once). */
    private boolean graceArmed;
    /** The connection was aborted: its socket is closed, and nothing on it can run or be stopped any more. */
    private volatile boolean aborted;
    /** Guarded by {@link #lock}: the repeated stop is scheduled (once). */
    private boolean repeatArmed;
    /** Guarded by {@link #lock}. */
    private int stopsRepeated;
    private List<ResultColumn> columns = List.of();
    private int[] types = new int[0];
    private Object[] row;

    private JdbcCursor(Builder b) {
        this.connection = b.connection;
        this.statement = b.statement;
        this.sql = b.sql;
        this.execution = b.execution;
        this.watchdog = requireNonNull(b.watchdog, "watchdog is required");
        this.deadlineNanos = b.deadlineNanos;
        this.stopper = b.stopping.stopper != null ? b.stopping.stopper : b.statement::cancel;
        this.closeResultToStop = b.stopping.closeResult;
        this.flavor = b.flavor;
        this.errors = requireNonNull(b.errors, "an error mapper is required");
        this.expectedLabels = b.expectedLabels;
        this.labelsFromPlan = b.labelsFromPlan;
        this.release = b.release;
        this.onClose = b.onClose;
        this.graceNanos = b.stopping.graceNanos;
        this.abort = b.stopping.abort;
        this.repeatStop = b.stopping.repeat;
    }

    /**
     * A cursor over {@code statement} on {@code connection}: a {@link PreparedStatement} with its
     * parameters bound, or a plain statement with {@link Builder#sql(String)}.
     */
    public static Builder over(Connection connection, Statement statement) {
        return new Builder(connection, statement);
    }

    /** The query's settings; {@link #start()} runs it. */
    public static final class Builder {
        private final Connection connection;
        private final Statement statement;
        private Optional<String> sql = Optional.empty();
        private Optional<Execution> execution = Optional.empty();
        private ScheduledExecutorService watchdog;
        private long deadlineNanos;
        private boolean deadlineSet;
        private StopPath stopping = StopPath.cancel();
        private Flavor flavor = JdbcValues.STANDARD::read;
        private ErrorMapper errors;
        private Optional<List<String>> expectedLabels = Optional.empty();
        private boolean labelsFromPlan;
        private Releaser release = (connection, halted) -> closeQuietly(connection);
        private Consumer<JdbcCursor> onClose = cursor -> { };

        private Builder(Connection connection, Statement statement) {
            this.connection = requireNonNull(connection, "connection is null");
            this.statement = requireNonNull(statement, "statement is null");
        }

        /** The text a plain (not prepared) statement runs. */
        public Builder sql(String text) {
            this.sql = Optional.of(requireNonNull(text, "sql is null"));
            return this;
        }

        /** How the statement runs to the query's result; by default it is executed as the query itself. */
        public Builder execution(Execution value) {
            this.execution = Optional.of(requireNonNull(value, "execution is null"));
            return this;
        }

        /** The deadline, as a {@link System#nanoTime()} value, and the executor that enforces it. */
        public Builder deadline(long nanoTime, ScheduledExecutorService watchdog) {
            this.deadlineNanos = nanoTime;
            this.deadlineSet = true;
            this.watchdog = requireNonNull(watchdog, "watchdog is null");
            return this;
        }

        /** How to stop the running statement; {@link StopPath#cancel()} by default. */
        public Builder stopping(StopPath value) {
            this.stopping = requireNonNull(value, "stopping is null");
            return this;
        }

        /** {@link StopPath#closingResult()} on the stop path set so far. */
        public Builder closeResultToStop() {
            this.stopping = stopping.closingResult();
            return this;
        }

        /** How the engine's results read; the kit's standard JDBC reading by default. */
        public Builder flavor(Flavor value) {
            this.flavor = requireNonNull(value, "flavor is null");
            return this;
        }

        /** A flavor that reads values with {@code value} and keeps every other default. */
        public Builder values(ValueReader value) {
            requireNonNull(value, "values is null");
            this.flavor = value::read;
            return this;
        }

        public Builder errors(ErrorMapper value) {
            this.errors = requireNonNull(value, "errors is null");
            return this;
        }

        /**
         * The output labels the checked plan promised: a result whose labels differ fails with
         * {@code INTERNAL_ERROR} before any row is read.
         */
        public Builder expectLabels(List<String> labels) {
            this.expectedLabels = Optional.of(List.copyOf(labels));
            this.labelsFromPlan = false;
            return this;
        }

        /**
         * The output labels the checked plan promised, which name the result's columns: only their number is
         * checked against the result (a different number fails with {@code INTERNAL_ERROR} before any row is
         * read), and the driver's own labels are not read. For an engine that reports a label other than the
         * one written: MariaDB 10.11 names an output of a grouped query over a CTE by the CTE's column
         * ({@code WITH w AS (SELECT (SELECT count(*) FROM regions r WHERE r.region = c.region) AS x1 FROM claims c)
         * SELECT x1 AS x3, ... GROUP BY x1} reports {@code x1}).
         */
        public Builder labelsFromPlan(List<String> labels) {
            this.expectedLabels = Optional.of(List.copyOf(labels));
            this.labelsFromPlan = true;
            return this;
        }

        /** Receives the connection once the cursor no longer needs it; closes it by default. */
        public Builder release(Consumer<Connection> value) {
            requireNonNull(value, "release is null");
            this.release = (connection, halted) -> value.accept(connection);
            return this;
        }

        /** Receives the connection once the cursor no longer needs it, with whether a stop reached its statement. */
        public Builder release(Releaser value) {
            this.release = requireNonNull(value, "release is null");
            return this;
        }

        /** Runs once, last, when the cursor closes, with the cursor (to unregister it where it was registered). */
        public Builder onClose(Consumer<JdbcCursor> value) {
            this.onClose = requireNonNull(value, "onClose is null");
            return this;
        }

        /** A cursor not yet running, for an adapter that must register it before {@link JdbcCursor#start()}. */
        public JdbcCursor build() {
            if (!deadlineSet) {
                throw new IllegalStateException("a deadline is required");
            }
            return new JdbcCursor(this);
        }

        /** Runs the query until its first rows stream; on failure everything is closed and the mapped error thrown. */
        public JdbcCursor start() {
            JdbcCursor cursor = build();
            cursor.start();
            return cursor;
        }
    }

    /**
     * Arms the deadline and runs the statement until its first rows stream.
     *
     * @throws GuardException the stop reason, or the engine's mapped error; the cursor is then closed
     */
    public void start() {
        long delay = deadlineNanos - System.nanoTime();
        if (delay <= 0) {
            stopReason.compareAndSet(null, timedOut());
            close();
            throw reasonOr(null);
        }
        boolean early;
        synchronized (lock) {
            early = closed || stopReason.get() != null; // cancelled or closed before it started
            live = !early;
        }
        if (early) {
            close();
            throw reasonOr(new GuardException(ErrorCode.CANCELLED));
        }
        timer = Watchdogs.arm(watchdog, deadlineNanos, () -> stop(timedOut()));
        try {
            throwIfStopped(); // a stop that came before the driver began executing
            ResultSet result;
            inServerCall = true;
            try {
                result = execution.isPresent() ? runExecution() : sql.isPresent() ? statement.executeQuery(sql.get())
                        : ((PreparedStatement) statement).executeQuery();
            } finally {
                inServerCall = false;
            }
            synchronized (lock) {
                if (closed) { // closed from another thread while the statement started
                    closeQuietly(result);
                    throw reasonOr(new GuardException(ErrorCode.CANCELLED));
                }
                rs = result;
            }
            throwIfStopped();
            throwIfLate();
            describe(result.getMetaData());
        } catch (SQLException | RuntimeException e) {
            GuardException mapped = failure(e);
            if (e instanceof SQLException) {
                synchronized (lock) {
                    live = false; // the driver ended the statement itself: nothing left to stop
                }
            }
            close();
            throw mapped;
        }
    }

    /**
     * The engine's {@link Execution}. A refusal it throws ({@link GuardException}) says that it
     * ended its statement itself (a check the server failed, say): nothing is left to stop, and no
     * stop signal goes to the server, where it could only reach a backend the engine no longer vouches for.
     */
    private ResultSet runExecution() throws SQLException {
        try {
            return execution.orElseThrow().run(statement);
        } catch (GuardException e) {
            synchronized (lock) {
                live = false;
            }
            throw e;
        }
    }

    private void describe(ResultSetMetaData md) throws SQLException {
        int n = md.getColumnCount();
        if (expectedLabels.isPresent() && expectedLabels.get().size() != n) {
            throw new GuardException(ErrorCode.INTERNAL_ERROR, "The result columns do not match the checked plan.");
        }
        List<ResultColumn> out = new ArrayList<>(n);
        int[] jdbcTypes = new int[n];
        for (int i = 1; i <= n; i++) {
            ResultColumn column = flavor.describe(md, i);
            if (labelsFromPlan) {
                column = new ResultColumn(expectedLabels.get().get(i - 1), column.type());
            } else if (expectedLabels.isPresent() && !expectedLabels.get().get(i - 1).equals(column.name())) {
                throw new GuardException(ErrorCode.INTERNAL_ERROR, "The result columns do not match the checked plan.");
            }
            jdbcTypes[i - 1] = flavor.type(md, i);
            out.add(column);
        }
        types = jdbcTypes;
        columns = List.copyOf(out);
    }

    @Override
    public List<ResultColumn> columns() {
        return columns;
    }

    @Override
    public boolean next() {
        throwIfStopped();
        if (System.nanoTime() - deadlineNanos > 0) {
            stop(timedOut()); // the watchdog may be late on a loaded machine; the deadline is the deadline
            throwIfStopped();
        }
        ResultSet result;
        synchronized (lock) {
            if (closed) {
                throw new GuardException(ErrorCode.CANCELLED, "The result is closed.");
            }
            result = rs;
        }
        try {
            boolean more;
            inServerCall = true;
            try {
                more = result.next();
            } finally {
                inServerCall = false;
            }
            throwIfStopped();
            throwIfLate(); // a server that answered past the deadline is never an OK result
            if (!more) {
                synchronized (lock) {
                    live = false;
                }
                row = null;
                flavor.atEnd(statement);
                return false;
            }
            Object[] current = new Object[types.length];
            for (int i = 0; i < current.length; i++) {
                current[i] = flavor.read(result, i + 1, types[i]);
            }
            row = current;
            return true;
        } catch (SQLException | RuntimeException e) {
            throw failure(e);
        }
    }

    @Override
    public Object get(int index) {
        if (row == null) {
            throw new IllegalStateException("no current row");
        }
        return row[index];
    }

    @Override
    public void cancel() {
        stop(new GuardException(ErrorCode.CANCELLED));
    }

    /**
     * Stops the query for {@code reason} (an adapter's own bound, e.g. a disk limit): the first
     * reason wins, and a blocked or later {@link #next()} throws it. Safe from any thread.
     */
    public void stop(GuardException reason) {
        requireNonNull(reason, "reason is null");
        stopReason.compareAndSet(null, reason);
        synchronized (lock) {
            if (!live || closed) {
                return;
            }
            halt(); // again on a later reason: a stop sent before the driver began executing may have been lost
            if (rs == null) { // still starting: a stop that lands just before the driver runs the statement finds nothing
                try {
                    watchdog.schedule(this::haltIfLive, RESTOP_MILLIS, TimeUnit.MILLISECONDS);
                } catch (java.util.concurrent.RejectedExecutionException e) {
                    LOG.debug("the watchdog is shut down", e);
                }
            }
        }
    }

    private void haltIfLive() {
        synchronized (lock) {
            if (live && !closed) {
                halt();
            }
        }
    }

    /** Whether a reason to stop was given (the query may still be winding down). */
    public boolean isStopped() {
        return stopReason.get() != null;
    }

    /** Whether a stop reached the running statement, or its connection was aborted: it may still be unwinding on the server. */
    public boolean halted() {
        return halted;
    }

    /** Under {@link #lock}: the engine's stop, then the result set where closing it is what interrupts. */
    private void halt() {
        halted = true;
        if (abort != null && inServerCall) {
            // armed before the stop is sent: a stop that itself waits on a frozen server (a control
            // connection's checkout, say) must not push the abort, and the caller's answer, past the grace
            armGrace();
        }
        boolean delivered;
        try {
            stopper.stop();
            delivered = true;
        } catch (SQLException | RuntimeException e) {
            LOG.debug("could not stop a running statement", e);
            delivered = false;
        }
        if (closeResultToStop) {
            closeQuietly(rs);
        }
        if (abort == null) {
            return;
        }
        if (delivered && !repeatStop) {
            live = false; // a server took the stop: a second one could reach whatever the connection runs next
        }
        if (!delivered) {
            abortConnection(); // the statement runs on and the server may not answer: free the caller now
        } else if (inServerCall) {
            armGrace();
            if (repeatStop && !repeatArmed) {
                repeatArmed = true;
                try {
                    watchdog.schedule(this::repeat, RESTOP_MILLIS, TimeUnit.MILLISECONDS);
                } catch (java.util.concurrent.RejectedExecutionException e) {
                    abortConnection();
                }
            }
        }
    }

    /** Under {@link #lock}: once, aborts the connection if the caller still waits on the server a grace from now. */
    private void armGrace() {
        if (graceArmed) {
            return;
        }
        graceArmed = true;
        try {
            watchdog.schedule(() -> {
                if (inServerCall) {
                    abortConnection(); // the stop was taken (or is still being sent), but the server does not answer
                }
            }, graceNanos, TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            abortConnection();
        }
    }

    /** Sends the stop again while the caller still waits on the server (see {@link StopPath#repeated()}). */
    private void repeat() {
        synchronized (lock) {
            if (!live || closed || !inServerCall) {
                return;
            }
            halted = true;
            try {
                stopper.stop();
            } catch (SQLException | RuntimeException e) {
                LOG.debug("could not stop a running statement", e);
                abortConnection();
                return;
            }
            stopsRepeated++;
            try {
                watchdog.schedule(this::repeat, RESTOP_MILLIS, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                abortConnection();
            }
        }
    }

    /** How many times a stop was sent again after the first ({@link StopPath#repeated()}; tests and metrics). */
    public int stopsRepeated() {
        synchronized (lock) {
            return stopsRepeated;
        }
    }

    private void abortConnection() {
        halted = true;
        aborted = true;
        try {
            abort.accept(connection);
        } catch (RuntimeException e) {
            LOG.debug("could not abort a connection", e);
        }
    }

    /** Past the deadline: the call fails as a timeout, whatever the server answered. */
    private void throwIfLate() {
        if (System.nanoTime() - deadlineNanos >= 0) {
            stop(timedOut());
            throwIfStopped();
        }
    }

    private void throwIfStopped() {
        if (stopReason.get() != null) {
            throw reasonOr(null);
        }
    }

    /** A fresh exception for the stop reason (each throw gets its own stack), or {@code fallback}. */
    private GuardException reasonOr(GuardException fallback) {
        GuardException reason = stopReason.get();
        if (reason == null) {
            return fallback;
        }
        return new GuardException(reason.code(), reason.safeMessage());
    }

    /** The error to report for a failed call: a stop reason wins over whatever the driver said. */
    private GuardException failure(Exception e) {
        GuardException reason = reasonOr(null);
        if (reason != null) {
            return reason;
        }
        if (e instanceof GuardException g) {
            return g;
        }
        if (System.nanoTime() - deadlineNanos >= 0) { // the driver gave up at (or after) the deadline
            stopReason.compareAndSet(null, timedOut());
            return reasonOr(null);
        }
        if (e instanceof SQLException s) {
            return errors.map(s);
        }
        LOG.debug("query failed", e);
        return new GuardException(ErrorCode.INTERNAL_ERROR, ErrorCode.INTERNAL_ERROR.defaultMessage(), e);
    }

    private static GuardException timedOut() {
        return new GuardException(ErrorCode.EXCEEDED_TIME_LIMIT, TIMED_OUT);
    }

    /** Stops the query if it still runs, then releases the result, the statement and the connection. Never throws. */
    @Override
    public void close() {
        ResultSet result;
        synchronized (lock) {
            if (closed) {
                return;
            }
            if (live && !aborted) {
                // never drain: a streaming driver would otherwise read the rest of the result (an aborted
                // connection has nothing left to drain, and a second stop would only wait on a frozen server)
                halt();
            }
            closed = true;
            live = false;
            result = rs;
        }
        if (timer != null) {
            timer.disarm();
        }
        if (halted && abort != null) {
            try { // a stopped statement may take a while to end on the server: bound the wait for it
                connection.setNetworkTimeout(Runnable::run, (int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(graceNanos)));
            } catch (SQLException | RuntimeException e) {
                abortConnection();
            }
        }
        closeQuietly(result);
        closeQuietly(statement);
        try {
            release.release(connection, halted);
        } catch (RuntimeException e) {
            LOG.debug("could not release a connection", e);
        }
        try {
            onClose.accept(this);
        } catch (RuntimeException e) {
            LOG.debug("a close hook failed", e);
        }
    }

    /** Closes a JDBC resource, logging instead of throwing. */
    public static void closeQuietly(AutoCloseable resource) {
        if (resource == null) {
            return;
        }
        try {
            resource.close();
        } catch (Exception e) {
            LOG.debug("could not close a JDBC resource", e);
        }
    }
}
