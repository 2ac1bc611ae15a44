package dev.sqlguard.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.port.CachingValidator;
import dev.sqlguard.domain.port.ResultCursor;
import dev.sqlguard.postgresql.internal.PostgresExecutor;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;

/**
 * Server-side guarantees on the local PostgreSQL: the startup privilege audit, and the kill path
 * (deadline, cancel and a cut result each stop the query on the server, proven by
 * {@code pg_stat_activity} holding no backend still running it).
 */
@Tag("postgresql")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
class PostgresServerTest {
    private TestServer.Coordinates server;
    private String schema;

    @BeforeAll
    void create() throws SQLException {
        assumeTrue(TestServer.available(), "no PostgreSQL server");
        server = TestServer.defaults();
        schema = TestServer.createSchema(server);
    }

    @AfterAll
    void drop() {
        if (schema != null) {
            TestServer.dropSchema(server, schema);
        }
    }

    private static GuardrailPolicy policy(Limits limits) {
        return new GuardrailPolicy(TableAllowlist.of(Map.of("claims", List.of("*"), "regions", List.of("*"))),
                Set.of(), Set.of(), Set.of(), limits);
    }

    /** How many plans the engine's validator caches. */
    private static int cachedPlans(Engine engine) {
        return ((CachingValidator) engine.validator()).size();
    }

    private static PostgresExecutor executor(Engine engine) {
        return (PostgresExecutor) engine.execution();
    }

    private Engine engine(boolean admin, Map<String, String> extra, Limits limits) {
        Map<String, String> p = new java.util.HashMap<>(TestServer.properties(server, schema, admin));
        p.putAll(extra);
        return new PostgresEngineFactory().create(new EngineConfig("srv", p, policy(limits)), EngineContext.of(Path.of("target")));
    }

    @Test
    void aSuperuserIsRefusedUnlessTheSourceOptsOut() {
        assertThatThrownBy(() -> engine(true, Map.of("requireReadOnlyAccount", "true"), Limits.defaults()))
                .isInstanceOfSatisfying(GuardException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
                    assertThat(e.safeMessage()).contains("SUPERUSER");
                });
        try (Engine admin = engine(true, Map.of(), Limits.defaults()); Engine ro = engine(false, Map.of(), Limits.defaults())) {
            assertThat(admin.sourceId()).isEqualTo("srv");
            assertThat(ro.catalog().tables()).hasSize(2);
        }
    }

    /** A test body run as a login role of its own; gets the engine properties that log in as it. */
    private interface RoleBody {
        void run(String role, Map<String, String> properties) throws Exception;
    }

    /**
     * Runs {@code body} as a new login role that may use the schema and holds {@code tablePrivileges}
     * on its tables, with {@code setting} (a {@code name = value}, or null) as its own default; drops it after.
     */
    private void withRole(String tablePrivileges, String setting, RoleBody body) throws Exception {
        String role = "sqlguard_pg_t_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
        try (Connection c = TestServer.admin(server); var s = c.createStatement()) {
            s.execute("CREATE ROLE " + role + " LOGIN PASSWORD 'p'");
            s.execute("GRANT USAGE ON SCHEMA " + schema + " TO " + role);
            s.execute("GRANT " + tablePrivileges + " ON ALL TABLES IN SCHEMA " + schema + " TO " + role);
            if (setting != null) {
                s.execute("ALTER ROLE " + role + " SET " + setting);
            }
        }
        try {
            Map<String, String> p = new java.util.HashMap<>(TestServer.properties(server, schema, false));
            p.put("username", role);
            p.put("password", "p");
            body.run(role, p);
        } finally {
            try (Connection c = TestServer.admin(server); var s = c.createStatement()) {
                s.execute("REVOKE ALL ON ALL TABLES IN SCHEMA " + schema + " FROM " + role);
                s.execute("REVOKE ALL ON SCHEMA " + schema + " FROM " + role);
                s.execute("DROP ROLE " + role);
            }
        }
    }

    @Test
    void aRoleThatCanWriteIsRefused() throws Exception {
        withRole("SELECT, INSERT", null, (writer, p) ->
                assertThatThrownBy(() -> new PostgresEngineFactory().create(new EngineConfig("srv", p, policy(Limits.defaults())),
                        EngineContext.of(Path.of("target")))).isInstanceOfSatisfying(GuardException.class,
                        e -> assertThat(e.safeMessage()).contains("WRITE ON TABLES")));
    }

    /** Every function the engine classifies exists in pg_catalog and is immutable or stable: none can change state. */
    @Test
    void everyClassifiedFunctionIsAPgCatalogFunctionWithoutSideEffects() throws SQLException {
        Set<String> syntax = Set.of("coalesce", "nullif", "greatest", "least", "current_date", "current_timestamp", "localtimestamp");
        Set<String> classified = new java.util.TreeSet<>(dev.sqlguard.postgresql.internal.FunctionCatalog.defaults());
        classified.removeAll(syntax);
        Map<String, String> volatility = new java.util.TreeMap<>();
        try (Connection c = TestServer.admin(server);
             PreparedStatement ps = c.prepareStatement("SELECT p.proname, string_agg(DISTINCT p.provolatile::text, '')"
                     + " FROM pg_catalog.pg_proc p WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.proname = ANY (?)"
                     + " GROUP BY p.proname")) {
            ps.setArray(1, c.createArrayOf("text", classified.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    volatility.put(rs.getString(1), rs.getString(2));
                }
            }
        }
        assertThat(volatility.keySet()).as("classified functions found in pg_catalog").containsExactlyInAnyOrderElementsOf(classified);
        assertThat(volatility).allSatisfy((name, kinds) -> assertThat(kinds).as(name).doesNotContain("v"));
    }

    /** The before-every-query check reads the server: a session that was not pinned runs nothing. */
    @Test
    void anUnpinnedSessionRunsNothing() throws SQLException {
        dev.sqlguard.postgresql.internal.SessionPin pin = dev.sqlguard.postgresql.internal.SessionPin.of(schema, Limits.defaults(), false);
        try (Connection c = java.sql.DriverManager.getConnection(server.url(), server.roUser(), server.roPassword())) {
            c.setAutoCommit(false);
            assertThatThrownBy(() -> pin.verify(c)).isInstanceOfSatisfying(GuardException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.READ_ONLY_NOT_ENFORCED));
            c.rollback();
            try (var s = c.createStatement()) {
                s.execute("SET TRANSACTION READ ONLY");
                s.execute("SET LOCAL default_transaction_read_only = on");
            }
            // read-only now, but the search path and the time limit are not the pinned ones
            assertThatThrownBy(() -> pin.verify(c)).isInstanceOfSatisfying(GuardException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR));
            c.rollback();
            pin.apply(c);
            c.commit();
            assertThat(pin.verify(c)).isPositive();
            c.rollback();
            // the check before every query compares the values captured at startup, as the server formats them
            dev.sqlguard.postgresql.internal.SessionPin captured = pin.capture(c);
            c.commit();
            assertThat(captured.verify(c)).isPositive();
            c.rollback();
            try (var s = c.createStatement()) {
                s.execute("SET statement_timeout = 0");
            }
            c.commit();
            assertThatThrownBy(() -> captured.verify(c)).isInstanceOfSatisfying(GuardException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR));
            c.rollback();
            captured.apply(c);
            try (var s = c.createStatement()) {
                s.execute("SET default_transaction_read_only = off");
                s.execute("SET TRANSACTION READ ONLY");
            }
            assertThatThrownBy(() -> captured.verify(c)).isInstanceOfSatisfying(GuardException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.READ_ONLY_NOT_ENFORCED));
            c.rollback();
        }
    }

    /**
     * Issue 26: JIT compilation ignores statement_timeout and pg_cancel_backend, so every session is
     * pinned with jit = off, and a session where JIT is on again runs nothing: neither the read-back
     * nor the check sent in the query's own round trip lets it through.
     */
    @Test
    void jitIsPinnedOffAndASessionWithJitOnRunsNothing() throws SQLException {
        dev.sqlguard.postgresql.internal.SessionPin pin = dev.sqlguard.postgresql.internal.SessionPin.of(schema, Limits.defaults(), false);
        assertThat(pin.statements()).contains("SET jit = off");
        assertThat(pin.startupOptions()).contains("-c jit=off");
        try (Connection c = java.sql.DriverManager.getConnection(server.url(), server.roUser(), server.roPassword())) {
            c.setAutoCommit(false);
            pin.apply(c);
            c.commit();
            try (var s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT pg_catalog.current_setting('jit')")) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo("off");
            }
            c.rollback();
            dev.sqlguard.postgresql.internal.SessionPin captured = pin.capture(c);
            c.commit();
            assertThat(captured.expected()).containsEntry("jit", "off");
            assertThat(captured.verify(c)).isPositive();
            c.rollback();
            try (var s = c.createStatement()) {
                s.execute("SET jit = on");
            }
            c.commit();
            assertThatThrownBy(() -> captured.verify(c)).isInstanceOfSatisfying(GuardException.class, e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
                assertThat(e.safeMessage()).contains("jit");
            });
            c.rollback();
            assertThatThrownBy(() -> pin.verify(c)).isInstanceOfSatisfying(GuardException.class, e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
                assertThat(e.safeMessage()).contains("JIT");
            });
            c.rollback();
            int pid = c.unwrap(org.postgresql.PGConnection.class).getBackendPID();
            checkFails(c, captured.check(pid, "sqlguard-jit-check").orElseThrow() + "; SELECT pg_catalog.pg_advisory_lock(4243)",
                    "sqlguard-jit-check");
            assertThat(advisoryLocks(c)).isZero();
        }
    }

    /** Session-level advisory locks {@code c}'s backend holds. */
    private static int advisoryLocks(Connection c) throws SQLException {
        try (var s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_catalog.pg_locks"
                + " WHERE locktype = 'advisory' AND pid = pg_catalog.pg_backend_pid()")) {
            rs.next();
            int n = rs.getInt(1);
            c.rollback();
            return n;
        }
    }

    /** Runs {@code sql} as one pipeline and expects the session check at its head to fail on the server. */
    private static void checkFails(Connection c, String sql, String marker) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            assertThatThrownBy(ps::execute).isInstanceOfSatisfying(SQLException.class, e -> {
                assertThat(dev.sqlguard.postgresql.internal.SessionPin.isCheckFailure(e, marker)).isTrue();
                assertThat(dev.sqlguard.postgresql.internal.SessionPin.isCheckFailure(e, marker + "-other")).isFalse();
            });
        }
        c.rollback();
    }

    /**
     * The check before every query can travel in the query's own round trip: it fails on the server
     * unless the backend and every pinned setting are the captured ones, and then the server runs
     * nothing sent after it (a session-level advisory lock, which a rollback does not undo, proves it).
     */
    @Test
    void theSessionCheckFailsOnTheServerAndNothingSentAfterItRuns() throws SQLException {
        dev.sqlguard.postgresql.internal.SessionPin pin = dev.sqlguard.postgresql.internal.SessionPin.of(schema, Limits.defaults(), false);
        try (Connection c = java.sql.DriverManager.getConnection(server.url(), server.roUser(), server.roPassword())) {
            c.setAutoCommit(false);
            pin.apply(c);
            c.commit();
            dev.sqlguard.postgresql.internal.SessionPin captured = pin.capture(c);
            c.commit();
            assertThat(pin.check(1, "m")).as("nothing captured: no check to send").isEmpty();
            int pid = c.unwrap(org.postgresql.PGConnection.class).getBackendPID();
            String marker = "sqlguard-test-check";
            String after = "; SELECT pg_catalog.pg_advisory_lock(4242)";
            try (PreparedStatement ps = c.prepareStatement(captured.check(pid, marker).orElseThrow() + after)) {
                assertThat(ps.execute()).isTrue();
                try (ResultSet rs = ps.getResultSet()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(1)).isEqualTo(1);
                }
                assertThat(ps.getMoreResults()).as("the statement after a passed check ran").isTrue();
            }
            c.rollback();
            assertThat(advisoryLocks(c)).isEqualTo(1);
            try (var s = c.createStatement()) {
                s.execute("SELECT pg_catalog.pg_advisory_unlock_all()");
            }
            c.rollback();

            checkFails(c, captured.check(pid + 1, marker).orElseThrow() + after, marker); // another backend
            assertThat(advisoryLocks(c)).isZero();
            try (var s = c.createStatement()) {
                s.execute("SET search_path = public, pg_catalog");
            }
            c.commit();
            checkFails(c, captured.check(pid, marker).orElseThrow() + after, marker); // a setting that is not the pinned one
            assertThat(advisoryLocks(c)).isZero();
            captured.apply(c);
            try (var s = c.createStatement()) {
                s.execute("SET default_transaction_read_only = off");
            }
            c.commit();
            checkFails(c, captured.check(pid, marker).orElseThrow() + after, marker); // the transaction is not read-only
            assertThat(advisoryLocks(c)).isZero();
        }
    }

    /** A check the executor cannot write as plain literals is not sent: each query then reads the session back first. */
    @Test
    void aCapturedValueThatIsNotAPlainLiteralMakesNoCheck() {
        Map<String, String> values = new java.util.LinkedHashMap<>();
        for (String name : List.of("default_transaction_read_only", "search_path", "statement_timeout", "lock_timeout",
                "idle_in_transaction_session_timeout", "work_mem", "temp_file_limit", "standard_conforming_strings", "jit")) {
            values.put(name, "on");
        }
        var plain = new dev.sqlguard.postgresql.internal.SessionPin("s", 1000, 1024, 1024, false, values);
        assertThat(plain.check(7, "m")).hasValueSatisfying(sql -> assertThat(sql).contains("pg_backend_pid(), 7)"));
        values.put("search_path", "pg_catalog, \"it's\"");
        assertThat(new dev.sqlguard.postgresql.internal.SessionPin("s", 1000, 1024, 1024, false, values).check(7, "m")).isEmpty();
        values.put("search_path", "pg_catalog, back\\slash");
        assertThat(new dev.sqlguard.postgresql.internal.SessionPin("s", 1000, 1024, 1024, false, values).check(7, "m")).isEmpty();
        assertThat(plain.check(7, "it's")).isEmpty();
    }

    /**
     * End to end: the engine sends the check in the query's round trip, and a pooled session that
     * is no longer the pinned one runs nothing and is refused with what differs, as the read-back names it.
     */
    @Test
    void aPooledSessionThatDriftedIsRefusedBeforeItsQueryRuns() throws Exception {
        try (Engine engine = engine(false, Map.of(), Limits.defaults())) {
            assertThat(executor(engine).pipelined()).as("no pooler between: the check shares the query's round trip").isTrue();
            QueryPlan plan = engine.validator().validate(QueryRequest.of("srv", "SELECT count(*) AS n FROM claims"));
            try (ResultCursor cursor = engine.execution().execute(plan)) {
                assertThat(cursor.next()).isTrue();
            }
            dev.sqlguard.postgresql.internal.SessionPin pin = capturedPin();
            try (com.zaxxer.hikari.HikariDataSource pool = pinnedPool(pin, null); com.zaxxer.hikari.HikariDataSource control = pinnedPool(pin, null)) {
                withExecutor(pool, control, pin, pinned -> {
                    assertThat(pinned.pipelined()).isTrue();
                    try (ResultCursor cursor = pinned.execute(plan)) {
                        assertThat(cursor.next()).isTrue();
                        assertThat(((Number) cursor.get(0)).longValue()).isPositive();
                    }
                    try (Connection c = pool.getConnection(); var s = c.createStatement()) { // the one pooled session drifts
                        s.execute("SET statement_timeout = 0");
                        c.commit();
                    }
                    assertThatThrownBy(() -> pinned.execute(plan)).isInstanceOfSatisfying(GuardException.class, e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
                        assertThat(e.safeMessage()).contains("statement_timeout");
                    });
                    assertThat(pinned.pipelined()).as("the backend was confirmed: the check stays in the query's round trip").isTrue();
                });
            }
        }
    }

    /** A session pin captured as the engine's startup does: each statement a transaction of its own, read-only once pinned. */
    private dev.sqlguard.postgresql.internal.SessionPin capturedPin() throws SQLException {
        try (Connection c = java.sql.DriverManager.getConnection(server.url(), server.roUser(), server.roPassword())) {
            c.setAutoCommit(true);
            return dev.sqlguard.postgresql.internal.SessionPin.of(schema, Limits.defaults(), false).capture(c);
        }
    }

    /** A one-connection pool pinned by {@code pin}'s init SQL, over the driver or over {@code source} when given. */
    private com.zaxxer.hikari.HikariDataSource pinnedPool(dev.sqlguard.postgresql.internal.SessionPin pin, javax.sql.DataSource source) {
        com.zaxxer.hikari.HikariConfig hc = new com.zaxxer.hikari.HikariConfig();
        if (source == null) {
            hc.setJdbcUrl(server.url());
        } else {
            hc.setDataSource(source);
        }
        hc.setUsername(server.roUser());
        hc.setPassword(server.roPassword());
        hc.setMaximumPoolSize(1);
        hc.setAutoCommit(false);
        hc.setConnectionInitSql(pin.initSql());
        hc.setIsolateInternalQueries(true);
        return new com.zaxxer.hikari.HikariDataSource(hc);
    }

    /** A test body run with an executor over {@code pool}, confirmed as the engine's startup confirms it. */
    private interface ExecutorBody {
        void run(PostgresExecutor executor) throws Exception;
    }

    private static void withExecutor(com.zaxxer.hikari.HikariDataSource pool, com.zaxxer.hikari.HikariDataSource control,
                                     dev.sqlguard.postgresql.internal.SessionPin pin, ExecutorBody body) throws Exception {
        java.util.concurrent.ScheduledExecutorService watchdog = java.util.concurrent.Executors.newScheduledThreadPool(2);
        try {
            PostgresExecutor executor = new PostgresExecutor(pool, control, pin, watchdog, Runnable::run);
            executor.confirmSession();
            body.run(executor);
        } finally {
            watchdog.shutdownNow();
        }
    }

    /**
     * Connections whose driver names another backend than the one that answers, as through a
     * connection pooler: {@code unwrap(PGConnection.class).getBackendPID()} is off by {@code offset}.
     */
    private static javax.sql.DataSource pooledElsewhere(java.util.concurrent.atomic.AtomicInteger offset) {
        return new org.postgresql.ds.PGSimpleDataSource() {
            private static final long serialVersionUID = 1L;

            @Override
            public Connection getConnection(String user, String password) throws SQLException {
                Connection real = super.getConnection(user, password);
                org.postgresql.PGConnection pg = real.unwrap(org.postgresql.PGConnection.class);
                Object named = java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(),
                        new Class<?>[] {org.postgresql.PGConnection.class}, (proxy, method, args) ->
                                method.getName().equals("getBackendPID") ? pg.getBackendPID() + offset.get() : method.invoke(pg, args));
                return (Connection) java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                        (proxy, method, args) -> {
                            if (method.getName().equals("unwrap") && args[0] == org.postgresql.PGConnection.class) {
                                return named;
                            }
                            try {
                                return method.invoke(real, args);
                            } catch (java.lang.reflect.InvocationTargetException e) {
                                throw e.getCause();
                            }
                        });
            }
        };
    }

    /**
     * Behind a pooler, the pid the driver names is not the server's: the executor then never sends
     * the check with it. Confirmed at startup, it reads the session back first; and when the pooler
     * shows up only later, the check fails, nothing runs, the session is read back, and the query
     * runs the slow way from then on, with the pid the server gave.
     */
    @Test
    void behindAPoolerTheSessionIsReadBackBeforeEachQuery() throws Exception {
        try (Engine engine = engine(false, Map.of(), Limits.defaults())) {
            QueryPlan plan = engine.validator().validate(QueryRequest.of("srv", "SELECT count(*) AS n FROM claims"));
            dev.sqlguard.postgresql.internal.SessionPin pin = capturedPin();
            for (boolean pooledFromTheStart : new boolean[] {true, false}) {
                java.util.concurrent.atomic.AtomicInteger offset = new java.util.concurrent.atomic.AtomicInteger(pooledFromTheStart ? 100_000 : 0);
                org.postgresql.ds.PGSimpleDataSource ds = (org.postgresql.ds.PGSimpleDataSource) pooledElsewhere(offset);
                ds.setUrl(server.url());
                try (com.zaxxer.hikari.HikariDataSource pool = pinnedPool(pin, ds); com.zaxxer.hikari.HikariDataSource control = pinnedPool(pin, null)) {
                    withExecutor(pool, control, pin, executor -> {
                        assertThat(executor.pipelined()).as("pooled from the start: %s", pooledFromTheStart).isEqualTo(!pooledFromTheStart);
                        offset.set(100_000); // (when not pooled from the start: the pooler shows up only now)
                        try (ResultCursor cursor = executor.execute(plan)) {
                            assertThat(cursor.next()).isTrue();
                            assertThat(((Number) cursor.get(0)).longValue()).isPositive();
                        }
                        assertThat(executor.pipelined()).as("after a check that named another backend").isFalse();
                        try (ResultCursor cursor = executor.execute(plan)) {
                            assertThat(cursor.next()).isTrue();
                        }
                    });
                }
            }
        }
    }

    /**
     * A result whose rows fit the row cap but not the memory limit is refused as such, on the
     * client, before it fills the heap (pgjdbc's {@code maxResultBuffer}); the source answers afterwards.
     */
    @Test
    void aResultLargerThanTheMemoryLimitIsRefusedAndTheSourceStillAnswers() throws SQLException {
        try (Connection c = TestServer.admin(server); var s = c.createStatement()) {
            s.execute("CREATE TABLE " + schema + ".wide AS SELECT i AS id, pg_catalog.repeat('x', 4000) AS body"
                    + " FROM pg_catalog.generate_series(1, 1000) AS g(i)");
            s.execute("GRANT SELECT ON " + schema + ".wide TO " + server.roUser());
        }
        try {
            Map<String, String> p = new java.util.HashMap<>(TestServer.properties(server, schema, false));
            GuardrailPolicy wide = new GuardrailPolicy(TableAllowlist.of(Map.of("wide", List.of("*"))), Set.of(), Set.of(), Set.of(),
                    Limits.defaults().withMemoryBytes(2_000_000));
            try (Engine engine = new PostgresEngineFactory().create(new EngineConfig("srv", p, wide), EngineContext.of(Path.of("target")))) {
                QueryPlan all = engine.validator().validate(QueryRequest.of("srv", "SELECT id, body FROM wide"));
                assertThatThrownBy(() -> {
                    try (ResultCursor cursor = engine.execution().execute(all)) {
                        while (cursor.next()) {
                            cursor.get(1);
                        }
                    }
                }).isInstanceOfSatisfying(GuardException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.EXCEEDED_MEMORY_LIMIT);
                    assertThat(e.safeMessage()).doesNotContain("maxResultBuffer").contains("memory limit");
                });
                QueryPlan some = engine.validator().validate(QueryRequest.of("srv", "SELECT id, body FROM wide WHERE id <= 100"));
                int rows = 0;
                try (ResultCursor cursor = engine.execution().execute(some)) {
                    while (cursor.next()) {
                        rows++;
                    }
                }
                assertThat(rows).as("400 kB fit the 2 MB bound").isEqualTo(100);
            }
        } finally {
            try (Connection c = TestServer.admin(server); var s = c.createStatement()) {
                s.execute("DROP TABLE " + schema + ".wide");
            }
        }
    }

    /** The most parallel workers seen running a query that holds {@code marker} while {@code run} runs. */
    private int parallelWorkersWhile(String marker, Runnable run) throws Exception {
        java.util.concurrent.atomic.AtomicInteger most = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        Thread watch = new Thread(() -> {
            try (Connection c = TestServer.admin(server); PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM pg_catalog.pg_stat_activity"
                    + " WHERE backend_type = 'parallel worker' AND query LIKE ?")) {
                ps.setString(1, "%" + marker + "%");
                while (!done.get()) {
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        most.accumulateAndGet(rs.getInt(1), Math::max);
                    }
                    Thread.sleep(5);
                }
            } catch (Exception e) {
                most.set(-1);
            }
        });
        watch.start();
        try {
            run.run();
        } finally {
            done.set(true);
            watch.join();
        }
        return most.get();
    }

    /**
     * Under the row cap a result is read in one round trip, so PostgreSQL may run a parallel plan
     * (it never does for a statement fetched in batches); a row limit above the cap streams, and
     * runs without workers. A role of the test's own asks for a parallel plan wherever one is safe.
     */
    @Test
    void aCappedResultMayRunAParallelPlanAndAStreamedOneRunsWithout() throws Exception {
        withRole("SELECT", "force_parallel_mode = on", (role, p) -> {
            int[] workers = new int[2];
            int i = 0;
            for (int maxRows : new int[] {1_000_000, 1_000}) {
                // a worker shows its leader's query: a marker of each run's own tells them apart
                String marker = marker();
                String sql = "SELECT count(*) AS " + marker + " FROM claims a CROSS JOIN claims b CROSS JOIN claims c CROSS JOIN claims d";
                try (Engine engine = new PostgresEngineFactory().create(new EngineConfig("srv", p,
                        policy(Limits.defaults().withMaxRows(maxRows).withTimeout(Duration.ofSeconds(60)))), EngineContext.of(Path.of("target")))) {
                    QueryPlan plan = engine.validator().validate(QueryRequest.of("srv", sql));
                    workers[i++] = parallelWorkersWhile(marker, () -> {
                        try (ResultCursor cursor = engine.execution().execute(plan)) {
                            assertThat(cursor.next()).isTrue();
                            assertThat(((Number) cursor.get(0)).longValue()).isEqualTo(60L * 60 * 60 * 60);
                        }
                    });
                }
            }
            assertThat(workers[0]).as("parallel workers, streamed").isZero();
            assertThat(workers[1]).as("parallel workers, read in one round trip").isPositive();
        });
    }

    /**
     * The check and the query go to pgjdbc as one text split at its semicolons: text in a literal
     * that looks like a statement end, a placeholder, a comment or a dollar quote stays the query's,
     * the check still runs first, and the answer is the server's own for the query alone.
     */
    @Test
    void literalsThatLookLikeSyntaxStayInsideTheQueryThatFollowsTheCheck() throws Exception {
        try (Engine engine = engine(false, Map.of(), Limits.defaults())) {
            assertThat(executor(engine).pipelined()).isTrue();
            for (String literal : List.of("a;b", "x; SELECT 1", "?", "$1", "-- c", "/* c */", "'';", "pg_sleep(5);")) {
                String quoted = "'" + literal.replace("'", "''") + "'";
                String sql = "SELECT count(*) AS n, max(" + quoted + ") AS t FROM claims WHERE region <> " + quoted;
                QueryPlan plan = engine.validator().validate(QueryRequest.of("srv", sql));
                try (ResultCursor cursor = engine.execution().execute(plan)) {
                    assertThat(cursor.next()).as(literal).isTrue();
                    assertThat(((Number) cursor.get(0)).longValue()).as(literal).isEqualTo(60L);
                    assertThat(cursor.get(1)).as(literal).isEqualTo(literal);
                    assertThat(cursor.next()).as(literal).isFalse();
                }
            }
        }
    }

    /** One plan per SQL text, checked once (EXPLAIN included) and bound to each call's parameters; refusals are not kept. */
    @Test
    void plansAreCachedPerTextAndBoundPerCall() {
        try (Engine engine = engine(false, Map.of(), Limits.defaults())) {
            String sql = "SELECT count(*) AS n FROM claims WHERE id > ?";
            QueryPlan first = engine.validator().validate(QueryRequest.of("srv", sql, 10L));
            QueryPlan second = engine.validator().validate(QueryRequest.of("srv", sql, 50L));
            assertThat(cachedPlans(engine)).isEqualTo(1);
            assertThat(first.parameters()).containsExactly(10L);
            assertThat(second.parameters()).containsExactly(50L);
            assertThat(second.executableSql()).isEqualTo(first.executableSql());
            assertThatThrownBy(() -> engine.validator().validate(QueryRequest.of("srv", sql)))
                    .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.PARAMETER_COUNT_MISMATCH));
            for (int i = 0; i < 2; i++) {
                assertThatThrownBy(() -> engine.validator().validate(QueryRequest.of("srv", "SELECT pg_sleep(1)")))
                        .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.FUNCTION_NOT_ALLOWED));
            }
            assertThat(cachedPlans(engine)).isEqualTo(1);
            try (ResultCursor cursor = engine.execution().execute(second)) {
                assertThat(cursor.next()).isTrue();
                assertThat(((Number) cursor.get(0)).longValue()).isEqualTo(10);
            }
        }
    }

    private static String runaway(String marker) {
        return "SELECT count(*) AS " + marker + " FROM claims a JOIN claims b ON a.id > 0 JOIN claims c ON c.id > 0"
                + " JOIN claims d ON d.id > 0 JOIN claims e ON e.id > 0 JOIN claims f ON f.id > 0";
    }

    private static String marker() {
        return "kill_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    }

    /** Backends other than this one that still run a query holding {@code marker}. */
    private int running(String marker) throws SQLException {
        try (Connection c = TestServer.admin(server);
             PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM pg_catalog.pg_stat_activity WHERE state = 'active'"
                     + " AND pid <> pg_catalog.pg_backend_pid() AND query LIKE ?")) {
            ps.setString(1, "%" + marker + "%");
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    private void awaitRunning(String marker, int expected) throws Exception {
        for (int i = 0; i < 200 && running(marker) != expected; i++) {
            Thread.sleep(50);
        }
        assertThat(running(marker)).as("backends running " + marker).isEqualTo(expected);
    }

    @Test
    void theDeadlineStopsTheQueryOnTheServer() throws Exception {
        try (Engine engine = engine(false, Map.of(), Limits.defaults().withTimeout(Duration.ofSeconds(1)))) {
            String marker = marker();
            QueryPlan plan = engine.validator().validate(QueryRequest.of("srv", runaway(marker)));
            assertThatThrownBy(() -> {
                try (ResultCursor cursor = engine.execution().execute(plan)) {
                    cursor.next();
                }
            }).isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.EXCEEDED_TIME_LIMIT));
            awaitRunning(marker, 0);
            // the source still answers
            QueryPlan small = engine.validator().validate(QueryRequest.of("srv", "SELECT count(*) AS n FROM claims"));
            try (ResultCursor cursor = engine.execution().execute(small)) {
                assertThat(cursor.next()).isTrue();
                assertThat(((Number) cursor.get(0)).longValue()).isEqualTo(60);
            }
        }
    }

    @Test
    void aCutResultStopsTheQueryAndNeverReachesTheClient() throws Exception {
        try (Engine engine = engine(false, Map.of(), Limits.defaults().withMaxRows(1_000_000).withTimeout(Duration.ofSeconds(60)))) {
            String marker = marker();
            // 60^5 = 777,600,000 rows, streamed: only a few are read before the cursor is closed
            QueryPlan plan = engine.validator().validate(QueryRequest.of("srv", "SELECT a.id AS " + marker
                    + " FROM claims a CROSS JOIN claims b CROSS JOIN claims c CROSS JOIN claims d CROSS JOIN claims e"));
            long before = executor(engine).cancelsSent();
            ResultCursor cursor = engine.execution().execute(plan);
            for (int i = 0; i < 3; i++) {
                assertThat(cursor.next()).isTrue();
            }
            cursor.close();
            awaitRunning(marker, 0);
            assertThat(executor(engine).cancelsSent()).isGreaterThanOrEqualTo(before);
            try (ResultCursor again = engine.execution().execute(engine.validator().validate(QueryRequest.of("srv",
                    "SELECT count(*) AS n FROM regions")))) {
                assertThat(again.next()).isTrue();
            }
        }
    }

    @Test
    void cancelOnTheCursorIsReportedAsCancelled() throws Exception {
        try (Engine engine = engine(false, Map.of(), Limits.defaults().withMaxRows(1_000_000).withTimeout(Duration.ofSeconds(60)))) {
            String marker = marker();
            QueryPlan plan = engine.validator().validate(QueryRequest.of("srv", "SELECT a.id AS " + marker
                    + " FROM claims a CROSS JOIN claims b CROSS JOIN claims c CROSS JOIN claims d CROSS JOIN claims e"));
            ResultCursor cursor = engine.execution().execute(plan);
            assertThat(cursor.next()).isTrue();
            cursor.cancel();
            assertThatThrownBy(cursor::next).isInstanceOfSatisfying(GuardException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.CANCELLED));
            cursor.close();
            awaitRunning(marker, 0);
        }
    }
}
