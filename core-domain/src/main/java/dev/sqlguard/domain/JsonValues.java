package dev.sqlguard.domain;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;

/** JSON-safe value checks shared by {@link ToolResult} and the projector. */
public final class JsonValues {
    private JsonValues() {
    }

    /** A JSON scalar, or a list of JSON-safe values, or a map from text to JSON-safe values. */
    public static boolean isJsonSafe(Object value) {
        if (value instanceof List<?> list) {
            for (Object item : list) {
                if (!isJsonSafe(item)) {
                    return false;
                }
            }
            return true;
        }
        if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (!(e.getKey() instanceof String) || !isJsonSafe(e.getValue())) {
                    return false;
                }
            }
            return true;
        }
        return value == null || value instanceof String || value instanceof Boolean || value instanceof Long
                || value instanceof BigInteger || value instanceof BigDecimal
                || (value instanceof Double d && Double.isFinite(d));
    }

    /** The number of bytes {@code value} takes in JSON (an upper bound for strings needing escapes). */
    public static long jsonBytes(Object value) {
        if (value == null) {
            return 4;
        }
        if (value instanceof String s) {
            long bytes = 2;
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c == '"' || c == '\\') {
                    bytes += 2;
                } else if (c < 0x20) {
                    bytes += 6;
                } else if (c < 0x80) {
                    bytes += 1;
                } else if (c < 0x800 || Character.isSurrogate(c)) {
                    bytes += 2; // a surrogate pair is 4 bytes in total
                } else {
                    bytes += 3;
                }
            }
            return bytes;
        }
        if (value instanceof BigDecimal d) {
            return d.toString().length();
        }
        if (value instanceof List<?> list) {
            long bytes = 2 + Math.max(0, list.size() - 1);
            for (Object item : list) {
                bytes += jsonBytes(item);
            }
            return bytes;
        }
        if (value instanceof Map<?, ?> map) {
            long bytes = 2 + Math.max(0, map.size() - 1);
            for (Map.Entry<?, ?> e : map.entrySet()) {
                bytes += jsonBytes(String.valueOf(e.getKey())) + 1 + jsonBytes(e.getValue());
            }
            return bytes;
        }
        return value.toString().length();
    }
}
