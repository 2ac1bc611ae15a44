package dev.sqlguard.ports;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.time.Clock;

/**
 * What the host gives every engine it creates: a private working directory (temp files, spill space)
 * that no query may name, and a clock. An interface so that it can grow: anything added later comes
 * with a default.
 */
public interface EngineContext {
    /** A folder private to the host, for the engine's own files; it may not exist yet. */
    Path workDirectory();

    /** The clock the engine reads time from. */
    default Clock clock() {
        return Clock.systemUTC();
    }

    /** A context with {@code workDirectory} and the system clock (UTC). */
    static EngineContext of(Path workDirectory) {
        return of(workDirectory, Clock.systemUTC());
    }

    static EngineContext of(Path workDirectory, Clock clock) {
        return new Simple(workDirectory, clock);
    }

    /** The context {@link #of} returns. */
    record Simple(Path workDirectory, Clock clock) implements EngineContext {
        public Simple {
            requireNonNull(workDirectory, "workDirectory is null");
            requireNonNull(clock, "clock is null");
        }
    }
}
