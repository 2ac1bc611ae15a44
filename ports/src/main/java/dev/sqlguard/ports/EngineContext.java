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

    /** The record, in the work directory, of the files outside it that go with it: one absolute path a line. */
    String LEFTOVERS = "leftovers";

    /**
     * Records that this process created {@code file} next to the work directory (directly in its
     * parent folder, such as a driver's native library extracted to the temporary folder), so that
     * it goes with the work directory: when the process ends without cleaning up (SIGKILL), the
     * host's sweep at the next start removes the file with the folder. A file elsewhere is not
     * recorded. Never throws: a record that cannot be written leaves the file to the system.
     */
    default void leavesBehind(Path file) {
        Path folder = workDirectory().toAbsolutePath();
        Path absolute = file.toAbsolutePath().normalize();
        if (folder.getParent() == null || !folder.getParent().equals(absolute.getParent())) {
            return;
        }
        Path record = folder.resolve(LEFTOVERS);
        try {
            java.nio.file.Files.createDirectories(folder);
            synchronized (EngineContext.class) {
                if (java.nio.file.Files.exists(record)
                        && java.nio.file.Files.readAllLines(record, java.nio.charset.StandardCharsets.UTF_8).contains(absolute.toString())) {
                    return;
                }
                java.nio.file.Files.writeString(record, absolute + "\n", java.nio.charset.StandardCharsets.UTF_8,
                        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
            }
        } catch (java.io.IOException | RuntimeException e) {
            // the file stays, as it would without the record
        }
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
