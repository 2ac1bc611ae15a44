package dev.sqlguard.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

import io.trino.jdbc.TrinoDriver;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.port.ResultCursor;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;
import dev.sqlguard.trino.TrinoClusterProcess;

/**
 * The Trino engine against raw JDBC (issue 17), side by side in one run: an aggregate over tpch
 * {@code lineitem} (TPC-H Q1's grouping, four groups), guarded ({@code QueryService} over the
 * {@code trino} engine) vs raw trino-jdbc on one reused connection for the same user, paired per
 * round (target: at most 1.10); then a per-call breakdown and cold validation per query and with plan
 * reuse.
 *
 * <p>The cluster is the real 2-node test cluster of module trino-test-cluster (a coordinator and a
 * worker, Trino 483), started in a Java 25 JVM of its own as adapter-trino's tests start it, with the
 * same file-based access control ({@code sqlguard_ro} reads tpch), and stopped at the end. Java 25 comes
 * from {@code SQLGUARD_TRINO_JAVA} (a binary or a JDK folder), else the first {@code /usr/lib/jvm/*25*};
 * without one the part says so and is skipped. Run it from the repository root (the class path file and
 * the launcher are found under {@code trino-test-cluster/}, or set {@code -Dsqlguard.trino.classpath} and
 * {@code -Dsqlguard.trino.launcher}). The tpch schema is {@code tiny} (60,175 rows) unless
 * {@code -Dsqlguard.bench.trino.schema=sf1} (6M rows) names another.
 *
 * <pre>
 * java -jar benchmarks/target/sqlguard-benchmarks.jar 21 trino
 * </pre>
 */
final class TrinoBench {
    static final String AGGREGATE = "SELECT returnflag, linestatus, sum(quantity) AS sum_qty, sum(extendedprice) AS sum_price, "
            + "avg(discount) AS avg_disc, count(*) AS n FROM lineitem GROUP BY returnflag, linestatus";
    private static final String READ_ONLY = "sqlguard_ro";
    /** The rules adapter-trino's tests use (test-cluster-rules.json): admin does anything, sqlguard_ro reads memory and tpch. */
    static final String RULES = """
            {
              "catalogs": [
                {"user": "admin", "allow": "all"},
                {"user": "sqlguard_rw", "catalog": "memory", "allow": "all"},
                {"user": "sqlguard_ro", "catalog": "(memory|tpch)", "allow": "read-only"},
                {"catalog": "system", "allow": "none"},
                {"allow": "none"}
              ],
              "queries": [
                {"user": "admin", "allow": ["execute", "kill", "view"]},
                {"allow": ["execute"]}
              ],
              "system_information": [
                {"user": "admin", "allow": ["read"]}
              ],
              "system_session_properties": [
                {"user": "admin", "allow": true},
                {"property": "(query_max_execution_time|query_max_run_time|query_max_memory)", "allow": true},
                {"allow": false}
              ],
              "catalog_session_properties": [
                {"user": "admin", "allow": true},
                {"allow": false}
              ]
            }
            """;

    private TrinoBench() {
    }

    static void run(Path work, int rounds) throws Exception {
        Optional<Path> java = TrinoClusterProcess.java25();
        if (java.isEmpty()) {
            System.out.println("trino: skipped (no Java 25 found: set SQLGUARD_TRINO_JAVA to a Java 25 binary or JDK; Trino 483 needs Java 25)");
            return;
        }
        Path classpathFile = Path.of(System.getProperty("sqlguard.trino.classpath", "trino-test-cluster/target/trino-classpath.txt"));
        Path launcher = Path.of(System.getProperty("sqlguard.trino.launcher", "trino-test-cluster/src/main/launcher/TrinoTestCluster.java"));
        if (!Files.isRegularFile(classpathFile) || !Files.isRegularFile(launcher)) {
            System.out.println("trino: skipped (the Trino class path file " + classpathFile + " or the launcher " + launcher
                    + " is missing: run from the repository root after building trino-test-cluster)");
            return;
        }
        String tpchSchema = System.getProperty("sqlguard.bench.trino.schema", "tiny");
        System.out.println("trino (starting the 2-node test cluster, load average " + PerCallBench.load() + "):");
        Path rules = work.resolve("trino-rules.json");
        Files.writeString(rules, RULES);
        long startedAt = System.nanoTime();
        TrinoClusterProcess cluster = TrinoClusterProcess.start(java.get(), classpathFile, launcher, rules, 2,
                work.resolve("trino-cluster.log"));
        Thread stopper = new Thread(cluster::close);
        Runtime.getRuntime().addShutdownHook(stopper);
        try {
            String url = cluster.awaitUrl();
            System.out.printf(Locale.ROOT, "  cluster serving after %.1f s (tpch schema %s)%n", (System.nanoTime() - startedAt) / 1e9,
                    tpchSchema);
            measure(work, url, tpchSchema, rounds);
            System.out.println("  (load average after the part: " + PerCallBench.load() + ")");
        } finally {
            cluster.close();
            Runtime.getRuntime().removeShutdownHook(stopper);
        }
    }

    private static void measure(Path work, String url, String tpchSchema, int rounds) throws SQLException, IOException {
        TrinoDriver driver = new TrinoDriver();
        try {
            List<String> columns = new ArrayList<>();
            try (Connection c = connect(driver, url, "admin", tpchSchema); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SHOW COLUMNS FROM lineitem")) {
                while (rs.next()) {
                    columns.add(rs.getString(1));
                }
            }
            GuardrailPolicy policy = new GuardrailPolicy(TableAllowlist.of(Map.of("lineitem", columns)),
                    // a cold cluster's first queries compile its plans and bytecode: on a loaded machine they outlast 10 s
                    Set.of(), Set.of(), Set.of(), Limits.defaults().withTimeout(Duration.ofMinutes(2)));
            Map<String, String> props = new HashMap<>();
            props.put("url", url);
            props.put("user", READ_ONLY);
            props.put("catalog", "tpch");
            props.put("schema", tpchSchema);
            props.put("requireReadOnlyAccount", "true");
            try (Connection rawConnection = connect(driver, url, READ_ONLY, tpchSchema);
                 Engine engine = Harness.factory("trino").create(new EngineConfig("bench", props, policy),
                         EngineContext.of(work.resolve("trino-work")))) {
                Runnable raw = () -> Harness.drain(rawConnection, AGGREGATE);
                Runnable guarded = () -> Harness.requireOk(Harness.SERVICE.query(engine.binding(), QueryRequest.of("bench", AGGREGATE)));
                long[] warmup = new long[10];
                for (int w = 0; w < warmup.length; w++) { // the cluster compiles and caches its plans and bytecode too
                    raw.run();
                    warmup[w] = Harness.time(guarded);
                }
                System.out.printf(Locale.ROOT, "  warm-up, guarded call times: first %.0f ms, last %.0f ms%n", warmup[0] / 1e6,
                        warmup[warmup.length - 1] / 1e6);
                System.out.println("  load average before the paired rounds: " + PerCallBench.load());
                long[][] times = Harness.paired(rounds, guarded, raw);
                Harness.report("  lineitem (" + tpchSchema + ") aggregate, guarded vs raw trino-jdbc (target <= 1.10)", times[0], times[1]);
                breakdown(engine, rounds);
                ClientCpu.report("  lineitem aggregate", rounds, guarded, raw);
                // the guarded executor opens a connection per query (with the limits as session properties): the
                // same for raw JDBC, against the reused connection, shows what that costs
                Runnable rawFresh = () -> {
                    try (Connection c = connect(driver, url, READ_ONLY, tpchSchema)) {
                        Harness.drain(c, AGGREGATE);
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                };
                long[][] fresh = Harness.paired(rounds, rawFresh, raw);
                Harness.report("  raw trino-jdbc on a fresh connection per call vs the reused one", fresh[0], fresh[1]);
                decompose(engine, driver, url, tpchSchema, policy.limits(), rounds, guarded, raw);
                Harness.validation(engine, rounds, "SELECT returnflag, sum(quantity) AS total FROM lineitem WHERE quantity > %d "
                        + "GROUP BY returnflag ORDER BY returnflag");
            }
        } finally {
            driver.close();
        }
    }

    /** Where a guarded call's time goes: validation (plan reused), execution with the rows read, and the whole call. */
    private static void breakdown(Engine engine, int rounds) {
        QueryRequest request = QueryRequest.of("bench", AGGREGATE);
        long[] validate = new long[rounds];
        long[] execute = new long[rounds];
        long[] whole = new long[rounds];
        for (int r = 0; r < rounds; r++) {
            QueryPlan[] plan = new QueryPlan[1];
            validate[r] = Harness.time(() -> plan[0] = engine.validator().validate(request));
            execute[r] = Harness.time(() -> {
                try (ResultCursor cursor = engine.execution().execute(plan[0])) {
                    int n = cursor.columns().size();
                    while (cursor.next()) {
                        for (int i = 0; i < n; i++) {
                            cursor.get(i);
                        }
                    }
                }
            });
            whole[r] = Harness.time(() -> Harness.requireOk(Harness.SERVICE.query(engine.binding(), request)));
        }
        System.out.println("  the SQL the guarded call runs: " + engine.validator().validate(request).executableSql());
        System.out.printf(Locale.ROOT, "  per call (medians): validation with plan reuse %.3f ms, execution and reading %.3f ms, "
                + "whole QueryService call %.3f ms%n", Harness.median(validate) / 1e6, Harness.median(execute) / 1e6,
                Harness.median(whole) / 1e6);
    }

    /**
     * Splits the guarded/raw ratio by what the guarded call sends differently, each made by hand in raw
     * trino-jdbc: the rendered SQL (qualified names, LIMIT max rows + 1) on the reused connection; then
     * also the executor's way (a fresh connection per call whose session carries the limits as
     * {@code query_max_*} properties, a PreparedStatement sent as EXECUTE IMMEDIATE); and guarded
     * against that.
     */
    private static void decompose(Engine engine, TrinoDriver driver, String url, String tpchSchema, Limits limits, int rounds,
                                  Runnable guarded, Runnable raw) throws SQLException {
        String rendered = engine.validator().validate(QueryRequest.of("bench", AGGREGATE)).executableSql();
        long seconds = Math.max(1, (limits.timeout().toMillis() + 999) / 1000);
        long megabytes = Math.max(1, limits.memoryBytes() / (1024 * 1024));
        Properties p = new Properties();
        p.setProperty("user", READ_ONLY);
        p.setProperty("catalog", "tpch");
        p.setProperty("schema", tpchSchema);
        p.setProperty("source", "sqlguard");
        p.setProperty("explicitPrepare", "false");
        p.setProperty("sessionProperties", "query_max_execution_time:" + seconds + "s;query_max_run_time:" + seconds
                + "s;query_max_memory:" + megabytes + "MB");
        try (Connection reused = connect(driver, url, READ_ONLY, tpchSchema)) {
            Runnable renderedRaw = () -> Harness.drain(reused, rendered);
            Runnable likeEngine = () -> {
                try (Connection c = driver.connect(url, p); java.sql.PreparedStatement ps = c.prepareStatement(rendered);
                     ResultSet rs = ps.executeQuery()) {
                    int n = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        for (int i = 1; i <= n; i++) {
                            rs.getObject(i);
                        }
                    }
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            };
            for (int w = 0; w < 3; w++) {
                renderedRaw.run();
                likeEngine.run();
            }
            long[][] a = Harness.paired(rounds, renderedRaw, raw);
            Harness.report("  raw trino-jdbc, the rendered SQL vs the plain SQL", a[0], a[1]);
            Runnable limited = () -> Harness.drain(reused, AGGREGATE + " LIMIT 1001");
            long[][] l = Harness.paired(rounds, limited, raw);
            Harness.report("  raw trino-jdbc, the plain SQL with LIMIT 1001 vs without", l[0], l[1]);
            long[][] b = Harness.paired(rounds, likeEngine, raw);
            Harness.report("  raw trino-jdbc the executor's way (rendered SQL, fresh connection, session limits, EXECUTE IMMEDIATE)"
                    + " vs plain raw", b[0], b[1]);
            long[][] c = Harness.paired(rounds, guarded, likeEngine);
            Harness.report("  guarded vs raw trino-jdbc the executor's way", c[0], c[1]);
        }
    }

    private static Connection connect(TrinoDriver driver, String url, String user, String schema) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user);
        p.setProperty("catalog", "tpch");
        p.setProperty("schema", schema);
        return driver.connect(url, p);
    }
}
