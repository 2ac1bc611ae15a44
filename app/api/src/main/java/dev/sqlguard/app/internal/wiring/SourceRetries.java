package dev.sqlguard.app.internal.wiring;

import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The background attempts to open sources that could not open: one daemon thread
 * ({@code sqlguard-source-retry}), created on the first attempt scheduled. After {@link #stop()}
 * nothing more is scheduled. Thread-safe.
 */
public final class SourceRetries {
    private ScheduledExecutorService executor;
    private boolean stopped;

    /** Runs {@code attempt} after {@code delayMs} milliseconds, unless stopped. */
    public synchronized void schedule(Runnable attempt, long delayMs) {
        if (stopped) {
            return;
        }
        if (executor == null) {
            executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
                Thread thread = new Thread(runnable, "sqlguard-source-retry");
                thread.setDaemon(true);
                return thread;
            });
        }
        try {
            executor.schedule(attempt, delayMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // stopping
        }
    }

    /** Cancels every scheduled attempt and interrupts one under way. */
    public synchronized void stop() {
        stopped = true;
        if (executor != null) {
            executor.shutdownNow();
        }
    }
}
