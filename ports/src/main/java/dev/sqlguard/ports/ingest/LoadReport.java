package dev.sqlguard.ports.ingest;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * What a load did: rows added by this load and the table's rows afterwards, whether the table was
 * created, appended to or replaced, which input columns were renamed because their header repeated
 * an earlier one, each column's type and why it has it, and the rows kept aside (the rejects table)
 * when the load was asked to keep going past rows that do not fit.
 */
public record LoadReport(String table, long rowsLoaded, long rowsInTable, List<String> columns, Mode mode,
                         List<ColumnRename> renames, List<ColumnType> types, long rowsRejected, Optional<String> rejectsTable) {
    /** What happened to the table. */
    public enum Mode {
        /** The table did not exist; the load made it. */
        CREATED,
        /** The rows were added to the table's rows (the default). */
        APPENDED,
        /** The table's rows and schema were swapped for the loaded ones ({@link LoadRequest#replace()}). */
        REPLACED
    }

    /**
     * A column whose header text repeated an earlier column's (names compare case-insensitively),
     * so it was loaded under another name.
     *
     * @param input the file name the header came from
     * @param header the header text as the file has it
     * @param column the column name it was loaded as
     */
    public record ColumnRename(String input, String header, String column) {
        public ColumnRename {
            requireNonNull(input, "input is null");
            requireNonNull(header, "header is null");
            requireNonNull(column, "column is null");
        }
    }

    /**
     * One column of the table after the load: its type and, in a few words, why it has it (a type
     * hint, what the reader inferred, why a column stayed text).
     */
    public record ColumnType(String name, String type, String reason) {
        public ColumnType {
            requireNonNull(name, "name is null");
            requireNonNull(type, "type is null");
            requireNonNull(reason, "reason is null");
        }
    }

    public LoadReport {
        requireNonNull(table, "table is null");
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
        requireNonNull(mode, "mode is null");
        renames = List.copyOf(requireNonNull(renames, "renames is null"));
        types = List.copyOf(requireNonNull(types, "types is null"));
        if (rowsRejected < 0) {
            throw new IllegalArgumentException("rowsRejected is negative");
        }
        requireNonNull(rejectsTable, "rejectsTable is null");
    }

    /** A report without column types or rejects; kept for source compatibility. */
    public LoadReport(String table, long rowsLoaded, long rowsInTable, List<String> columns, Mode mode, List<ColumnRename> renames) {
        this(table, rowsLoaded, rowsInTable, columns, mode, renames, List.of(), 0, Optional.empty());
    }

    /** A report without renames that says the rows were {@link Mode#APPENDED}; kept for source compatibility. */
    public LoadReport(String table, long rowsLoaded, long rowsInTable, List<String> columns) {
        this(table, rowsLoaded, rowsInTable, columns, Mode.APPENDED, List.of());
    }
}
