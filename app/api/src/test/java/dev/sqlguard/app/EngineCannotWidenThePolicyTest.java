package dev.sqlguard.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.ColumnUse;
import dev.sqlguard.domain.EngineDefaults;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.FunctionClasses;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.OutputColumn;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.ResultColumn;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.UsePosition;
import dev.sqlguard.ports.ComposedEngine;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineCapability;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;
import dev.sqlguard.ports.EngineFactory;
import dev.sqlguard.ports.EngineParts;
import dev.sqlguard.ports.EngineResources;
import dev.sqlguard.testing.ListCursor;

/**
 * An engine that hands back a policy wider than the configured one (every table, every column, more
 * functions) changes nothing: the host enforces the configured policy with only the engine's reported
 * defaults filled in.
 */
class EngineCannotWidenThePolicyTest {
    private static final GuardrailPolicy CONFIGURED = GuardrailPolicy.defaults()
            .withTables(TableAllowlist.of(Map.of("users", List.of("id"))))
            .withFunctions(Set.of("upper"));
    /** What the engine claims is in force: more tables, every column, more functions. */
    private static final GuardrailPolicy WIDER = GuardrailPolicy.defaults().withFunctions(Set.of("upper", "lower", "sleep"));
    private static final FunctionClasses CLASSES = new FunctionClasses(Set.of("upper", "lower"), Set.of(), Set.of("sleep"),
            Set.of(), Set.of(), Set.of(), FunctionClasses.NeverWording.NOT_ALLOWLISTED);

    /** Plans by SQL text: each reads what its name says. */
    private static QueryPlan plan(QueryRequest request) {
        String sql = request.sql();
        TableRef table = TableRef.of(sql.contains("secrets") ? "secrets" : "users");
        String column = sql.contains("region") ? "region" : "id";
        Set<String> functions = sql.contains("lower") ? Set.of("lower") : Set.of("upper");
        return new QueryPlan(request.sourceId(), sql, sql, List.of(), Set.of(table),
                Set.of(ColumnUse.direct(new ColumnRef(table, column), UsePosition.OUTPUT)), functions,
                List.of(OutputColumn.traced(column, Set.of(new ColumnRef(table, column)))), List.of(), Limits.defaults());
    }

    private static final class WideningFactory implements EngineFactory {
        @Override
        public String name() {
            return "widening";
        }

        @Override
        public Engine create(EngineConfig config, EngineContext context) {
            return new ComposedEngine(new EngineParts(config.sourceId(), WIDER, EngineCannotWidenThePolicyTest::plan,
                    plan -> new ListCursor(List.of(new ResultColumn("v", "INTEGER")), List.of(List.of(1))), List::of,
                    EngineCapability.all(), EngineDefaults.of(CLASSES)), new EngineResources());
        }
    }

    private static SqlGuard guard() {
        return SqlGuard.builder().engine(new WideningFactory()).source("s", "widening", Map.of(), CONFIGURED).auditToLogger().build();
    }

    @Test
    void theEnginesWiderPolicyWouldAllowWhatTheConfigurationRefuses() {
        // the test can fail: under the engine's own policy each of these plans passes
        GuardrailPolicy engines = WIDER.effective(EngineDefaults.of(CLASSES));
        for (String sql : List.of("SELECT id FROM secrets", "SELECT region FROM users", "SELECT lower(id) FROM users")) {
            assertThatCode(() -> engines.authorize(plan(QueryRequest.of("s", sql)))).doesNotThrowAnyException();
        }
    }

    @Test
    void theHostEnforcesTheConfiguredPolicyWhateverTheEngineHandsBack() {
        try (SqlGuard guard = guard()) {
            assertRefused(guard.query("s", "SELECT id FROM secrets"), ErrorCode.TABLE_NOT_ALLOWED);
            assertRefused(guard.query("s", "SELECT region FROM users"), ErrorCode.UNKNOWN_COLUMN);
            // lower is on the engine's default list too, but the configuration names its own list
            assertRefused(guard.query("s", "SELECT lower(id) FROM users"), ErrorCode.FUNCTION_NOT_ALLOWED);
            assertThat(guard.query("s", "SELECT upper(id) FROM users").status()).isEqualTo(ToolStatus.OK);
        }
    }

    private static void assertRefused(ToolResult result, ErrorCode code) {
        assertThat(result.status()).isEqualTo(ToolStatus.REJECTED);
        assertThat(result.error()).hasValueSatisfying(e -> assertThat(e.code()).isEqualTo(code));
    }
}
