package dev.sqlguard.testing.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;
import dev.sqlguard.ports.PropertySpec;

/** The in-memory engine built through its factory: declared settings, dialect, and the message for a bad key. */
class InMemoryEngineFactoryTest {
    private final InMemoryEngineFactory factory = new InMemoryEngineFactory(ContractTables.all());
    private final EngineContext context = EngineContext.of(Path.of("target", "memory-work"));

    @Test
    void declaresItsSettingsAndDialect() {
        assertThat(factory.name()).isEqualTo("memory");
        assertThat(factory.properties()).extracting(PropertySpec::name).containsExactly("runawayQuery");
        assertThat(factory.sensitivePropertyNames()).isEmpty();
        assertThat(factory.dialect().identifierQuote()).isEmpty();
        assertThat(factory.dialect().notes()).isNotEmpty();
    }

    @Test
    void refusesAnUnknownSettingNamingIt() {
        assertThatThrownBy(() -> factory.create(new EngineConfig("s", Map.of("colour", "red"), GuardrailPolicy.defaults()), context))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR))
                .hasMessage("Source 's': unknown property 'colour'; known: [runawayQuery].");
    }

    @Test
    void answersOverItsTablesAndLetsTheDomainDecideSensitiveFlow() {
        QueryService service = new QueryService(AuditSink.discarding());
        GuardrailPolicy policy = GuardrailPolicy.defaults().withFunctions(Set.of("upper", "sum"));
        try (Engine engine = factory.create(new EngineConfig("s", Map.of(), policy), context)) {
            ToolResult names = service.query(engine.binding(), new QueryRequest("s", "SELECT upper(name) AS n FROM users ORDER BY id",
                    List.of(), "r1"));
            assertThat(names.rows()).containsExactly(List.of("ALICE"), List.of("BOB"), List.of("CAROL"));

            ToolResult oracle = service.query(engine.binding(), new QueryRequest("s", "SELECT id FROM users WHERE password = ?",
                    List.of("hunter2-alice-pw"), "r2"));
            assertThat(oracle.status()).isEqualTo(ToolStatus.REJECTED);
            assertThat(oracle.error().orElseThrow().message()).isEqualTo(
                    "Column 'password' is sensitive: its values may be selected (they come back redacted) but not used to filter rows.");

            ToolResult partial = service.query(engine.binding(), new QueryRequest("s", "SELECT sum(password) AS s FROM users",
                    List.of(), "r3"));
            assertThat(partial.error().orElseThrow().code()).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
            assertThat(partial.error().orElseThrow().message()).contains("not computed on or compared, as 'sum' does");
        }
    }
}
