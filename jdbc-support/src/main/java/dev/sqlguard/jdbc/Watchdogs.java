package dev.sqlguard.jdbc;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;

/** The executor that enforces one source's deadlines and other timed bounds. */
public final class Watchdogs {
    private Watchdogs() {
    }

    /**
     * A daemon thread named {@code sqlguard-<engine>-watchdog-<sourceId>}, so that a forgotten
     * engine never keeps the JVM alive and a thread dump says whose it is. The engine shuts it down
     * when it closes. A cancelled timer (a query that ended before its deadline) leaves the queue
     * at once instead of waiting there until its deadline.
     */
    public static ScheduledExecutorService forSource(String engine, String sourceId) {
        return forSource(engine, sourceId, 1);
    }

    /**
     * {@link #forSource(String, String)} with {@code threads} threads, for an engine whose timed work
     * can block (a kill sent to a server that does not answer) and must not hold up a deadline.
     */
    public static ScheduledExecutorService forSource(String engine, String sourceId, int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1");
        }
        String name = "sqlguard-" + engine + "-watchdog-" + sourceId;
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(threads, r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
        executor.setRemoveOnCancelPolicy(true);
        return executor;
    }
}
