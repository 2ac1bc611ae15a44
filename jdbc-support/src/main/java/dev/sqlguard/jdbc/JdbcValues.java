package dev.sqlguard.jdbc;

import java.math.BigDecimal;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Struct;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JDBC values to the types the domain accepts ({@link dev.sqlguard.domain.port.ResultCursor}):
 * {@code java.time} instead of {@code java.sql} dates and times, lists for arrays and structs, maps
 * for maps, {@code byte[]} for BLOBs, and text for CLOBs, at every level of nesting.
 */
public final class JdbcValues {
    /**
     * The standard reader: temporal and exact numeric columns read as their {@code java.time} or
     * {@link BigDecimal} type (so that no driver's default, such as {@code java.sql.Timestamp} in the
     * JVM's time zone, sits in between), everything else through {@link #standard(Object)}.
     */
    public static final JdbcCursor.ValueReader STANDARD = JdbcValues::read;

    /** The most characters of a CLOB or bytes of a BLOB read into one value; the domain bounds cells far below it. */
    static final int MAX_LOB = 16 * 1024 * 1024;

    private JdbcValues() {
    }

    private static Object read(ResultSet rs, int column, int jdbcType) throws SQLException {
        return switch (jdbcType) {
            case Types.DATE -> rs.getObject(column, LocalDate.class);
            case Types.TIME -> rs.getObject(column, LocalTime.class);
            case Types.TIMESTAMP -> rs.getObject(column, LocalDateTime.class);
            case Types.TIMESTAMP_WITH_TIMEZONE -> rs.getObject(column, OffsetDateTime.class);
            case Types.DECIMAL, Types.NUMERIC -> rs.getBigDecimal(column);
            default -> standard(rs.getObject(column));
        };
    }

    /** The name of a {@link java.sql.Types} code ({@code VARCHAR}, {@code TIMESTAMP_WITH_TIMEZONE}), or {@code OTHER} for a driver's own code. */
    public static String typeName(int jdbcType) {
        try {
            return java.sql.JDBCType.valueOf(jdbcType).getName();
        } catch (IllegalArgumentException e) {
            return "OTHER";
        }
    }

    /** A value of any JDBC type, converted with {@link #convert}, nested values included. */
    public static Object standard(Object value) throws SQLException {
        return convert(value, JdbcValues::standard);
    }

    /**
     * Converts the standard {@code java.sql} types and hands every nested value to {@code nested}, so
     * that an adapter with driver-specific types of its own converts those and delegates the rest
     * here, at every level. Values of other types are returned as they are.
     */
    public static Object convert(Object value, ValueConverter nested) throws SQLException {
        if (value == null) {
            return null;
        }
        if (value instanceof java.sql.Timestamp t) {
            return t.toLocalDateTime();
        }
        if (value instanceof java.sql.Date d) {
            return d.toLocalDate();
        }
        if (value instanceof java.sql.Time t) {
            return t.toLocalTime();
        }
        if (value instanceof Array array) {
            Object items = array.getArray();
            List<Object> out = new ArrayList<>();
            if (items instanceof Object[] objects) {
                for (Object item : objects) {
                    out.add(nested.convert(item));
                }
            } else if (items != null) {
                int n = java.lang.reflect.Array.getLength(items); // a primitive array
                for (int i = 0; i < n; i++) {
                    out.add(nested.convert(java.lang.reflect.Array.get(items, i)));
                }
            }
            return out;
        }
        if (value instanceof Struct struct) {
            List<Object> out = new ArrayList<>();
            for (Object item : struct.getAttributes()) {
                out.add(nested.convert(item));
            }
            return out;
        }
        if (value instanceof Blob blob) {
            return blob.getBytes(1, (int) Math.min(blob.length(), MAX_LOB));
        }
        if (value instanceof Clob clob) {
            return clob.getSubString(1, (int) Math.min(clob.length(), MAX_LOB));
        }
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                out.put(nested.convert(e.getKey()), nested.convert(e.getValue()));
            }
            return out;
        }
        return value;
    }

    /** One value to the domain's types; may throw the driver's {@link SQLException}. */
    @FunctionalInterface
    public interface ValueConverter {
        Object convert(Object value) throws SQLException;
    }
}
