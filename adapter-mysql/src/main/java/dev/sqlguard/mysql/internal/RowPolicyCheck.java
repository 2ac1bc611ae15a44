package dev.sqlguard.mysql.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.Names;
import dev.sqlguard.domain.RowPolicy;
import dev.sqlguard.domain.SafeText;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.ColumnInfo;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.TableInfo;

/**
 * The start-time check of a source's row filters and column masks against the server: each governed
 * table must exist, each masked column must be one of its columns, and the derived table that stands
 * for the table ({@link GovernedTables}) must run, with every attribute bound as a NULL string and no
 * row read ({@code LIMIT 0}: the server still resolves every name and function). A failure names the
 * table, never the server's text.
 */
public final class RowPolicyCheck {
    private static final String COLUMNS = "SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, COLUMN_TYPE FROM information_schema.COLUMNS"
            + " WHERE LOWER(TABLE_SCHEMA) = ? AND LOWER(TABLE_NAME) = ? ORDER BY TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION";

    private RowPolicyCheck() {
    }

    /**
     * @param connection a pinned session of the source's account
     * @param schema the allowlisted tables as loaded at startup; a governed table outside it is looked up
     * @throws GuardException CONFIGURATION_ERROR naming the first table whose filter or masks fail
     */
    public static void check(Connection connection, String sourceId, SchemaSnapshot schema, RowPolicy rows) {
        GovernedTables governed;
        try {
            governed = new GovernedTables(rows, schema.defaultSchema());
        } catch (GuardException e) {
            throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "Source '" + sourceId + "': " + e.getMessage());
        }
        for (TableRef key : governed.tables()) {
            TableRef table = governed.resolve(key);
            Optional<TableInfo> found = schema.find(table.schema(), table.table());
            if (found.isEmpty()) {
                found = lookUp(connection, sourceId, key, table);
            }
            TableInfo info = found.orElseThrow(() -> failure(sourceId, key, "is not a table the account can read"));
            if (!governed.missingMaskedColumns(info).isEmpty()) {
                throw failure(sourceId, key, "has no column of the name a mask is configured for");
            }
            GovernedTables.CheckQuery q = governed.checkQuery(info);
            try (PreparedStatement ps = connection.prepareStatement(q.sql())) {
                for (int i = 1; i <= q.placeholders(); i++) {
                    ps.setNull(i, Types.VARCHAR);
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        // LIMIT 0: nothing to read
                    }
                }
            } catch (SQLException e) {
                throw failure(sourceId, key, "has a row filter or column mask that does not run on the server"
                        + " (check the column names, functions and SQL it uses)");
            }
        }
    }

    private static Optional<TableInfo> lookUp(Connection connection, String sourceId, TableRef key, TableRef table) {
        List<ColumnInfo> columns = new ArrayList<>();
        String schemaName = null;
        String tableName = null;
        try (PreparedStatement ps = connection.prepareStatement(COLUMNS)) {
            ps.setString(1, Names.fold(table.schema().orElseThrow()));
            ps.setString(2, table.table());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (schemaName != null && !(schemaName.equals(rs.getString(1)) && tableName.equals(rs.getString(2)))) {
                        throw failure(sourceId, key, "matches several tables that differ only in letter case");
                    }
                    schemaName = rs.getString(1);
                    tableName = rs.getString(2);
                    columns.add(new ColumnInfo(rs.getString(3), rs.getString(4)));
                }
            }
        } catch (SQLException e) {
            throw failure(sourceId, key, "could not be looked up in the catalog");
        }
        return schemaName == null ? Optional.empty()
                : Optional.of(new TableInfo(schemaName, tableName, columns, OptionalLong.empty()));
    }

    private static GuardException failure(String sourceId, TableRef key, String what) {
        return new GuardException(ErrorCode.CONFIGURATION_ERROR, "Source '" + sourceId + "': the governed table "
                + SafeText.identifier(key.qualifiedName()) + " " + what + ".");
    }
}
