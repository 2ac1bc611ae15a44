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
     * when it closes. A cancelled timer leaves the queue at once instead of waiting there until its
     * deadline. The deadlines {@link JdbcCursor} arms on it share one sweep ({@link Deadlines})
     * instead of a timer each.
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
        Watchdog executor = new Watchdog(threads, SourceThreads.daemons(engine, "watchdog", sourceId));
        executor.setRemoveOnCancelPolicy(true);
        return executor;
    }

    /**
     * Arms {@code action} to run on {@code watchdog} at {@code deadlineNanos} (a {@link System#nanoTime()}
     * value): on a watchdog of {@link #forSource}, through its {@link Deadlines} (no timer task per
     * call); on any other executor, as a timer of its own.
     *
     * @throws java.util.concurrent.RejectedExecutionException the watchdog is shut down
     */
    static Deadlines.Armed arm(ScheduledExecutorService watchdog, long deadlineNanos, Runnable action) {
        if (watchdog instanceof Watchdog own) {
            return own.deadlines.arm(deadlineNanos, action);
        }
        java.util.concurrent.ScheduledFuture<?> timer = watchdog.schedule(action, deadlineNanos - System.nanoTime(),
                java.util.concurrent.TimeUnit.NANOSECONDS);
        return () -> timer.cancel(false);
    }

    /** A source's watchdog: a scheduled executor that also holds the deadlines of the source's calls. */
    private static final class Watchdog extends ScheduledThreadPoolExecutor {
        private final Deadlines deadlines = new Deadlines(this);

        Watchdog(int threads, java.util.concurrent.ThreadFactory factory) {
            super(threads, factory);
        }
    }
}
