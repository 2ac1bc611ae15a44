package dev.sqlguard.app.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.sqlguard.app.SqlGuard;
import dev.sqlguard.app.fake.CloseProbe;
import dev.sqlguard.app.fake.FakeGuard;
import dev.sqlguard.app.tools.AgentTools;
import dev.sqlguard.app.tools.ToolOutcome;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.AuditEvent;

/** The agent built on a {@link SqlGuard} facade: its tools run on the facade's guarded path and audit. */
class SqlGuardAgentTest {
    private final List<AuditEvent> events = Collections.synchronizedList(new ArrayList<>());

    private SqlGuard guard() {
        return FakeGuard.twoSources(events::add);
    }

    @Test
    void theAgentBuiltFromSqlGuardUsesItsGuardedPathAndAudit(@TempDir Path charts) {
        try (SqlGuard guard = guard()) {
            AgentTools tools = AgentTools.of(guard, charts, List.of("claims"));
            assertThat(tools.sourceIds()).containsExactly("claims");

            ToolOutcome ok = tools.call(AgentTools.QUERY_DATA, "{\"source\":\"claims\",\"sql\":\"SELECT n FROM t\"}");
            assertThat(ok.status()).isEqualTo(ToolStatus.OK);
            assertThat(ok.modelJson()).startsWith("{\"id\":").contains("\"returned_count\":2");

            ToolOutcome refused = tools.call(AgentTools.QUERY_DATA, "{\"source\":\"claims\",\"sql\":\"DELETE FROM t\"}");
            assertThat(refused.status()).isEqualTo(ToolStatus.REJECTED);

            assertThatThrownBy(() -> AgentTools.of(guard, charts, List.of("nowhere")))
                    .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.UNKNOWN_SOURCE));
            assertThatThrownBy(() -> AgentTools.of(guard, charts, List.of())).isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(events).as("the agent's calls reach the facade's audit sink")
                .extracting(AuditEvent::verdict).containsExactly(ToolStatus.OK, ToolStatus.REJECTED);
    }

    @Test
    void aCallToASourceThatCannotStartIsAuditedOnceAsARetryableError(@TempDir Path charts) {
        ToolResult[] seen = new ToolResult[1];
        try (SqlGuard guard = SqlGuard.builder()
                .source("slow", "fake", Map.of("mode", "slow"), GuardrailPolicy.defaults())
                .auditSink(events::add).build()) {
            AgentTools tools = AgentTools.of(guard, charts, List.of("slow"));

            ToolOutcome down = tools.call(AgentTools.QUERY_DATA, "{\"source\":\"slow\",\"sql\":\"SELECT n FROM t\"}");

            assertThat(down.status()).isEqualTo(ToolStatus.ERROR);
            ToolResult result = down.results().get(0);
            assertThat(result.error().orElseThrow().code()).isEqualTo(ErrorCode.ENGINE_UNAVAILABLE);
            assertThat(result.error().orElseThrow().retryable()).isTrue();
            seen[0] = result;
        }
        assertThat(events).as("one audit event, for the call that could not reach its source").singleElement()
                .satisfies(e -> {
                    assertThat(e.verdict()).isEqualTo(ToolStatus.ERROR);
                    assertThat(e.code()).contains(ErrorCode.ENGINE_UNAVAILABLE);
                    assertThat(e.requestId()).isEqualTo(seen[0].id());
                    assertThat(e.durationMs()).as("the audit and the result report the same time").isEqualTo(seen[0].elapsedMs());
                });
    }

    @Test
    void theToolsOfACallerCarryItsAttributesOnEveryStatement(@TempDir Path charts) {
        try (SqlGuard guard = FakeGuard.tenants().auditSink(events::add).build()) {
            AgentTools anonymous = AgentTools.of(guard, charts, List.of("claims"));
            ToolOutcome refused = anonymous.call(AgentTools.QUERY_DATA, "{\"source\":\"claims\",\"sql\":\"SELECT n FROM claims\"}");
            assertThat(refused.status()).isEqualTo(ToolStatus.REJECTED);
            assertThat(refused.error().orElseThrow().code()).isEqualTo(ErrorCode.MISSING_ATTRIBUTE);

            AgentTools north = AgentTools.of(guard.withAttributes(Map.of("tenant", "north")).guardedPath(List.of("claims")), charts);
            ToolOutcome ok = north.call(AgentTools.QUERY_DATA, "{\"source\":\"claims\",\"sql\":\"SELECT params ? FROM claims\",\"params\":[1]}");
            assertThat(ok.status()).isEqualTo(ToolStatus.OK);
            assertThat(ok.results().get(0).rows()).containsExactly(List.of(1L, "north"));
        }
        assertThat(events).extracting(AuditEvent::attributes).containsExactly(Map.of(), Map.of("tenant", "north"));
    }

    @Test
    void aSecretInAnEngineMessageIsMaskedOnTheAgentsPath(@TempDir Path charts) {
        try (SqlGuard guard = FakeGuard.withSecret(events::add)) {
            AgentTools tools = AgentTools.of(guard, charts, List.of("s"));
            ToolOutcome leaked = tools.call(AgentTools.QUERY_DATA, "{\"source\":\"s\",\"sql\":\"SELECT leak\"}");
            assertThat(leaked.status()).isEqualTo(ToolStatus.ERROR);
            assertThat(leaked.error().orElseThrow().message()).isEqualTo("Login with **** was refused.");
            assertThat(leaked.modelJson()).contains("Login with **** was refused.").doesNotContain(FakeGuard.SECRET);
        }
    }

    @Test
    void closeWaitsForAnAgentCallInFlight(@TempDir Path charts) throws InterruptedException {
        SqlGuard guard = guard();
        AgentTools tools = AgentTools.of(guard, charts, List.of("claims"));
        ToolOutcome outcome = CloseProbe.closeDuring(guard, "agent",
                () -> tools.call(AgentTools.QUERY_DATA, "{\"source\":\"claims\",\"sql\":\"SELECT hold_agent FROM t\"}"));
        assertThat(outcome.status()).isEqualTo(ToolStatus.OK);

        ToolOutcome late = tools.call(AgentTools.QUERY_DATA, "{\"source\":\"claims\",\"sql\":\"SELECT n FROM t\"}");
        assertThat(late.error().orElseThrow().code()).as("a call after close runs nothing").isEqualTo(ErrorCode.ENGINE_UNAVAILABLE);
        assertThat(events).extracting(AuditEvent::verdict).containsExactly(ToolStatus.OK);
    }
}
