package dev.sqlguard.jdbc;

import static java.util.Objects.requireNonNull;

import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The deadlines of one source's calls on its watchdog executor, without a timer task per call.
 * A call arms its deadline and disarms it when it ends; the executor holds one sweep, scheduled at
 * the earliest deadline that was armed and may still be live. The sweep runs each deadline that has
 * passed and is still armed as a task of its own on the executor (a stop that blocks holds up no
 * other), drops the disarmed ones, and schedules itself at the next live deadline.
 *
 * <p>Back-to-back calls with the same time limit therefore touch the executor only when one of
 * them arms a deadline earlier than the pending sweep, or when the queue is empty: a per-call timer
 * on a {@code ScheduledThreadPoolExecutor} became the head of its queue on each call, which woke
 * the watchdog thread once per call and took its queue's lock twice. Disarmed deadlines wait for
 * the next sweep; every {@value #SWEEP_EVERY} arms a sweep runs at once, so they never pile up.
 * Thread-safe.
 */
final class Deadlines {
    /** Arms between two sweeps after which a sweep runs at once, to drop the disarmed ones. */
    static final int SWEEP_EVERY = 1024;

    /** An armed deadline; {@link #disarm()} before it passes and its action never runs. */
    interface Armed {
        void disarm();
    }

    /** An armed deadline: its action until it runs or is disarmed, then {@code null}. */
    private static final class Entry extends AtomicReference<Runnable> implements Armed {
        private static final long serialVersionUID = 1L;
        private final long deadline;

        Entry(long deadline, Runnable action) {
            super(action);
            this.deadline = deadline;
        }

        @Override
        public void disarm() {
            set(null);
        }
    }

    /** The pending sweep and the {@link System#nanoTime()} it runs at. */
    private record Sweep(long at, ScheduledFuture<?> future) {
    }

    private final ScheduledExecutorService executor;
    private final ConcurrentLinkedQueue<Entry> entries = new ConcurrentLinkedQueue<>();
    private final AtomicInteger armedSinceSweep = new AtomicInteger();
    private final Object lock = new Object();
    /** Written under {@link #lock}; {@code null} when no sweep is pending (none needed, or one is running). */
    private volatile Sweep pending;

    Deadlines(ScheduledExecutorService executor) {
        this.executor = requireNonNull(executor, "executor is null");
    }

    /**
     * Runs {@code action} on the executor once {@code deadlineNanos} (a {@link System#nanoTime()}
     * value) has passed, unless it is disarmed first.
     *
     * @throws RejectedExecutionException the executor is shut down
     */
    Armed arm(long deadlineNanos, Runnable action) {
        requireNonNull(action, "action is null");
        if (executor.isShutdown()) {
            throw new RejectedExecutionException("the watchdog is shut down");
        }
        Entry entry = new Entry(deadlineNanos, action);
        entries.add(entry);
        // read after the add: a sweep clears `pending` before it walks the entries, so either it
        // sees this entry or this call sees no pending sweep and schedules one
        Sweep sweep = pending;
        if (sweep == null || deadlineNanos - sweep.at() < 0) {
            sweepBy(deadlineNanos);
        }
        if (armedSinceSweep.incrementAndGet() >= SWEEP_EVERY) {
            armedSinceSweep.set(0);
            try {
                executor.execute(this::sweep); // drops the disarmed entries
            } catch (RejectedExecutionException e) {
                // shut down meanwhile: nothing is left to sweep for
            }
        }
        return entry;
    }

    /** Makes sure a sweep is pending at or before {@code at}. */
    private void sweepBy(long at) {
        synchronized (lock) {
            Sweep sweep = pending;
            if (sweep != null && sweep.at() - at <= 0) {
                return;
            }
            if (sweep != null) {
                sweep.future().cancel(false); // an earlier sweep walks every entry anyway
            }
            ScheduledFuture<?> future = executor.schedule(this::sweep, at - System.nanoTime(), TimeUnit.NANOSECONDS);
            pending = new Sweep(at, future);
        }
    }

    private void sweep() {
        synchronized (lock) {
            Sweep sweep = pending;
            if (sweep != null) {
                sweep.future().cancel(false); // this one, or a later one this sweep makes redundant
            }
            pending = null;
        }
        armedSinceSweep.set(0);
        long now = System.nanoTime();
        boolean live = false;
        long next = 0;
        for (Iterator<Entry> it = entries.iterator(); it.hasNext();) {
            Entry entry = it.next();
            if (entry.get() == null) {
                it.remove(); // disarmed, or run by a concurrent sweep
            } else if (entry.deadline - now <= 0) {
                Runnable action = entry.getAndSet(null);
                it.remove();
                if (action != null) {
                    run(action);
                }
            } else if (!live || entry.deadline - next < 0) {
                live = true;
                next = entry.deadline;
            }
        }
        if (live) {
            sweepBy(next);
        }
    }

    private void run(Runnable action) {
        try {
            executor.execute(action);
        } catch (RejectedExecutionException e) {
            // shut down: its source is closing, and a closed source's calls end with it
        }
    }

    /** Deadlines held now, disarmed ones not yet swept included (for tests). */
    int held() {
        return entries.size();
    }
}
