package dev.sqlguard.duckdb.internal;

import java.sql.Connection;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Per-call connections off the critical path. Every call still gets a connection that no other
 * call has used and that is closed after it (so no temp object, variable, macro or prepared
 * statement outlives a call), but opening the next one and closing the last one happen on a
 * background thread: a call takes a connection that is already open, and hands it back to be
 * closed. When none is ready (a burst), the call opens its own. Thread-safe.
 */
final class FreshConnections implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(FreshConnections.class.getName());
    /** Connections kept open and unused, ready for the next calls. */
    static final int READY = 2;

    private final DuckDbInstance instance;
    private final BlockingQueue<Connection> ready = new ArrayBlockingQueue<>(READY);
    private final ExecutorService background;
    private volatile boolean closed;

    FreshConnections(DuckDbInstance instance, String sourceId) {
        this.instance = instance;
        this.background = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "sqlguard-duckdb-connections-" + sourceId);
            t.setDaemon(true);
            return t;
        });
        for (int i = 0; i < READY; i++) {
            refill();
        }
    }

    /** A connection no call has used; the caller owns it until {@link #retire}. */
    Connection take() {
        Connection connection = ready.poll();
        refill();
        return connection != null ? connection : instance.duplicate();
    }

    /** Closes a used connection in the background (immediately when the background is gone). */
    void retire(Connection connection) {
        try {
            background.execute(() -> DuckDbInstance.closeQuietly(connection));
        } catch (RejectedExecutionException e) {
            DuckDbInstance.closeQuietly(connection);
        }
    }

    private void refill() {
        if (closed) {
            return;
        }
        try {
            background.execute(() -> {
                if (closed || ready.remainingCapacity() == 0) {
                    return;
                }
                try {
                    Connection connection = instance.duplicate();
                    if (closed || !ready.offer(connection)) {
                        DuckDbInstance.closeQuietly(connection);
                    }
                } catch (RuntimeException e) {
                    LOG.log(Level.FINE, "could not prepare a DuckDB connection", e);
                }
            });
        } catch (RejectedExecutionException e) {
            // closing: the caller opens its own
        }
    }

    /** Closes every ready connection and waits briefly for pending closes. */
    @Override
    public void close() {
        closed = true;
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
        while ((connection = ready.poll()) != null) {
            DuckDbInstance.closeQuietly(connection);
        }
    }
}
