package dev.sqlguard.domain;

import static java.util.Objects.requireNonNull;

import java.util.Set;

/**
 * One output column of a plan and its lineage: every base-table column its value derives from,
 * through aliases, expressions, aggregates, CTEs and subqueries. Redaction follows the lineage.
 *
 * @param name the output column label as the engine will report it
 * @param lineage the source columns; empty when the value derives from no column (a literal)
 * @param lineageComplete false when the validator could not trace every source; such a column
 *     is redacted (fail closed)
 */
public record OutputColumn(String name, Set<ColumnRef> lineage, boolean lineageComplete) {
    public OutputColumn {
        requireNonNull(name, "name is null");
        lineage = Set.copyOf(requireNonNull(lineage, "lineage is null"));
    }

    public static OutputColumn traced(String name, Set<ColumnRef> lineage) {
        return new OutputColumn(name, lineage, true);
    }

    public static OutputColumn untraced(String name) {
        return new OutputColumn(name, Set.of(), false);
    }
}
