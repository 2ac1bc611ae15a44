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
 * @param catalogListing true when the column holds catalog metadata only (a table's or column's
 *     name or type, as {@code SHOW TABLES} or {@code DESCRIBE t} of allowlisted tables list them),
 *     never a value of a table: its label is then not matched against the sensitive names, because
 *     a listing is not data and the same names are shown by {@code describe}
 */
public record OutputColumn(String name, Set<ColumnRef> lineage, boolean lineageComplete, boolean catalogListing) {
    public OutputColumn {
        requireNonNull(name, "name is null");
        lineage = Set.copyOf(requireNonNull(lineage, "lineage is null"));
        if (catalogListing && (!lineage.isEmpty() || !lineageComplete)) {
            throw new IllegalArgumentException("a catalog listing derives from no table column");
        }
    }

    public OutputColumn(String name, Set<ColumnRef> lineage, boolean lineageComplete) {
        this(name, lineage, lineageComplete, false);
    }

    /** An output of a catalog listing: names or types of allowlisted tables and columns, no table values. */
    public static OutputColumn catalogListing(String name) {
        return new OutputColumn(name, Set.of(), true, true);
    }

    public static OutputColumn traced(String name, Set<ColumnRef> lineage) {
        return new OutputColumn(name, lineage, true);
    }

    public static OutputColumn untraced(String name) {
        return new OutputColumn(name, Set.of(), false);
    }
}
