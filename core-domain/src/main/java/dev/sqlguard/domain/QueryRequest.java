package dev.sqlguard.domain;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * One tool call: run {@code sql} on source {@code sourceId} with positional parameters.
 *
 * <p>Parameters are the common Java values JDBC binds: {@code null}, {@link String}, {@link Boolean},
 * integral numbers ({@code Byte}, {@code Short}, {@code Integer}, {@code Long}, {@link BigInteger}),
 * {@link BigDecimal}, finite {@link Double} and {@link Float}, {@link LocalDate}, {@link LocalTime},
 * {@link LocalDateTime}, {@link OffsetDateTime}, {@link Instant} ({@link ZonedDateTime} is taken as its
 * {@code OffsetDateTime}), {@link UUID} and {@code byte[]} (copied). Anything else is refused here,
 * before any engine sees it. Each engine binds them as its driver's own types (docs/configuration.md,
 * "Parameter types").
 *
 * <p>{@code attributes} are who the caller is, as the host that accepted the call knows it (a tenant,
 * say): the row filters of {@link RowPolicy} bind them. Names are folded to lower case; a model never
 * sets them.
 */
public record QueryRequest(String sourceId, String sql, List<Object> params, String requestId, Map<String, String> attributes) {
    public QueryRequest {
        requireNonNull(sourceId, "sourceId is null");
        if (sourceId.isBlank()) {
            throw new IllegalArgumentException("sourceId is blank");
        }
        requireNonNull(sql, "sql is null");
        requireNonNull(params, "params is null");
        List<Object> copy = new ArrayList<>(params.size());
        for (int i = 0; i < params.size(); i++) {
            Object value = params.get(i);
            if (!isBindable(value)) {
                throw new GuardException(ErrorCode.UNSUPPORTED_PARAMETER,
                        "Parameter " + (i + 1) + " has an unsupported type; use a string, number, boolean, date, time,"
                                + " timestamp, UUID, bytes or null.");
            }
            copy.add(normalized(value));
        }
        params = Collections.unmodifiableList(copy);
        requireNonNull(requestId, "requestId is null");
        if (requestId.isBlank()) {
            throw new IllegalArgumentException("requestId is blank");
        }
        attributes = foldedAttributes(attributes);
    }

    /** A request without caller attributes. */
    public QueryRequest(String sourceId, String sql, List<Object> params, String requestId) {
        this(sourceId, sql, params, requestId, Map.of());
    }

    /** This request carrying the caller's attributes. */
    public QueryRequest withAttributes(Map<String, String> values) {
        return new QueryRequest(sourceId, sql, params, requestId, values);
    }

    private static Map<String, String> foldedAttributes(Map<String, String> attributes) {
        requireNonNull(attributes, "attributes is null");
        Map<String, String> out = new java.util.TreeMap<>();
        attributes.forEach((name, value) -> {
            String key = Names.fold(Names.requireName(name, "attribute name"));
            requireNonNull(value, "attribute " + key + " is null");
            if (value.length() > 4096) {
                throw new IllegalArgumentException("attribute " + key + " is longer than 4096 characters");
            }
            if (out.put(key, value) != null) {
                throw new IllegalArgumentException("attribute " + key + " is given twice");
            }
        });
        return java.util.Collections.unmodifiableMap(out);
    }

    public static QueryRequest of(String sourceId, String sql, Object... params) {
        return new QueryRequest(sourceId, sql, java.util.Arrays.asList(params), UUID.randomUUID().toString());
    }

    public static QueryRequest of(String sourceId, String sql, List<Object> params) {
        return new QueryRequest(sourceId, sql, params, UUID.randomUUID().toString());
    }

    /** Whether a parameter value has a type every engine can bind. */
    public static boolean isBindable(Object value) {
        return value == null || value instanceof String || value instanceof Boolean
                || value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte
                || value instanceof BigInteger || value instanceof BigDecimal
                || (value instanceof Double d && Double.isFinite(d)) || (value instanceof Float f && Float.isFinite(f))
                || value instanceof LocalDate || value instanceof LocalTime || value instanceof LocalDateTime
                || value instanceof OffsetDateTime || value instanceof ZonedDateTime || value instanceof Instant
                || value instanceof UUID || value instanceof byte[];
    }

    /**
     * The value as engines receive it: smaller integers as {@code Long}, a {@code Float} as the
     * {@code Double} of the same value, a {@code ZonedDateTime} as its {@code OffsetDateTime}, and a
     * copy of a byte array (the caller may change its own).
     */
    private static Object normalized(Object value) {
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof Float f) {
            return (double) f;
        }
        if (value instanceof ZonedDateTime z) {
            return z.toOffsetDateTime();
        }
        if (value instanceof byte[] bytes) {
            return bytes.clone();
        }
        return value;
    }
}
