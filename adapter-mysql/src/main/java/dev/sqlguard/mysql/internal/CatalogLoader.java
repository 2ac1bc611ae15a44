package dev.sqlguard.mysql.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.logging.Logger;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.Names;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.mysql.internal.SchemaSnapshot.ColumnInfo;
import dev.sqlguard.mysql.internal.SchemaSnapshot.TableInfo;

/** Reads the allowlisted tables from {@code information_schema} once, at startup. */
public final class CatalogLoader {
    private static final Logger LOG = Logger.getLogger(CatalogLoader.class.getName());

    private static final String COLUMNS = "SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, COLUMN_TYPE FROM information_schema.COLUMNS"
            + " WHERE LOWER(TABLE_SCHEMA) = ? AND LOWER(TABLE_NAME) = ? ORDER BY TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION";
    private static final String ROWS = "SELECT TABLE_ROWS FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?";

    private CatalogLoader() {
    }

    /**
     * @param schema the default schema, as configured
     */
    public static SchemaSnapshot load(Connection connection, String sourceId, String schema, TableAllowlist allowlist) throws SQLException {
        List<TableInfo> found = new ArrayList<>();
        String actualDefault = schema;
        for (Map.Entry<TableRef, java.util.Set<String>> entry : allowlist.tables().entrySet()) {
            TableRef ref = entry.getKey();
            String wantedSchema = Names.fold(ref.schema().orElse(schema));
            Map<String, List<ColumnInfo>> byTable = new LinkedHashMap<>();
            String tableSchema = null;
            try (PreparedStatement ps = connection.prepareStatement(COLUMNS)) {
                ps.setString(1, wantedSchema);
                ps.setString(2, ref.table());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        tableSchema = rs.getString(1);
                        byTable.computeIfAbsent(rs.getString(1) + "\u0000" + rs.getString(2), k -> new ArrayList<>())
                                .add(new ColumnInfo(rs.getString(3), rs.getString(4)));
                    }
                }
            }
            if (byTable.isEmpty()) {
                LOG.warning("source '" + sourceId + "': allowlisted table " + ref + " does not exist or is not visible; queries on it are refused");
                continue;
            }
            if (byTable.size() > 1) {
                throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "Source '" + sourceId + "': the allowlisted table "
                        + ref.qualifiedName() + " matches several tables that differ only in letter case.");
            }
            String key = byTable.keySet().iterator().next();
            String tableName = key.substring(key.indexOf('\u0000') + 1);
            List<ColumnInfo> columns = byTable.get(key);
            for (String column : entry.getValue()) {
                if (!TableAllowlist.ALL_COLUMNS.equals(column)
                        && columns.stream().noneMatch(c -> Names.fold(c.name()).equals(column))) {
                    LOG.warning("source '" + sourceId + "': allowlisted column " + ref + "." + column + " does not exist");
                }
            }
            if (ref.schema().isEmpty()) {
                actualDefault = tableSchema;
            }
            found.add(new TableInfo(tableSchema, tableName, columns, rows(connection, tableSchema, tableName)));
        }
        return SchemaSnapshot.of(actualDefault, found);
    }

    private static OptionalLong rows(Connection connection, String schema, String table) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(ROWS)) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    long n = rs.getLong(1);
                    return rs.wasNull() ? OptionalLong.empty() : OptionalLong.of(n);
                }
            }
        }
        return OptionalLong.empty();
    }
}
