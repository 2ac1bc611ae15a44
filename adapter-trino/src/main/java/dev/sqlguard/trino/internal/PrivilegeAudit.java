package dev.sqlguard.trino.internal;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.sqlguard.domain.TableRef;

/**
 * Asks the cluster whether the configured user can write, without writing: Trino checks access
 * while it analyses a statement, and {@code EXPLAIN (TYPE VALIDATE)} analyses without planning or
 * running anything. For the catalog, {@code CREATE TABLE ... AS SELECT 1}; for every allowlisted
 * table, {@code INSERT INTO t SELECT * FROM t WHERE false}. Measured on Trino 483: a plain
 * {@code EXPLAIN CREATE TABLE ... AS SELECT} (TYPE LOGICAL) created the table in the memory
 * catalog, because planning a CTAS begins the table on the connector. An explain that succeeds is a write the
 * user could run; only Trino's PERMISSION_DENIED counts as refused, any other failure counts as a
 * write that could not be ruled out, except a cluster that is out of time or failing, which is
 * reported as such (the source is then unavailable, and the host retries it).
 */
final class PrivilegeAudit {
    private static final Logger LOG = LoggerFactory.getLogger(PrivilegeAudit.class);

    private PrivilegeAudit() {
    }

    static Set<String> writes(Connection connection, String catalog, String schema, Set<TableRef> tables) throws SQLException {
        Set<String> risky = new LinkedHashSet<>();
        String schemaName = TrinoDialect.NAMES.identifier(catalog) + "." + TrinoDialect.NAMES.identifier(schema);
        probe(connection, "EXPLAIN (TYPE VALIDATE) CREATE TABLE " + schemaName + "." + TrinoDialect.NAMES.identifier("sqlguard_write_probe") + " AS SELECT 1 AS x",
                "CREATE TABLE in " + catalog + "." + schema, risky);
        for (TableRef t : tables) {
            String name = TrinoDialect.NAMES.identifier(catalog) + "." + TrinoDialect.NAMES.identifier(t.schema().orElse(schema)) + "." + TrinoDialect.NAMES.identifier(t.table());
            probe(connection, "EXPLAIN (TYPE VALIDATE) INSERT INTO " + name + " SELECT * FROM " + name + " WHERE false", "INSERT on " + t.qualifiedName(), risky);
        }
        return risky;
    }

    private static void probe(Connection connection, String sql, String what, Set<String> risky) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.executeQuery(sql).close();
            risky.add(what);
        } catch (SQLException e) {
            if (e.getErrorCode() == SqlErrors.EXCEEDED_TIME_LIMIT || e.getErrorCode() >= 65536) {
                throw e;
            }
            if (e.getErrorCode() != SqlErrors.PERMISSION_DENIED) {
                LOG.debug("write probe failed otherwise", e);
                risky.add(what + " (not ruled out)");
            }
        }
    }
}
