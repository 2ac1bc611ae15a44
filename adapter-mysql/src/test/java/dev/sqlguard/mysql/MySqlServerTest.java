package dev.sqlguard.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.LimitKind;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.ResultProjector;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.domain.port.ResultCursor;
import dev.sqlguard.mysql.internal.MySqlExecutor;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;
import dev.sqlguard.ports.EngineStart;
import dev.sqlguard.ports.TableDescription;

/** The engine against the real server: results, types, limits, the kill path and startup checks. */
@Tag("mysql")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
class MySqlServerTest {
    private String database;
    private Engine engine;
    private final QueryService service = new QueryService(AuditSink.discarding());

    static GuardrailPolicy policy(Limits limits) {
        return new GuardrailPolicy(TableAllowlist.of(Map.of(
                "claims", List.of("id", "region", "amount", "status", "created"),
                "regions", List.of("*"),
                "users", List.of("id", "name", "password", "api_key"),
                "big", List.of("id", "v"))), Set.of(), Set.of(), Set.of(), limits);
    }

    static Engine engine(String database, boolean admin, GuardrailPolicy policy, Map<String, String> extra) {
        Map<String, String> props = new HashMap<>(TestServer.properties(database, admin));
        props.putAll(extra);
        // as the host starts it: the configured function names are checked on the engine's facts
        return EngineStart.open(new MySqlEngineFactory(), new EngineConfig("db", props, policy), EngineContext.of(Path.of("target")));
    }

    @BeforeAll
    void setUp() throws Exception {
        assumeTrue(TestServer.available(), "no MySQL-compatible server");
        // 20000 matching rows first (more than the server's network buffer), then a long scan with index lookups (no join buffering)
        database = TestServer.createDatabaseWithBig("IF(n <= 20000, 1, 0)", 1_000_000);
        engine = engine(database, false, policy(Limits.defaults().withMaxRows(10).withTimeout(Duration.ofSeconds(3))), Map.of());
    }

    @AfterAll
    void tearDown() {
        if (engine != null) {
            engine.close();
        }
        if (database != null) {
            TestServer.dropDatabase(database);
        }
    }

    private ToolResult query(String sql, Object... params) {
        return service.query(engine.binding(), QueryRequest.of("db", sql, params));
    }

    @Test
    void runsAnAggregateWithJavaTimeAndDecimalValues() {
        ToolResult r = query("SELECT region, count(*) AS n, sum(amount) AS total, min(created) AS first FROM claims"
                + " WHERE status = ? GROUP BY region ORDER BY region", "APPROVED");
        assertThat(r.status()).isEqualTo(ToolStatus.OK);
        assertThat(r.columns()).extracting(c -> c.name()).containsExactly("region", "n", "total", "first");
        assertThat(r.rows()).hasSize(4);
        assertThat(r.rows().get(0).get(0)).isEqualTo("east");
        assertThat(r.rows().get(0).get(2)).isInstanceOf(BigDecimal.class);
        assertThat((String) r.rows().get(0).get(3)).matches("2024-\\d\\d-\\d\\d");
    }

    @Test
    void redactsSensitiveColumnsByLineage() {
        ToolResult r = query("SELECT name, max(password) AS x, min(api_key) AS k, max(password) AS password FROM users GROUP BY name ORDER BY name");
        assertThat(r.status()).isEqualTo(ToolStatus.OK);
        assertThat(r.rows()).hasSize(3);
        // grouping by a sensitive column would count its distinct values: refused before the server
        assertThat(query("SELECT name, api_key AS k, password FROM users GROUP BY name, api_key, password ORDER BY name").error())
                .map(e -> e.code()).contains(ErrorCode.COLUMN_NOT_ALLOWED);
        assertThat(r.rows()).allSatisfy(row -> {
            assertThat(row.get(1)).isEqualTo(ResultProjector.REDACTED);
            assertThat(row.get(2)).isEqualTo(ResultProjector.REDACTED);
            assertThat(row.get(3)).isEqualTo(ResultProjector.REDACTED);
        });
        assertThat(r.toString()).doesNotContain("hunter2", "ak_live");
    }

    @Test
    void emptyResultIsNoEvidenceAndTheRowLimitCutsInTheSql() {
        assertThat(query("SELECT id FROM claims WHERE id < 0").status()).isEqualTo(ToolStatus.NO_EVIDENCE);
        ToolResult r = query("SELECT id FROM claims ORDER BY id LIMIT 1000");
        assertThat(r.sql().orElseThrow()).endsWith("LIMIT 11");
        assertThat(r.rows()).hasSize(10);
        assertThat(r.truncated()).isTrue();
        assertThat(r.limitsHit()).contains(LimitKind.ROWS);
    }

    @Test
    void catalogListsAllowlistedColumnsWithTypesAndExactRows() {
        List<TableDescription> tables = engine.catalog().tables();
        assertThat(tables).extracting(t -> t.table().qualifiedName()).containsExactly("big", "claims", "regions", "users");
        TableDescription claims = tables.get(1);
        assertThat(claims.columns()).extracting(TableDescription.ColumnDescription::name)
                .containsExactly("id", "region", "amount", "status", "created");
        assertThat(claims.columns().get(2).type()).isEqualTo("decimal(12,2)");
        // exact counts, not InnoDB's TABLE_ROWS estimate; a table not counted within the startup budget shows only an estimate
        for (TableDescription t : tables) {
            if (t.rowCount().isPresent()) {
                assertThat(t.rowCount()).as(t.table().qualifiedName()).hasValue(exactCount(t.table().qualifiedName()));
                assertThat(t.approximateRowCount()).isEmpty();
            } else {
                assertThat(t.approximateRowCount()).as(t.table().qualifiedName()).isPresent();
            }
        }
        assertThat(tables.get(1).rowCount()).hasValue(exactCount("claims"));
        assertThat(tables.get(2).rowCount()).hasValue(exactCount("regions"));
        assertThat(tables.get(3).columns()).filteredOn(TableDescription.ColumnDescription::redacted)
                .extracting(TableDescription.ColumnDescription::name).containsExactlyInAnyOrder("password", "api_key");
    }

    @Test
    void everyConnectionIsReadOnlyOnTheServerEvenForSqlThatBypassedTheValidator() throws Exception {
        for (boolean admin : new boolean[] {false, true}) {
            try (Engine e = engine(database, admin, policy(Limits.defaults()), Map.of())) {
                String before = TestServer.fingerprint(database);
                QueryPlan forged = new QueryPlan("db", "x", "UPDATE `" + database + "`.`claims` SET amount = 0",
                        List.of(), Set.of(), Set.of(), Set.of(), List.of(), List.of(), Limits.defaults());
                assertThatThrownBy(() -> e.execution().execute(forged).close())
                        .isInstanceOf(GuardException.class)
                        .extracting(x -> ((GuardException) x).code()).isIn(ErrorCode.PERMISSION_DENIED, ErrorCode.QUERY_FAILED);
                assertThat(TestServer.fingerprint(database)).isEqualTo(before);
            }
        }
    }

    /** Matches early in a long scan: the first rows arrive at once while the server keeps scanning for seconds. */
    static final String SLOW_AFTER_FIRST_ROW = "SELECT a.id FROM big a JOIN big b ON b.id = a.id JOIN big c ON c.id = b.id"
            + " JOIN big d ON d.id = c.id WHERE a.v + b.v + c.v + d.v = 4";

    @Test
    void cutResultIsKilledOnTheServerBeforeClosing() throws Exception {
        try (Engine e = engine(database, false, policy(Limits.defaults().withMaxRows(100_000).withTimeout(Duration.ofSeconds(60))), Map.of())) {
            QueryPlan plan = e.validator().validate(QueryRequest.of("db", SLOW_AFTER_FIRST_ROW));
            long id;
            MySqlExecutor executor = (MySqlExecutor) e.execution();
            long kills = executor.killsSent();
            try (ResultCursor cursor = e.execution().execute(plan)) {
                assertThat(cursor.next()).isTrue();
                // the server is still scanning: the cut must not wait for it
                id = runningQueryOf(TestServer.roUser());
                assertThat(id).isPositive();
            }
            assertThat(executor.killsSent()).isEqualTo(kills + 1);
            assertThat(isRunning(id)).isFalse();
        }
    }

    @Test
    void timeoutStopsTheQueryOnTheServer() throws Exception {
        try (Engine e = engine(database, false, policy(Limits.defaults().withTimeout(Duration.ofSeconds(1))), Map.of())) {
            ToolResult r = service.query(e.binding(), QueryRequest.of("db",
                    "SELECT count(*) AS n FROM claims a JOIN claims b ON a.id > 0 JOIN claims c ON c.id > 0 JOIN claims d ON d.id > 0 JOIN claims f ON f.id > 0"));
            assertThat(r.status()).isEqualTo(ToolStatus.ERROR);
            assertThat(r.error().orElseThrow().code()).isEqualTo(ErrorCode.EXCEEDED_TIME_LIMIT);
            assertThat(runningQueryOfOrZero(TestServer.roUser())).isZero();
        }
    }

    @Test
    void cancelFromAnotherThreadKillsTheQuery() throws Exception {
        try (Engine e = engine(database, false, policy(Limits.defaults().withMaxRows(100_000).withTimeout(Duration.ofSeconds(60))), Map.of())) {
            QueryPlan plan = e.validator().validate(QueryRequest.of("db", SLOW_AFTER_FIRST_ROW));
            try (ResultCursor cursor = e.execution().execute(plan)) {
                assertThat(cursor.next()).isTrue();
                assertThat(runningQueryOf(TestServer.roUser())).isPositive();
                Thread canceller = new Thread(() -> {
                    try {
                        Thread.sleep(200);
                    } catch (InterruptedException ignored) {
                        Thread.currentThread().interrupt();
                    }
                    cursor.cancel();
                });
                canceller.start();
                assertThatThrownBy(() -> {
                    while (cursor.next()) {
                        cursor.get(0);
                    }
                }).isInstanceOf(GuardException.class)
                        .extracting(x -> ((GuardException) x).code()).isEqualTo(ErrorCode.CANCELLED);
                canceller.join();
                assertThat(((MySqlExecutor) e.execution()).killsSent()).isEqualTo(1);
            }
            assertThat(runningQueryOfOrZero(TestServer.roUser())).isZero();
        }
    }

    @Test
    void startupRefusesMissingAllowlistDangerousUrlsAndOverPrivilegedAccountsWhenAsked() {
        GuardrailPolicy open = GuardrailPolicy.defaults();
        assertThatThrownBy(() -> engine(database, false, open, Map.of()))
                .extracting(x -> ((GuardException) x).code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
        assertThatThrownBy(() -> engine(database, true, policy(Limits.defaults()), Map.of("requireReadOnlyAccount", "true")))
                .isInstanceOf(GuardException.class)
                .satisfies(x -> {
                    assertThat(((GuardException) x).code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
                    assertThat(x.getMessage()).contains("beyond reading").doesNotContain(TestServer.adminPassword());
                });
        try (Engine ro = engine(database, false, policy(Limits.defaults()), Map.of("requireReadOnlyAccount", "true"))) {
            assertThat(ro.sourceId()).isEqualTo("db");
        }
        for (String bad : List.of("?allowMultiQueries=true", "?allowLoadLocalInfile=true", "?autoDeserialize=true",
                "?sessionVariables=tx_read_only%3D0", "?allowUrlInLocalInfile=true", "?user=root")) {
            Map<String, String> props = new HashMap<>(TestServer.properties(database, false));
            props.put("url", props.get("url") + bad);
            assertThatThrownBy(() -> new MySqlEngineFactory().create(new EngineConfig("db", props, policy(Limits.defaults())),
                    EngineContext.of(Path.of("target")))).extracting(x -> ((GuardException) x).code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
        }
        Map<String, String> wrongPassword = new HashMap<>(TestServer.properties(database, false));
        wrongPassword.put("password", "not-the-password");
        assertThatThrownBy(() -> new MySqlEngineFactory().create(new EngineConfig("db", wrongPassword, policy(Limits.defaults())),
                EngineContext.of(Path.of("target"))))
                .satisfies(x -> {
                    assertThat(((GuardException) x).code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
                    // the user is named (issue 30: the operator must know which account to check); never the password or host
                    assertThat(x.getMessage()).doesNotContain("not-the-password").doesNotContain("127.0.0.1")
                            .contains("user '" + TestServer.roUser() + "'");
                });
    }

    @Test
    void serverErrorsAreMappedWithoutDriverText() throws Exception {
        // error 1690: BIGINT UNSIGNED out of range (ONLY_FULL_GROUP_BY is no longer pinned, so GROUP BY errors are the server default's)
        ToolResult r = query("SELECT CAST(id AS UNSIGNED) - 1000000 AS x FROM claims");
        assertThat(r.status()).isEqualTo(ToolStatus.ERROR);
        assertThat(r.error().orElseThrow().code()).isEqualTo(ErrorCode.QUERY_FAILED);
        assertThat(r.error().orElseThrow().message()).doesNotContain(database).doesNotContain("1690").doesNotContain("UNSIGNED");
    }

    private long exactCount(String table) {
        try (Connection c = TestServer.admin(database); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM `" + table + "`")) {
            rs.next();
            return rs.getLong(1);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    // ------------------------------------------------------------------ processlist helpers (admin account)

    /** Waits up to about a second for a query of {@code user} to show up as running; its id, or 0. */
    static long runningQueryOf(String user) throws Exception {
        for (int i = 0; i < 50; i++) {
            long id = findRunning(user);
            if (id > 0) {
                return id;
            }
            Thread.sleep(20);
        }
        return 0;
    }

    /** 0 once no query of {@code user} runs (a killed query needs a moment to unwind), else the id still running after ~2 s. */
    static long runningQueryOfOrZero(String user) throws Exception {
        long id = 0;
        for (int i = 0; i < 100; i++) {
            id = findRunning(user);
            if (id == 0) {
                return 0;
            }
            Thread.sleep(20);
        }
        return id;
    }

    /** The id of a connection of {@code user} running one of this test's queries (not sleeping), or 0. */
    static long findRunning(String user) throws Exception {
        try (Connection c = TestServer.admin(null); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT ID FROM information_schema.PROCESSLIST WHERE USER = '" + user
                     + "' AND COMMAND IN ('Query', 'Execute') AND (INFO LIKE 'SELECT%claims%' OR INFO LIKE 'SELECT%big%')")) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    static boolean isRunning(long id) throws Exception {
        for (int i = 0; i < 100; i++) {
            try (Connection c = TestServer.admin(null); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT COMMAND FROM information_schema.PROCESSLIST WHERE ID = " + id)) {
                if (!rs.next() || !List.of("Query", "Execute").contains(rs.getString(1))) {
                    return false;
                }
            }
            Thread.sleep(20);
        }
        return true;
    }

    @Test
    void aGroupByTheServerDefaultModeAcceptsRuns() throws Exception {
        String serverDefault;
        try (Connection c = TestServer.admin(database); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT @@GLOBAL.sql_mode")) {
            rs.next();
            serverDefault = rs.getString(1);
        }
        ToolResult r = query("SELECT region, amount FROM claims GROUP BY region ORDER BY region");
        if (serverDefault.toUpperCase(java.util.Locale.ROOT).contains("ONLY_FULL_GROUP_BY")) {
            assertThat(r.error()).map(e -> e.code()).contains(ErrorCode.QUERY_FAILED);
        } else {
            assertThat(r.status()).isEqualTo(ToolStatus.OK);
            assertThat(r.rows()).hasSize(4);
        }
    }

    private static QueryPlan forged(String sql, List<String> labels, Limits limits) {
        return new QueryPlan("db", sql, sql, List.of(), Set.of(), Set.of(), Set.of(),
                labels.stream().map(l -> dev.sqlguard.domain.OutputColumn.traced(l, Set.of())).toList(), List.of(), limits);
    }

    private static List<Object> single(Engine e, QueryPlan plan) {
        try (ResultCursor cursor = e.execution().execute(plan)) {
            assertThat(cursor.next()).isTrue();
            List<Object> row = new java.util.ArrayList<>();
            for (int i = 0; i < cursor.columns().size(); i++) {
                row.add(cursor.get(i));
            }
            assertThat(cursor.next()).isFalse();
            return row;
        }
    }

    @Test
    void groupConcatLengthAndRecursionArePinnedPerSession() throws Exception {
        Limits limits = Limits.defaults().withMaxCellChars(100);
        try (Engine e = engine(database, false, policy(limits), Map.of())) {
            String flavorVariable;
            try (Connection c = TestServer.admin(null)) {
                flavorVariable = dev.sqlguard.mysql.internal.ServerFlavor.fromVersion(c.getMetaData().getDatabaseProductVersion())
                        .recursionVariable();
            }
            List<Object> row = single(e, forged("SELECT @@SESSION.group_concat_max_len AS g, @@SESSION." + flavorVariable + " AS r,"
                    + " LENGTH(GROUP_CONCAT(v)) AS n FROM `" + database + "`.big WHERE id <= 5000", List.of("g", "r", "n"), limits));
            assertThat(((Number) row.get(0)).longValue()).isEqualTo(404L);
            assertThat(((Number) row.get(1)).longValue()).isEqualTo(1000L);
            // 5000 one-digit values and 4999 commas, cut by the server at the pinned length (then cut again by the projector)
            assertThat(((Number) row.get(2)).longValue()).isEqualTo(404L);
            String recursive = "WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < %d) SELECT count(*) AS c FROM r";
            assertThat(((Number) single(e, forged(String.format(recursive, 900), List.of("c"), limits)).get(0)).longValue()).isEqualTo(900L);
            // MariaDB stops at the limit with only a warning and a cut result: refused, never returned as complete
            assertThatThrownBy(() -> single(e, forged(String.format(recursive, 5000), List.of("c"), limits)))
                    .isInstanceOf(GuardException.class)
                    .satisfies(x -> {
                        assertThat(((GuardException) x).code()).isEqualTo(ErrorCode.QUERY_FAILED);
                        assertThat(((GuardException) x).safeMessage()).contains("recursive");
                    });
        }
    }

    @Test
    void withRollupRunsAndWhetherOrderByMayFollowIsTheServersDecision() throws Exception {
        ToolResult r = query("SELECT region, count(*) AS n FROM claims GROUP BY region WITH ROLLUP");
        assertThat(r.status()).isEqualTo(ToolStatus.OK);
        assertThat(r.sql().orElseThrow()).contains("GROUP BY `t1`.`region` WITH ROLLUP LIMIT 11");
        assertThat(r.rows()).hasSize(5);
        assertThat(r.rows().get(4).get(0)).isNull();
        assertThat(((Number) r.rows().get(4).get(1)).longValue()).isEqualTo(60L);
        boolean mariadb;
        try (Connection c = TestServer.admin(null)) {
            mariadb = dev.sqlguard.mysql.internal.ServerFlavor.fromVersion(c.getMetaData().getDatabaseProductVersion())
                    == dev.sqlguard.mysql.internal.ServerFlavor.MARIADB;
        }
        ToolResult ordered = query("SELECT region, count(*) AS n FROM claims GROUP BY region WITH ROLLUP ORDER BY n");
        if (mariadb) {
            // MariaDB 10.11 refuses ROLLUP with ORDER BY (1221): the answer says what to do, not the driver's text
            assertThat(ordered.error().orElseThrow().code()).isEqualTo(ErrorCode.QUERY_FAILED);
            assertThat(ordered.error().orElseThrow().message()).contains("WITH ROLLUP").contains("derived table").doesNotContain("CUBE");
        } else {
            assertThat(ordered.status()).isEqualTo(ToolStatus.OK);
        }
        ToolResult outer = query("SELECT * FROM (SELECT region, count(*) AS n FROM claims GROUP BY region WITH ROLLUP) x ORDER BY n DESC, region");
        assertThat(outer.status()).isEqualTo(ToolStatus.OK);
        assertThat(outer.rows().get(0).get(0)).isNull();
    }

    @Test
    void configuredFunctionNamesAreCheckedOnTheServerAtStart() {
        Map<Set<String>, String> refused = Map.of(
                Set.of("count", "lower", "nosuchfunc"), "'nosuchfunc', which (MariaDB|MySQL) does not know",
                Set.of("lenght"), "Did you mean 'length'\\?",
                Set.of("uper"), "'upper'",
                Set.of("count", "benchmark"), "'benchmark', which is never allowed on (MariaDB|MySQL)",
                Set.of("inet_aton"), "'inet_aton', which sqlguard has no cost class for",
                Set.of("lower", "a-b"), "which is not a plain function name on (MariaDB|MySQL)");
        // both accounts: without EXECUTE the server answers 1370 (routine denied) instead of 1305 (does not exist)
        refused.forEach((functions, fragment) -> List.of(false, true).forEach(admin -> assertThatThrownBy(() -> engine(database, admin,
                policy(Limits.defaults()).withFunctions(functions), Map.of()).close())
                .as(functions.toString())
                .isInstanceOfSatisfying(GuardException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
                    assertThat(e.getMessage()).containsPattern(fragment);
                })));
        // native functions, grammar forms (count, sum, extract, substring, if, group_concat) and niladic ones all start
        try (Engine e = engine(database, false, policy(Limits.defaults()).withFunctions(Set.of("count", "sum", "lower", "now",
                "substring", "group_concat", "extract", "if", "coalesce", "current_date", "round", "date_format")), Map.of())) {
            assertThat(service.query(e.binding(), QueryRequest.of("db", "SELECT lower(region) AS r FROM claims WHERE id = 1")).status())
                    .isEqualTo(ToolStatus.OK);
        }
    }
}
