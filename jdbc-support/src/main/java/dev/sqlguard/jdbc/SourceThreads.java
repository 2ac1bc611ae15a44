package dev.sqlguard.jdbc;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/** Threads a source owns beside its callers': daemons named after the engine, their role and the source. */
public final class SourceThreads {
    private SourceThreads() {
    }

    /**
     * Daemon threads named {@code sqlguard-<engine>-<role>-<sourceId>}, so that a forgotten engine never keeps the JVM
     * alive and a thread dump says whose they are.
     */
    public static ThreadFactory daemons(String engine, String role, String sourceId) {
        String name = "sqlguard-" + engine + "-" + role + "-" + sourceId;
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    /**
     * At most {@code threads} {@link #daemons}, each taking a task only when it is free (nothing waits in a queue),
     * idle ones ended after {@code idle}: a task offered while all are busy is refused with
     * {@link java.util.concurrent.RejectedExecutionException}, for the caller to run it on its own thread instead.
     * The engine shuts it down when it closes.
     */
    public static ExecutorService handOff(String engine, String role, String sourceId, int threads, Duration idle) {
        return new ThreadPoolExecutor(0, threads, idle.toMillis(), TimeUnit.MILLISECONDS, new SynchronousQueue<>(),
                daemons(engine, role, sourceId));
    }
}
