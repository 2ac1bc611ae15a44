package dev.sqlguard.trino;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;

import io.trino.jdbc.TrinoDriver;

import dev.sqlguard.testing.ContractDataset;
import dev.sqlguard.testing.PrivateDatabaseFixture;

/**
 * The Trino cluster under test: one per test JVM, started on first use and stopped when the JVM
 * exits. Trino 483 needs Java 25, so the cluster runs in a JVM of its own: the Java 25 named by
 * {@code SQLGUARD_TRINO_JAVA} (a {@code java} binary or a JDK folder; {@code .ci/run} sets it), else
 * the first {@code /usr/lib/jvm/*25*} JDK found. It runs trino-test-cluster's launcher in source-file
 * mode on the class path that module's build wrote (nothing is downloaded at run time): a coordinator
 * and one worker, the memory catalog and tpch, and file-based access control with
 * {@code test-cluster-rules.json}: {@code admin} may do anything, {@code sqlguard_ro} may read the
 * memory and tpch catalogs, {@code sqlguard_rw} may write the memory catalog.
 *
 * <p>With no Java 25 or no class path, {@link #require()} skips the test (a JUnit assumption) and
 * says why. A cluster that could run here but does not start fails every test that needs it.
 */
public final class TestCluster {
    public static final String ADMIN = "admin";
    public static final String READ_ONLY = "sqlguard_ro";
    public static final String WRITER = "sqlguard_rw";
    public static final int NODES = 2;

    private static final Object LOCK = new Object();
    private static String url;
    /** Why no cluster can run here (the test skips); null when one could. */
    private static String failure;
    /** Why the cluster that could run did not start (the test fails: a broken cluster is not a missing one). */
    private static String broken;
    private static final TrinoDriver DRIVER = new TrinoDriver();

    private TestCluster() {
    }

    /** The coordinator's JDBC URL ({@code jdbc:trino://127.0.0.1:port}); skips the calling test when no cluster can run here. */
    public static String require() {
        synchronized (LOCK) {
            if (url == null && failure == null && broken == null) {
                start();
            }
            assumeTrue(failure == null, failure);
            if (broken != null) {
                throw new IllegalStateException(broken);
            }
            return url;
        }
    }

    /** Why no cluster runs here, or empty when one does (or could). */
    static Optional<String> unavailableReason() {
        Optional<Path> java = java25();
        if (java.isEmpty()) {
            return Optional.of("no Java 25 found (set SQLGUARD_TRINO_JAVA to a Java 25 binary or JDK): Trino 483 needs Java 25");
        }
        String cp = System.getProperty("sqlguard.trino.classpath");
        if (cp == null || !Files.isRegularFile(Path.of(cp))) {
            return Optional.of("the Trino class path file is missing (build trino-test-cluster first): " + cp);
        }
        return Optional.empty();
    }

    private static void start() {
        Optional<String> reason = unavailableReason();
        if (reason.isPresent()) {
            failure = reason.get();
            return;
        }
        try {
            Path work = Path.of(System.getenv().getOrDefault("SQLGUARD_TEST_TMP", "target/test-tmp"));
            Files.createDirectories(work);
            Path rules = work.resolve("trino-rules-" + UUID.randomUUID() + ".json");
            try (InputStream in = TestCluster.class.getResourceAsStream("test-cluster-rules.json")) {
                Files.copy(in, rules, StandardCopyOption.REPLACE_EXISTING);
            }
            TrinoClusterProcess started = TrinoClusterProcess.start(java25().orElseThrow(),
                    Path.of(System.getProperty("sqlguard.trino.classpath")), Path.of(System.getProperty("sqlguard.trino.launcher")),
                    rules, NODES, work.resolve("trino-cluster.log"));
            Runtime.getRuntime().addShutdownHook(new Thread(started::terminate));
            url = started.awaitUrl();
        } catch (IOException e) {
            broken = "the Trino test cluster could not start: " + e.getMessage();
        }
    }

    static Optional<Path> java25() {
        return TrinoClusterProcess.java25();
    }

    public static Connection connect(String user, String schema) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user);
        p.setProperty("catalog", "memory");
        p.setProperty("schema", schema);
        return DRIVER.connect(require(), p);
    }

    /** Creates a private memory schema holding {@link ContractDataset}; returns its name. */
    public static String createSchema() throws SQLException {
        String schema = PrivateDatabaseFixture.uniqueName();
        try (Connection c = connect(ADMIN, "default"); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA memory." + schema);
        }
        try (Connection c = connect(ADMIN, schema); Statement s = c.createStatement()) {
            for (String ddl : ContractDataset.ddl()) {
                s.execute(ddl.replace(" PRIMARY KEY", ""));
            }
            for (String insert : ContractDataset.inserts()) {
                s.execute(insert);
            }
        }
        return schema;
    }

    /** Drops the schema; tried again a few times, since a query that was just stopped may still hold a table. */
    public static void dropSchema(String schema) {
        SQLException last = null;
        for (int attempt = 0; attempt < 5; attempt++) {
            try (Connection c = connect(ADMIN, schema); Statement s = c.createStatement()) {
                for (String table : List.of("claims", "regions", "users")) {
                    s.execute("DROP TABLE IF EXISTS " + table);
                }
                s.execute("DROP SCHEMA IF EXISTS memory." + schema);
                return;
            } catch (SQLException e) {
                last = e;
                try {
                    Thread.sleep(2_000);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        throw new IllegalStateException("could not drop the test schema", last);
    }

    /** The engine properties for a user. */
    public static Map<String, String> properties(String schema, String user) {
        Map<String, String> p = new HashMap<>();
        p.put("url", require());
        p.put("user", user);
        p.put("catalog", "memory");
        p.put("schema", schema);
        p.put("requireReadOnlyAccount", Boolean.toString(user.equals(READ_ONLY)));
        return p;
    }

    /** A digest of every table's columns and rows in the schema, read as admin. */
    public static String fingerprint(String schema) throws SQLException {
        StringBuilder text = new StringBuilder();
        try (Connection c = connect(ADMIN, schema); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT table_name, column_name, data_type FROM memory.information_schema.columns"
                    + " WHERE table_schema = '" + schema + "' ORDER BY 1, ordinal_position")) {
                while (rs.next()) {
                    text.append(rs.getString(1)).append('|').append(rs.getString(2)).append('|').append(rs.getString(3)).append('\n');
                }
            }
            for (String table : new String[] {"claims", "regions", "users"}) {
                try (ResultSet rs = s.executeQuery("SELECT * FROM " + table + " ORDER BY 1")) {
                    int n = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        text.append(table).append(':');
                        for (int i = 1; i <= n; i++) {
                            text.append(rs.getString(i)).append('|');
                        }
                        text.append('\n');
                    }
                }
            }
        }
        return text.toString();
    }
}
