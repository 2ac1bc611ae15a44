package dev.sqlguard.jdbc.ansi;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.UnaryOperator;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Names;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.jdbc.AllowlistCheck;
import dev.sqlguard.ports.TableDescription;
import dev.sqlguard.ports.TableDescription.ColumnDescription;

/**
 * The allowlisted tables as they exist on the server, read once at startup from the engine's own
 * catalog: the exact spelling of every name and every column, allowlisted or not (a name resolves
 * the way the server resolves it, hidden columns included, so that an ambiguity or a hidden read is
 * seen). The {@link AnsiRenderer} renders every table as {@code "catalog"."schema"."table"} when a
 * catalog is set (Trino), else as {@code "schema"."table"} (PostgreSQL). MySQL's snapshot compares
 * names case-insensitively ({@link #caseInsensitive(String, List)}), since a query may write a name in
 * any case; the others compare them exactly, a name being folded the way the engine folds it before it
 * is looked up.
 *
 * @param catalog the catalog every table is read from, if the engine names one in a table reference
 * @param defaultSchema the schema unqualified table names resolve to
 * @param tables keyed by schema-qualified name
 * @param caseInsensitive whether a schema or table name is compared case-insensitively ({@link Names#fold})
 *     rather than exactly, by {@link #find} and {@link #describe}; a column is then looked up with
 *     {@link TableInfo#columnIgnoringCase}, else with {@link TableInfo#column}
 */
public record SchemaSnapshot(Optional<String> catalog, String defaultSchema, Map<TableRef, TableInfo> tables,
                             boolean caseInsensitive) {
    public SchemaSnapshot {
        requireNonNull(catalog, "catalog is null");
        requireNonNull(defaultSchema, "defaultSchema is null");
        tables = Map.copyOf(requireNonNull(tables, "tables is null"));
    }

    /**
     * One table: its exact schema and table names, its columns in order, the exact row count when it
     * was counted at startup, and the server's estimate.
     */
    public record TableInfo(String schema, String name, List<ColumnInfo> columns, OptionalLong exactRows,
                            OptionalLong approximateRows) {
        public TableInfo {
            requireNonNull(schema, "schema is null");
            requireNonNull(name, "name is null");
            columns = List.copyOf(requireNonNull(columns, "columns is null"));
            requireNonNull(exactRows, "exactRows is null");
            requireNonNull(approximateRows, "approximateRows is null");
        }

        /** A table whose rows were not counted. */
        public TableInfo(String schema, String name, List<ColumnInfo> columns, OptionalLong approximateRows) {
            this(schema, name, columns, OptionalLong.empty(), approximateRows);
        }

        public TableRef ref() {
            return TableRef.of(schema, name);
        }

        /** The column with exactly this name (identifiers were folded the way the engine folds them). */
        public Optional<ColumnInfo> column(String name) {
            return columns.stream().filter(c -> c.name().equals(name)).findFirst();
        }

        /** The column with this name, compared case-insensitively ({@link Names#fold}). */
        public Optional<ColumnInfo> columnIgnoringCase(String name) {
            String folded = Names.fold(name);
            return columns.stream().filter(c -> Names.fold(c.name()).equals(folded)).findFirst();
        }
    }

    /** One column: its exact name and its server type. */
    public record ColumnInfo(String name, String type) {
        public ColumnInfo {
            requireNonNull(name, "name is null");
            requireNonNull(type, "type is null");
        }
    }

    /**
     * Every table's column names in order, allowlisted or not: what an engine's plan reader needs to
     * tell a read of a whole row from a read of some columns.
     */
    public Map<TableRef, List<String>> columnNames() {
        Map<TableRef, List<String>> names = new LinkedHashMap<>();
        tables.forEach((ref, info) -> names.put(ref, info.columns().stream().map(ColumnInfo::name).toList()));
        return Collections.unmodifiableMap(names);
    }

    /**
     * The table named {@code schema.table}, the schema defaulting to {@link #defaultSchema}, both
     * compared as the snapshot compares names.
     */
    public Optional<TableInfo> find(Optional<String> schema, String table) {
        String s = schema.orElse(defaultSchema);
        if (caseInsensitive) {
            return Optional.ofNullable(tables.get(TableRef.of(s, table)));
        }
        return tables.values().stream().filter(t -> t.schema().equals(s) && t.name().equals(table)).findFirst();
    }

    /**
     * What an engine's {@code catalog()} shows: the tables with their allowlisted columns only (each
     * marked sensitive as the policy says), a table of the default schema by its bare name, sorted. A
     * table's rows are its exact count when it was counted, else the server's estimate marked
     * approximate ({@link TableDescription#approximateRowCount}); a table a row filter or column mask
     * governs shows no count, which would be every caller's rows.
     */
    public List<TableDescription> describe(GuardrailPolicy policy) {
        List<TableDescription> out = new ArrayList<>();
        for (TableInfo t : tables.values()) {
            boolean inDefault = caseInsensitive ? Names.fold(t.schema()).equals(Names.fold(defaultSchema))
                    : t.schema().equals(defaultSchema);
            TableRef shown = inDefault ? TableRef.of(t.name()) : t.ref();
            List<ColumnDescription> columns = new ArrayList<>();
            for (ColumnInfo c : t.columns()) {
                if (policy.tables().allowsColumn(t.ref(), c.name())) {
                    columns.add(new ColumnDescription(c.name(), c.type(), policy.isSensitive(c.name())));
                }
            }
            if (policy.rows().governs(shown) || policy.rows().governs(t.ref())) {
                out.add(new TableDescription(shown, columns, OptionalLong.empty()));
            } else if (t.exactRows().isPresent()) {
                out.add(new TableDescription(shown, columns, t.exactRows()));
            } else {
                out.add(new TableDescription(shown, columns, OptionalLong.empty(), t.approximateRows()));
            }
        }
        out.sort(Comparator.comparing(d -> d.table().qualifiedName()));
        return List.copyOf(out);
    }

    /** Reads one table from the engine's own catalog. */
    @FunctionalInterface
    public interface TableReader {
        /** The table {@code schema.table} as the server has it; no columns when it has no such table (or hides it). */
        TableInfo read(String schema, String table) throws SQLException;

        /**
         * A reader that runs the catalog query {@code sql} on {@code connection} for each table, with
         * the schema and the table name as its two parameters. Each row of its answer is one column of
         * the table, in order: the column's name and its server type, and, when the query selects a
         * third value, the table's estimated row count (a negative estimate is none; the last row's counts).
         */
        static TableReader byQuery(Connection connection, String sql) {
            return (schema, table) -> {
                List<ColumnInfo> columns = new ArrayList<>();
                OptionalLong rows = OptionalLong.empty();
                try (PreparedStatement ps = connection.prepareStatement(sql)) {
                    ps.setString(1, schema);
                    ps.setString(2, table);
                    try (ResultSet rs = ps.executeQuery()) {
                        boolean estimated = rs.getMetaData().getColumnCount() >= 3;
                        while (rs.next()) {
                            columns.add(new ColumnInfo(rs.getString(1), rs.getString(2)));
                            if (estimated) {
                                double estimate = rs.getDouble(3);
                                rows = estimate >= 0 ? OptionalLong.of((long) estimate) : OptionalLong.empty();
                            }
                        }
                    }
                }
                return new TableInfo(schema, table, columns, rows);
            };
        }
    }

    /**
     * The allowlisted tables the server has, each read by {@code reader} under the name the server
     * stores it by ({@code spelling} of each name the allowlist writes, an unqualified table in
     * {@code defaultSchema}), in the allowlist's order. A table the server lacks is left out and an
     * allowlisted column it lacks is named, as warnings ({@link AllowlistCheck}).
     */
    public static List<TableInfo> readAllowlisted(String sourceId, TableAllowlist allowlist, String defaultSchema,
                                                  UnaryOperator<String> spelling, TableReader reader) throws SQLException {
        List<TableInfo> found = new ArrayList<>();
        for (Map.Entry<TableRef, Set<String>> entry : allowlist.tables().entrySet()) {
            TableRef ref = entry.getKey();
            TableInfo table = reader.read(ref.schema().map(spelling).orElse(defaultSchema), spelling.apply(ref.table()));
            Set<String> allowlisted = new LinkedHashSet<>();
            for (String column : entry.getValue()) {
                allowlisted.add(column.equals(TableAllowlist.ALL_COLUMNS) ? column : spelling.apply(column));
            }
            if (AllowlistCheck.found(sourceId, ref, allowlisted, table.columns().stream().map(ColumnInfo::name).toList())) {
                found.add(table);
            }
        }
        return found;
    }

    /** A snapshot whose tables are rendered schema-qualified, its names compared exactly. */
    public static SchemaSnapshot of(String defaultSchema, List<TableInfo> tables) {
        return new SchemaSnapshot(Optional.empty(), defaultSchema, byRef(tables), false);
    }

    /** A snapshot whose tables are rendered catalog- and schema-qualified, its names compared exactly. */
    public static SchemaSnapshot of(String catalog, String defaultSchema, List<TableInfo> tables) {
        return new SchemaSnapshot(Optional.of(requireNonNull(catalog, "catalog is null")), defaultSchema, byRef(tables), false);
    }

    /** A snapshot whose tables are rendered schema-qualified, its names compared case-insensitively (MySQL). */
    public static SchemaSnapshot caseInsensitive(String defaultSchema, List<TableInfo> tables) {
        return new SchemaSnapshot(Optional.empty(), defaultSchema, byRef(tables), true);
    }

    private static Map<TableRef, TableInfo> byRef(List<TableInfo> tables) {
        Map<TableRef, TableInfo> map = new LinkedHashMap<>();
        for (TableInfo t : tables) {
            map.put(t.ref(), t);
        }
        return map;
    }
}
