package dev.sqlguard.trino.internal;

import static java.util.Objects.requireNonNull;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import dev.sqlguard.domain.TableRef;

/**
 * The allowlisted tables as they exist on the server, read once at startup from the catalog's {@code information_schema}:
 * the exact spelling of every name and every column, allowlisted or not (a name resolves the way the
 * server resolves it, hidden columns included, so that an ambiguity or a hidden read is seen).
 *
 * @param catalog the catalog every table is read from
 * @param defaultSchema the schema unqualified table names resolve to
 * @param tables keyed by schema-qualified name
 */
public record SchemaSnapshot(String catalog, String defaultSchema, Map<TableRef, TableInfo> tables) {
    public SchemaSnapshot {
        requireNonNull(catalog, "catalog is null");
        requireNonNull(defaultSchema, "defaultSchema is null");
        tables = Map.copyOf(requireNonNull(tables, "tables is null"));
    }

    /** One table: its exact schema and table names, its columns in order, and an estimated row count. */
    public record TableInfo(String schema, String name, List<ColumnInfo> columns, OptionalLong approximateRows) {
        public TableInfo {
            requireNonNull(schema, "schema is null");
            requireNonNull(name, "name is null");
            columns = List.copyOf(requireNonNull(columns, "columns is null"));
            requireNonNull(approximateRows, "approximateRows is null");
        }

        public TableRef ref() {
            return TableRef.of(schema, name);
        }

        /** The column with exactly this name (identifiers were folded to lower case, as Trino folds them). */
        public Optional<ColumnInfo> column(String name) {
            return columns.stream().filter(c -> c.name().equals(name)).findFirst();
        }
    }

    /** One column: its exact name and its Trino type. */
    public record ColumnInfo(String name, String type) {
        public ColumnInfo {
            requireNonNull(name, "name is null");
            requireNonNull(type, "type is null");
        }
    }

    /** The table named exactly {@code schema.table}, the schema defaulting to {@link #defaultSchema}. */
    public Optional<TableInfo> find(Optional<String> schema, String table) {
        String s = schema.orElse(defaultSchema);
        return tables.values().stream().filter(t -> t.schema().equals(s) && t.name().equals(table)).findFirst();
    }

    public static SchemaSnapshot of(String catalog, String defaultSchema, List<TableInfo> tables) {
        Map<TableRef, TableInfo> map = new LinkedHashMap<>();
        for (TableInfo t : tables) {
            map.put(t.ref(), t);
        }
        return new SchemaSnapshot(catalog, defaultSchema, map);
    }
}
