package dev.sqlguard.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
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
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.LimitKind;
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

/**
 * Issue 26: results cut at the row cap must not lock the source. On the least-privilege account, a
 * 5,000-row table read under a 1,000-row cap six times in a row, then honest aggregates back to back:
 * before the fix the first four came back truncated and every later call answered
 * {@code ENGINE_UNAVAILABLE} for up to two minutes, because a cut streamed result leaves its idle
 * connection in processlist state {@code Killed} and the query slot waited for that to go.
 */
@Tag("mysql")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CutResultsServerTest {
    private String database;
    private final QueryService service = new QueryService(AuditSink.discarding());

    @BeforeAll
    void setUp() throws Exception {
        assumeTrue(TestServer.available(), "no MySQL-compatible server");
        database = TestServer.createDatabaseWithBig("n % 7", 5_000);
    }

    @AfterAll
    void tearDown() {
        if (database != null) {
            TestServer.dropDatabase(database);
        }
    }

    private Engine engine() {
        return engine(Map.of());
    }

    private Engine engine(Map<String, String> extra) {
        GuardrailPolicy policy = new GuardrailPolicy(TableAllowlist.of(Map.of("claims", List.of("id", "region", "amount", "status"),
                "big", List.of("id", "v"))), Set.of(), Set.of(), Set.of(), Limits.defaults().withMaxRows(1_000));
        Map<String, String> props = new HashMap<>(Map.of("url", TestServer.url() + "/" + database,
                "username", TestServer.roUser(), "password", TestServer.roPassword()));
        props.putAll(extra);
        return new MySqlEngineFactory().create(new EngineConfig("db", props, policy), EngineContext.of(Path.of("target")));
    }

    @Test
    void cutResultsThenHonestAggregatesBackToBackAllAnswer() throws Exception {
        try (Engine e = engine()) {
            for (int i = 0; i < 6; i++) {
                ToolResult cut = service.query(e.binding(), QueryRequest.of("db", "SELECT id, v FROM big"));
                assertThat(cut.status()).as("cut result %d: %s", i, cut.error()).isEqualTo(ToolStatus.OK);
                assertThat(cut.truncated()).isTrue();
                assertThat(cut.limitsHit()).contains(LimitKind.ROWS);
                assertThat(cut.rows()).hasSize(1_000);
            }
            for (int i = 0; i < 10; i++) {
                ToolResult honest = service.query(e.binding(), QueryRequest.of("db", "SELECT v, count(*) AS n FROM big GROUP BY v ORDER BY v"));
                assertThat(honest.status()).as("honest call %d: %s", i, honest.error()).isEqualTo(ToolStatus.OK);
                assertThat(honest.rows()).hasSize(7);
            }
            // nothing of this source runs on the server any more, and no slot is held for it
            assertThat(MySqlServerTest.runningQueryOfOrZero(TestServer.roUser())).isZero();
        }
    }

    /**
     * One slot: a query the caller still reads holds it, and the refusal says the source is at its
     * limit without claiming a query is being stopped; once that result is cut, the slot is free at once.
     */
    @Test
    void aBusyMessageNamesStoppingQueriesOnlyWhenTheServerStillRunsThem() throws Exception {
        try (Engine e = engine(Map.of("poolSize", "2", "maxConcurrentQueries", "1"))) {
            MySqlExecutor executor = (MySqlExecutor) e.execution();
            QueryPlan plan = e.validator().validate(QueryRequest.of("db", "SELECT id, v FROM big"));
            try (ResultCursor open = e.execution().execute(plan)) {
                assertThat(open.next()).isTrue();
                ToolResult refused = service.query(e.binding(), QueryRequest.of("db", "SELECT count(*) AS n FROM big"));
                assertThat(refused.error().orElseThrow().code()).isEqualTo(ErrorCode.ENGINE_UNAVAILABLE);
                assertThat(refused.error().orElseThrow().message()).contains("retry").doesNotContain("stopped");
            }
            for (int i = 0; i < 5; i++) {
                ToolResult cut = service.query(e.binding(), QueryRequest.of("db", "SELECT id, v FROM big"));
                assertThat(cut.truncated()).as("%s", cut.error()).isTrue();
                ToolResult honest = service.query(e.binding(), QueryRequest.of("db", "SELECT count(*) AS n FROM big"));
                assertThat(honest.status()).as("%s", honest.error()).isEqualTo(ToolStatus.OK);
            }
            assertThat(executor.killsSent()).isPositive();
        }
    }
}
