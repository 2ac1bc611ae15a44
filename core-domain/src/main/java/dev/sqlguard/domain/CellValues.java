package dev.sqlguard.domain;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.temporal.TemporalAccessor;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.Map;

/**
 * Converts engine values into JSON-safe scalars: exact decimals, ISO-8601 dates and times, binary
 * as base64, and every string cut to the cell limit.
 */
public final class CellValues {
    private CellValues() {
    }

    /** A converted cell and whether it was cut to the cell limit. */
    public record Cell(Object value, boolean cut) {
    }

    public static Cell convert(Object raw, int maxChars) {
        if (raw == null || raw instanceof Boolean || raw instanceof Long || raw instanceof BigInteger) {
            return new Cell(raw, false);
        }
        if (raw instanceof Integer || raw instanceof Short || raw instanceof Byte) {
            return new Cell(((Number) raw).longValue(), false);
        }
        if (raw instanceof BigDecimal d) {
            return new Cell(d, false);
        }
        if (raw instanceof Double || raw instanceof Float) {
            double d = ((Number) raw).doubleValue();
            return Double.isFinite(d) ? new Cell(raw instanceof Float f ? new BigDecimal(f.toString()) : d, false)
                    : text(Double.toString(d), maxChars);
        }
        if (raw instanceof byte[] bytes) {
            return binary(bytes, maxChars);
        }
        if (raw instanceof TemporalAccessor) {
            return text(raw.toString(), maxChars); // java.time toString() is ISO-8601
        }
        if (raw instanceof CharSequence || raw instanceof Character) {
            return text(raw.toString(), maxChars);
        }
        if (raw instanceof Collection<?> || raw instanceof Map<?, ?>) {
            return text(raw.toString(), maxChars);
        }
        if (raw instanceof Object[] array) {
            return text(Arrays.deepToString(array), maxChars);
        }
        return text(String.valueOf(raw), maxChars);
    }

    private static Cell binary(byte[] bytes, int maxChars) {
        // base64 of n bytes is 4*ceil(n/3) chars: encode only as many bytes as fit
        int fitBytes = (int) Math.min(bytes.length, (maxChars / 4L) * 3L);
        boolean cut = fitBytes < bytes.length;
        byte[] head = cut ? Arrays.copyOf(bytes, fitBytes) : bytes;
        return new Cell(Base64.getEncoder().encodeToString(head), cut);
    }

    private static Cell text(String s, int maxChars) {
        if (s.length() <= maxChars) {
            return new Cell(s, false);
        }
        int end = maxChars;
        if (end > 0 && Character.isHighSurrogate(s.charAt(end - 1))) {
            end--; // never split a surrogate pair
        }
        return new Cell(s.substring(0, end), true);
    }
}
