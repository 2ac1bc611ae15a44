package dev.sqlguard.trino;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
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
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.domain.port.ResultCursor;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;

/**
 * Cluster-side guarantees on the 2-node test cluster: the startup audit refuses a user that can
 * write; a guarded query's tasks ran on more than one node; a query stopped at its deadline or by
 * {@code cancel()} is no longer running in {@code system.runtime.queries} (read as admin) and ended
 * with the matching error code.
 */
@Tag("trino")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(600)
class TrinoServerTest {
    private static final String RUNAWAY = "SELECT count(*) AS n FROM claims a JOIN claims b ON a.id > 0 JOIN claims c ON c.id > 0"
            + " JOIN claims d ON d.id > 0 JOIN claims e ON e.id > 0 JOIN claims f ON f.id > 0 JOIN claims g ON g.id > 0";
    /**
     * The read-only user's queries whose text holds the rendered SQL: the driver runs a prepared
     * statement as {@code EXECUTE IMMEDIATE '...'}, and the validator's EXPLAINs hold it too.
     */
    private static final String OURS = "\"user\" = 'sqlguard_ro' AND strpos(query, ?) > 0 AND query NOT LIKE 'EXPLAIN%'";
    private String schema;

    @BeforeAll
    void create() throws SQLException {
        TestCluster.require();
        schema = TestCluster.createSchema();
    }

    @AfterAll
    void drop() {
        if (schema != null) {
            TestCluster.dropSchema(schema);
        }
    }

    private static GuardrailPolicy policy(Limits limits) {
        return new GuardrailPolicy(TableAllowlist.of(Map.of("claims", List.of("*"), "regions", List.of("*"))),
                Set.of(), Set.of(), Set.of(), limits);
    }

    private Engine engine(String user, Map<String, String> extra, Limits limits) {
        Map<String, String> p = new HashMap<>(TestCluster.properties(schema, user));
        p.putAll(extra);
        return new TrinoEngineFactory().create(new EngineConfig("srv", p, policy(limits)), EngineContext.of(Path.of("target")));
    }

    @Test
    void aUserThatCanWriteIsRefusedUnlessTheSourceOptsOut() {
        assertThatThrownBy(() -> engine(TestCluster.WRITER, Map.of("requireReadOnlyAccount", "true"), Limits.defaults()))
                .isInstanceOfSatisfying(GuardException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
                    assertThat(e.safeMessage()).contains("may write").contains("CREATE TABLE").contains("INSERT on");
                });
        try (Engine writer = engine(TestCluster.WRITER, Map.of("requireReadOnlyAccount", "false"), Limits.defaults());
             Engine ro = engine(TestCluster.READ_ONLY, Map.of(), Limits.defaults())) {
            assertThat(writer.catalog().tables()).hasSize(2);
            assertThat(ro.catalog().tables()).hasSize(2);
        }
    }

    @Test
    void aGuardedQueryRanOnMoreThanOneNode() throws SQLException {
        String executed;
        try (Engine engine = engine(TestCluster.READ_ONLY, Map.of(), Limits.defaults())) {
            QueryPlan plan = engine.validator().validate(QueryRequest.of("srv",
                    "SELECT c.region, count(*) AS n, sum(c.amount) AS total FROM claims c JOIN regions r ON r.region = c.region GROUP BY c.region"));
            executed = plan.executableSql();
            try (ResultCursor cursor = engine.execution().execute(plan)) {
                int rows = 0;
                while (cursor.next()) {
                    rows++;
                }
                assertThat(rows).isPositive();
            }
        }
        List<String> ids = queryIds(executed);
        assertThat(ids).hasSize(1);
        try (Connection c = TestCluster.connect(TestCluster.ADMIN, schema);
             PreparedStatement ps = c.prepareStatement("SELECT count(DISTINCT node_id) FROM system.runtime.tasks WHERE query_id = ?")) {
            ps.setString(1, ids.get(0));
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).as("nodes that ran the query's tasks").isGreaterThan(1);
            }
        }
    }

    @Test
    void aQueryStoppedAtItsDeadlineIsGoneFromTheCluster() throws Exception {
        String executed;
        try (Engine engine = engine(TestCluster.READ_ONLY, Map.of(), Limits.defaults().withTimeout(Duration.ofSeconds(2)))) {
            QueryPlan plan = engine.validator().validate(QueryRequest.of("srv", RUNAWAY));
            executed = plan.executableSql();
            assertThatThrownBy(() -> {
                try (ResultCursor cursor = engine.execution().execute(plan)) {
                    while (cursor.next()) {
                        // until the deadline
                    }
                }
            }).isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.EXCEEDED_TIME_LIMIT));
        }
        assertEndedWith(executed, Set.of("EXCEEDED_TIME_LIMIT", "USER_CANCELED"));
    }

    @Test
    void aCancelledQueryIsGoneFromTheCluster() throws Exception {
        String executed;
        try (Engine engine = engine(TestCluster.READ_ONLY, Map.of(), Limits.defaults().withTimeout(Duration.ofSeconds(120)))) {
            QueryPlan plan = engine.validator().validate(QueryRequest.of("srv", RUNAWAY + " WHERE a.id > 1"));
            executed = plan.executableSql();
            ResultCursor cursor = engine.execution().execute(plan);
            Thread canceller = new Thread(() -> {
                try {
                    waitUntilRunning(plan.executableSql());
                } catch (Exception e) {
                    // cancel anyway
                }
                cursor.cancel();
            });
            canceller.start();
            assertThatThrownBy(() -> {
                while (cursor.next()) {
                    // until cancelled
                }
            }).isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CANCELLED));
            cursor.close();
            canceller.join();
        }
        assertEndedWith(executed, Set.of("USER_CANCELED"));
    }

    /**
     * A grouped aggregate runs without a row cap in its SQL (a LIMIT is one more stage on Trino): the
     * domain still returns exactly max rows with the truncation flag, and the query the cut cursor
     * closed is no longer running on the cluster.
     */
    @Test
    void aGroupedAggregateCutByTheClientIsExactAndGoneFromTheCluster() throws Exception {
        String sql = "SELECT a.id AS x, b.id AS y, count(*) AS n FROM claims a JOIN claims b ON a.id > 0 JOIN claims c ON c.id > 0"
                + " GROUP BY a.id, b.id";
        QueryService service = new QueryService(AuditSink.discarding());
        String executed;
        try (Engine engine = engine(TestCluster.READ_ONLY, Map.of(), Limits.defaults().withMaxRows(3).withTimeout(Duration.ofSeconds(60)))) {
            executed = engine.validator().validate(QueryRequest.of("srv", sql)).executableSql();
            assertThat(executed).doesNotContain("LIMIT");
            ToolResult result = service.query(engine.binding(), QueryRequest.of("srv", sql));
            assertThat(result.status()).as(String.valueOf(result.error())).isEqualTo(ToolStatus.OK);
            assertThat(result.returnedCount()).isEqualTo(3);
            assertThat(result.truncated()).isTrue();
            assertThat(result.limitsHit()).containsExactly(LimitKind.ROWS);
        }
        while (true) {
            List<String> states = endings(executed).stream().map(e -> e[0]).toList();
            assertThat(states).as("the query is known to the coordinator").isNotEmpty();
            if (states.stream().allMatch(s -> s.equals("FAILED") || s.equals("FINISHED"))) {
                return; // ended: finished before the cursor closed, or cancelled by the close (bounded by the test's timeout)
            }
            Thread.sleep(200);
        }
    }

    /** The coordinator's ids of the queries that ran exactly this text. */
    private List<String> queryIds(String sql) throws SQLException {
        List<String> ids = new ArrayList<>();
        try (Connection c = TestCluster.connect(TestCluster.ADMIN, schema);
             PreparedStatement ps = c.prepareStatement("SELECT query_id FROM system.runtime.queries WHERE " + OURS)) {
            ps.setString(1, sql);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getString(1));
                }
            }
        }
        return ids;
    }

    private void waitUntilRunning(String sql) throws Exception {
        for (int i = 0; i < 300; i++) {
            try (Connection c = TestCluster.connect(TestCluster.ADMIN, schema);
                 PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM system.runtime.queries WHERE " + OURS + " AND state = 'RUNNING'")) {
                ps.setString(1, sql);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next() && rs.getLong(1) > 0) {
                        return;
                    }
                }
            }
            Thread.sleep(100);
        }
    }

    /** Waits (bounded by the test's timeout) until no query with this text is unfinished, then checks how it ended. */
    private void assertEndedWith(String sql, Set<String> errorCodes) throws Exception {
        while (true) {
            List<String[]> endings = endings(sql);
            List<String> states = endings.stream().map(e -> e[0]).toList();
            List<String> errors = endings.stream().map(e -> e[1]).toList();
            assertThat(states).as("the query is known to the coordinator").isNotEmpty();
            if (states.stream().allMatch(s -> s.equals("FAILED") || s.equals("FINISHED"))) {
                assertThat(states).containsOnly("FAILED");
                assertThat(errors).allSatisfy(e -> assertThat(e).isIn(errorCodes));
                return;
            }
            Thread.sleep(200);
        }
    }

    /** The state and error code of each query the read-only user ran with this text, as the coordinator knows them. */
    private List<String[]> endings(String sql) throws SQLException {
        List<String[]> endings = new ArrayList<>();
        try (Connection c = TestCluster.connect(TestCluster.ADMIN, schema);
             PreparedStatement ps = c.prepareStatement("SELECT state, error_code FROM system.runtime.queries WHERE " + OURS)) {
            ps.setString(1, sql);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    endings.add(new String[] {rs.getString(1), rs.getString(2)});
                }
            }
        }
        return endings;
    }
}
