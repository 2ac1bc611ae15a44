package dev.sqlguard.benchmarks;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.port.ResultCursor;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;

/**
 * The PostgreSQL engine against raw JDBC (issue 16), side by side in one run: a 100,000-row GROUP BY,
 * guarded ({@code QueryService} over the {@code postgresql} engine) vs raw JDBC through a Hikari pool
 * of read-only connections for the same role, paired per round (target: at most 1.10); then cold
 * validation per query and with plan reuse, as the mysql part reports them.
 *
 * <p>Runs when {@code SQLGUARD_PG_URL}, {@code SQLGUARD_PG_ADMIN_USER} and {@code _PASSWORD} are set. The
 * admin role creates a private {@code sqlguard_t_bench_*} schema and drops it at the end. Queries run
 * as {@code SQLGUARD_PG_RO_USER} when it is set (granted SELECT on the schema), else as the admin role
 * with {@code requireReadOnlyAccount=false}.
 *
 * <pre>
 * java -jar benchmarks/target/sqlguard-benchmarks.jar 21 postgresql
 * </pre>
 */
final class PostgresBench {
    private PostgresBench() {
    }

    static void run(Path work, int rounds) throws Exception {
        String url = System.getenv("SQLGUARD_PG_URL");
        String admin = System.getenv("SQLGUARD_PG_ADMIN_USER");
        String adminPassword = System.getenv("SQLGUARD_PG_ADMIN_PASSWORD");
        if (blank(url) || blank(admin) || adminPassword == null) {
            System.out.println("postgresql: skipped (SQLGUARD_PG_URL, SQLGUARD_PG_ADMIN_USER or SQLGUARD_PG_ADMIN_PASSWORD is not set)");
            return;
        }
        String ro = System.getenv("SQLGUARD_PG_RO_USER");
        boolean readOnlyRole = !blank(ro);
        String user = readOnlyRole ? ro : admin;
        String password = readOnlyRole ? System.getenv().getOrDefault("SQLGUARD_PG_RO_PASSWORD", "") : adminPassword;
        String schema = "sqlguard_t_bench_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
        try (Connection c = DriverManager.getConnection(url, admin, adminPassword); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA " + schema);
        }
        try {
            try (Connection c = DriverManager.getConnection(url, admin, adminPassword); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE " + schema + ".claims (id bigint PRIMARY KEY, region varchar(16), amount numeric(12,2))");
                s.execute("INSERT INTO " + schema + ".claims SELECT i, (ARRAY['north','south','east','west'])[i % 4 + 1], "
                        + "round((i % 10000) / 7.0, 2) FROM generate_series(1, 100000) AS g(i)");
                s.execute("ANALYZE " + schema + ".claims");
                if (readOnlyRole) {
                    s.execute("GRANT USAGE ON SCHEMA " + schema + " TO " + user);
                    s.execute("GRANT SELECT ON " + schema + ".claims TO " + user);
                }
            }
            GuardrailPolicy policy = new GuardrailPolicy(TableAllowlist.of(Map.of("claims", List.of("id", "region", "amount"))),
                    Set.of(), Set.of(), Set.of(), Limits.defaults());
            Map<String, String> props = new HashMap<>();
            props.put("url", url);
            props.put("username", user);
            props.put("password", password);
            props.put("defaultSchema", schema);
            props.put("requireReadOnlyAccount", Boolean.toString(readOnlyRole));
            // the baseline: what a host would write by hand, a read-only pool for the same role, the schema on the search path
            HikariConfig hc = new HikariConfig();
            hc.setJdbcUrl(url);
            hc.setUsername(user);
            hc.setPassword(password);
            hc.setMaximumPoolSize(2);
            hc.setReadOnly(true);
            hc.setConnectionInitSql("SET search_path = " + schema);
            System.out.println("postgresql (role " + user + ", load average " + PerCallBench.load() + "):");
            try (HikariDataSource pool = new HikariDataSource(hc);
                 Engine engine = Harness.factory("postgresql").create(new EngineConfig("bench", props, policy),
                         EngineContext.of(work.resolve("postgresql-work")))) {
                Runnable raw = () -> {
                    try (Connection c = pool.getConnection()) {
                        Harness.drain(c, Harness.GROUP_BY);
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                };
                Runnable guarded = () -> Harness.requireOk(Harness.SERVICE.query(engine.binding(), QueryRequest.of("bench", Harness.GROUP_BY)));
                for (int w = 0; w < 20; w++) {
                    guarded.run();
                    raw.run();
                }
                long[][] times = Harness.paired(rounds, guarded, raw);
                Harness.report("  100k-row GROUP BY, guarded vs raw JDBC through a Hikari pool (target <= 1.10)", times[0], times[1]);
                breakdown(engine, rounds);
                ClientCpu.report("  100k-row GROUP BY", rounds, guarded, raw);
                roundTrips(engine, url, user, password, schema, rounds, guarded, raw);
                Harness.validation(engine, rounds);
            }
            System.out.println("  (load average after the part: " + PerCallBench.load() + ")");
        } finally {
            try (Connection c = DriverManager.getConnection(url, admin, adminPassword); Statement s = c.createStatement()) {
                s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
            }
        }
    }

    /** Where a guarded call's time goes: validation (plan reused), execution with the rows read, and the whole call. */
    private static void breakdown(Engine engine, int rounds) {
        QueryRequest request = QueryRequest.of("bench", Harness.GROUP_BY);
        long[] validate = new long[rounds];
        long[] execute = new long[rounds];
        long[] whole = new long[rounds];
        long[][] cpu = new long[3][rounds];
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        for (int r = 0; r < rounds; r++) {
            QueryPlan[] plan = new QueryPlan[1];
            long c0 = mx.getCurrentThreadCpuTime();
            validate[r] = Harness.time(() -> plan[0] = engine.validator().validate(request));
            long c1 = mx.getCurrentThreadCpuTime();
            execute[r] = Harness.time(() -> {
                try (ResultCursor cursor = engine.execution().execute(plan[0])) {
                    int columns = cursor.columns().size();
                    while (cursor.next()) {
                        for (int i = 0; i < columns; i++) {
                            cursor.get(i);
                        }
                    }
                }
            });
            long c2 = mx.getCurrentThreadCpuTime();
            whole[r] = Harness.time(() -> Harness.requireOk(Harness.SERVICE.query(engine.binding(), request)));
            long c3 = mx.getCurrentThreadCpuTime();
            cpu[0][r] = c1 - c0;
            cpu[1][r] = c2 - c1;
            cpu[2][r] = c3 - c2;
        }
        System.out.printf(Locale.ROOT, "  calling thread's CPU (medians): validation with plan reuse %.3f ms, execution and reading %.3f ms, "
                + "whole QueryService call %.3f ms%n", Harness.median(cpu[0]) / 1e6, Harness.median(cpu[1]) / 1e6, Harness.median(cpu[2]) / 1e6);
        System.out.println("  the SQL the guarded call runs: " + engine.validator().validate(request).executableSql());
        System.out.printf(Locale.ROOT, "  per call (medians): validation with plan reuse %.3f ms, execution and reading %.3f ms, "
                + "whole QueryService call %.3f ms%n", Harness.median(validate) / 1e6, Harness.median(execute) / 1e6,
                Harness.median(whole) / 1e6);
    }

    /**
     * Splits the guarded/raw ratio in two: raw JDBC that makes the guarded call's round trips by hand
     * (a read-only transaction; the session check and the rendered SQL, with the executor's fetch
     * size, in one round trip, as {@code SessionPin.check} writes it; a rollback, which the engine
     * makes after the caller has its answer) against plain raw JDBC, and guarded against that.
     */
    private static void roundTrips(Engine engine, String url, String user, String password, String schema, int rounds,
                                   Runnable guarded, Runnable raw) {
        String rendered = engine.validator().validate(QueryRequest.of("bench", Harness.GROUP_BY)).executableSql();
        HikariConfig hc = new HikariConfig();
        hc.setJdbcUrl(url);
        hc.setUsername(user);
        hc.setPassword(password);
        hc.setMaximumPoolSize(2);
        hc.setReadOnly(true);
        hc.setAutoCommit(false);
        hc.setConnectionInitSql("SET search_path = pg_catalog, " + schema);
        try (HikariDataSource pool = new HikariDataSource(hc)) {
            Runnable byHand = () -> {
                try (Connection c = pool.getConnection()) {
                    int pid = c.unwrap(org.postgresql.PGConnection.class).getBackendPID();
                    StringBuilder check = new StringBuilder("SELECT CASE WHEN pg_catalog.int4eq(pg_catalog.pg_backend_pid(), ")
                            .append(pid).append(") AND pg_catalog.texteq(pg_catalog.current_setting('transaction_read_only'), 'on')");
                    for (String name : List.of("default_transaction_read_only", "search_path", "statement_timeout", "lock_timeout",
                            "idle_in_transaction_session_timeout", "work_mem", "temp_file_limit", "standard_conforming_strings")) {
                        // the same calls and comparisons as the engine's check, against values that always differ from the setting
                        check.append(" AND NOT pg_catalog.texteq(pg_catalog.current_setting('").append(name).append("'), '-')");
                    }
                    check.append(" THEN 1 ELSE pg_catalog.int4in(pg_catalog.textout(pg_catalog.textcat('x', ")
                            .append("pg_catalog.pg_backend_pid()::pg_catalog.text))) END; ");
                    try (java.sql.PreparedStatement ps = c.prepareStatement(check + rendered)) {
                        ps.setFetchSize(256);
                        ps.execute();
                        try (java.sql.ResultSet rs = ps.getResultSet()) {
                            rs.next();
                            rs.getInt(1);
                        }
                        ps.getMoreResults();
                        try (java.sql.ResultSet rs = ps.getResultSet()) {
                            int n = rs.getMetaData().getColumnCount();
                            while (rs.next()) {
                                for (int i = 1; i <= n; i++) {
                                    rs.getObject(i);
                                }
                            }
                        }
                    }
                    c.rollback();
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            };
            for (int w = 0; w < 10; w++) {
                byHand.run();
            }
            ClientCpu.report("  raw JDBC with the guarded call's round trips, as guarded", rounds, byHand, raw);
            long[][] trips = Harness.paired(rounds, byHand, raw);
            Harness.report("  raw JDBC with the guarded call's round trips (read-only transaction, check and query in one, rollback) vs plain raw",
                    trips[0], trips[1]);
            long[][] rest = Harness.paired(rounds, guarded, byHand);
            Harness.report("  guarded vs raw JDBC with the same round trips", rest[0], rest[1]);
        }
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
