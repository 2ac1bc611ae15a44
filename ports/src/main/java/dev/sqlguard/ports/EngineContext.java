package dev.sqlguard.ports;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.time.Clock;

/**
 * What the host gives every engine: a private working directory (temp files, spill space) that no
 * query may name, and a clock.
 */
public record EngineContext(Path workDirectory, Clock clock) {
    public EngineContext {
        requireNonNull(workDirectory, "workDirectory is null");
        requireNonNull(clock, "clock is null");
    }

    public static EngineContext of(Path workDirectory) {
        return new EngineContext(workDirectory, Clock.systemUTC());
    }
}
