package dev.sqlguard.domain;

import java.math.BigDecimal;
import java.math.BigInteger;

/** JSON-safe scalar checks shared by {@link ToolResult} and the projector. */
public final class JsonValues {
    private JsonValues() {
    }

    public static boolean isJsonSafe(Object value) {
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
        return value.toString().length();
    }
}
