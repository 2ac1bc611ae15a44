package dev.sqlguard.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.RowPolicy;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;

/**
 * The cost of a row filter (issue 31): a tenant-filtered aggregate through the guard, against the same
 * query with the tenant's {@code WHERE} written by hand, run raw (target: at most 1.10) and guarded on a
 * source without row filters (the filter's own cost), with the tenant as a literal and as a bound
 * parameter (as the filter binds it: attribute values are never spliced into the text). A table of claims spread over 100
 * tenants and then over 10, indexed by tenant where the engine has indexes, so that a filter the engine does not push
 * down would show as a full scan.
 *
 * <pre>
 * java -jar benchmarks/target/sqlguard-benchmarks.jar 21 tenant
 * </pre>
 */
final class TenantBench {
    private static final String AGGREGATE = "SELECT status, count(*) AS n, sum(amount) AS total FROM claims GROUP BY status ORDER BY status";
    /** The tenant every call asks for: one of the first ten, so that it exists however many tenants share the table. */
    private static final String TENANT_ID = "t7";
    private static final String BY_HAND = "SELECT status, count(*) AS n, sum(amount) AS total FROM claims WHERE tenant = '" + TENANT_ID + "' "
            + "GROUP BY status ORDER BY status";
    /** The same WHERE by hand with the tenant a bound parameter, as the filter binds its attribute. */
    private static final String BY_HAND_BOUND = "SELECT status, count(*) AS n, sum(amount) AS total FROM claims WHERE tenant = ? "
            + "GROUP BY status ORDER BY status";
    private static final Map<String, String> TENANT = Map.of("tenant", TENANT_ID);

    private TenantBench() {
    }

    /**
     * Each engine twice: 100 tenants (a tenant's aggregate reads 1% of the table, a few milliseconds, where the guarded
     * path's fixed per-call cost shows), and 10 tenants (10%, an aggregate of tens of milliseconds).
     */
    static void run(Path work, int rounds) throws Exception {
        for (int tenants : new int[] {100, 10}) {
            duckdb(work.resolve("tenants-" + tenants), rounds, tenants);
            postgresql(work.resolve("tenants-" + tenants), rounds, tenants);
            mysql(work.resolve("tenants-" + tenants), rounds, tenants);
        }
    }

    private static GuardrailPolicy policy() {
        return new GuardrailPolicy(TableAllowlist.of(Map.of("claims", List.of("id", "tenant", "status", "amount"))),
                Set.of(), Set.of(), Set.of(), Limits.defaults());
    }

    private static GuardrailPolicy filtered() {
        return policy().withRows(RowPolicy.of(Optional.empty(), Map.of("claims", "tenant = :tenant"), Map.of()));
    }

    private static void compare(String engineName, Engine filtered, Engine plain, Runnable raw, int rounds) {
        Runnable tenant = () -> Harness.requireOk(Harness.SERVICE.query(filtered.binding(),
                QueryRequest.of("bench", AGGREGATE).withAttributes(TENANT)));
        Runnable guardedByHand = () -> Harness.requireOk(Harness.SERVICE.query(plain.binding(), QueryRequest.of("bench", BY_HAND)));
        Runnable guardedBound = () -> Harness.requireOk(Harness.SERVICE.query(plain.binding(),
                QueryRequest.of("bench", BY_HAND_BOUND, TENANT_ID)));
        for (int w = 0; w < 10; w++) {
            tenant.run();
            guardedByHand.run();
            guardedBound.run();
            raw.run();
        }
        System.out.println("  the SQL the filtered call runs: " + filtered.validator().validate(QueryRequest.of("bench", AGGREGATE)).executableSql());
        long[][] vsRaw = Harness.paired(rounds, tenant, raw);
        Harness.report("  " + engineName + ": tenant-filtered aggregate vs the WHERE by hand, raw JDBC (target <= 1.10)", vsRaw[0], vsRaw[1]);
        long[][] vsGuarded = Harness.paired(rounds, tenant, guardedByHand);
        Harness.report("  " + engineName + ": tenant-filtered aggregate vs the WHERE by hand, guarded (the filter's own cost)",
                vsGuarded[0], vsGuarded[1]);
        long[][] vsBound = Harness.paired(rounds, tenant, guardedBound);
        Harness.report("  " + engineName + ": tenant-filtered aggregate vs the WHERE by hand with a bound ?, guarded",
                vsBound[0], vsBound[1]);
    }

    // ------------------------------------------------------------------ DuckDB: one million rows

    private static void duckdb(Path work, int rounds, int tenants) throws Exception {
        Path data = Files.createDirectories(work.resolve("tenant-data"));
        Path db = data.resolve("tenant.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE claims AS SELECT i AS id, 't' || (i % " + tenants + ") AS tenant, "
                    + "['APPROVED','DENIED','PENDING'][(i % 3) + 1] AS status, CAST((i % 10000) / 7.0 AS DECIMAL(12,2)) AS amount "
                    + "FROM range(1000000) t(i) ORDER BY tenant, id");
        }
        Path rawCopy = data.resolve("tenant-raw.duckdb");
        Files.copy(db, rawCopy);
        Properties props = new Properties();
        props.setProperty("duckdb.read_only", "true");
        props.setProperty("threads", "1");
        System.out.println("tenant, duckdb (1,000,000 rows, " + tenants + " tenants):");
        try (Engine filtered = Harness.factory("duckdb").create(new EngineConfig("bench", Map.of("database", db.toString()), filtered()),
                EngineContext.of(work.resolve("tenant-duckdb")));
             Engine plain = Harness.factory("duckdb").create(new EngineConfig("bench", Map.of("database", db.toString()), policy()),
                     EngineContext.of(work.resolve("tenant-duckdb")));
             Connection c = DriverManager.getConnection("jdbc:duckdb:" + rawCopy, props)) {
            compare("duckdb", filtered, plain, () -> Harness.drain(c, BY_HAND), rounds);
        }
    }

    // ------------------------------------------------------------------ PostgreSQL: 200,000 rows, an index on tenant

    private static void postgresql(Path work, int rounds, int tenants) throws Exception {
        String url = System.getenv("SQLGUARD_PG_URL");
        String admin = System.getenv("SQLGUARD_PG_ADMIN_USER");
        String adminPassword = System.getenv("SQLGUARD_PG_ADMIN_PASSWORD");
        String ro = System.getenv("SQLGUARD_PG_RO_USER");
        if (blank(url) || blank(admin) || adminPassword == null || blank(ro)) {
            System.out.println("tenant, postgresql: skipped (SQLGUARD_PG_URL, _ADMIN_USER, _ADMIN_PASSWORD or _RO_USER is not set)");
            return;
        }
        String roPassword = System.getenv().getOrDefault("SQLGUARD_PG_RO_PASSWORD", "");
        String schema = "sqlguard_t_bench_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
        try (Connection c = DriverManager.getConnection(url, admin, adminPassword); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA " + schema);
            s.execute("CREATE TABLE " + schema + ".claims (id bigint PRIMARY KEY, tenant varchar(8), status varchar(16), amount numeric(12,2))");
            s.execute("INSERT INTO " + schema + ".claims SELECT i, 't' || (i % " + tenants + "), (ARRAY['APPROVED','DENIED','PENDING'])[i % 3 + 1], "
                    + "round((i % 10000) / 7.0, 2) FROM generate_series(1, 200000) AS g(i)");
            s.execute("CREATE INDEX ON " + schema + ".claims (tenant)");
            s.execute("ANALYZE " + schema + ".claims");
            s.execute("GRANT USAGE ON SCHEMA " + schema + " TO " + ro);
            s.execute("GRANT SELECT ON " + schema + ".claims TO " + ro);
        }
        try {
            Map<String, String> props = new HashMap<>();
            props.put("url", url);
            props.put("username", ro);
            props.put("password", roPassword);
            props.put("defaultSchema", schema);
            System.out.println("tenant, postgresql (200,000 rows, " + tenants + " tenants, index on tenant):");
            onServer("postgresql", props, pool(url, ro, roPassword, "SET search_path = " + schema), work, rounds);
        } finally {
            try (Connection c = DriverManager.getConnection(url, admin, adminPassword); Statement s = c.createStatement()) {
                s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
            }
        }
    }

    // ------------------------------------------------------------------ MariaDB: 200,000 rows, an index on tenant

    private static void mysql(Path work, int rounds, int tenants) throws Exception {
        String url = System.getenv("SQLGUARD_MYSQL_URL");
        String admin = System.getenv("SQLGUARD_MYSQL_ADMIN_USER");
        String adminPassword = System.getenv("SQLGUARD_MYSQL_ADMIN_PASSWORD");
        String ro = System.getenv("SQLGUARD_MYSQL_RO_USER");
        if (blank(url) || blank(admin) || adminPassword == null || blank(ro)) {
            System.out.println("tenant, mysql: skipped (SQLGUARD_MYSQL_URL, _ADMIN_USER, _ADMIN_PASSWORD or _RO_USER is not set)");
            return;
        }
        String roPassword = System.getenv().getOrDefault("SQLGUARD_MYSQL_RO_PASSWORD", "");
        String schema = "sqlguard_t_bench_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
        String base = url.endsWith("/") ? url : url + "/";
        try (Connection c = DriverManager.getConnection(base, admin, adminPassword); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + schema);
            s.execute("CREATE TABLE " + schema + ".claims (id BIGINT PRIMARY KEY, tenant VARCHAR(8), status VARCHAR(16), amount DECIMAL(12,2),"
                    + " KEY (tenant))");
            s.execute("INSERT INTO " + schema + ".claims SELECT seq, CONCAT('t', seq % " + tenants + "), ELT(1 + seq % 3, 'APPROVED','DENIED','PENDING'), "
                    + "(seq % 10000) / 7 FROM " + schema + ".seq_1_to_200000");
            s.execute("ANALYZE TABLE " + schema + ".claims");
        }
        try {
            Map<String, String> props = Map.of("url", base + schema, "username", ro, "password", roPassword);
            System.out.println("tenant, mysql (200,000 rows, " + tenants + " tenants, index on tenant):");
            onServer("mysql", props, pool(base + schema, ro, roPassword, null), work, rounds);
        } finally {
            try (Connection c = DriverManager.getConnection(base, admin, adminPassword); Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + schema);
            }
        }
    }

    /** A read-only pool for the raw side, as a host would write it by hand. */
    private static HikariConfig pool(String url, String user, String password, String initSql) {
        HikariConfig hc = new HikariConfig();
        hc.setJdbcUrl(url);
        hc.setUsername(user);
        hc.setPassword(password);
        hc.setMaximumPoolSize(2);
        hc.setReadOnly(true);
        if (initSql != null) {
            hc.setConnectionInitSql(initSql);
        }
        return hc;
    }

    /** The comparison on a server engine: the filtered source, the same source without filters, and the raw pool. */
    private static void onServer(String engine, Map<String, String> props, HikariConfig raw, Path work, int rounds) throws Exception {
        try (HikariDataSource pool = new HikariDataSource(raw);
             Engine filtered = Harness.factory(engine).create(new EngineConfig("bench", props, filtered()),
                     EngineContext.of(work.resolve("tenant-" + engine + "-1")));
             Engine plain = Harness.factory(engine).create(new EngineConfig("bench", props, policy()),
                     EngineContext.of(work.resolve("tenant-" + engine + "-2")))) {
            compare(engine, filtered, plain, () -> {
                try (Connection c = pool.getConnection()) {
                    Harness.drain(c, BY_HAND);
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            }, rounds);
        }
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
