package dev.sqlguard.postgresql.internal;

import java.sql.Connection;
import java.sql.SQLException;

import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot;

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
                SchemaSnapshot.TableReader.byQuery(connection, COLUMNS)));
    }
}
