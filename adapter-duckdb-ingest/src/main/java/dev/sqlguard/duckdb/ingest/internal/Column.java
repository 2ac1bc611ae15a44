package dev.sqlguard.duckdb.ingest.internal;

import static java.util.Objects.requireNonNull;

/** A column name and its DuckDB type as the catalog spells it, e.g. {@code DECIMAL(18,2)}. */
public record Column(String name, String type) {
    public Column {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
    }

    @Override
    public String toString() {
        return name + " " + type;
    }
}
