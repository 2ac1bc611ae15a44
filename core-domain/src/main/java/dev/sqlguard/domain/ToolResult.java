package dev.sqlguard.domain;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The public result of one tool call; its JSON form is the project's public contract:
 * {@code id, status, source, sql, columns, rows, returned_count, truncated, limits_hit, error, elapsed_ms}.
 *
 * <p>Rows hold JSON-safe values only: {@code null}, {@link Boolean}, {@link Long},
 * {@link java.math.BigInteger}, {@link java.math.BigDecimal}, {@link Double} (finite), {@link String},
 * and lists and maps (text keys) of these, for nested engine values.
 */
public record ToolResult(
        String id,
        ToolStatus status,
        String source,
        Optional<String> sql,
        List<ResultColumn> columns,
        List<List<Object>> rows,
        boolean truncated,
        Set<LimitKind> limitsHit,
        Optional<ToolError> error,
        long elapsedMs) {

    public ToolResult {
        requireNonNull(id, "id is null");
        requireNonNull(status, "status is null");
        requireNonNull(source, "source is null");
        requireNonNull(sql, "sql is null");
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
        List<List<Object>> rowCopy = new ArrayList<>(requireNonNull(rows, "rows is null").size());
        for (List<Object> row : rows) {
            if (row.size() != columns.size()) {
                throw new IllegalArgumentException("row has " + row.size() + " cells but there are " + columns.size() + " columns");
            }
            for (Object cell : row) {
                if (!JsonValues.isJsonSafe(cell)) {
                    throw new IllegalArgumentException("cell is not a JSON-safe value: " + cell.getClass().getName());
                }
            }
            rowCopy.add(Collections.unmodifiableList(new ArrayList<>(row)));
        }
        rows = Collections.unmodifiableList(rowCopy);
        limitsHit = limitsHit.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(limitsHit));
        requireNonNull(error, "error is null");
        if (elapsedMs < 0) {
            throw new IllegalArgumentException("elapsedMs is negative");
        }
        boolean failed = status == ToolStatus.REJECTED || status == ToolStatus.ERROR;
        if (failed != error.isPresent()) {
            throw new IllegalArgumentException("status " + status + " and error presence disagree");
        }
        if (status == ToolStatus.NO_EVIDENCE && !rows.isEmpty()) {
            throw new IllegalArgumentException("NO_EVIDENCE with rows");
        }
    }

    public int returnedCount() {
        return rows.size();
    }

    public static ToolResult failure(String id, ToolStatus status, String source, Optional<String> sql,
                                     Set<LimitKind> limitsHit, GuardException error, long elapsedMs) {
        return new ToolResult(id, status, source, sql, List.of(), List.of(), false, limitsHit,
                Optional.of(ToolError.of(error)), elapsedMs);
    }
}
