package dev.sqlguard.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.UUID;
import java.util.function.LongSupplier;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;
import dev.sqlguard.ports.EngineFactory;

/**
 * A plain benchmark harness. Every figure is a ratio or a difference measured in the same run,
 * with guarded and baseline runs interleaved so that machine noise hits both alike.
 *
 * <pre>
 * ./mvnw -q -DskipTests package -pl benchmarks -am && java -jar benchmarks/target/sqlguard-benchmarks.jar [rounds]
 * </pre>
 *
 * The MySQL cases run when {@code SQLGUARD_MYSQL_URL} and {@code SQLGUARD_MYSQL_ADMIN_USER}/
 * {@code _PASSWORD} are set (see .ci/mariadb-up.sh).
 */
public final class Harness {
    static final QueryService SERVICE = new QueryService(AuditSink.discarding());
    static final String GROUP_BY = "SELECT region, avg(amount) AS avg_amount, count(*) AS n FROM claims GROUP BY region";
    /** A heavier 1M-row GROUP BY (1,000 groups, a median and a distinct count), where per-call costs matter less. */
    private static final String HEAVY_GROUP_BY = "SELECT id % 1000 AS g, avg(amount) AS avg_amount, median(amount) AS med, "
            + "count(DISTINCT amount) AS amounts FROM claims GROUP BY g";

    static final GuardrailPolicy BENCH_POLICY = GuardrailPolicy.defaults().withLimits(Limits.defaults()
            .withMemoryBytes(1_000_000_000L).withThreads(2));

    private Harness() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
        Path work = Files.createTempDirectory("sqlguard-bench");
        System.out.printf(Locale.ROOT, "sqlguard benchmarks: %d rounds, Java %s, %d cores%n", rounds,
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors());
        // an optional second argument picks parts: duckdb, percall (DuckDB's per-call cost and throughput; steps:
        // only its 8-thread breakdown),
        // validation (DuckDB's alone), costs, mysql, postgresql, trino and tenant (started only when named)
        Set<String> parts = args.length > 1 ? Set.of(args[1].split(",")) : Set.of("duckdb", "costs", "mysql", "postgresql");
        if (parts.contains("percall")) {
            PerCallBench.run(work, rounds);
        }
        if (parts.contains("steps")) { // only the 8-thread breakdown of percall
            PerCallBench.steps(work, rounds);
        }
        if (parts.contains("profile")) { // the first argument is then the number of seconds
            PerCallBench.profile(work, rounds);
        }
        if (parts.contains("duckdb")) {
            duckdb(work, rounds);
        } else if (parts.contains("validation")) {
            try (Engine engine = benchEngine(work)) {
                System.out.println("duckdb:");
                validation(engine, rounds);
            }
        }
        if (parts.contains("costs")) {
            costVectors();
        }
        if (parts.contains("postgresql")) {
            PostgresBench.run(work, rounds);
        }
        if (parts.contains("trino")) {
            TrinoBench.run(work, rounds);
        }
        if (parts.contains("tenant")) { // row filters (issue 31), named only
            TenantBench.run(work, rounds);
        }
        String url = System.getenv("SQLGUARD_MYSQL_URL");
        if (!parts.contains("mysql")) {
            return;
        }
        if (url != null && !url.isBlank()) {
            mysql(work, url, rounds);
        } else {
            System.out.println("mysql: skipped (SQLGUARD_MYSQL_URL is not set)");
        }
    }

    // ------------------------------------------------------------------ DuckDB

    /** The benchmark's DuckDB file: one million claims. */
    static Path claimsDatabase(Path work) throws SQLException, IOException {
        // the engine refuses a work folder inside the database's folder, so keep them apart
        Path data = Files.createDirectories(work.resolve("data"));
        Path db = data.resolve("bench.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE claims AS SELECT i AS id, ['north','south','east','west'][(i % 4) + 1] AS region, "
                    + "CAST((i % 10000) / 7.0 AS DECIMAL(12,2)) AS amount FROM range(1000000) t(i)");
        }
        return db;
    }

    private static Engine benchEngine(Path work) throws SQLException, IOException {
        Path db = claimsDatabase(work);
        return factory("duckdb").create(new EngineConfig("bench", Map.of("database", db.toString()), BENCH_POLICY),
                EngineContext.of(work.resolve("duckdb-work")));
    }

    private static void duckdb(Path work, int rounds) throws Exception {
        Path db = claimsDatabase(work);
        Path data = db.getParent();
        Path rawCopy = data.resolve("bench-raw.duckdb");
        Files.copy(db, rawCopy);
        GuardrailPolicy policy = BENCH_POLICY;
        EngineFactory factory = factory("duckdb");
        try (Engine engine = factory.create(new EngineConfig("bench", Map.of("database", db.toString()), policy),
                EngineContext.of(work.resolve("duckdb-work")))) {
            // raw baseline: a plain read-only connection to a byte-identical copy of the file (the driver
            // keeps one instance per path, so the copy lets guarded and raw runs interleave)
            Properties props = new Properties();
            props.setProperty("duckdb.read_only", "true");
            props.setProperty("threads", "2");
            props.setProperty("memory_limit", "1GB");
            System.out.println("duckdb:");
            try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + rawCopy, props)) {
                for (int w = 0; w < 5; w++) { // warm both paths
                    requireOk(SERVICE.query(engine.binding(), QueryRequest.of("bench", GROUP_BY)));
                    drain(c, GROUP_BY);
                }
                long[][] times = paired(rounds,
                        () -> requireOk(SERVICE.query(engine.binding(), QueryRequest.of("bench", GROUP_BY))),
                        () -> drain(c, GROUP_BY));
                report("  1M-row GROUP BY, guarded vs raw JDBC (target <= 1.05)", times[0], times[1]);
                for (int w = 0; w < 3; w++) {
                    requireOk(SERVICE.query(engine.binding(), QueryRequest.of("bench", HEAVY_GROUP_BY)));
                    drain(c, HEAVY_GROUP_BY);
                }
                long[][] heavy = paired(rounds,
                        () -> requireOk(SERVICE.query(engine.binding(), QueryRequest.of("bench", HEAVY_GROUP_BY))),
                        () -> drain(c, HEAVY_GROUP_BY));
                report("  heavier 1M-row GROUP BY (1,000 groups, median, distinct count), guarded vs raw", heavy[0], heavy[1]);
            }
        }
        try (Engine engine = factory.create(new EngineConfig("bench", Map.of("database", db.toString()), policy),
                EngineContext.of(work.resolve("duckdb-work")))) {
            validation(engine, rounds);
            truncation(engine, rounds, "SELECT i FROM range(50000000) t(i)", "SELECT i FROM range(50000000) t(i) LIMIT 1000");
            // a 10^12-row cross join whose filter no optimizer can prove empty
            timeoutLateness(factory, db, work, policy, Math.min(rounds, 5),
                    "SELECT count(*) AS n FROM claims a, claims b WHERE (a.id * 7 + b.id) % 1000003 = 17");
        }
    }

    /** The cost vectors, in a JVM of their own with a fixed heap so that its resident memory is theirs alone. */
    private static void costVectors() throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                CostVectorBench.class.getName()).inheritIO().start();
        if (child.waitFor() != 0) {
            throw new IllegalStateException("the cost-vector benchmark failed with exit code " + child.exitValue());
        }
    }

    static void validation(Engine engine, int rounds) {
        validation(engine, rounds, "SELECT region, sum(amount) AS total FROM claims WHERE amount > %d GROUP BY region ORDER BY region");
    }

    /** Cold validation (a new literal each time) vs plan reuse, on {@code template} with one {@code %d}. */
    static void validation(Engine engine, int rounds, String template) {
        int n = Math.max(200, rounds * 20);
        long[] cold = new long[n];
        long[] warm = new long[n];
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        for (int i = 0; i < n; i++) { // warm-up: the JIT compiles the validator before anything is timed
            engine.validator().validate(QueryRequest.of("bench", String.format(Locale.ROOT, template, -1 - i)));
        }
        long coldCpu = 0;
        for (int i = 0; i < n; i++) {
            String fresh = String.format(Locale.ROOT, template, 1000 + i + n * (int) (System.nanoTime() % 1000));
            long cpu = os.getProcessCpuTime();
            cold[i] = time(() -> engine.validator().validate(QueryRequest.of("bench", fresh)));
            coldCpu += os.getProcessCpuTime() - cpu;
            String repeated = String.format(Locale.ROOT, template, 42);
            warm[i] = time(() -> engine.validator().validate(QueryRequest.of("bench", repeated)));
        }
        System.out.printf(Locale.ROOT, "  validation per query: cold %.3f ms, with plan reuse %.3f ms (ratio %.3f); "
                + "cold process CPU time %.3f ms per query (mean)%n",
                median(cold) / 1e6, median(warm) / 1e6, median(warm) / (double) median(cold), coldCpu / (double) n / 1e6);
    }

    /** Cold validation of a query three subqueries deep (the MySQL target: at most 1 ms). */
    private static void nestedValidation(Engine engine, int rounds) {
        int n = Math.max(200, rounds * 20);
        String template = "SELECT c.region, count(*) AS n FROM claims c WHERE c.amount > (SELECT avg(c2.amount) FROM claims c2 "
                + "WHERE c2.region = c.region AND c2.id IN (SELECT c3.id FROM claims c3 WHERE c3.amount > "
                + "(SELECT min(c4.amount) FROM claims c4 WHERE c4.id > %d))) GROUP BY c.region ORDER BY c.region";
        for (int i = 0; i < n; i++) { // warm-up
            engine.validator().validate(QueryRequest.of("bench", String.format(Locale.ROOT, template, -1 - i)));
        }
        long[] cold = new long[n];
        for (int i = 0; i < n; i++) {
            String fresh = String.format(Locale.ROOT, template, 1000 + i + n * (int) (System.nanoTime() % 1000));
            cold[i] = time(() -> engine.validator().validate(QueryRequest.of("bench", fresh)));
        }
        System.out.printf(Locale.ROOT, "  validation of a query three subqueries deep, cold (target <= 1 ms): median %.3f ms%n",
                median(cold) / 1e6);
    }

    private static void truncation(Engine engine, int rounds, String big, String limited) {
        long[] bigTime = new long[rounds];
        long[] limitTime = new long[rounds];
        long[] bigHeap = new long[rounds];
        long[] limitHeap = new long[rounds];
        for (int r = 0; r < rounds; r++) {
            long[] m = measure(() -> requireOk(SERVICE.query(engine.binding(), QueryRequest.of("bench", big))));
            bigTime[r] = m[0];
            bigHeap[r] = m[1];
            m = measure(() -> requireOk(SERVICE.query(engine.binding(), QueryRequest.of("bench", limited))));
            limitTime[r] = m[0];
            limitHeap[r] = m[1];
        }
        report("  truncated 1,000-row answer of a 50M-row query vs LIMIT 1000, time (target <= 2x)", bigTime, limitTime);
        System.out.printf(Locale.ROOT, "  ... heap allocated per call: %.1f KiB vs %.1f KiB (ratio %.2f)%n",
                median(bigHeap) / 1024.0, median(limitHeap) / 1024.0, median(bigHeap) / (double) median(limitHeap));
    }

    private static void timeoutLateness(EngineFactory factory, Path db, Path work, GuardrailPolicy base, int rounds, String runaway) {
        // same memory and threads as the open engine (they share one DuckDB instance); only the timeout differs
        GuardrailPolicy policy = base.withLimits(base.limits().withTimeout(Duration.ofSeconds(1)));
        long[] late = new long[rounds];
        try (Engine engine = factory.create(new EngineConfig("bench", Map.of("database", db.toString()), policy),
                EngineContext.of(work.resolve("duckdb-work")))) {
            for (int r = 0; r < rounds; r++) {
                long start = System.nanoTime();
                ToolResult result = SERVICE.query(engine.binding(), QueryRequest.of("bench", runaway));
                late[r] = System.nanoTime() - start - Duration.ofSeconds(1).toNanos();
                if (result.error().map(e -> e.code()).orElse(null) != dev.sqlguard.domain.ErrorCode.EXCEEDED_TIME_LIMIT) {
                    throw new IllegalStateException("the runaway query was not stopped: " + result.status());
                }
            }
        }
        System.out.printf(Locale.ROOT, "  timeout lateness after a 1 s limit (target <= 100 ms): median %.1f ms, max %.1f ms%n",
                median(late) / 1e6, Arrays.stream(late).max().orElse(0) / 1e6);
    }

    // ------------------------------------------------------------------ MySQL

    private static void mysql(Path work, String url, int rounds) throws Exception {
        String user = System.getenv("SQLGUARD_MYSQL_ADMIN_USER");
        String password = System.getenv("SQLGUARD_MYSQL_ADMIN_PASSWORD");
        String schema = "sqlguard_t_bench_" + UUID.randomUUID().toString().substring(0, 8);
        String base = url.endsWith("/") ? url : url + "/";
        try (Connection c = DriverManager.getConnection(base, user, password); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + schema);
        }
        try {
            try (Connection c = DriverManager.getConnection(base + schema, user, password); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE " + schema + ".claims (id BIGINT PRIMARY KEY, region VARCHAR(16), amount DECIMAL(12,2))");
                s.execute("INSERT INTO " + schema + ".claims SELECT seq, ELT(1 + seq % 4, 'north','south','east','west'), "
                        + "(seq % 10000) / 7 FROM seq_1_to_100000");
            }
            GuardrailPolicy policy = new GuardrailPolicy(TableAllowlist.of(Map.of("claims", List.of("id", "region", "amount"))),
                    Set.of(), Set.of(), Set.of(), Limits.defaults());
            HikariConfig hc = new HikariConfig();
            hc.setJdbcUrl(base + schema);
            hc.setUsername(user);
            hc.setPassword(password);
            hc.setMaximumPoolSize(2);
            hc.setReadOnly(true);
            System.out.println("mysql:");
            try (HikariDataSource pool = new HikariDataSource(hc);
                 Engine engine = factory("mysql").create(new EngineConfig("bench", Map.of("url", base + schema,
                         "username", user, "password", password), policy), EngineContext.of(work.resolve("mysql-work")))) {
                Runnable raw = () -> {
                    try (Connection c = pool.getConnection()) {
                        drain(c, GROUP_BY);
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                };
                Runnable guarded = () -> requireOk(SERVICE.query(engine.binding(), QueryRequest.of("bench", GROUP_BY)));
                for (int w = 0; w < 5; w++) {
                    guarded.run();
                    raw.run();
                }
                long[][] times = paired(rounds, guarded, raw);
                report("  100k-row GROUP BY, guarded vs raw JDBC through a Hikari pool (target <= 1.10)", times[0], times[1]);
                validation(engine, rounds);
                nestedValidation(engine, rounds);
            }
            MySqlThroughputBench.run(base + schema, user, password, policy, rounds);
        } finally {
            try (Connection c = DriverManager.getConnection(base, user, password); Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + schema);
            }
        }
    }

    // ------------------------------------------------------------------ helpers

    static EngineFactory factory(String name) {
        for (EngineFactory f : ServiceLoader.load(EngineFactory.class)) {
            if (f.name().equals(name)) {
                return f;
            }
        }
        throw new IllegalStateException("engine " + name + " is not on the class path");
    }

    static void requireOk(ToolResult result) {
        if (result.status() != ToolStatus.OK) {
            throw new IllegalStateException("benchmark query failed: " + result.status() + " " + result.error());
        }
    }

    static void drain(Connection c, String sql) {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                for (int i = 1; i <= columns; i++) {
                    rs.getObject(i);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Runs {@code subject} and {@code baseline} once per round, in random order, and returns their times;
     * {@link #report} then gives both medians and the median of the per-round ratios, which is robust
     * against load that drifts during the run.
     */
    static long[][] paired(int rounds, Runnable subject, Runnable baseline) {
        long[][] out = new long[2][rounds];
        java.util.Random order = new java.util.Random(42);
        for (int r = 0; r < rounds; r++) {
            if (order.nextBoolean()) {
                out[0][r] = time(subject);
                out[1][r] = time(baseline);
            } else {
                out[1][r] = time(baseline);
                out[0][r] = time(subject);
            }
        }
        return out;
    }

    static long time(Runnable r) {
        long start = System.nanoTime();
        r.run();
        return System.nanoTime() - start;
    }

    /** Elapsed nanoseconds and bytes allocated on this thread. */
    private static long[] measure(Runnable r) {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().getId();
        LongSupplier allocated = () -> mx.getThreadAllocatedBytes(id);
        long before = allocated.getAsLong();
        long t = time(r);
        return new long[] {t, allocated.getAsLong() - before};
    }

    static long median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    static void report(String label, long[] subject, long[] baseline) {
        List<String> parts = new ArrayList<>();
        parts.add(String.format(Locale.ROOT, "median %.2f ms vs %.2f ms", median(subject) / 1e6, median(baseline) / 1e6));
        parts.add(String.format(Locale.ROOT, "ratio of medians %.3f", median(subject) / (double) median(baseline)));
        long[] ratios = new long[subject.length];
        for (int i = 0; i < subject.length; i++) {
            ratios[i] = Math.round(1000.0 * subject[i] / Math.max(1, baseline[i]));
        }
        parts.add(String.format(Locale.ROOT, "median per-round ratio %.3f", median(ratios) / 1000.0));
        System.out.println(label + ": " + String.join(", ", parts));
    }
}
