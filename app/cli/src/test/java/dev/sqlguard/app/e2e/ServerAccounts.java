package dev.sqlguard.app.e2e;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;

/**
 * The local PostgreSQL and MySQL/MariaDB servers the end-to-end tests load data into, named by the
 * {@code SQLGUARD_PG_*} and {@code SQLGUARD_MYSQL_*} variables ({@code .ci/run} sets them): admin
 * connections to create a uniquely named schema or database, the configuration block of a source that
 * reads it as the read-only account, and the drop that removes it again.
 */
final class ServerAccounts {
    private ServerAccounts() {
    }

    /** The PostgreSQL URL, when the variables name a server. */
    static Optional<String> postgresUrl() {
        return variable("SQLGUARD_PG_URL");
    }

    /** The MySQL server URL without a database, when the variables name a server. */
    static Optional<String> mysqlUrl() {
        return variable("SQLGUARD_MYSQL_URL");
    }

    /** A schema or database name no earlier run used. */
    static String unique() {
        return "sqlguard_t_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12).toLowerCase(Locale.ROOT);
    }

    static Connection postgresAdmin() throws SQLException {
        return DriverManager.getConnection(postgresUrl().orElseThrow(), env("SQLGUARD_PG_ADMIN_USER"), env("SQLGUARD_PG_ADMIN_PASSWORD"));
    }

    static Connection mysqlAdmin() throws SQLException {
        return DriverManager.getConnection(mysqlUrl().orElseThrow() + "/", env("SQLGUARD_MYSQL_ADMIN_USER"), env("SQLGUARD_MYSQL_ADMIN_PASSWORD"));
    }

    /** Lets the read-only account read every table of {@code schema}. */
    static void grantPostgresRead(Statement admin, String schema) throws SQLException {
        admin.execute("GRANT USAGE ON SCHEMA " + schema + " TO " + env("SQLGUARD_PG_RO_USER"));
        admin.execute("GRANT SELECT ON ALL TABLES IN SCHEMA " + schema + " TO " + env("SQLGUARD_PG_RO_USER"));
    }

    /** A source's configuration block (below its name) reading {@code schema} as the read-only account. */
    static String postgresSource(String schema) {
        return "    engine: postgresql\n    url: " + postgresUrl().orElseThrow() + "\n    username: " + env("SQLGUARD_PG_RO_USER")
                + "\n    password: " + env("SQLGUARD_PG_RO_PASSWORD") + "\n    defaultSchema: " + schema + "\n";
    }

    /** A source's configuration block (below its name) reading {@code database} as the read-only account. */
    static String mysqlSource(String database) {
        return "    engine: mysql\n    url: " + mysqlUrl().orElseThrow() + "/" + database + "\n    username: " + env("SQLGUARD_MYSQL_RO_USER")
                + "\n    password: " + env("SQLGUARD_MYSQL_RO_PASSWORD") + "\n";
    }

    /** Drops what {@link #unique()} named on each server that has it (a null name is skipped). */
    static void drop(String postgresSchema, String mysqlDatabase) throws SQLException {
        if (postgresSchema != null) {
            try (Connection c = postgresAdmin(); Statement s = c.createStatement()) {
                s.execute("DROP SCHEMA IF EXISTS " + postgresSchema + " CASCADE");
            }
        }
        if (mysqlDatabase != null) {
            try (Connection c = mysqlAdmin(); Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS `" + mysqlDatabase + "`");
            }
        }
    }

    private static Optional<String> variable(String name) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value);
    }

    private static String env(String name) {
        return variable(name).orElseThrow(() -> new IllegalStateException(name + " is not set"));
    }
}
