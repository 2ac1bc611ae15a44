package dev.sqlguard.app.internal.config;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses durations ({@code 500ms, 10s, 1m, 2h}) and byte sizes ({@code 256MB, 1GiB, 1048576}). */
public final class Units {
    private static final Pattern DURATION = Pattern.compile("(\\d{1,9})\\s*(ms|s|m|h)");
    private static final Pattern SIZE = Pattern.compile("(\\d{1,15})\\s*(b|kb|mb|gb|tb|kib|mib|gib|tib)?");

    private Units() {
    }

    /** A positive duration with a unit: {@code ms}, {@code s}, {@code m} or {@code h}. */
    public static Optional<Duration> duration(String text) {
        Matcher m = DURATION.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            return Optional.empty();
        }
        long n = Long.parseLong(m.group(1));
        Duration d = switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
        };
        return d.isZero() ? Optional.empty() : Optional.of(d);
    }

    /**
     * A positive size in bytes: a plain number, or a number with {@code B}, {@code KB}, {@code MB},
     * {@code GB}, {@code TB} (powers of 1000) or {@code KiB}, {@code MiB}, {@code GiB}, {@code TiB}
     * (powers of 1024). Case does not matter.
     */
    public static Optional<Long> bytes(String text) {
        Matcher m = SIZE.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            return Optional.empty();
        }
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "b" : m.group(2);
        long factor = switch (unit) {
            case "b" -> 1L;
            case "kb" -> 1_000L;
            case "mb" -> 1_000_000L;
            case "gb" -> 1_000_000_000L;
            case "tb" -> 1_000_000_000_000L;
            case "kib" -> 1L << 10;
            case "mib" -> 1L << 20;
            case "gib" -> 1L << 30;
            default -> 1L << 40;
        };
        if (n <= 0 || n > Long.MAX_VALUE / factor) {
            return Optional.empty();
        }
        return Optional.of(n * factor);
    }
}
