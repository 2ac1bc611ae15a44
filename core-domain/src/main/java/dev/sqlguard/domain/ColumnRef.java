package dev.sqlguard.domain;

import static java.util.Objects.requireNonNull;

/** A column of a base table. The column name is folded to lower case. */
public record ColumnRef(TableRef table, String column) {
    public ColumnRef {
        requireNonNull(table, "table is null");
        column = Names.fold(Names.requireName(column, "column"));
    }

    public static ColumnRef of(String table, String column) {
        return new ColumnRef(TableRef.of(table), column);
    }

    @Override
    public String toString() {
        return table.qualifiedName() + "." + column;
    }
}
