package dev.sqlguard.postgresql;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;

import dev.sqlguard.testing.ContractDataset;
import dev.sqlguard.testing.PrivateDatabaseFixture;

/**
 * The server under test: the local PostgreSQL named by {@code SQLGUARD_PG_URL} (CI and this
 * machine), else a PostgreSQL Testcontainer when Docker exists. Each test class creates its own
 * {@code sqlguard_t_<random>} schema in the test database with the admin role, grants the
 * least-privilege role USAGE and SELECT on it, and drops it afterwards.
 */
public final class TestServer {
    /** Where a server is and which roles to use on it. */
    public record Coordinates(String url, String adminUser, String adminPassword, String roUser, String roPassword) {
    }

    private TestServer() {
    }

    /** The environment's server. */
    public static Coordinates defaults() {
        return new Coordinates(env("SQLGUARD_PG_URL", "jdbc:postgresql://127.0.0.1:5432/test"),
                env("SQLGUARD_PG_ADMIN_USER", "sqlguard_pg_admin"), env("SQLGUARD_PG_ADMIN_PASSWORD", "sqlguard-pg-admin-pw"),
                env("SQLGUARD_PG_RO_USER", "sqlguard_pg_ro"), env("SQLGUARD_PG_RO_PASSWORD", "sqlguard-pg-ro-pw"));
    }

    /** A started container, with the test roles created on it. */
    public static Coordinates of(PostgreSQLContainer started) throws SQLException {
        try (Connection c = DriverManager.getConnection(started.getJdbcUrl(), started.getUsername(), started.getPassword());
             Statement s = c.createStatement()) {
            s.execute("CREATE ROLE sqlguard_pg_ro LOGIN PASSWORD 'sqlguard-pg-ro-pw'");
            s.execute("CREATE ROLE sqlguard_pg_admin LOGIN PASSWORD 'sqlguard-pg-admin-pw' SUPERUSER");
            s.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC");
            s.execute("GRANT SET ON PARAMETER temp_file_limit TO sqlguard_pg_ro");
        }
        return new Coordinates(started.getJdbcUrl().replaceAll("\\?.*$", ""), "sqlguard_pg_admin", "sqlguard-pg-admin-pw",
                "sqlguard_pg_ro", "sqlguard-pg-ro-pw");
    }

    /** Whether a server can be reached: the environment's (or the local default) answers, or Docker could start one. */
    public static boolean available() {
        Coordinates c = defaults();
        try (Connection ignored = DriverManager.getConnection(c.url(), c.adminUser(), c.adminPassword())) {
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    public static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException e) {
            return false;
        }
    }

    public static Connection admin(Coordinates server) throws SQLException {
        return DriverManager.getConnection(server.url(), server.adminUser(), server.adminPassword());
    }

    /** Creates a private schema holding {@link ContractDataset}, readable by the least-privilege role; returns its name. */
    public static String createSchema(Coordinates server) throws SQLException {
        String schema = PrivateDatabaseFixture.uniqueName();
        try (Connection c = admin(server); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA " + schema);
            s.execute("SET search_path = " + schema);
            for (String ddl : ContractDataset.ddl()) {
                s.execute(ddl);
            }
            for (String insert : ContractDataset.inserts()) {
                s.execute(insert);
            }
            grantReadOnly(s, server, schema);
        }
        return schema;
    }

    static void grantReadOnly(Statement s, Coordinates server, String schema) throws SQLException {
        s.execute("GRANT USAGE ON SCHEMA " + schema + " TO " + server.roUser());
        s.execute("GRANT SELECT ON ALL TABLES IN SCHEMA " + schema + " TO " + server.roUser());
        s.execute("ANALYZE");
    }

    public static void dropSchema(Coordinates server, String schema) {
        try (Connection c = admin(server); Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        } catch (SQLException e) {
            throw new IllegalStateException("could not drop the test schema", e);
        }
    }

    /** The engine properties for one of the two roles. */
    public static Map<String, String> properties(Coordinates server, String schema, boolean admin) {
        Map<String, String> p = new HashMap<>();
        p.put("url", server.url());
        p.put("username", admin ? server.adminUser() : server.roUser());
        p.put("password", admin ? server.adminPassword() : server.roPassword());
        p.put("defaultSchema", schema);
        p.put("requireReadOnlyAccount", Boolean.toString(!admin));
        return p;
    }

    /** A digest of every table's definition and rows in the schema, read as the admin role. */
    public static String fingerprint(Coordinates server, String schema) throws SQLException {
        StringBuilder text = new StringBuilder();
        try (Connection c = admin(server); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT c.relname, c.relkind, a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod)"
                    + " FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
                    + " LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped"
                    + " WHERE n.nspname = '" + schema + "' ORDER BY 1, 2, a.attnum")) {
                while (rs.next()) {
                    text.append(rs.getString(1)).append('|').append(rs.getString(2)).append('|').append(rs.getString(3))
                            .append('|').append(rs.getString(4)).append('\n');
                }
            }
            for (String table : new String[] {"claims", "regions", "users"}) {
                try (ResultSet rs = s.executeQuery("SELECT CAST(t AS text) FROM " + schema + "." + table + " t ORDER BY 1")) {
                    while (rs.next()) {
                        text.append(table).append(':').append(rs.getString(1)).append('\n');
                    }
                }
            }
        }
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v.strip().toLowerCase(Locale.ROOT).isEmpty() ? fallback : v.strip();
    }
}
