package dev.sqlguard.duckdb.internal;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.ports.CatalogView;
import dev.sqlguard.ports.TableDescription;
import dev.sqlguard.ports.TableDescription.ColumnDescription;

/**
 * The base tables of the database file, read once through the trusted root connection (the file
 * is opened read-only, so they cannot change while the engine is open), and the view of them an
 * agent may see under a policy.
 */
public final class DuckDbCatalog implements CatalogView {
    private static final Logger LOG = LoggerFactory.getLogger(DuckDbCatalog.class);

    /** One base table of the file. */
    public record Table(String database, String schema, String name, List<Column> columns, long rowCount) {
        public Table {
            requireNonNull(database, "database is null");
            requireNonNull(schema, "schema is null");
            requireNonNull(name, "name is null");
            columns = List.copyOf(columns);
        }

        /** The domain reference: {@code name} in the default schema {@code main}, else {@code schema.name}. */
        public TableRef ref() {
            return "main".equals(schema) ? TableRef.of(name) : TableRef.of(schema, name);
        }

        TableRef qualifiedRef() {
            return TableRef.of(schema, name);
        }
    }

    /** One column of a base table. */
    public record Column(String name, String type) {
        public Column {
            requireNonNull(name, "name is null");
            requireNonNull(type, "type is null");
        }
    }

    private final String database;
    private final Map<String, Table> tables;
    private final GuardrailPolicy policy;

    private DuckDbCatalog(String database, Map<String, Table> tables, GuardrailPolicy policy) {
        this.database = database;
        this.tables = tables;
        this.policy = policy;
    }

    /** Reads every base table of the file, and checks that the allowlist names only tables and columns that exist. */
    static DuckDbCatalog load(Connection root, GuardrailPolicy policy) {
        String database;
        Map<String, List<Column>> columns = new LinkedHashMap<>();
        Map<String, String[]> names = new LinkedHashMap<>();
        try (Statement st = root.createStatement();
             ResultSet rs = st.executeQuery("SELECT current_database()")) {
            rs.next();
            database = rs.getString(1);
        } catch (SQLException e) {
            throw unavailable(e);
        }
        try (PreparedStatement ps = root.prepareStatement(
                "SELECT c.schema_name, c.table_name, c.column_name, c.data_type FROM duckdb_columns() c "
                        + "JOIN duckdb_tables() t ON t.database_name = c.database_name AND t.schema_name = c.schema_name "
                        + "AND t.table_name = c.table_name "
                        + "WHERE c.database_name = ? AND NOT t.temporary AND NOT t.internal "
                        + "ORDER BY c.schema_name, c.table_name, c.column_index")) {
            ps.setString(1, database);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String key = key(rs.getString(1), rs.getString(2));
                    names.putIfAbsent(key, new String[] {rs.getString(1), rs.getString(2)});
                    columns.computeIfAbsent(key, k -> new ArrayList<>()).add(new Column(rs.getString(3), rs.getString(4)));
                }
            }
        } catch (SQLException e) {
            throw unavailable(e);
        }
        Map<String, Table> tables = new LinkedHashMap<>();
        for (Map.Entry<String, String[]> e : names.entrySet()) {
            String[] n = e.getValue();
            tables.put(e.getKey(), new Table(database, n[0], n[1], columns.get(e.getKey()), countRows(root, n[0], n[1])));
        }
        DuckDbCatalog catalog = new DuckDbCatalog(database, Map.copyOf(tables), policy);
        catalog.checkAllowlist();
        return catalog;
    }

    private static long countRows(Connection root, String schema, String table) {
        try (Statement st = root.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM " + quote(schema) + "." + quote(table))) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw unavailable(e);
        }
    }

    static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    private static GuardException unavailable(SQLException e) {
        LOG.debug("DuckDB catalog read failed", e);
        return new GuardException(ErrorCode.ENGINE_UNAVAILABLE, "The DuckDB catalog could not be read.", e);
    }

    private void checkAllowlist() {
        TableAllowlist allowlist = policy.tables();
        if (!allowlist.restricted()) {
            return;
        }
        for (Map.Entry<TableRef, java.util.Set<String>> e : allowlist.tables().entrySet()) {
            TableRef ref = e.getKey();
            Optional<Table> table = find("", ref.schema().orElse(allowlist.defaultSchema().orElse("")), ref.table());
            if (table.isEmpty()) {
                throw new GuardException(ErrorCode.CONFIGURATION_ERROR,
                        "The allowlist names table " + safe(ref.qualifiedName()) + ", which the database does not have.");
            }
            for (String column : e.getValue()) {
                if (!TableAllowlist.ALL_COLUMNS.equals(column) && table.get().columns().stream()
                        .noneMatch(c -> c.name().toLowerCase(Locale.ROOT).equals(column))) {
                    throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "The allowlist names column "
                            + safe(ref.qualifiedName() + "." + column) + ", which the database does not have.");
                }
            }
        }
    }

    private static String safe(String name) {
        return dev.sqlguard.domain.SafeText.identifier(name);
    }

    private static String key(String schema, String table) {
        return schema.toLowerCase(Locale.ROOT) + "\u0000" + table.toLowerCase(Locale.ROOT);
    }

    /** The database (catalog) name DuckDB gives the file, e.g. the file name without {@code .duckdb}. */
    public String database() {
        return database;
    }

    /**
     * The base table a reference names, matching case-insensitively. {@code catalog} must be empty
     * or this database; an empty {@code schema} means {@code main}.
     */
    public Optional<Table> find(String catalog, String schema, String name) {
        if (!catalog.isEmpty() && !catalog.equalsIgnoreCase(database)) {
            return Optional.empty();
        }
        return Optional.ofNullable(tables.get(key(schema.isEmpty() ? "main" : schema, name)));
    }

    /** Whether the policy allows the table (under either of its names). */
    public boolean allowsTable(Table table) {
        TableAllowlist allowlist = policy.tables();
        return allowlist.allowsTable(table.ref()) || allowlist.allowsTable(table.qualifiedRef());
    }

    public boolean allowsColumn(Table table, String column) {
        TableAllowlist allowlist = policy.tables();
        return allowlist.allowsColumn(table.ref(), column) || allowlist.allowsColumn(table.qualifiedRef(), column);
    }

    public List<Table> allTables() {
        return tables.values().stream().sorted(Comparator.comparing(Table::schema).thenComparing(Table::name)).toList();
    }

    @Override
    public List<TableDescription> tables() {
        List<TableDescription> out = new ArrayList<>();
        for (Table table : allTables()) {
            if (!allowsTable(table)) {
                continue;
            }
            List<ColumnDescription> columns = new ArrayList<>();
            for (Column column : table.columns()) {
                if (allowsColumn(table, column.name())) {
                    columns.add(new ColumnDescription(column.name(), column.type(), policy.isSensitive(column.name())));
                }
            }
            // a filtered table's row count is every caller's rows together: it is not shown
            boolean filtered = policy.rows().filterOf(table.ref()).isPresent() || policy.rows().filterOf(table.qualifiedRef()).isPresent();
            out.add(new TableDescription(table.ref(), columns, filtered ? OptionalLong.empty() : OptionalLong.of(table.rowCount())));
        }
        out.sort(Comparator.comparing(d -> d.table().qualifiedName()));
        return List.copyOf(out);
    }
}
