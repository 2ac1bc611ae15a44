package dev.sqlguard.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The shared deadline sweep: a deadline runs once, not before it passes, and never after it is
 * disarmed; calls that follow each other schedule no task each; disarmed deadlines do not pile up.
 * {@code @Timeout} is only a hang guard.
 */
class DeadlinesTest {
    /** Counts every task handed to it ({@code execute} schedules too). */
    private static final class Counting extends ScheduledThreadPoolExecutor {
        final AtomicInteger scheduled = new AtomicInteger();

        Counting() {
            super(2);
        }

        @Override
        public java.util.concurrent.ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
            scheduled.incrementAndGet();
            return super.schedule(command, delay, unit);
        }
    }

    private Counting executor;
    private Deadlines deadlines;

    @BeforeEach
    void start() {
        executor = new Counting();
        executor.setRemoveOnCancelPolicy(true);
        deadlines = new Deadlines(executor);
    }

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    private static long in(long millis) {
        return System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    }

    @Test
    @Timeout(10)
    void aDeadlineRunsOnceAndNotBeforeItPasses() throws Exception {
        long deadline = in(100);
        CountDownLatch ran = new CountDownLatch(1);
        AtomicLong at = new AtomicLong();
        AtomicInteger runs = new AtomicInteger();
        deadlines.arm(deadline, () -> {
            at.set(System.nanoTime());
            runs.incrementAndGet();
            ran.countDown();
        });
        ran.await();
        assertThat(at.get() - deadline).isGreaterThanOrEqualTo(0);
        Thread.sleep(200);
        assertThat(runs.get()).isEqualTo(1);
        assertThat(deadlines.held()).isZero();
    }

    @Test
    @Timeout(10)
    void aDisarmedDeadlineNeverRuns() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        Deadlines.Armed armed = deadlines.arm(in(50), runs::incrementAndGet);
        armed.disarm();
        CountDownLatch later = new CountDownLatch(1);
        deadlines.arm(in(150), later::countDown); // a live one after it: the sweep passes the disarmed one
        later.await();
        assertThat(runs.get()).isZero();
        assertThat(deadlines.held()).isZero();
    }

    @Test
    @Timeout(10)
    void anEarlierDeadlineArmedAfterALaterOneStillRunsOnTime() throws Exception {
        AtomicLong late = new AtomicLong();
        deadlines.arm(in(5_000), () -> late.set(System.nanoTime()));
        long deadline = in(100);
        CountDownLatch ran = new CountDownLatch(1);
        long start = System.nanoTime();
        deadlines.arm(deadline, ran::countDown);
        ran.await();
        assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(4));
        assertThat(late.get()).as("the later deadline has not run").isZero();
    }

    @Test
    @Timeout(10)
    void callsThatFollowEachOtherScheduleNoTaskEach() {
        deadlines.arm(in(10_000), () -> { }).disarm(); // the first arms the sweep
        assertThat(executor.scheduled.get()).isEqualTo(1);
        for (int i = 0; i < 500; i++) {
            Deadlines.Armed armed = deadlines.arm(in(10_000), () -> { });
            armed.disarm();
        }
        assertThat(executor.scheduled.get()).as("tasks scheduled after 500 more calls").isEqualTo(1);
        assertThat(executor.getQueue()).hasSize(1); // the one pending sweep
    }

    @Test
    @Timeout(30)
    void disarmedDeadlinesDoNotPileUp() throws Exception {
        for (int i = 0; i < Deadlines.SWEEP_EVERY * 5; i++) {
            deadlines.arm(in(60_000), () -> { }).disarm();
        }
        while (executor.getActiveCount() > 0 || !executor.getQueue().stream().allMatch(f -> ((java.util.concurrent.Delayed) f)
                .getDelay(TimeUnit.SECONDS) > 1)) {
            Thread.sleep(5); // let a running sweep finish
        }
        assertThat(deadlines.held()).isLessThanOrEqualTo(Deadlines.SWEEP_EVERY);
    }

    @Test
    @Timeout(60)
    void underManyThreadsEveryLiveDeadlineRunsOnceAndNoDisarmedOneRuns() throws Exception {
        int threads = 8;
        int perThread = 2_000;
        ConcurrentHashMap<Integer, AtomicInteger> runs = new ConcurrentHashMap<>();
        List<Integer> live = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Integer> disarmedInTime = java.util.Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    for (int i = 0; i < perThread; i++) {
                        int id = thread * perThread + i;
                        runs.put(id, new AtomicInteger());
                        long deadline = in(random.nextInt(1, 40));
                        Deadlines.Armed armed = deadlines.arm(deadline, () -> runs.get(id).incrementAndGet());
                        if (random.nextBoolean()) {
                            armed.disarm();
                            if (System.nanoTime() - deadline < 0) {
                                disarmedInTime.add(id);
                            }
                        } else {
                            live.add(id);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        for (int id : live) {
            while (runs.get(id).get() == 0) {
                Thread.sleep(5);
            }
        }
        Thread.sleep(100);
        for (int id : live) {
            assertThat(runs.get(id).get()).as("deadline %d", id).isEqualTo(1);
        }
        for (int id : disarmedInTime) {
            assertThat(runs.get(id).get()).as("disarmed deadline %d", id).isZero();
        }
        assertThat(live).isNotEmpty();
        assertThat(disarmedInTime).isNotEmpty();
    }

    @Test
    void aShutDownWatchdogArmsNothing() {
        executor.shutdownNow();
        assertThatThrownBy(() -> deadlines.arm(in(1_000), () -> { })).isInstanceOf(RejectedExecutionException.class);
    }

    @Test
    @Timeout(10)
    void aSourceWatchdogArmsThroughItsDeadlinesAndAnyOtherExecutorThroughATimer() throws Exception {
        var own = Watchdogs.forSource("test", "deadlines");
        try {
            CountDownLatch ran = new CountDownLatch(2);
            Watchdogs.arm(own, in(20), ran::countDown);
            Watchdogs.arm(executor, in(20), ran::countDown);
            ran.await();
            for (int i = 0; i < 100; i++) {
                Watchdogs.arm(own, in(10_000), () -> { }); // armed and left armed: one sweep serves them all
            }
            assertThat(((ScheduledThreadPoolExecutor) own).getQueue()).hasSize(1);
            int timers = executor.scheduled.get();
            for (int i = 0; i < 100; i++) {
                Watchdogs.arm(executor, in(10_000), () -> { }).disarm();
            }
            assertThat(executor.scheduled.get() - timers).as("a timer each on another executor").isEqualTo(100);
        } finally {
            own.shutdownNow();
        }
    }
}
