package dev.sqlguard.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.sqlguard.app.SqlGuard;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.testing.FaultProxy;

/**
 * A soak of the whole product: thousands of mixed calls per engine (honest, redacted, hostile,
 * malformed, runaway, and honest calls cancelled at a random moment) on 8 threads, through the
 * embedding API and through the real jar's MCP server, with a fault in the middle (the MySQL
 * server's port cut for 3 s through a proxy; the MCP server process ended by SIGTERM and started
 * again) and a burst of 200 overlapping calls. It reports calls answered against calls sent,
 * audit events against calls, threads, descriptors and heap before and after, statements left on
 * the server, and a checksum of the data before and after. Any wrong answer (an honest result
 * that differs from its reference, a refused call that ran, a secret value in any answer) makes
 * the exit code 1.
 *
 * <pre>
 * ./mvnw -q -DskipTests package -pl benchmarks,app/cli -am
 * java -cp benchmarks/target/sqlguard-benchmarks.jar dev.sqlguard.benchmarks.Soak [duckdb|mysql|postgresql|all|trino] [calls] [jar]
 * </pre>
 *
 * MySQL runs when {@code SQLGUARD_MYSQL_URL}, {@code _ADMIN_USER}/{@code _PASSWORD} and
 * {@code _RO_USER}/{@code _RO_PASSWORD} are set (see .ci/run); it creates and drops its own
 * {@code sqlguard_t_soak_*} database. CI does not run the soak.
 */
public final class Soak {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SECRET = "SSN-SECRET-";
    private static final int THREADS = 8;
    private static final int BURST = 200;
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private Soak() {
    }

    enum Kind { HONEST, REDACTED, HOSTILE, MALFORMED, RUNAWAY, CANCELLED }

    record Call(Kind kind, String sql, List<Object> params) {
        String key() {
            return sql + " " + params;
        }
    }

    public static void main(String[] args) throws Exception {
        String which = args.length > 0 ? args[0] : "all";
        int calls = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        Path jar = Path.of(args.length > 2 ? args[2] : "app/target/sqlguard.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalArgumentException("the sqlguard jar is not at " + jar + "; build it or pass its path");
        }
        Path work = Files.createTempDirectory("sqlguard-soak-");
        boolean wrong = false;
        List<Fixture> fixtures = new ArrayList<>();
        if (which.equals("all") || which.equals("duckdb")) {
            fixtures.add(new DuckDbFixture(work.resolve("duckdb")));
        }
        if (which.equals("all") || which.equals("mysql")) {
            if (System.getenv("SQLGUARD_MYSQL_URL") == null) {
                System.out.println("mysql: skipped (SQLGUARD_MYSQL_URL is not set)");
            } else {
                fixtures.add(new MySqlFixture());
            }
        }
        if (which.equals("all") || which.equals("postgresql")) {
            if (System.getenv("SQLGUARD_PG_URL") == null || System.getenv("SQLGUARD_PG_RO_USER") == null) {
                System.out.println("postgresql: skipped (SQLGUARD_PG_URL or SQLGUARD_PG_RO_USER is not set)");
            } else {
                fixtures.add(new PostgresFixture());
            }
        }
        if (which.equals("trino")) { // named only: it starts the 2-node test cluster
            java.util.Optional<Path> java25 = dev.sqlguard.trino.TrinoClusterProcess.java25();
            if (java25.isEmpty()) {
                System.out.println("trino: skipped (no Java 25: set SQLGUARD_TRINO_JAVA)");
            } else {
                fixtures.add(new TrinoFixture(java25.get(), work.resolve("trino")));
            }
        }
        System.out.printf("soak: %d calls per engine and surface, %d threads, load %.2f%n", calls, THREADS,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        for (Fixture fixture : fixtures) {
            try (fixture) {
                String checksum = fixture.checksum();
                Tally api = api(fixture, calls, 42);
                Tally mcp = mcp(fixture, jar, work.resolve(fixture.engine() + "-mcp"), calls, 43);
                String after = fixture.checksum();
                System.out.printf("%s: data checksum before %s, after %s: %s%n", fixture.engine(), checksum, after,
                        checksum.equals(after) ? "unchanged" : "CHANGED");
                wrong |= api.wrong.get() > 0 || mcp.wrong.get() > 0 || api.late.get() > 0 || mcp.late.get() > 0
                        || !checksum.equals(after);
            }
        }
        System.out.println(wrong ? "soak: WRONG OR LATE ANSWERS (see above)" : "soak: every answer was right and within its limit + 1 s");
        System.exit(wrong ? 1 : 0);
    }

    // ---------------------------------------------------------------- the sources

    /** A source to soak: its data, its calls, and its server. */
    abstract static class Fixture implements AutoCloseable {
        abstract String engine();

        /** The engine's settings, for the builder and for the MCP server's configuration. */
        abstract Map<String, String> properties();

        abstract String checksum() throws Exception;

        /** Statements of the guard's account still on the server (none for an embedded engine). */
        int stragglers() throws Exception {
            return 0;
        }

        /** Holds back every byte to and from the server for {@code length} (a frozen server); false when there is none. */
        boolean freeze(Duration length) throws Exception {
            return false;
        }

        /** Makes the server unreachable for {@code length}; false when there is no server to cut. */
        boolean outage(Duration length) throws Exception {
            return false;
        }

        /** Connections the soak's own proxy cut because it could not serve them ({@link FaultProxy#failures()}). */
        int proxyFailures() {
            return 0;
        }

        GuardrailPolicy policy() {
            return GuardrailPolicy.defaults()
                    .withTables(TableAllowlist.of(Map.of("claims", List.of("id", "region", "amount", "ssn"))))
                    .withLimits(Limits.defaults().withTimeout(TIMEOUT));
        }

        List<Call> calls() {
            List<Call> calls = new ArrayList<>(List.of(
                    new Call(Kind.HONEST, "SELECT region, count(*) AS n, sum(amount) AS total FROM claims GROUP BY region ORDER BY region", List.of()),
                    new Call(Kind.HONEST, "SELECT id, region, amount FROM claims WHERE amount > ? ORDER BY id LIMIT 5", List.of(50)),
                    new Call(Kind.HONEST, "SELECT count(*) AS n FROM claims WHERE region = ?", List.of("north")),
                    new Call(Kind.HONEST, "SELECT max(amount) AS hi, min(id) AS lo FROM claims", List.of()),
                    new Call(Kind.HONEST, "SELECT region, sum(amount) AS s FROM claims WHERE id < ? GROUP BY region ORDER BY region", List.of(5000)),
                    new Call(Kind.REDACTED, "SELECT id, ssn FROM claims ORDER BY id LIMIT 3", List.of()),
                    new Call(Kind.REDACTED, "SELECT upper(ssn) AS s, region FROM claims WHERE id = ?", List.of(7)),
                    new Call(Kind.HOSTILE, "DROP TABLE claims", List.of()),
                    new Call(Kind.HOSTILE, "UPDATE claims SET amount = 0", List.of()),
                    new Call(Kind.HOSTILE, "SELECT id FROM claims; DROP TABLE claims", List.of()),
                    new Call(Kind.HOSTILE, "SELECT id FROM claims WHERE ssn LIKE 'SSN-SECRET-1%' LIMIT 1", List.of()),
                    new Call(Kind.HOSTILE, "SELECT token FROM secrets", List.of()),
                    new Call(Kind.MALFORMED, "SELEC id FROM claims", List.of()),
                    new Call(Kind.MALFORMED, "SELECT id FROM claims WHERE", List.of()),
                    new Call(Kind.MALFORMED, "SELECT id FROM claims WHERE id = ?", List.of()),
                    new Call(Kind.MALFORMED, "SELECT 'unterminated FROM claims", List.of()),
                    new Call(Kind.RUNAWAY, "SELECT count(*) AS n FROM claims a, claims b, claims c WHERE a.id + b.id + c.id >= 0", List.of()),
                    new Call(Kind.CANCELLED, "SELECT region, count(DISTINCT amount) AS d FROM claims GROUP BY region ORDER BY region", List.of())));
            calls.addAll(hostile());
            return calls;
        }

        /** The engine's own hostile calls. */
        abstract List<Call> hostile();

        @Override
        public void close() throws Exception {
        }
    }

    static final class DuckDbFixture extends Fixture {
        private final Path database;

        DuckDbFixture(Path folder) throws Exception {
            Files.createDirectories(folder);
            database = folder.resolve("soak.duckdb");
            try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + database); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE claims AS SELECT i AS id, ['north', 'south', 'east', 'west'][i % 4 + 1] AS region, "
                        + "CAST((i * 37) % 10000 AS DECIMAL(10, 2)) / 100 AS amount, '" + SECRET + "' || i AS ssn FROM range(100000) r(i)");
                s.execute("CREATE TABLE secrets AS SELECT 'TOKEN-" + SECRET + "' AS token");
            }
        }

        @Override
        String engine() {
            return "duckdb";
        }

        @Override
        Map<String, String> properties() {
            return Map.of("database", database.toString());
        }

        @Override
        String checksum() throws Exception {
            java.util.Properties settings = new java.util.Properties();
            settings.setProperty("access_mode", "READ_ONLY");
            settings.setProperty("jdbc_stream_results", "true");
            try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + database, settings);
                 Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT count(*) || ':' || sum(hash(id, region, amount, ssn)) FROM claims")) {
                rs.next();
                return rs.getString(1);
            }
        }

        @Override
        List<Call> hostile() {
            return List.of(
                    new Call(Kind.HOSTILE, "SELECT * FROM read_csv('/etc/passwd')", List.of()),
                    new Call(Kind.HOSTILE, "SELECT c FROM claims c", List.of()),
                    new Call(Kind.HOSTILE, "SELECT id AS c, c FROM claims c LIMIT 2", List.of()),
                    new Call(Kind.HOSTILE, "ATTACH ':memory:' AS x", List.of()),
                    new Call(Kind.HOSTILE, "SELECT getenv('HOME') AS h", List.of()));
        }
    }

    static final class MySqlFixture extends Fixture {
        private final String url = System.getenv("SQLGUARD_MYSQL_URL");
        private final String database = "sqlguard_t_soak_" + UUID.randomUUID().toString().substring(0, 8);
        private final FaultProxy proxy;

        MySqlFixture() throws Exception {
            java.net.URI uri = java.net.URI.create(url.substring("jdbc:".length()));
            proxy = FaultProxy.to(uri.getHost(), uri.getPort() < 0 ? 3306 : uri.getPort());
            try (Connection c = admin(); Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE " + database);
                s.execute("CREATE TABLE " + database + ".claims (id INT PRIMARY KEY, region VARCHAR(10), amount DECIMAL(10, 2), ssn VARCHAR(32))");
                s.execute("INSERT INTO " + database + ".claims SELECT seq, ELT(seq % 4 + 1, 'north', 'south', 'east', 'west'), "
                        + "((seq * 37) % 10000) / 100, CONCAT('" + SECRET + "', seq) FROM " + database + ".seq_0_to_19999");
                s.execute("CREATE TABLE " + database + ".secrets (token VARCHAR(40))");
                s.execute("INSERT INTO " + database + ".secrets VALUES ('TOKEN-" + SECRET + "')");
            }
        }

        private Connection admin() throws Exception {
            return DriverManager.getConnection(url, System.getenv("SQLGUARD_MYSQL_ADMIN_USER"), System.getenv("SQLGUARD_MYSQL_ADMIN_PASSWORD"));
        }

        @Override
        String engine() {
            return "mysql";
        }

        @Override
        Map<String, String> properties() {
            return Map.of("url", "jdbc:mysql://127.0.0.1:" + proxy.port() + "/" + database,
                    "username", System.getenv("SQLGUARD_MYSQL_RO_USER"), "password", System.getenv("SQLGUARD_MYSQL_RO_PASSWORD"));
        }

        @Override
        String checksum() throws Exception {
            try (Connection c = admin(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT CONCAT(count(*), ':', sum(crc32(CONCAT_WS('|', id, region, amount, ssn)))) FROM "
                         + database + ".claims")) {
                rs.next();
                return rs.getString(1);
            }
        }

        @Override
        int stragglers() throws Exception {
            try (Connection c = admin(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT count(*) FROM information_schema.processlist WHERE user = '"
                         + System.getenv("SQLGUARD_MYSQL_RO_USER") + "' AND command <> 'Sleep'")) {
                rs.next();
                return rs.getInt(1);
            }
        }

        @Override
        boolean outage(Duration length) throws Exception {
            proxy.outage(length);
            return true;
        }

        @Override
        boolean freeze(Duration length) throws Exception {
            return Soak.freeze(proxy, length);
        }

        @Override
        int proxyFailures() {
            return proxy.failures();
        }

        @Override
        List<Call> hostile() {
            return List.of(
                    new Call(Kind.HOSTILE, "SELECT LOAD_FILE('/etc/passwd') AS f", List.of()),
                    new Call(Kind.HOSTILE, "SELECT id FROM claims INTO OUTFILE '/tmp/soak-out'", List.of()),
                    new Call(Kind.HOSTILE, "SELECT user, password FROM mysql.user", List.of()),
                    new Call(Kind.HOSTILE, "SELECT SLEEP(5) AS s", List.of()));
        }

        @Override
        public void close() throws Exception {
            proxy.close();
            try (Connection c = admin(); Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + database);
            }
        }
    }

    /** Freezes the server behind {@code proxy}: every byte held back for {@code length}, then forwarded. */
    static boolean freeze(FaultProxy proxy, Duration length) throws InterruptedException {
        proxy.pause();
        try {
            Thread.sleep(length.toMillis());
        } finally {
            proxy.resume();
        }
        return true;
    }

    static final class PostgresFixture extends Fixture {
        private final String url = System.getenv("SQLGUARD_PG_URL");
        private final String ro = System.getenv("SQLGUARD_PG_RO_USER");
        private final String schema = "sqlguard_t_soak_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
        private final FaultProxy proxy;

        PostgresFixture() throws Exception {
            java.net.URI uri = java.net.URI.create(url.substring("jdbc:".length()));
            proxy = FaultProxy.to(uri.getHost(), uri.getPort() < 0 ? 5432 : uri.getPort());
            try (Connection c = admin(); Statement s = c.createStatement()) {
                s.execute("CREATE SCHEMA " + schema);
                s.execute("CREATE TABLE " + schema + ".claims (id integer PRIMARY KEY, region varchar(10), amount numeric(10, 2), ssn varchar(32))");
                s.execute("INSERT INTO " + schema + ".claims SELECT i, (ARRAY['north', 'south', 'east', 'west'])[i % 4 + 1], "
                        + "((i * 37) % 10000) / 100.0, '" + SECRET + "' || i FROM generate_series(0, 19999) AS g(i)");
                s.execute("CREATE TABLE " + schema + ".secrets (token varchar(40))");
                s.execute("INSERT INTO " + schema + ".secrets VALUES ('TOKEN-" + SECRET + "')");
                s.execute("ANALYZE " + schema + ".claims");
                s.execute("GRANT USAGE ON SCHEMA " + schema + " TO " + ro);
                s.execute("GRANT SELECT ON ALL TABLES IN SCHEMA " + schema + " TO " + ro);
            }
        }

        private Connection admin() throws Exception {
            return DriverManager.getConnection(url, System.getenv("SQLGUARD_PG_ADMIN_USER"), System.getenv("SQLGUARD_PG_ADMIN_PASSWORD"));
        }

        @Override
        String engine() {
            return "postgresql";
        }

        @Override
        Map<String, String> properties() {
            java.net.URI uri = java.net.URI.create(url.substring("jdbc:".length()));
            return Map.of("url", "jdbc:postgresql://127.0.0.1:" + proxy.port() + uri.getPath(), "username", ro,
                    "password", System.getenv().getOrDefault("SQLGUARD_PG_RO_PASSWORD", ""), "defaultSchema", schema);
        }

        @Override
        String checksum() throws Exception {
            try (Connection c = admin(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT count(*) || ':' || sum(hashtext(id || '|' || region || '|' || amount || '|' || ssn)) FROM "
                         + schema + ".claims")) {
                rs.next();
                return rs.getString(1);
            }
        }

        @Override
        int stragglers() throws Exception {
            try (Connection c = admin(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE usename = '" + ro
                         + "' AND state NOT IN ('idle') AND backend_type = 'client backend'")) {
                rs.next();
                return rs.getInt(1);
            }
        }

        @Override
        boolean outage(Duration length) throws Exception {
            proxy.outage(length);
            return true;
        }

        @Override
        boolean freeze(Duration length) throws Exception {
            return Soak.freeze(proxy, length);
        }

        @Override
        int proxyFailures() {
            return proxy.failures();
        }

        @Override
        List<Call> hostile() {
            return List.of(
                    new Call(Kind.HOSTILE, "SELECT pg_read_file('/etc/passwd') AS f", List.of()),
                    new Call(Kind.HOSTILE, "SELECT pg_sleep(10) AS s", List.of()),
                    new Call(Kind.HOSTILE, "SELECT usename, passwd FROM pg_shadow", List.of()),
                    new Call(Kind.HOSTILE, "COPY claims TO '/tmp/soak-out'", List.of()),
                    new Call(Kind.HOSTILE, "SELECT set_config('statement_timeout', '0', false) AS s", List.of()));
        }

        @Override
        public void close() throws Exception {
            proxy.close();
            try (Connection c = admin(); Statement s = c.createStatement()) {
                s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
            }
        }
    }

    /**
     * The 2-node Trino test cluster (started for the soak, stopped at its end) with a memory schema,
     * reached through a proxy in front of the coordinator's HTTP port, as the read-only user.
     */
    static final class TrinoFixture extends Fixture {
        private final dev.sqlguard.trino.TrinoClusterProcess cluster;
        private final String url;
        private final String schema = "sqlguard_t_soak_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
        private final FaultProxy proxy;

        TrinoFixture(Path javaBinary, Path work) throws Exception {
            Files.createDirectories(work);
            Path rules = work.resolve("rules.json");
            Files.writeString(rules, TrinoBench.RULES); // the rules adapter-trino's tests use
            cluster = dev.sqlguard.trino.TrinoClusterProcess.start(javaBinary,
                    Path.of(System.getProperty("sqlguard.trino.classpath", "trino-test-cluster/target/trino-classpath.txt")),
                    Path.of(System.getProperty("sqlguard.trino.launcher", "trino-test-cluster/src/main/launcher/TrinoTestCluster.java")),
                    rules, 2, work.resolve("cluster.log"));
            url = cluster.awaitUrl();
            java.net.URI uri = java.net.URI.create(url.substring("jdbc:".length()));
            proxy = FaultProxy.to(uri.getHost(), uri.getPort());
            try (Connection c = admin("default"); Statement s = c.createStatement()) {
                s.execute("CREATE SCHEMA memory." + schema);
            }
            try (Connection c = admin(schema); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE claims AS SELECT i AS id, element_at(ARRAY['north', 'south', 'east', 'west'], CAST(i % 4 + 1 AS integer))"
                        + " AS region, CAST(((i * 37) % 10000) / 100.0 AS decimal(10, 2)) AS amount, '" + SECRET + "' || CAST(i AS varchar) AS ssn"
                        + " FROM (SELECT a * 100 + b AS i FROM UNNEST(sequence(0, 199)) AS x(a) CROSS JOIN UNNEST(sequence(0, 99)) AS y(b))");
                s.execute("CREATE TABLE secrets AS SELECT 'TOKEN-" + SECRET + "' AS token");
            }
        }

        private Connection admin(String inSchema) throws java.sql.SQLException {
            java.util.Properties p = new java.util.Properties();
            p.setProperty("user", "admin");
            p.setProperty("catalog", "memory");
            p.setProperty("schema", inSchema);
            return new io.trino.jdbc.TrinoDriver().connect(url, p);
        }

        @Override
        String engine() {
            return "trino";
        }

        @Override
        Map<String, String> properties() {
            return Map.of("url", "jdbc:trino://127.0.0.1:" + proxy.port(), "user", "sqlguard_ro", "catalog", "memory", "schema", schema);
        }

        @Override
        String checksum() throws Exception {
            try (Connection c = admin(schema); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT CAST(count(*) AS varchar) || ':' || CAST(sum(id) AS varchar) || ':' "
                         + "|| CAST(sum(amount) AS varchar) || ':' || CAST(sum(length(ssn) + length(region)) AS varchar) FROM claims")) {
                rs.next();
                return rs.getString(1);
            }
        }

        @Override
        int stragglers() throws Exception {
            try (Connection c = admin(schema); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT count(*) FROM system.runtime.queries WHERE \"user\" = 'sqlguard_ro'"
                         + " AND state NOT IN ('FINISHED', 'FAILED')")) {
                rs.next();
                return rs.getInt(1);
            }
        }

        @Override
        boolean outage(Duration length) throws Exception {
            proxy.outage(length);
            return true;
        }

        @Override
        boolean freeze(Duration length) throws Exception {
            return Soak.freeze(proxy, length);
        }

        @Override
        int proxyFailures() {
            return proxy.failures();
        }

        @Override
        List<Call> hostile() {
            return List.of(
                    new Call(Kind.HOSTILE, "SELECT * FROM system.runtime.queries", List.of()),
                    new Call(Kind.HOSTILE, "SELECT name FROM tpch.tiny.nation", List.of()),
                    new Call(Kind.HOSTILE, "SELECT token FROM memory." + schema + ".secrets", List.of()),
                    new Call(Kind.HOSTILE, "INSERT INTO claims SELECT * FROM claims", List.of()));
        }

        @Override
        public void close() throws Exception {
            proxy.close();
            try (Connection c = admin(schema); Statement s = c.createStatement()) {
                s.execute("DROP TABLE IF EXISTS claims");
                s.execute("DROP TABLE IF EXISTS secrets");
                s.execute("DROP SCHEMA IF EXISTS memory." + schema);
            } finally {
                cluster.close();
            }
        }
    }

    // ---------------------------------------------------------------- judging answers

    /** What one surface's run saw. */
    static final class Tally {
        final String name;
        final AtomicLong sent = new AtomicLong();
        final AtomicLong answered = new AtomicLong();
        final AtomicLong wrong = new AtomicLong();
        final Map<String, AtomicLong> outcomes = new ConcurrentHashMap<>();
        final List<String> examples = java.util.Collections.synchronizedList(new ArrayList<>());
        final Map<String, String> reference = new ConcurrentHashMap<>();

        final long started = System.nanoTime();
        final AtomicLong lastUnavailableMs = new AtomicLong(-1);
        /** Answers that came later than the call's limit + 1 s after it was sent, and the slowest answer. */
        final AtomicLong late = new AtomicLong();
        final AtomicLong slowestMs = new AtomicLong();
        final List<String> lateExamples = java.util.Collections.synchronizedList(new ArrayList<>());
        /** ENGINE_UNAVAILABLE answers by their message and the 30 s of the run they came in: what kept a source unavailable, and when. */
        final Map<String, AtomicLong> unavailable = new java.util.concurrent.ConcurrentHashMap<>();
        private static final java.util.regex.Pattern MESSAGE = java.util.regex.Pattern.compile("\"message\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");

        /** Records how long a call that was answered took, from its sending to its answer. */
        void took(Call call, long sentNanos, String status, String code) {
            long ms = (System.nanoTime() - sentNanos) / 1_000_000;
            slowestMs.accumulateAndGet(ms, Math::max);
            if (ms > TIMEOUT.toMillis() + 1_000) {
                late.incrementAndGet();
                if (lateExamples.size() < 10) {
                    lateExamples.add(ms + " ms: " + call.kind() + " " + status + " " + code + " " + call.sql());
                }
            }
        }

        Tally(String name) {
            this.name = name;
        }

        /** Judges one answer: {@code rows} is the rows' text, {@code raw} the whole answer as the client got it. */
        void judge(Call call, String status, String code, String rows, String raw) {
            answered.incrementAndGet();
            if (code.equals("ENGINE_UNAVAILABLE")) {
                long at = (System.nanoTime() - started) / 1_000_000;
                lastUnavailableMs.accumulateAndGet(at, Math::max);
                java.util.regex.Matcher m = MESSAGE.matcher(raw);
                String message = m.find() ? m.group(1) : "(no message)";
                unavailable.computeIfAbsent(String.format("%5d s  %s", at / 30_000 * 30, message.length() > 100 ? message.substring(0, 100) : message),
                        k -> new AtomicLong()).incrementAndGet();
            }
            outcomes.computeIfAbsent(call.kind() + " " + status + (code.isEmpty() ? "" : " " + code), k -> new AtomicLong()).incrementAndGet();
            String problem = null;
            if (raw.contains(SECRET)) {
                problem = "a secret value in the answer";
            } else if (status.equals("OK")) {
                switch (call.kind()) {
                    case HONEST, REDACTED, CANCELLED -> {
                        String expected = reference.get(call.key());
                        if (expected != null && !expected.equals(rows)) {
                            problem = "rows differ from the reference";
                        }
                    }
                    default -> problem = "a call that must be refused or stopped answered OK";
                }
            }
            if (problem != null) {
                wrong.incrementAndGet();
                if (examples.size() < 10) {
                    examples.add(problem + ": " + call.sql() + " -> " + (rows.length() > 200 ? rows.substring(0, 200) : rows));
                }
            }
        }

        void print() {
            System.out.printf("  %s: sent %d, answered %d, wrong %d, later than the limit + 1 s %d (slowest %d ms)%n", name, sent.get(),
                    answered.get(), wrong.get(), late.get(), slowestMs.get());
            lateExamples.forEach(e -> System.out.println("    LATE " + e));
            new TreeMap<>(outcomes).forEach((k, v) -> System.out.printf("    %-60s %6d%n", k, v.get()));
            examples.forEach(e -> System.out.println("    WRONG " + e));
            new TreeMap<>(unavailable).forEach((k, v) -> System.out.printf("    ENGINE_UNAVAILABLE from %s  x%d%n", k, v.get()));
        }
    }

    /** The calls to make, in a seeded random order and mix. */
    private static List<Call> plan(Fixture fixture, int count, long seed) {
        Map<Kind, List<Call>> byKind = new LinkedHashMap<>();
        for (Call call : fixture.calls()) {
            byKind.computeIfAbsent(call.kind(), k -> new ArrayList<>()).add(call);
        }
        Random random = new Random(seed);
        List<Call> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int r = random.nextInt(1000);
            // 55% honest, 8% redacted, 15% hostile, 10% malformed, 11.7% cancelled, 0.3% runaway
            Kind kind = r < 550 ? Kind.HONEST : r < 630 ? Kind.REDACTED : r < 780 ? Kind.HOSTILE : r < 880 ? Kind.MALFORMED
                    : r < 997 ? Kind.CANCELLED : Kind.RUNAWAY;
            List<Call> calls = byKind.get(kind);
            out.add(calls.get(random.nextInt(calls.size())));
        }
        return out;
    }

    // ---------------------------------------------------------------- the embedding API

    private static Tally api(Fixture fixture, int count, long seed) throws Exception {
        Tally tally = new Tally(fixture.engine() + " embedding API");
        AtomicLong audits = new AtomicLong();
        List<Call> plan = plan(fixture, count, seed);
        Resources open;
        Resources ran;
        long faultMs = -1;
        try (SqlGuard guard = SqlGuard.builder().source("soak", fixture.engine(), fixture.properties(), fixture.policy())
                .auditSink(e -> audits.incrementAndGet()).build()) {
            for (Call call : fixture.calls()) { // the references, on a quiet source
                tally.sent.incrementAndGet();
                ToolResult result = guard.query("soak", call.sql(), call.params());
                for (int retry = 0; retry < 3 && retryable(call, result); retry++) { // a first call on a busy machine
                    tally.judge(call, result.status().name(), code(result), result.rows().toString(), SqlGuard.toJson(result));
                    tally.sent.incrementAndGet();
                    result = guard.query("soak", call.sql(), call.params());
                }
                if (call.kind() == Kind.HONEST || call.kind() == Kind.REDACTED || call.kind() == Kind.CANCELLED) {
                    if (!result.status().name().equals("OK")) {
                        throw new IllegalStateException("the reference call failed: " + call.sql() + " " + result.error());
                    }
                    tally.reference.put(call.key(), result.rows().toString());
                }
                tally.judge(call, result.status().name(), code(result), result.rows().toString(), SqlGuard.toJson(result));
            }
            long auditedBefore = audits.get();
            long answeredBefore = tally.answered.get();
            open = Resources.self();
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            ScheduledExecutorService cancels = Executors.newSingleThreadScheduledExecutor();
            Random random = new Random(seed + 1);
            AtomicBoolean faulted = new AtomicBoolean();
            long[] fault = {-1};
            long start = System.nanoTime();
            List<Thread> side = new ArrayList<>();
            for (int i = 0; i < plan.size(); i++) {
                Call call = plan.get(i);
                int index = i;
                long delay = random.nextInt(30);
                tally.sent.incrementAndGet();
                pool.execute(() -> {
                    if (index == plan.size() / 4) {
                        Thread t = new Thread(() -> {
                            try {
                                long at = System.nanoTime();
                                if (fixture.freeze(Duration.ofSeconds(3))) {
                                    System.out.printf("  server frozen for 3 s at %d ms%n", (at - start) / 1_000_000);
                                }
                            } catch (Exception e) {
                                System.out.println("  the freeze failed: " + e);
                            }
                        });
                        t.start();
                        side.add(t);
                    }
                    if (index == plan.size() / 2 && faulted.compareAndSet(false, true)) {
                        Thread t = new Thread(() -> {
                            try {
                                long at = System.nanoTime();
                                if (fixture.outage(Duration.ofSeconds(3))) {
                                    fault[0] = (at - start) / 1_000_000;
                                }
                            } catch (Exception e) {
                                System.out.println("  the outage failed: " + e);
                            }
                        });
                        t.start();
                        side.add(t);
                    }
                    if (index == plan.size() * 3 / 4) {
                        burst(plan, random.nextLong(), c -> {
                            long sent = System.nanoTime();
                            ToolResult r = guard.query("soak", c.sql(), c.params());
                            tally.took(c, sent, r.status().name(), code(r));
                            tally.judge(c, r.status().name(), code(r), r.rows().toString(), SqlGuard.toJson(r));
                        }, tally);
                    }
                    QueryRequest request = QueryRequest.of("soak", call.sql(), new ArrayList<>(call.params()));
                    if (call.kind() == Kind.CANCELLED) {
                        cancels.schedule(() -> guard.cancel(request.requestId()), delay, TimeUnit.MILLISECONDS);
                    }
                    long sent = System.nanoTime();
                    ToolResult result = guard.query(request);
                    tally.took(call, sent, result.status().name(), code(result));
                    tally.judge(call, result.status().name(), code(result), result.rows().toString(), SqlGuard.toJson(result));
                });
            }
            pool.shutdown();
            pool.awaitTermination(1, TimeUnit.HOURS);
            cancels.shutdown();
            cancels.awaitTermination(1, TimeUnit.MINUTES);
            for (Thread t : side) {
                t.join();
            }
            faultMs = fault[0];
            double seconds = (System.nanoTime() - start) / 1e9;
            ran = Resources.self();
            long offset = (start - tally.started) / 1_000_000;
            System.out.printf("%s (%.1f s, %.0f calls/s%s):%n", tally.name, seconds, tally.sent.get() / seconds,
                    faultMs < 0 ? "" : ", server port cut for 3 s at " + faultMs + " ms, last ENGINE_UNAVAILABLE answer at "
                            + (tally.lastUnavailableMs.get() < 0 ? "none" : (tally.lastUnavailableMs.get() - offset) + " ms"));
            tally.print();
            System.out.printf("  audit events %d for %d calls answered%n", audits.get() - auditedBefore, tally.answered.get() - answeredBefore);
            System.out.printf("  connections the soak's proxy failed to serve: %d%n", fixture.proxyFailures());
        }
        Resources closed = Resources.self();
        System.out.printf("  threads %d -> %d (closed: %d); descriptors %d -> %d (closed: %d); heap after GC %.1f -> %.1f MiB (closed: %.1f)%n",
                open.threads, ran.threads, closed.threads, open.descriptors, ran.descriptors, closed.descriptors,
                open.heapMiB, ran.heapMiB, closed.heapMiB);
        stragglers(fixture);
        return tally;
    }

    /** {@value #BURST} calls at once, on as many threads, answered before the soak goes on. */
    private static void burst(List<Call> plan, long seed, java.util.function.Consumer<Call> run, Tally tally) {
        Random random = new Random(seed);
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < BURST; i++) {
            Call call = plan.get(random.nextInt(plan.size()));
            call = call.kind() == Kind.RUNAWAY ? plan.get(0) : call;
            Call chosen = call;
            tally.sent.incrementAndGet();
            Thread t = new Thread(() -> {
                try {
                    go.await();
                    run.accept(chosen);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            t.start();
            threads.add(t);
        }
        go.countDown();
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void stragglers(Fixture fixture) throws Exception {
        int now = fixture.stragglers();
        long waited = 0;
        while (fixture.stragglers() > 0 && waited < 90_000) {
            Thread.sleep(1000);
            waited += 1000;
        }
        System.out.printf("  statements of the guard's account on the server: %d at the end, %d after %d s%n", now,
                fixture.stragglers(), waited / 1000);
    }

    private static boolean retryable(Call call, ToolResult result) {
        return call.kind() != Kind.RUNAWAY && result.error().map(e -> e.retryable()).orElse(false);
    }

    private static String code(ToolResult result) {
        return result.error().map(e -> e.code().name()).orElse("");
    }

    /** Threads, open descriptors and heap after GC of a process. */
    record Resources(long threads, long descriptors, double heapMiB) {
        static Resources self() throws IOException {
            System.gc();
            System.gc();
            return new Resources(ManagementFactory.getThreadMXBean().getThreadCount(), descriptors("self"),
                    ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1048576.0);
        }

        static Resources of(Process process) throws Exception {
            String pid = Long.toString(process.pid());
            jcmd(pid, "GC.run");
            double heap = -1;
            for (String line : jcmd(pid, "GC.heap_info")) {
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("used (\\d+)K").matcher(line);
                if (line.contains("total") && m.find()) {
                    heap = Long.parseLong(m.group(1)) / 1024.0;
                    break;
                }
            }
            long threads = Files.readAllLines(Path.of("/proc", pid, "status")).stream().filter(l -> l.startsWith("Threads:"))
                    .mapToLong(l -> Long.parseLong(l.substring(8).strip())).findFirst().orElse(-1);
            return new Resources(threads, descriptors(pid), heap);
        }

        private static long descriptors(String pid) throws IOException {
            try (Stream<Path> fds = Files.list(Path.of("/proc", pid, "fd"))) {
                return fds.count();
            }
        }

        private static List<String> jcmd(String pid, String command) throws Exception {
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(), pid, command)
                    .redirectErrorStream(true).start();
            List<String> lines = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
            p.waitFor();
            return lines;
        }
    }

    // ---------------------------------------------------------------- the MCP server

    /** The real jar's MCP server on pipes: requests by id, answers matched back. */
    static final class McpClient implements AutoCloseable {
        final Process process;
        private final OutputStream in;
        private final AtomicLong ids = new AtomicLong();
        private final Map<Long, CompletableFuture<JsonNode>> waiting = new ConcurrentHashMap<>();
        private final Thread reader;

        McpClient(Path jar, Path config, Path home) throws Exception {
            ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx512m", "-jar", jar.toString(), "mcp", "--config", config.toString())
                    .redirectError(ProcessBuilder.Redirect.appendTo(home.resolve("stderr.txt").toFile()));
            builder.environment().put("HOME", home.toString());
            builder.environment().put("XDG_STATE_HOME", home.resolve("state").toString());
            process = builder.start();
            in = process.getOutputStream();
            reader = new Thread(() -> {
                try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line = out.readLine(); line != null; line = out.readLine()) {
                        JsonNode node = JSON.readTree(line);
                        if (node.has("id")) {
                            CompletableFuture<JsonNode> f = waiting.remove(node.get("id").asLong());
                            if (f != null) {
                                ((ObjectNode) node).put("_raw", line);
                                f.complete(node);
                            }
                        }
                    }
                } catch (IOException e) {
                    // the process ended
                }
            }, "soak-mcp-reader");
            reader.setDaemon(true);
            reader.start();
            ObjectNode init = JSON.createObjectNode();
            init.put("protocolVersion", "2025-06-18");
            init.putObject("capabilities");
            init.putObject("clientInfo").put("name", "soak").put("version", "1");
            request("initialize", init).get(120, TimeUnit.SECONDS);
            notify("notifications/initialized", JSON.createObjectNode());
        }

        synchronized void send(ObjectNode message) throws IOException {
            in.write((JSON.writeValueAsString(message) + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
        }

        CompletableFuture<JsonNode> request(String method, ObjectNode params) throws IOException {
            long id = ids.incrementAndGet();
            CompletableFuture<JsonNode> answer = new CompletableFuture<>();
            waiting.put(id, answer);
            ObjectNode message = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
            message.set("params", params);
            send(message);
            return answer;
        }

        long lastId() {
            return ids.get();
        }

        void notify(String method, ObjectNode params) throws IOException {
            ObjectNode message = JSON.createObjectNode().put("jsonrpc", "2.0").put("method", method);
            message.set("params", params);
            send(message);
        }

        CompletableFuture<JsonNode> query(Call call) throws IOException {
            ObjectNode params = JSON.createObjectNode().put("name", "query_data");
            ObjectNode arguments = params.putObject("arguments").put("source", "soak").put("sql", call.sql());
            call.params().forEach(p -> {
                if (p instanceof Integer n) {
                    arguments.withArray("params").add(n);
                } else {
                    arguments.withArray("params").add(String.valueOf(p));
                }
            });
            return request("tools/call", params);
        }

        /**
         * SIGTERM, as a service manager stops it. Answers sent before the exit are read; returns how
         * many requests got none (they end exceptionally).
         */
        int terminate() throws Exception {
            process.destroy();
            process.waitFor(30, TimeUnit.SECONDS);
            reader.join(30_000); // the reader takes every answer written before the exit, up to the end of the output
            int lost = 0;
            for (Long id : List.copyOf(waiting.keySet())) {
                CompletableFuture<JsonNode> f = waiting.remove(id);
                if (f != null && f.completeExceptionally(new IOException("the server ended without answering"))) {
                    lost++;
                }
            }
            return lost;
        }

        @Override
        public void close() throws Exception {
            in.close(); // the server exits when its input ends
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    private static void judge(Tally tally, Call call, JsonNode answer) {
        JsonNode result = answer.path("result").path("structuredContent");
        String status = result.path("status").asText(answer.has("error") ? "JSONRPC_ERROR" : "?");
        String code = result.path("error").path("code").asText("");
        tally.judge(call, status, code, result.path("rows").toString(), answer.path("_raw").asText());
    }

    private static Tally mcp(Fixture fixture, Path jar, Path home, int count, long seed) throws Exception {
        Files.createDirectories(home);
        Path audit = home.resolve("audit.jsonl");
        Path config = home.resolve("sqlguard.yaml");
        StringBuilder yaml = new StringBuilder("sources:\n  soak:\n    engine: " + fixture.engine() + "\n");
        fixture.properties().forEach((k, v) -> yaml.append("    ").append(k).append(": '").append(v).append("'\n"));
        yaml.append("    policy:\n      tables:\n        claims: [id, region, amount, ssn]\n      limits: {timeout: ")
                .append(TIMEOUT.toSeconds()).append("s}\naudit:\n  file: '").append(audit).append("'\n");
        Files.writeString(config, yaml);

        Tally tally = new Tally(fixture.engine() + " MCP server");
        List<Call> plan = plan(fixture, count, seed);
        McpClient client = new McpClient(jar, config, home);
        for (Call call : fixture.calls()) {
            tally.sent.incrementAndGet();
            JsonNode answer = client.query(call).get(60, TimeUnit.SECONDS);
            // a first call on a busy machine may run out of time: retried, as on the embedding API
            for (int retry = 0; retry < 3 && call.kind() != Kind.RUNAWAY
                    && answer.path("result").path("structuredContent").path("error").path("retryable").asBoolean(false); retry++) {
                judge(tally, call, answer);
                tally.sent.incrementAndGet();
                answer = client.query(call).get(60, TimeUnit.SECONDS);
            }
            if (call.kind() == Kind.HONEST || call.kind() == Kind.REDACTED || call.kind() == Kind.CANCELLED) {
                JsonNode result = answer.path("result").path("structuredContent");
                if (!result.path("status").asText("").equals("OK")) {
                    throw new IllegalStateException("the reference call failed: " + call.sql() + " " + result.path("error"));
                }
                tally.reference.put(call.key(), result.path("rows").toString());
            }
            judge(tally, call, answer);
        }
        long answeredBefore = tally.answered.get();
        long auditedBefore = audits(audit);
        Resources open = Resources.of(client.process);
        Semaphore window = new Semaphore(2 * THREADS);
        ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
        Random random = new Random(seed + 1);
        AtomicInteger cancelledSilently = new AtomicInteger();
        AtomicInteger busy = new AtomicInteger();
        AtomicInteger lostAtRestart = new AtomicInteger();
        List<CompletableFuture<?>> all = new ArrayList<>();
        int restarts = 0;
        Resources beforeRestart = open;
        Resources afterRestart = open;
        long start = System.nanoTime();
        for (int i = 0; i < plan.size(); i++) {
            if (i == plan.size() / 4) { // the server frozen under the MCP server's calls
                Thread t = new Thread(() -> {
                    try {
                        fixture.freeze(Duration.ofSeconds(3));
                    } catch (Exception e) {
                        System.out.println("  the freeze failed: " + e);
                    }
                });
                t.setDaemon(true);
                t.start();
            }
            if (i == plan.size() / 2) { // the server restarted, as a service manager does, with calls in flight
                beforeRestart = Resources.of(client.process);
                lostAtRestart.addAndGet(client.terminate());
                client = new McpClient(jar, config, home);
                afterRestart = Resources.of(client.process);
                restarts++;
            }
            if (i == plan.size() * 3 / 4) {
                List<CompletableFuture<JsonNode>> burst = new ArrayList<>();
                Random r = new Random(seed + 2);
                for (int b = 0; b < BURST; b++) {
                    Call call = plan.get(r.nextInt(plan.size()));
                    Call chosen = call.kind() == Kind.RUNAWAY || call.kind() == Kind.CANCELLED ? plan.get(0) : call;
                    tally.sent.incrementAndGet();
                    long sent = System.nanoTime();
                    burst.add(client.query(chosen).whenComplete((answer, e) -> {
                        if (answer != null) {
                            JsonNode structured = answer.path("result").path("structuredContent");
                            tally.took(chosen, sent, structured.path("status").asText("?"), structured.path("error").path("code").asText(""));
                            judge(tally, chosen, answer);
                            if (answer.path("result").path("structuredContent").path("error").path("code").asText("").equals("SERVER_BUSY")) {
                                busy.incrementAndGet();
                            }
                        }
                    }));
                }
                CompletableFuture.allOf(burst.toArray(CompletableFuture[]::new)).get(5, TimeUnit.MINUTES);
            }
            Call call = plan.get(i);
            window.acquire();
            tally.sent.incrementAndGet();
            long sent = System.nanoTime();
            CompletableFuture<JsonNode> answer = client.query(call);
            long id = client.lastId();
            AtomicBoolean released = new AtomicBoolean();
            Runnable release = () -> {
                if (released.compareAndSet(false, true)) {
                    window.release();
                }
            };
            answer.whenComplete((a, e) -> {
                if (a != null) {
                    JsonNode r = a.path("result").path("structuredContent");
                    tally.took(call, sent, r.path("status").asText("?"), r.path("error").path("code").asText(""));
                    judge(tally, call, a);
                    if (a.path("result").path("structuredContent").path("error").path("code").asText("").equals("SERVER_BUSY")) {
                        busy.incrementAndGet();
                    }
                }
                release.run();
            });
            all.add(answer);
            if (call.kind() == Kind.CANCELLED) {
                McpClient current = client;
                timers.schedule(() -> {
                    try {
                        current.notify("notifications/cancelled", JSON.createObjectNode().put("requestId", id).put("reason", "soak"));
                    } catch (IOException e) {
                        // the server ended
                    }
                    // a cancelled request gets no answer: its window slot is freed when the call has surely ended
                    timers.schedule(() -> {
                        if (!answer.isDone()) {
                            cancelledSilently.incrementAndGet();
                            answer.cancel(false);
                        }
                        release.run();
                    }, TIMEOUT.toMillis() + 3000, TimeUnit.MILLISECONDS);
                }, random.nextInt(30), TimeUnit.MILLISECONDS);
            }
        }
        window.acquire(2 * THREADS);
        double seconds = (System.nanoTime() - start) / 1e9;
        Resources ran = Resources.of(client.process);
        client.close();
        timers.shutdownNow();
        long unanswered = all.stream().filter(f -> !f.isDone()).count(); // cancelled silently ones are done
        System.out.printf("%s (%.1f s, %.0f calls/s, %d restart by SIGTERM, a burst of %d):%n", tally.name, seconds,
                tally.sent.get() / seconds, restarts, BURST);
        tally.print();
        System.out.printf("  not answered: %d cancelled (no answer, as the protocol asks), %d in flight at SIGTERM, %d other%n",
                cancelledSilently.get(), lostAtRestart.get(), unanswered);
        System.out.printf("  SERVER_BUSY answers %d (not audited: they never reach the use case)%n", busy.get());
        long audited = audits(audit) - auditedBefore;
        long expected = tally.answered.get() - answeredBefore - busy.get() + cancelledSilently.get();
        System.out.printf("  audit records %d for %d calls answered or cancelled (SERVER_BUSY answers excluded)%n", audited, expected);
        System.out.printf("  MCP process threads %d -> %d, then %d -> %d after the restart; descriptors %d -> %d, then %d -> %d;"
                + " heap after GC %.1f -> %.1f MiB, then %.1f -> %.1f MiB%n",
                open.threads, beforeRestart.threads, afterRestart.threads, ran.threads,
                open.descriptors, beforeRestart.descriptors, afterRestart.descriptors, ran.descriptors,
                open.heapMiB, beforeRestart.heapMiB, afterRestart.heapMiB, ran.heapMiB);
        stragglers(fixture);
        if (unanswered > 0) {
            tally.wrong.addAndGet(unanswered);
            tally.examples.add(unanswered + " calls never answered");
        }
        return tally;
    }

    /** The audit records in an audit file (the lifecycle records beside them are not counted). */
    private static long audits(Path file) throws IOException {
        if (!Files.exists(file)) {
            return 0;
        }
        try (Stream<String> lines = Files.lines(file)) {
            return lines.filter(l -> l.startsWith("{\"type\":\"audit\"")).count();
        }
    }
}
