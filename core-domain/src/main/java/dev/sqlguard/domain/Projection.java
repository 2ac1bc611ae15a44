package dev.sqlguard.domain;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Set;

/** What the projector read: bounded, converted, redacted rows and the limits that cut them. */
public record Projection(List<ResultColumn> columns, List<List<Object>> rows, boolean truncated, Set<LimitKind> limitsHit) {
    public Projection {
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
        rows = List.copyOf(requireNonNull(rows, "rows is null"));
        limitsHit = Set.copyOf(requireNonNull(limitsHit, "limitsHit is null"));
    }
}
