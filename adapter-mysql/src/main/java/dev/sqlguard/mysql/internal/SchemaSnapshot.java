package dev.sqlguard.mysql.internal;

import static java.util.Objects.requireNonNull;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import dev.sqlguard.domain.Names;
import dev.sqlguard.domain.TableRef;

/**
 * The allowlisted tables as they exist on the server, read once at startup from
 * {@code information_schema}: the exact spelling of every name (the server compares table names
 * case-sensitively on Linux) and every column, allowlisted or not (needed to detect ambiguity the
 * way the server would).
 *
 * @param defaultSchema the schema unqualified table names resolve to
 * @param tables keyed by schema-qualified, folded name
 */
public record SchemaSnapshot(String defaultSchema, Map<TableRef, TableInfo> tables) {
    public SchemaSnapshot {
        requireNonNull(defaultSchema, "defaultSchema is null");
        tables = Map.copyOf(requireNonNull(tables, "tables is null"));
    }

    /**
     * One table: its exact schema and table names, its columns in order, the exact row count when it
     * was counted within the startup budget, and the server's estimate.
     */
    public record TableInfo(String schema, String name, List<ColumnInfo> columns, OptionalLong exactRows, OptionalLong approximateRows) {
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

        /** The column with this name, compared case-insensitively as the server does. */
        public Optional<ColumnInfo> column(String name) {
            String folded = Names.fold(name);
            return columns.stream().filter(c -> Names.fold(c.name()).equals(folded)).findFirst();
        }
    }

    /** One column: its exact name and its server type (information_schema COLUMN_TYPE). */
    public record ColumnInfo(String name, String type) {
        public ColumnInfo {
            requireNonNull(name, "name is null");
            requireNonNull(type, "type is null");
        }
    }

    /** The table, looked up by an optional schema and a name, both compared case-insensitively. */
    public Optional<TableInfo> find(Optional<String> schema, String table) {
        TableRef key = TableRef.of(schema.orElse(defaultSchema), table);
        return Optional.ofNullable(tables.get(key));
    }

    public static SchemaSnapshot of(String defaultSchema, List<TableInfo> tables) {
        Map<TableRef, TableInfo> map = new LinkedHashMap<>();
        for (TableInfo t : tables) {
            map.put(t.ref(), t);
        }
        return new SchemaSnapshot(defaultSchema, map);
    }
}
