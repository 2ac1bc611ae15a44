package dev.sqlguard.mysql;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.Properties;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.mysql.MySQLContainer;

import dev.sqlguard.testing.ContractDataset;
import dev.sqlguard.testing.PrivateDatabaseFixture;

/**
 * The server under test: the local MariaDB named by {@code SQLGUARD_MYSQL_URL} (CI and this
 * machine), else a MySQL 8.4 Testcontainer when Docker exists. Each test class creates its own
 * {@code sqlguard_t_<random>} database with the admin account and drops it afterwards.
 */
public final class TestServer {
    private static MySQLContainer container;

    /** Where a server is and which accounts to use on it. */
    public record Coordinates(String url, String adminUser, String adminPassword, String roUser, String roPassword) {
    }

    private TestServer() {
    }

    /** The default server: the environment's, else a container started on demand. */
    public static Coordinates defaults() {
        return new Coordinates(url(), adminUser(), adminPassword(), roUser(), roPassword());
    }

    /** A container already started by a test class, with the test accounts created on it. */
    public static Coordinates of(MySQLContainer started) {
        createAccounts(started);
        return new Coordinates("jdbc:mysql://" + started.getHost() + ":" + started.getMappedPort(3306),
                "sqlguard_admin", "sqlguard-admin-pw", "sqlguard_ro", "sqlguard-ro-pw");
    }

    /** Whether a server can be reached: the environment names one, or Docker can start one. */
    public static boolean available() {
        if (env("SQLGUARD_MYSQL_URL") != null) {
            return true;
        }
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException e) {
            return false;
        }
    }

    public static synchronized String url() {
        String url = env("SQLGUARD_MYSQL_URL");
        if (url != null) {
            return url;
        }
        startContainer();
        return "jdbc:mysql://" + container.getHost() + ":" + container.getMappedPort(3306);
    }

    public static String adminUser() {
        return envOr("SQLGUARD_MYSQL_ADMIN_USER", "sqlguard_admin");
    }

    public static String adminPassword() {
        return envOr("SQLGUARD_MYSQL_ADMIN_PASSWORD", "sqlguard-admin-pw");
    }

    public static String roUser() {
        return envOr("SQLGUARD_MYSQL_RO_USER", "sqlguard_ro");
    }

    public static String roPassword() {
        return envOr("SQLGUARD_MYSQL_RO_PASSWORD", "sqlguard-ro-pw");
    }

    /** A connection with the admin account: the trusted path for setup, checks and cleanup. */
    public static Connection admin(String database) throws SQLException {
        return admin(defaults(), database);
    }

    static Connection admin(Coordinates server, String database) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", server.adminUser());
        p.setProperty("password", server.adminPassword());
        return DriverManager.getConnection(server.url() + "/" + (database == null ? "" : database), p);
    }

    /** Creates a fresh database holding {@link ContractDataset}; returns its name. */
    public static String createDatabase() throws SQLException {
        return createDatabase(defaults());
    }

    static String createDatabase(Coordinates server) throws SQLException {
        String name = PrivateDatabaseFixture.uniqueName();
        try (Connection c = admin(server, null); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE `" + name + "`");
        }
        try (Connection c = admin(server, name); Statement s = c.createStatement()) {
            for (String ddl : ContractDataset.ddl()) {
                s.execute(ddl);
            }
            for (String insert : ContractDataset.inserts()) {
                s.execute(insert);
            }
            s.execute("ANALYZE TABLE claims, regions, users");
        }
        return name;
    }

    /**
     * {@link #createDatabase()} plus table {@code big (id BIGINT PRIMARY KEY, v INT NOT NULL)} with ids
     * 1 to {@code rows} (at most a million) and {@code v} computed from {@code n}, the id, by
     * {@code valueOfN}, and the helper table {@code digits} (0 to 9) it is generated from. Drops the
     * database again when a table cannot be made.
     */
    static String createDatabaseWithBig(String valueOfN, int rows) throws SQLException {
        if (rows < 1 || rows > 1_000_000) {
            throw new IllegalArgumentException("rows must be from 1 to 1000000");
        }
        String database = createDatabase();
        try (Connection c = admin(database); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE big (id BIGINT PRIMARY KEY, v INT NOT NULL)");
            s.execute("CREATE TABLE digits (x INT)");
            s.execute("INSERT INTO digits VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)");
            s.execute("INSERT INTO big SELECT n, " + valueOfN + " FROM (SELECT 1 + a.x + 10 * b.x + 100 * c.x + 1000 * d.x"
                    + " + 10000 * e.x + 100000 * f.x AS n FROM digits a, digits b, digits c, digits d, digits e, digits f) g"
                    + " WHERE n <= " + rows);
        } catch (SQLException | RuntimeException e) {
            dropDatabase(database);
            throw e;
        }
        return database;
    }

    public static void dropDatabase(String name) {
        dropDatabase(defaults(), name);
    }

    static void dropDatabase(Coordinates server, String name) {
        try (Connection c = admin(server, null); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS `" + name + "`");
        } catch (SQLException e) {
            throw new IllegalStateException("could not drop " + name, e);
        }
    }

    /** A digest of every table's rows, read with the admin account. */
    public static String fingerprint(String database) throws SQLException {
        return fingerprint(defaults(), database);
    }

    static String fingerprint(Coordinates server, String database) throws SQLException {
        try (Connection c = admin(server, database); Statement s = c.createStatement()) {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            try (ResultSet cols = c.createStatement().executeQuery("SELECT TABLE_NAME, COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE"
                    + " FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME, ORDINAL_POSITION")) {
                while (cols.next()) {
                    for (int i = 1; i <= 4; i++) {
                        digest.update(cols.getString(i).getBytes(java.nio.charset.StandardCharsets.UTF_8));
                        digest.update((byte) 1);
                    }
                }
            }
            try (ResultSet tables = c.createStatement().executeQuery(
                    "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME")) {
                while (tables.next()) {
                    String table = tables.getString(1);
                    digest.update(table.getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    try (ResultSet rows = s.executeQuery("SELECT * FROM `" + table + "` ORDER BY 1")) {
                        int n = rows.getMetaData().getColumnCount();
                        while (rows.next()) {
                            for (int i = 1; i <= n; i++) {
                                digest.update(String.valueOf(rows.getString(i)).getBytes(java.nio.charset.StandardCharsets.UTF_8));
                                digest.update((byte) 0);
                            }
                        }
                    }
                }
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Engine properties for one of the two accounts. */
    public static Map<String, String> properties(String database, boolean admin) {
        return properties(defaults(), database, admin);
    }

    static Map<String, String> properties(Coordinates server, String database, boolean admin) {
        return Map.of("url", server.url() + "/" + database,
                "username", admin ? server.adminUser() : server.roUser(),
                "password", admin ? server.adminPassword() : server.roPassword());
    }

    private static void startContainer() {
        if (container == null) {
            MySQLContainer c = new MySQLContainer("mysql:8.4").withUsername("root").withPassword("root-pw");
            c.start();
            createAccounts(c);
            container = c;
        }
    }

    private static void createAccounts(MySQLContainer c) {
        Properties p = new Properties();
        p.setProperty("user", "root");
        p.setProperty("password", c.getPassword());
        try (Connection conn = DriverManager.getConnection("jdbc:mysql://" + c.getHost() + ":" + c.getMappedPort(3306) + "/", p);
             Statement s = conn.createStatement()) {
            s.execute("CREATE USER IF NOT EXISTS 'sqlguard_ro'@'%' IDENTIFIED BY 'sqlguard-ro-pw'");
            s.execute("GRANT SELECT ON `sqlguard\\_t\\_%`.* TO 'sqlguard_ro'@'%'");
            s.execute("CREATE USER IF NOT EXISTS 'sqlguard_admin'@'%' IDENTIFIED BY 'sqlguard-admin-pw'");
            s.execute("GRANT ALL PRIVILEGES ON *.* TO 'sqlguard_admin'@'%' WITH GRANT OPTION");
        } catch (SQLException e) {
            throw new IllegalStateException("could not prepare the MySQL container", e);
        }
    }

    private static String env(String name) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? null : v;
    }

    private static String envOr(String name, String fallback) {
        String v = env(name);
        return v == null ? fallback : v;
    }
}
