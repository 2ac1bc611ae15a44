package dev.sqlguard.domain;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * Resource bounds for one call.
 *
 * @param maxRows rows returned at most; one more is read to know whether the result was cut
 * @param maxCellChars characters per cell at most (binary: base64 characters)
 * @param maxBytes bytes of the projected rows at most (their JSON size)
 * @param timeout wall-clock time for validation, execution and projection
 * @param memoryBytes engine memory at most, where the engine can bound it
 * @param threads engine worker threads, where the engine can bound them
 * @param maxSqlLength characters of SQL text accepted at most, checked before parsing
 */
public record Limits(
        int maxRows,
        int maxCellChars,
        long maxBytes,
        Duration timeout,
        long memoryBytes,
        int threads,
        int maxSqlLength) {

    public static final int DEFAULT_MAX_ROWS = 1_000;
    public static final int DEFAULT_MAX_CELL_CHARS = 1_000;
    public static final long DEFAULT_MAX_BYTES = 1L << 20;
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    public static final long DEFAULT_MEMORY_BYTES = 256L * 1000 * 1000;
    public static final int DEFAULT_THREADS = 1;
    public static final int DEFAULT_MAX_SQL_LENGTH = 100 * 1024;

    private static final Limits DEFAULTS = new Limits(
            DEFAULT_MAX_ROWS, DEFAULT_MAX_CELL_CHARS, DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT,
            DEFAULT_MEMORY_BYTES, DEFAULT_THREADS, DEFAULT_MAX_SQL_LENGTH);

    public Limits {
        requireNonNull(timeout, "timeout is null");
        requirePositive(maxRows, "maxRows");
        requirePositive(maxCellChars, "maxCellChars");
        requirePositive(maxBytes, "maxBytes");
        requirePositive(memoryBytes, "memoryBytes");
        requirePositive(threads, "threads");
        requirePositive(maxSqlLength, "maxSqlLength");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive");
        }
        if (maxRows > 1_000_000) {
            throw new IllegalArgumentException("maxRows must be at most 1000000");
        }
        if (threads > 1024) {
            throw new IllegalArgumentException("threads must be at most 1024");
        }
    }

    public static Limits defaults() {
        return DEFAULTS;
    }

    public Limits withMaxRows(int value) {
        return new Limits(value, maxCellChars, maxBytes, timeout, memoryBytes, threads, maxSqlLength);
    }

    public Limits withMaxCellChars(int value) {
        return new Limits(maxRows, value, maxBytes, timeout, memoryBytes, threads, maxSqlLength);
    }

    public Limits withMaxBytes(long value) {
        return new Limits(maxRows, maxCellChars, value, timeout, memoryBytes, threads, maxSqlLength);
    }

    public Limits withTimeout(Duration value) {
        return new Limits(maxRows, maxCellChars, maxBytes, value, memoryBytes, threads, maxSqlLength);
    }

    public Limits withMemoryBytes(long value) {
        return new Limits(maxRows, maxCellChars, maxBytes, timeout, value, threads, maxSqlLength);
    }

    public Limits withThreads(int value) {
        return new Limits(maxRows, maxCellChars, maxBytes, timeout, memoryBytes, value, maxSqlLength);
    }

    public Limits withMaxSqlLength(int value) {
        return new Limits(maxRows, maxCellChars, maxBytes, timeout, memoryBytes, threads, value);
    }

    private static void requirePositive(long value, String name) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
    }
}
