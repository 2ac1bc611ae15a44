package dev.sqlguard.llm.internal;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Optional;
import java.util.function.DoubleSupplier;

/**
 * Exponential backoff with "equal jitter": before retry {@code n} (0-based) the wait is drawn
 * from {@code [d/2, d)} where {@code d = min(maxBackoff, initialBackoff * 2^n)}. A server's
 * {@code Retry-After} (whole seconds) replaces the computed wait, capped at {@code maxBackoff}.
 */
public final class Backoff {
    private final Duration initial;
    private final Duration max;
    private final DoubleSupplier random;

    /** @param random values in {@code [0, 1)} */
    public Backoff(Duration initial, Duration max, DoubleSupplier random) {
        this.initial = requireNonNull(initial, "initial is null");
        this.max = requireNonNull(max, "max is null");
        this.random = requireNonNull(random, "random is null");
    }

    public Duration delay(int retry, Optional<Duration> retryAfter) {
        if (retryAfter.isPresent()) {
            return retryAfter.get().compareTo(max) > 0 ? max : retryAfter.get();
        }
        long initialMs = initial.toMillis();
        long capMs = max.toMillis();
        long d = retry >= 62 || initialMs > (capMs >> Math.min(retry, 62)) ? capMs : Math.min(capMs, initialMs << retry);
        double r = Math.max(0.0, Math.min(random.getAsDouble(), 1.0));
        return Duration.ofMillis(d / 2 + (long) ((d - d / 2) * r));
    }

    /** The delay a {@code Retry-After} header asks for, if it holds whole seconds; HTTP dates are ignored. */
    public static Optional<Duration> parseRetryAfter(Optional<String> header) {
        if (header.isEmpty()) {
            return Optional.empty();
        }
        String value = header.get().strip();
        if (value.isEmpty() || value.length() > 9 || !value.chars().allMatch(Character::isDigit)) {
            return Optional.empty();
        }
        return Optional.of(Duration.ofSeconds(Long.parseLong(value)));
    }
}
