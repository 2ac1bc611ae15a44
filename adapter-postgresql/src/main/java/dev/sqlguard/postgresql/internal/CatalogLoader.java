package dev.sqlguard.postgresql.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.ColumnInfo;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.TableInfo;

/** Reads the allowlisted tables from {@code pg_catalog} once, at startup. */
public final class CatalogLoader {
    /** Tables, views and materialized views; the row estimate is the planner's ({@code reltuples}). */
    private static final String COLUMNS = "SELECT a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod), c.reltuples"
            + " FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
            + " JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid"
            + " WHERE n.nspname = ? AND c.relname = ? AND c.relkind IN ('r', 'p', 'v', 'm', 'f')"
            + " AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum";

    private CatalogLoader() {
    }

    /**
     * @param schema the default schema, as configured
     */
    public static SchemaSnapshot load(Connection connection, String sourceId, String schema, TableAllowlist allowlist) throws SQLException {
        return SchemaSnapshot.of(schema, SchemaSnapshot.readAllowlisted(sourceId, allowlist, schema, name -> name,
                (tableSchema, table) -> read(connection, tableSchema, table)));
    }

    private static TableInfo read(Connection connection, String schema, String table) throws SQLException {
        List<ColumnInfo> columns = new ArrayList<>();
        OptionalLong rows = OptionalLong.empty();
        try (PreparedStatement ps = connection.prepareStatement(COLUMNS)) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    columns.add(new ColumnInfo(rs.getString(1), rs.getString(2)));
                    double estimate = rs.getDouble(3);
                    rows = estimate >= 0 ? OptionalLong.of((long) estimate) : OptionalLong.empty();
                }
            }
        }
        return new TableInfo(schema, table, columns, rows);
    }
}
