package dev.sqlguard.llm.internal;

import java.time.Duration;

/** Waits between retries; tests pass one that records the waits instead of sleeping. */
@FunctionalInterface
public interface Sleeper {
    Sleeper THREAD = d -> Thread.sleep(d.toMillis());

    void sleep(Duration duration) throws InterruptedException;
}
