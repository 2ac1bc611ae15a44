package dev.sqlguard.h2.internal;

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

/** Reads the allowlisted tables from H2's INFORMATION_SCHEMA once, at startup, under the names H2 folds them to. */
public final class H2Catalog {
    private static final String COLUMNS = "SELECT COLUMN_NAME, DATA_TYPE FROM INFORMATION_SCHEMA.COLUMNS"
            + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION";

    private H2Catalog() {
    }

    public static SchemaSnapshot load(Connection connection, String source, TableAllowlist allowlist) throws SQLException {
        return SchemaSnapshot.of(H2Session.SCHEMA, SchemaSnapshot.readAllowlisted(source, allowlist, H2Session.SCHEMA, H2Dialect.NAMES::name,
                (schema, table) -> read(connection, schema, table)));
    }

    private static TableInfo read(Connection connection, String schema, String table) throws SQLException {
        List<ColumnInfo> columns = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement(COLUMNS)) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    columns.add(new ColumnInfo(rs.getString(1), rs.getString(2)));
                }
            }
        }
        return new TableInfo(schema, table, columns, OptionalLong.empty());
    }
}
