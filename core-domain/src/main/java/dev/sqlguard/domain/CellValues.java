package dev.sqlguard.domain;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.temporal.TemporalAccessor;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Converts engine values into JSON-safe values: exact decimals, ISO-8601 dates and times (one format
 * per type, seconds always shown), binary as base64, lists as JSON arrays and structs and maps as
 * JSON objects of the same value types, every string cut to the cell limit and every nested value
 * cut to it as a whole (trailing elements dropped).
 */
public final class CellValues {
    /** ISO-8601 with seconds always present and a fraction only when it is not zero. */
    private static final DateTimeFormatter TIME = DateTimeFormatter.ISO_LOCAL_TIME;
    private static final DateTimeFormatter DATE_TIME = DateTimeFormatter.ISO_LOCAL_DATE_TIME;
    private static final DateTimeFormatter OFFSET_DATE_TIME = DateTimeFormatter.ISO_OFFSET_DATE_TIME;
    private static final DateTimeFormatter OFFSET_TIME = DateTimeFormatter.ISO_OFFSET_TIME;

    private CellValues() {
    }

    /** A converted cell and whether it was cut to the cell limit. */
    public record Cell(Object value, boolean cut) {
    }

    public static Cell convert(Object raw, int maxChars) {
        return convert(raw, maxChars, key -> false);
    }

    /**
     * @param sensitiveKey whether a field of a struct or map must be redacted by its name, as a
     *     column of that name would be
     */
    public static Cell convert(Object raw, int maxChars, Predicate<String> sensitiveKey) {
        Budget budget = new Budget(maxChars);
        Object value = value(raw, budget, sensitiveKey);
        return new Cell(value, budget.cut);
    }

    /** Characters of JSON text a nested value may still take. */
    private static final class Budget {
        long left;
        boolean cut;

        Budget(long left) {
            this.left = left;
        }
    }

    private static Object value(Object raw, Budget budget, Predicate<String> sensitiveKey) {
        if (raw instanceof Collection<?> items) {
            return list(items, budget, sensitiveKey);
        }
        if (raw instanceof Object[] array) {
            return list(Arrays.asList(array), budget, sensitiveKey);
        }
        if (raw instanceof Map<?, ?> map) {
            return object(map, budget, sensitiveKey);
        }
        Cell cell = scalar(raw, (int) Math.max(0, Math.min(Integer.MAX_VALUE, budget.left)));
        budget.cut |= cell.cut();
        budget.left -= JsonValues.jsonBytes(cell.value());
        return cell.value();
    }

    private static List<Object> list(Collection<?> items, Budget budget, Predicate<String> sensitiveKey) {
        List<Object> out = new ArrayList<>(Math.min(items.size(), 1024));
        budget.left -= 2;
        for (Object item : items) {
            if (budget.left <= 0) {
                budget.cut = true;
                break;
            }
            out.add(value(item, budget, sensitiveKey));
            budget.left -= 1;
        }
        return Collections.unmodifiableList(out);
    }

    private static Map<String, Object> object(Map<?, ?> map, Budget budget, Predicate<String> sensitiveKey) {
        Map<String, Object> out = new LinkedHashMap<>();
        budget.left -= 2;
        for (Map.Entry<?, ?> e : map.entrySet()) {
            if (budget.left <= 0) {
                budget.cut = true;
                break;
            }
            String key = String.valueOf(e.getKey());
            budget.left -= JsonValues.jsonBytes(key) + 2;
            out.put(key, sensitiveKey.test(key) ? ResultProjector.REDACTED : value(e.getValue(), budget, sensitiveKey));
        }
        return Collections.unmodifiableMap(out);
    }

    private static Cell scalar(Object raw, int maxChars) {
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
        if (raw instanceof TemporalAccessor temporal) {
            return text(temporal(temporal), maxChars);
        }
        return text(String.valueOf(raw), maxChars);
    }

    /** One ISO-8601 text per type: seconds always shown, so one column never mixes 10:00 and 10:00:05. */
    static String temporal(TemporalAccessor value) {
        if (value instanceof LocalTime t) {
            return TIME.format(t);
        }
        if (value instanceof LocalDateTime t) {
            return DATE_TIME.format(t);
        }
        if (value instanceof OffsetDateTime t) {
            return OFFSET_DATE_TIME.format(t);
        }
        if (value instanceof OffsetTime t) {
            return OFFSET_TIME.format(t);
        }
        if (value instanceof ZonedDateTime t) {
            return OFFSET_DATE_TIME.format(t.toOffsetDateTime());
        }
        return value.toString(); // LocalDate, Instant, Year, ...: their toString is ISO-8601 and complete
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
