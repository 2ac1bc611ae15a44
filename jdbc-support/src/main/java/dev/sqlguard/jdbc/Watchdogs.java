package dev.sqlguard.jdbc;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/** The executor that enforces one source's deadlines and other timed bounds. */
public final class Watchdogs {
    private Watchdogs() {
    }

    /**
     * A single daemon thread named {@code sqlguard-<engine>-watchdog-<sourceId>}, so that a forgotten
     * engine never keeps the JVM alive and a thread dump says whose it is. The engine shuts it down
     * when it closes.
     */
    public static ScheduledExecutorService forSource(String engine, String sourceId) {
        String name = "sqlguard-" + engine + "-watchdog-" + sourceId;
        return Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }
}
