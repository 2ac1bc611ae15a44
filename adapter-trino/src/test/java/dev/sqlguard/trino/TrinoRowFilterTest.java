package dev.sqlguard.trino;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.RowPolicy;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;

/**
 * Row filters and column masks on the Trino cluster (issue 31), tenant = region: a filtered count, a
 * self-join, a set operation with the table again and the masked manager answer north's rows only;
 * a CTE named like the table is refused; a filter that does not read on the table stops the start.
 * The cost of a filtered aggregate against the WHERE written by hand is printed.
 */
@Tag("trino")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(600)
class TrinoRowFilterTest {
    private static final Map<String, String> NORTH = Map.of("tenant", "north");
    private final QueryService service = new QueryService(AuditSink.discarding());
    private String schema;
    private Engine engine;

    @BeforeAll
    void start() throws Exception {
        TestCluster.require();
        schema = TestCluster.createSchema();
        engine = engine(policy().withRows(RowPolicy.of(Optional.empty(), Map.of("claims", "region = :tenant",
                "regions", "region = :tenant"), Map.of("regions.manager", "upper(manager)"))));
    }

    @AfterAll
    void stop() throws Exception {
        if (engine != null) {
            engine.close();
        }
        if (schema != null) {
            TestCluster.dropSchema(schema);
        }
    }

    private Engine engine(GuardrailPolicy policy) {
        return new TrinoEngineFactory().create(new EngineConfig("rows", TestCluster.properties(schema, TestCluster.READ_ONLY), policy),
                EngineContext.of(Path.of("target")));
    }

    private static GuardrailPolicy policy() {
        return new GuardrailPolicy(TableAllowlist.of(Map.of("claims", List.of("id", "region", "amount", "status"),
                "regions", List.of("region", "manager"))), Set.of(), Set.of(), Set.of(), Limits.defaults());
    }

    private ToolResult call(Engine on, String sql, Map<String, String> attributes, Object... params) {
        return service.query(on.binding(), new QueryRequest("rows", sql, List.of(params), "t-" + System.nanoTime(), attributes));
    }

    private List<List<Object>> rows(String sql, Object... params) {
        ToolResult r = call(engine, sql, NORTH, params);
        assertThat(r.error()).as(sql).isEmpty();
        return r.rows();
    }

    @Test
    void aFilteredCountASelfJoinAndTheMaskAnswerNorthOnly() {
        assertThat(rows("SELECT count(*) AS n FROM claims")).containsExactly(List.of(15L));
        assertThat(rows("SELECT count(*) AS n FROM claims WHERE region = 'south'")).containsExactly(List.of(0L));
        // north's ids are 4, 8, ..., 60: 14 pairs a step apart, and no pair with another tenant's row
        assertThat(rows("SELECT count(*) AS n, min(a.region) AS lo, max(b.region) AS hi FROM claims a JOIN claims b ON a.id = b.id + 4"))
                .containsExactly(List.of(14L, "north", "north"));
        assertThat(rows("SELECT count(*) AS n FROM (SELECT id FROM claims UNION SELECT id FROM claims WHERE region <> 'north') x"))
                .containsExactly(List.of(15L));
        assertThat(rows("SELECT count(*) AS n FROM claims WHERE id > ? AND id < ?", 10, 50)).containsExactly(List.of(10L));
        assertThat(rows("SELECT region, manager FROM regions")).containsExactly(List.of("north", "NADIA"));
        ToolResult shadow = call(engine, "WITH claims AS (SELECT 1 AS id) SELECT id FROM claims", NORTH);
        assertThat(shadow.error().orElseThrow().code()).isEqualTo(ErrorCode.CONSTRUCT_NOT_ALLOWED);
        ToolResult missing = call(engine, "SELECT count(*) AS n FROM claims", Map.of());
        assertThat(missing.error().orElseThrow().code()).isEqualTo(ErrorCode.MISSING_ATTRIBUTE);
        assertThat(missing.rows()).isEmpty();
    }

    @Test
    void aFilterThatDoesNotReadOnTheTableStopsTheStart() {
        assertThatThrownBy(() -> engine(policy().withRows(RowPolicy.of(Optional.empty(), Map.of("claims", "tenant_id = :tenant"),
                Map.of()))).close()).isInstanceOfSatisfying(GuardException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
                    assertThat(e.safeMessage()).contains("claims").doesNotContain("tenant_id");
                });
    }

    /** Printed, not asserted: medians of alternating calls, on the shared machine. */
    @Test
    void measuresAFilteredAggregateAgainstTheWhereWrittenByHand() throws Exception {
        try (Engine byHand = engine(policy())) {
            String aggregate = "SELECT status, count(*) AS n, sum(amount) AS s FROM claims GROUP BY status";
            String hand = "SELECT status, count(*) AS n, sum(amount) AS s FROM claims WHERE region = 'north' GROUP BY status";
            int calls = 30;
            long[] a = new long[calls];
            long[] b = new long[calls];
            for (int i = -3; i < calls; i++) {
                long t0 = System.nanoTime();
                ToolResult filtered = call(engine, aggregate, NORTH);
                long t1 = System.nanoTime();
                ToolResult written = call(byHand, hand, Map.of());
                long t2 = System.nanoTime();
                assertThat(filtered.rows()).containsExactlyInAnyOrderElementsOf(written.rows());
                if (i >= 0) {
                    a[i] = t1 - t0;
                    b[i] = t2 - t1;
                }
            }
            java.util.Arrays.sort(a);
            java.util.Arrays.sort(b);
            System.out.printf(java.util.Locale.ROOT, "Trino claims (%d calls each): tenant-filtered median %.1f ms, WHERE by hand %.1f ms,"
                    + " ratio %.3f%n", calls, a[calls / 2] / 1e6, b[calls / 2] / 1e6, (double) a[calls / 2] / b[calls / 2]);
        }
    }
}
