package dev.sqlguard.trino.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.ColumnInfo;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.TableInfo;

/** Reads the allowlisted tables from the catalog's {@code information_schema} once, at startup. */
public final class CatalogLoader {
    private CatalogLoader() {
    }

    /**
     * @param catalog the configured catalog (a plain name, checked by the settings)
     * @param schema the default schema, as configured
     */
    public static SchemaSnapshot load(Connection connection, String sourceId, String catalog, String schema, TableAllowlist allowlist)
            throws SQLException {
        // one round trip for every allowlisted table: a Trino query costs tens of milliseconds at least
        Map<TableRef, List<ColumnInfo>> columnsByTable = new LinkedHashMap<>();
        for (TableRef ref : allowlist.tables().keySet()) {
            columnsByTable.put(TableRef.of(ref.schema().orElse(schema), ref.table()), new ArrayList<>());
        }
        if (!columnsByTable.isEmpty()) {
            StringBuilder sql = new StringBuilder("SELECT table_schema, table_name, column_name, data_type FROM ")
                    .append(TrinoDialect.NAMES.identifier(catalog)).append(".information_schema.columns WHERE ");
            String or = "";
            for (int i = 0; i < columnsByTable.size(); i++) {
                sql.append(or).append("(table_schema = ? AND table_name = ?)");
                or = " OR ";
            }
            sql.append(" ORDER BY table_schema, table_name, ordinal_position");
            try (PreparedStatement ps = connection.prepareStatement(sql.toString())) {
                int i = 1;
                for (TableRef ref : columnsByTable.keySet()) {
                    ps.setString(i++, ref.schema().orElseThrow());
                    ps.setString(i++, ref.table());
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        List<ColumnInfo> list = columnsByTable.get(TableRef.of(rs.getString(1), rs.getString(2)));
                        if (list != null) {
                            list.add(new ColumnInfo(rs.getString(3), rs.getString(4)));
                        }
                    }
                }
            }
        }
        List<TableInfo> found = SchemaSnapshot.readAllowlisted(sourceId, allowlist, schema, name -> name, (tableSchema, table) ->
                new TableInfo(tableSchema, table, columnsByTable.get(TableRef.of(tableSchema, table)), OptionalLong.empty()));
        return SchemaSnapshot.of(catalog, schema, found);
    }
}
