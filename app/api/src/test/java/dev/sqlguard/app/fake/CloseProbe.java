package dev.sqlguard.app.fake;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import dev.sqlguard.app.SqlGuard;

/**
 * Proves that {@link SqlGuard#close()} waits for a call in flight: the call's statement names
 * {@code hold_NAME} and waits at {@link FakeEngineFactory#GATES}' gate NAME, close starts on another
 * thread, and the engine must stay open until the statement is released.
 */
public final class CloseProbe {
    private CloseProbe() {
    }

    /**
     * Runs {@code call} (whose statement names {@code hold_<gate>}) on a thread of its own, closes
     * {@code guard} while it is held, checks that close waits for it, releases it and returns what
     * the call returned.
     */
    public static <T> T closeDuring(SqlGuard guard, String gate, Supplier<T> call) throws InterruptedException {
        FakeEngineFactory.Gate held = new FakeEngineFactory.Gate(new CountDownLatch(1), new CountDownLatch(1));
        FakeEngineFactory.GATES.put(gate, held);
        AtomicReference<T> result = new AtomicReference<>();
        Thread caller = new Thread(() -> result.set(call.get()), "close-probe-call");
        Thread closer = new Thread(guard::close, "close-probe-close");
        try {
            caller.start();
            assertThat(held.entered().await(20, TimeUnit.SECONDS)).as("the call reached its statement").isTrue();
            int closed = FakeEngineFactory.CLOSED.get();
            closer.start();
            // close either returns (it does not wait) or parks on the calls in flight
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (closer.getState() != Thread.State.TERMINATED && closer.getState() != Thread.State.WAITING
                    && closer.getState() != Thread.State.TIMED_WAITING && System.nanoTime() < until) {
                Thread.sleep(1);
            }
            assertThat(closer.getState()).as("close() waits for the call in flight").isNotEqualTo(Thread.State.TERMINATED);
            assertThat(FakeEngineFactory.CLOSED.get()).as("no engine is closed under the call").isEqualTo(closed);
        } finally {
            held.release().countDown();
            caller.join(TimeUnit.SECONDS.toMillis(20));
            if (closer.getState() != Thread.State.NEW) {
                closer.join(TimeUnit.SECONDS.toMillis(20));
            }
            FakeEngineFactory.GATES.remove(gate);
        }
        assertThat(closer.isAlive()).as("close() returns once the call is done").isFalse();
        return result.get();
    }
}
