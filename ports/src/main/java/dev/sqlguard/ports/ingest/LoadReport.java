package dev.sqlguard.ports.ingest;

import static java.util.Objects.requireNonNull;

import java.util.List;

/** What a load did: rows added by this load and the table's rows afterwards. */
public record LoadReport(String table, long rowsLoaded, long rowsInTable, List<String> columns) {
    public LoadReport {
        requireNonNull(table, "table is null");
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
    }
}
