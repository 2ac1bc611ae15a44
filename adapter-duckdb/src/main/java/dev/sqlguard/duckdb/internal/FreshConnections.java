package dev.sqlguard.duckdb.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per-call connections off the critical path. Every call still gets a connection that no other
 * call has used and that is closed after it (so no temp object, variable, macro or prepared
 * statement outlives a call), but opening the next one and closing the last one happen on a
 * background thread: a call takes a connection from a small stock of ready, never-used
 * duplicates, and hands it back only to be closed. When the stock is empty (a burst), the call
 * opens its own. One background task per call in the steady state: the task that closes a used
 * connection also tops the stock up; a call submits a refill of its own only when it found the
 * stock empty or left it empty. Thread-safe.
 *
 * <p>A stocked connection may come with one statement already prepared on it, off the critical path:
 * the text of the last calls that bound parameters when it repeats ({@link #expect}), a text the validator made, never
 * a value (attributes and parameters are bound per call). DuckDB prepares (parses, binds and plans) a
 * statement in about as long as it takes to run a short aggregate, and plans it again when it runs;
 * a call that finds its own text prepared skips the first planning ({@link #prepared}). A statement
 * prepared for another text is closed before the call runs anything. It is the call's own connection
 * still: the prepared statement holds no value and no state of an earlier call.
 *
 * <p>Lifecycle: every connection this class opens is tracked until it is closed. {@link #close()}
 * stops the background work, closes the stock and every connection a refill opened meanwhile, so
 * that once the engine releases the instance no stocked connection keeps DuckDB's database open
 * (a duplicate holds the instance alive, and the driver would refuse to reopen the file with other
 * settings). A connection still in use by a running call is closed when that call ends.
 */
final class FreshConnections implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FreshConnections.class);
    /** Connections kept open and unused, ready for the next calls. */
    static final int READY = 2;

    private final DuckDbInstance instance;
    private final int capacity;
    private final ExecutorService background;
    /** Guarded by itself: the stock of never-used connections. */
    private final ArrayDeque<Connection> ready;
    /**
     * Every connection opened here and not yet closed: stocked, in use, or waiting to be closed.
     * DuckDB's connection keeps {@code Object}'s identity equality, so a concurrent set is an
     * identity set that concurrent calls do not queue on.
     */
    private final Set<Connection> open = ConcurrentHashMap.newKeySet();
    /** The connections calls hold now: handing one out again while it is held is a bug, refused. */
    private final Set<Connection> inUse = ConcurrentHashMap.newKeySet();
    private final AtomicLong fromStock = new AtomicLong();
    private final AtomicLong openedOnCall = new AtomicLong();
    private final AtomicLong backgroundTasks = new AtomicLong();
    private final AtomicLong preparedHits = new AtomicLong();
    /** The statement prepared ahead on each stocked connection that has one (the text it was prepared from, and it). */
    private final java.util.Map<Connection, Ahead> ahead = new ConcurrentHashMap<>();
    /** The text to prepare on the next connections stocked (the last call's that bound parameters), or null. */
    private volatile String expected;
    /** The text of the last call that bound parameters. */
    private volatile String last;
    /** Guarded by {@link #ready}. */
    private boolean closed;
    /** Guarded by {@link #ready}: refills submitted and not yet run. */
    private int pendingRefills;

    FreshConnections(DuckDbInstance instance, String sourceId) {
        this(instance, sourceId, READY);
    }

    FreshConnections(DuckDbInstance instance, String sourceId, int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must not be negative");
        }
        this.instance = instance;
        this.capacity = capacity;
        this.ready = new ArrayDeque<>(Math.max(1, capacity));
        this.background = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "sqlguard-duckdb-connections-" + sourceId);
            t.setDaemon(true);
            return t;
        });
        refill();
    }

    /** A connection no call has used; the caller owns it until {@link #retire}. */
    Connection take() {
        Connection connection;
        boolean emptied;
        synchronized (ready) {
            if (closed) {
                throw new dev.sqlguard.domain.GuardException(dev.sqlguard.domain.ErrorCode.ENGINE_UNAVAILABLE,
                        "The DuckDB source is closed.");
            }
            connection = ready.poll();
            emptied = ready.isEmpty();
        }
        if (connection != null) {
            fromStock.incrementAndGet();
        } else {
            connection = instance.duplicate(); // a burst emptied the stock: open one on the call's path
            open.add(connection);
            openedOnCall.incrementAndGet();
        }
        if (!inUse.add(connection)) { // cannot happen: the stock holds only connections never handed out
            throw new IllegalStateException("a DuckDB connection was about to be handed out twice");
        }
        if (emptied) { // a stock that still holds one is topped up when this call's connection is closed
            refill();
        }
        return connection;
    }

    /**
     * Closes a used connection in the background (at once when the background is gone); it never
     * returns to the stock. The same task then tops the stock up, so a call wakes the background
     * thread once, not once to open and once to close.
     */
    void retire(Connection connection) {
        inUse.remove(connection);
        try {
            background.execute(() -> {
                closeTracked(connection);
                topUp();
            });
            backgroundTasks.incrementAndGet();
        } catch (RejectedExecutionException e) {
            closeTracked(connection);
        }
    }

    /**
     * Tells the text of a call that binds parameters (a validated executable text). Once the same text
     * comes twice in a row it is prepared on the connections stocked from then on, so that the next call
     * with it finds it prepared; a workload whose texts vary prepares nothing ahead (a statement prepared
     * for a text that does not come again is planning wasted on the engine's cores).
     */
    void expect(String sql) {
        expected = sql.equals(last) ? sql : null;
        last = sql;
    }

    /**
     * The statement prepared ahead for {@code sql} on a connection {@link #take} handed out, if it was
     * prepared for exactly that text; any other statement prepared on it is closed. Call once per taken
     * connection, before running anything on it ({@code sql} null when the call prepares nothing).
     */
    Optional<PreparedStatement> prepared(Connection connection, String sql) {
        Ahead a = ahead.remove(connection);
        if (a == null) {
            return Optional.empty();
        }
        if (a.sql().equals(sql)) {
            preparedHits.incrementAndGet();
            return Optional.of(a.statement());
        }
        closeQuietly(a.statement());
        return Optional.empty();
    }

    /** Calls that found their statement prepared on the connection they took. */
    long preparedHits() {
        return preparedHits.get();
    }

    /** Tops the stock up in the background, one connection per task, up to its capacity. */
    private void refill() {
        int missing;
        synchronized (ready) {
            if (closed) {
                return;
            }
            missing = capacity - ready.size() - pendingRefills;
            if (missing <= 0) {
                return;
            }
            pendingRefills += missing;
        }
        for (int i = 0; i < missing; i++) {
            try {
                background.execute(() -> stockOne());
                backgroundTasks.incrementAndGet();
            } catch (RejectedExecutionException e) {
                synchronized (ready) {
                    pendingRefills--;
                }
            }
        }
    }

    /** On the background thread: stocks connections until the stock (with the refills already submitted) is full. */
    private void topUp() {
        while (true) {
            synchronized (ready) {
                if (closed || ready.size() + pendingRefills >= capacity) {
                    return;
                }
                pendingRefills++;
            }
            if (!stockOne()) {
                return; // closed, or the instance refused: the next call opens its own
            }
        }
    }

    /** Opens one connection for the stock; whether it was stocked (not when closed, full, or the open failed). */
    private boolean stockOne() {
        synchronized (ready) {
            pendingRefills--;
            if (closed) {
                return false;
            }
        }
        Connection connection;
        try {
            connection = instance.duplicate();
        } catch (RuntimeException e) {
            LOG.debug("could not prepare a DuckDB connection", e);
            return false;
        }
        open.add(connection);
        prepareAhead(connection);
        boolean stocked;
        synchronized (ready) {
            stocked = !closed && ready.size() < capacity;
            if (stocked) {
                ready.add(connection);
            }
        }
        if (!stocked) {
            closeTracked(connection);
        }
        return stocked;
    }

    /** On the background thread: prepares the expected text on a connection about to be stocked (nothing when that fails). */
    private void prepareAhead(Connection connection) {
        String sql = expected;
        if (sql == null) {
            return;
        }
        try {
            ahead.put(connection, new Ahead(sql, connection.prepareStatement(sql)));
        } catch (SQLException | RuntimeException e) {
            LOG.debug("could not prepare a statement ahead", e); // the call prepares its own
        }
    }

    private static void closeQuietly(PreparedStatement statement) {
        try {
            statement.close();
        } catch (SQLException | RuntimeException e) {
            LOG.debug("could not close a statement prepared ahead", e);
        }
    }

    /** A statement prepared ahead on a stocked connection, and the text it was prepared from. */
    private record Ahead(String sql, PreparedStatement statement) {
    }

    private void closeTracked(Connection connection) {
        Ahead a = ahead.remove(connection);
        if (a != null) {
            closeQuietly(a.statement());
        }
        DuckDbInstance.closeQuietly(connection);
        open.remove(connection);
    }

    /** Connections in stock now. */
    int stocked() {
        synchronized (ready) {
            return ready.size();
        }
    }

    /** Connections opened here and not yet closed (stocked, in use or waiting to be closed). */
    int openConnections() {
        return open.size();
    }

    /** Connections calls hold now. */
    int inUse() {
        return inUse.size();
    }

    /** Calls served from the stock so far. */
    long servedFromStock() {
        return fromStock.get();
    }

    /** Tasks handed to the background thread so far (each may wake it). */
    long backgroundTasks() {
        return backgroundTasks.get();
    }

    /** Calls that found the stock empty and opened their own connection. */
    long openedOnCall() {
        return openedOnCall.get();
    }

    /**
     * Stops refilling, closes every stocked connection and waits briefly for pending closes; a
     * connection a running call still uses is closed when the call ends. Idempotent.
     */
    @Override
    public void close() {
        synchronized (ready) {
            if (closed) {
                return;
            }
            closed = true;
        }
        background.shutdown();
        try {
            if (!background.awaitTermination(5, TimeUnit.SECONDS)) {
                background.shutdownNow();
            }
        } catch (InterruptedException e) {
            background.shutdownNow();
            Thread.currentThread().interrupt();
        }
        Connection connection;
        while (true) {
            synchronized (ready) {
                connection = ready.poll();
            }
            if (connection == null) {
                break;
            }
            closeTracked(connection);
        }
    }
}
