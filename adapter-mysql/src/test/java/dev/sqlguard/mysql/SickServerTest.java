package dev.sqlguard.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.domain.port.ResultCursor;
import dev.sqlguard.mysql.internal.MySqlExecutor;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;
import dev.sqlguard.testing.FaultProxy;
import dev.sqlguard.testing.PrivateDatabaseFixture;

/**
 * Time limits that survive a sick server: a server that stops answering (simulated by a TCP proxy
 * that stops forwarding, so the shared server is never paused), a full connection limit, and
 * retries of runaway queries. Assertions are on codes; {@code @Timeout} only guards against hangs, in
 * a separate thread because a thread blocked in a socket read ignores interrupts (before the fix the
 * frozen-server cases hung the JVM for minutes).
 */
@Tag("mysql")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
class SickServerTest {
    private String database;
    private final QueryService service = new QueryService(AuditSink.discarding());

    static final String RUNAWAY = PrivateDatabaseFixture.claimsCrossJoin(6);

    @BeforeAll
    void setUp() throws Exception {
        assumeTrue(TestServer.available(), "no MySQL-compatible server");
        database = TestServer.createDatabaseWithBig("n % 7", 300_000);
    }

    @AfterAll
    void tearDown() {
        if (database != null) {
            TestServer.dropDatabase(database);
        }
    }

    private static GuardrailPolicy policy(Limits limits) {
        return new GuardrailPolicy(TableAllowlist.of(Map.of("claims", List.of("id", "region", "amount", "status"),
                "big", List.of("id", "v"))), Set.of(), Set.of(), Set.of(), limits);
    }

    private Engine engine(String url, String user, String password, Limits limits, Map<String, String> extra) {
        Map<String, String> props = new HashMap<>(Map.of("url", url + "/" + database, "username", user, "password", password));
        props.putAll(extra);
        return new MySqlEngineFactory().create(new EngineConfig("db", props, policy(limits)), EngineContext.of(Path.of("target")));
    }

    private static FaultProxy proxy() throws IOException {
        Matcher m = Pattern.compile("jdbc:mysql://([^:/]+)(?::(\\d+))?.*").matcher(TestServer.url());
        assumeTrue(m.matches(), "server URL has an unexpected shape");
        return FaultProxy.to(m.group(1), m.group(2) == null ? 3306 : Integer.parseInt(m.group(2)));
    }

    @Test
    void aRefusedLoginNamesTheUserButNeverThePassword() {
        String wrong = "wrong-pw-" + UUID.randomUUID();
        assertThatThrownBy(() -> engine(TestServer.url(), TestServer.roUser(), wrong, Limits.defaults(), Map.of()))
                .isInstanceOfSatisfying(GuardException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
                    assertThat(e.safeMessage()).isEqualTo("Source 'db': the database refused the login of user '"
                            + TestServer.roUser() + "' (check the username and password).")
                            .doesNotContain(wrong);
                });
    }

    @Test
    @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aServerThatStopsAnsweringMidQueryGivesTheTimeLimitNotOk() throws Exception {
        try (FaultProxy proxy = proxy();
             Engine e = engine("jdbc:mysql://127.0.0.1:" + proxy.port(), TestServer.roUser(), TestServer.roPassword(),
                     Limits.defaults().withMaxRows(1_000_000).withTimeout(Duration.ofSeconds(2)), Map.of())) {
            QueryPlan plan = e.validator().validate(QueryRequest.of("db", "SELECT a.id, a.v FROM big a ORDER BY a.id"));
            try (ResultCursor cursor = e.execution().execute(plan)) {
                assertThat(cursor.next()).isTrue();
                proxy.pause(); // the server "freezes" after the first rows: neither rows nor the kill's answer come back
                assertThatThrownBy(() -> {
                    while (cursor.next()) {
                        cursor.get(0);
                    }
                }).isInstanceOfSatisfying(GuardException.class, x -> assertThat(x.code()).isEqualTo(ErrorCode.EXCEEDED_TIME_LIMIT));
            }
            proxy.resume();
        }
    }

    @Test
    @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aServerThatStopsAnsweringBeforeTheSessionCheckGivesTheTimeLimitNotOk() throws Exception {
        try (FaultProxy proxy = proxy();
             Engine e = engine("jdbc:mysql://127.0.0.1:" + proxy.port(), TestServer.roUser(), TestServer.roPassword(),
                     Limits.defaults().withTimeout(Duration.ofSeconds(2)), Map.of())) {
            // the precondition: a healthy call (a loaded machine can miss a 2 s limit on a first call)
            ToolResult warm = service.query(e.binding(), QueryRequest.of("db", "SELECT count(*) AS n FROM claims"));
            for (int attempt = 1; attempt < 5 && warm.status() != ToolStatus.OK; attempt++) {
                warm = service.query(e.binding(), QueryRequest.of("db", "SELECT count(*) AS n FROM claims"));
            }
            assertThat(warm.status()).as("%s", warm.error()).isEqualTo(ToolStatus.OK);
            proxy.pause();
            for (int i = 0; i < 2; i++) {
                ToolResult r = service.query(e.binding(), QueryRequest.of("db", "SELECT count(*) AS n FROM claims"));
                assertThat(r.status()).isEqualTo(ToolStatus.ERROR);
                // the checkout now waits only the call's time left (issue 26): a frozen server fails it at about the
                // deadline, as ENGINE_UNAVAILABLE when the pool gives up just before it; both are retryable
                assertThat(r.error().orElseThrow().code()).isIn(ErrorCode.EXCEEDED_TIME_LIMIT, ErrorCode.ENGINE_UNAVAILABLE);
                assertThat(r.error().orElseThrow().retryable()).isTrue();
            }
            proxy.resume();
            // once the server answers again, the source serves again (hung connections were aborted and evicted)
            ToolResult back = service.query(e.binding(), QueryRequest.of("db", "SELECT count(*) AS n FROM claims"));
            assertThat(back.status()).isEqualTo(ToolStatus.OK);
        }
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void theKillPathWorksWithTheAccountsConnectionLimitReached() throws Exception {
        String user = "sqlguard_t_lim_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
        String password = "pw-" + UUID.randomUUID();
        try (Connection admin = TestServer.admin(database); Statement s = admin.createStatement()) {
            s.execute("CREATE USER '" + user + "'@'%' IDENTIFIED BY '" + password + "' WITH MAX_USER_CONNECTIONS 3");
            s.execute("GRANT SELECT ON `" + database + "`.* TO '" + user + "'@'%'");
        }
        try (Engine e = engine(TestServer.url(), user, password, Limits.defaults().withTimeout(Duration.ofSeconds(2)),
                Map.of("poolSize", "1"))) {
            Properties p = new Properties();
            p.setProperty("user", user);
            p.setProperty("password", password);
            // the engine holds one query connection and its reserved kill connection; the test takes the third and last
            try (Connection hog = DriverManager.getConnection(TestServer.url() + "/" + database, p)) {
                assertThatThrownBy(() -> DriverManager.getConnection(TestServer.url() + "/" + database, p).close())
                        .isInstanceOfSatisfying(SQLException.class, x -> assertThat(x.getErrorCode()).isEqualTo(1226));
                long killsBefore = ((MySqlExecutor) e.execution()).killsSent();
                ToolResult r = service.query(e.binding(), QueryRequest.of("db", RUNAWAY));
                assertThat(r.error().orElseThrow().code()).isEqualTo(ErrorCode.EXCEEDED_TIME_LIMIT);
                assertThat(((MySqlExecutor) e.execution()).killsSent()).isGreaterThan(killsBefore);
                assertThat(MySqlServerTest.runningQueryOfOrZero(user)).isZero();
                assertThat(hog.isValid(1)).isTrue();
            }
        } finally {
            try (Connection admin = TestServer.admin(database); Statement s = admin.createStatement()) {
                s.execute("DROP USER IF EXISTS '" + user + "'@'%'");
            }
        }
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void runningAndUnwindingQueriesCountAgainstTheSourcesConcurrencyLimit() throws Exception {
        try (Engine e = engine(TestServer.url(), TestServer.roUser(), TestServer.roPassword(),
                Limits.defaults().withMaxRows(1_000_000).withTimeout(Duration.ofSeconds(30)),
                Map.of("poolSize", "2", "maxConcurrentQueries", "1"))) {
            MySqlExecutor executor = (MySqlExecutor) e.execution();
            // a streamed result the caller stops reading: the server keeps the statement running until it is killed
            QueryPlan plan = e.validator().validate(QueryRequest.of("db", "SELECT a.id, a.v FROM big a ORDER BY a.id"));
            ResultCursor runaway = e.execution().execute(plan);
            try {
                assertThat(runaway.next()).isTrue();
                assertThat(executor.queriesOnServer()).isEqualTo(1);
                ToolResult refused = service.query(e.binding(), QueryRequest.of("db", "SELECT count(*) AS n FROM claims"));
                assertThat(refused.status()).isEqualTo(ToolStatus.ERROR);
                assertThat(refused.error().orElseThrow().code()).isEqualTo(ErrorCode.ENGINE_UNAVAILABLE);
                assertThat(refused.error().orElseThrow().code().retryable()).isTrue();
                assertThat(refused.error().orElseThrow().message()).contains("retry");
            } finally {
                runaway.cancel();
                runaway.close();
            }
            // the killed query holds its slot until the server no longer runs it, then the source serves again
            while (executor.queriesOnServer() > 0) {
                Thread.sleep(50);
            }
            assertThat(MySqlServerTest.runningQueryOfOrZero(TestServer.roUser())).isZero();
            assertThat(service.query(e.binding(), QueryRequest.of("db", "SELECT count(*) AS n FROM claims")).status()).isEqualTo(ToolStatus.OK);
        }
    }

    @Test
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void moreCallsThanSlotsAtOnceWaitForTheShortQueriesAheadOfThem() throws Exception {
        try (Engine e = engine(TestServer.url(), TestServer.roUser(), TestServer.roPassword(), Limits.defaults(),
                Map.of("poolSize", "2", "maxConcurrentQueries", "2"))) {
            // an agent's burst: eight threads on two slots, each call a few milliseconds on the server
            java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(8);
            try {
                List<java.util.concurrent.Future<ToolResult>> calls = new java.util.ArrayList<>();
                for (int i = 0; i < 80; i++) {
                    calls.add(threads.submit(() -> service.query(e.binding(), QueryRequest.of("db", "SELECT count(*) AS n FROM claims"))));
                }
                for (java.util.concurrent.Future<ToolResult> call : calls) {
                    ToolResult result = call.get();
                    assertThat(result.status()).as("%s", result.error()).isEqualTo(ToolStatus.OK);
                }
            } finally {
                threads.shutdownNow();
            }
        }
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void theReservedKillConnectionIsReopenedAfterTheServerDropsIt() throws Exception {
        String user = "sqlguard_t_kc_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
        String password = "pw-" + UUID.randomUUID();
        try (Connection admin = TestServer.admin(database); Statement s = admin.createStatement()) {
            s.execute("CREATE USER '" + user + "'@'%' IDENTIFIED BY '" + password + "'");
            s.execute("GRANT SELECT ON `" + database + "`.* TO '" + user + "'@'%'");
        }
        try (Engine e = engine(TestServer.url(), user, password, Limits.defaults().withTimeout(Duration.ofSeconds(2)),
                Map.of("poolSize", "1"))) {
            MySqlExecutor executor = (MySqlExecutor) e.execution();
            // the server drops every session of the account (a restart, a DBA's KILL, wait_timeout): the kill connection too
            try (Connection admin = TestServer.admin(database); Statement s = admin.createStatement()) {
                List<Long> ids = new java.util.ArrayList<>();
                try (java.sql.ResultSet rs = s.executeQuery("SELECT ID FROM information_schema.PROCESSLIST WHERE USER = '" + user + "'")) {
                    while (rs.next()) {
                        ids.add(rs.getLong(1));
                    }
                }
                assertThat(ids).hasSize(2);
                for (long id : ids) {
                    s.execute("KILL CONNECTION " + id);
                }
            }
            // the pooled session is gone too: a call may find it dead (ENGINE_UNAVAILABLE, retryable) and the pool replaces it
            ToolResult flush = service.query(e.binding(), QueryRequest.of("db", "SELECT count(*) AS n FROM claims"));
            assertThat(flush.status() == ToolStatus.OK || flush.error().orElseThrow().code() == ErrorCode.ENGINE_UNAVAILABLE).isTrue();
            // the first runaway still ends at its limit (its kill fails, so its connection is aborted) ...
            ToolResult first = service.query(e.binding(), QueryRequest.of("db", RUNAWAY));
            assertThat(first.error().orElseThrow().code()).isEqualTo(ErrorCode.EXCEEDED_TIME_LIMIT);
            // ... and the failure re-opens the kill connection at once, so the next runaway is killed on the server
            while (executor.killConnectionReopened() == 0) {
                Thread.sleep(20);
            }
            // the aborted runaway holds the source's only slot until the server shows it ended (seen over the new connection)
            while (executor.queriesOnServer() > 0) {
                Thread.sleep(20);
            }
            long killsBefore = executor.killsSent();
            ToolResult second = service.query(e.binding(), QueryRequest.of("db", RUNAWAY));
            assertThat(second.error().orElseThrow().code()).isEqualTo(ErrorCode.EXCEEDED_TIME_LIMIT);
            assertThat(executor.killsSent()).isGreaterThan(killsBefore);
            assertThat(MySqlServerTest.runningQueryOfOrZero(user)).isZero();
        } finally {
            try (Connection admin = TestServer.admin(database); Statement s = admin.createStatement()) {
                s.execute("DROP USER IF EXISTS '" + user + "'@'%'");
            }
        }
    }
}
