package dev.sqlguard.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.AuditSink;

class FixtureEngineTest {
    private final QueryService service = new QueryService(AuditSink.discarding());

    @Test
    void theEngineServesThePlainColumnsAndClosesBeforeTheFixture() {
        MemoryFixture fixture = new MemoryFixture();
        ToolResult plain;
        ToolResult secret;
        try (FixtureEngine<MemoryFixture> open = FixtureEngine.open(fixture, "corpus",
                FixtureEngine.plainPolicy(FixtureEngine.PLAIN_COLUMNS))) {
            assertThat(open.fixture()).isSameAs(fixture);
            plain = service.query(open.engine().binding(), QueryRequest.of("corpus", "SELECT name FROM users"));
            secret = service.query(open.engine().binding(), QueryRequest.of("corpus", "SELECT password FROM users"));
            assertThat(fixture.events).isEmpty();
        }

        assertThat(fixture.configs).singleElement().satisfies(config -> assertThat(config.sourceId()).isEqualTo("corpus"));
        assertThat(plain.status()).as(plain.toString()).isEqualTo(ToolStatus.OK);
        assertThat(plain.rows()).hasSize(ContractDataset.users().size());
        assertThat(secret.status()).as("a column outside the plain ones is refused").isEqualTo(ToolStatus.REJECTED);
        assertThat(fixture.events).containsExactly("engine closed", "fixture closed");
    }

    @Test
    void theFixtureIsClosedWhenNoEngineCanBeBuilt() {
        MemoryFixture fixture = new MemoryFixture();
        fixture.engineFailure = new IllegalStateException("no engine");

        assertThatThrownBy(() -> FixtureEngine.open(fixture, "corpus", FixtureEngine.plainPolicy(FixtureEngine.PLAIN_COLUMNS)))
                .isSameAs(fixture.engineFailure);
        assertThat(fixture.events).containsExactly("fixture closed");
    }

    @Test
    void thePlainPolicyAllowlistsOnlyTheTablesWithDefaultLimitsAndNoFunctionList() {
        GuardrailPolicy policy = FixtureEngine.plainPolicy(Map.of("claims", List.of("id")));

        assertThat(policy.functions()).isEmpty();
        assertThat(policy.tableFunctions()).isEmpty();
        assertThat(policy.redact()).isEmpty();
        assertThat(policy.limits()).isEqualTo(Limits.defaults());
        MemoryFixture fixture = new MemoryFixture();
        try (FixtureEngine<MemoryFixture> open = FixtureEngine.open(fixture, "s", policy)) {
            assertThat(service.query(open.engine().binding(), QueryRequest.of("s", "SELECT id FROM claims")).status())
                    .isEqualTo(ToolStatus.OK);
            assertThat(service.query(open.engine().binding(), QueryRequest.of("s", "SELECT region FROM claims")).status())
                    .isEqualTo(ToolStatus.REJECTED);
        }
    }
}
