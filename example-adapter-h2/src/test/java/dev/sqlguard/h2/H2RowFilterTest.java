package dev.sqlguard.h2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

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

/**
 * The example engine gets row filters and column masks from the kit's renderer alone (issue 31): with
 * {@code tenant = north}, the filtered tables answer north's rows, masked, through self-joins, set
 * operations and parameters around the filter; a bad filter stops the start.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class H2RowFilterTest {
    private static final Map<String, String> NORTH = Map.of("tenant", "north");
    private final QueryService service = new QueryService(AuditSink.discarding());
    private H2Fixture fixture;
    private Engine engine;

    @BeforeAll
    void start() throws Exception {
        fixture = new H2Fixture(Files.createTempDirectory("sqlguard-h2-rows-"), new H2EngineFactory());
        engine = fixture.engine("rows", policy(RowPolicy.of(Optional.empty(), Map.of("claims", "region = :tenant",
                "regions", "region = :tenant"), Map.of("regions.manager", "upper(manager)"))));
    }

    @AfterAll
    void stop() throws Exception {
        if (engine != null) {
            engine.close();
        }
        if (fixture != null) {
            fixture.close();
        }
    }

    private static GuardrailPolicy policy(RowPolicy rows) {
        return new GuardrailPolicy(TableAllowlist.of(Map.of("claims", List.of("id", "region", "amount", "status"),
                "regions", List.of("region", "manager"))), Set.of(), Set.of(), Set.of(), Limits.defaults()).withRows(rows);
    }

    private List<List<Object>> rows(String sql, Object... params) {
        ToolResult r = service.query(engine.binding(), new QueryRequest("rows", sql, List.of(params), "h2", NORTH));
        assertThat(r.error()).as(sql).isEmpty();
        return r.rows();
    }

    @Test
    void theFilteredTablesAnswerNorthsRowsMasked() {
        assertThat(rows("SELECT count(*) AS n FROM claims")).containsExactly(List.of(15L));
        assertThat(rows("SELECT count(*) AS n FROM claims a JOIN claims b ON a.id = b.id + 4")).containsExactly(List.of(14L));
        assertThat(rows("SELECT count(*) AS n FROM (SELECT id FROM claims UNION ALL SELECT id FROM claims WHERE region = 'south') x"))
                .containsExactly(List.of(15L));
        assertThat(rows("SELECT region, manager FROM regions")).containsExactly(List.of("north", "NADIA"));
        assertThat(rows("SELECT count(*) AS n FROM claims WHERE id > ? AND id < ?", 10, 50)).containsExactly(List.of(10L));
        ToolResult missing = service.query(engine.binding(), new QueryRequest("rows", "SELECT id FROM claims", List.of(), "h2", Map.of()));
        assertThat(missing.error().orElseThrow().code()).isEqualTo(ErrorCode.MISSING_ATTRIBUTE);
        assertThat(missing.rows()).isEmpty();
    }

    @Test
    void aFilterThatDoesNotReadOnTheTableStopsTheStart() {
        assertThatThrownBy(() -> fixture.engine("bad", policy(RowPolicy.of(Optional.empty(), Map.of("claims", "tenant_id = :tenant"),
                Map.of()))).close()).isInstanceOfSatisfying(GuardException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
                    assertThat(e.safeMessage()).contains("claims").doesNotContain("TENANT_ID");
                });
    }
}
