package dev.sqlguard.domain;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;

/**
 * One tool call: run {@code sql} on source {@code sourceId} with positional parameters.
 *
 * <p>Parameters are JSON-like scalars: {@code null}, {@link String}, {@link Boolean}, integral
 * numbers, {@link BigDecimal}, {@link Double}, {@link LocalDate}, {@link LocalTime} or
 * {@link LocalDateTime}. Anything else is refused here, before any engine sees it.
 */
public record QueryRequest(String sourceId, String sql, List<Object> params, String requestId) {
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
                        "Parameter " + (i + 1) + " has an unsupported type; use a string, number, boolean, date or null.");
            }
            copy.add(value instanceof Integer || value instanceof Short || value instanceof Byte
                    ? Long.valueOf(((Number) value).longValue()) : value);
        }
        params = Collections.unmodifiableList(copy);
        requireNonNull(requestId, "requestId is null");
        if (requestId.isBlank()) {
            throw new IllegalArgumentException("requestId is blank");
        }
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
                || (value instanceof Double d && Double.isFinite(d))
                || value instanceof LocalDate || value instanceof LocalTime || value instanceof LocalDateTime;
    }
}
