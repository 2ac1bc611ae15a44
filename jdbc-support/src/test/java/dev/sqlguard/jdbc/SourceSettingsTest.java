package dev.sqlguard.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.ports.EngineConfig;

class SourceSettingsTest {
    private static final TableAllowlist CLAIMS = new TableAllowlist(Optional.empty(), Map.of(TableRef.of("claims"), Set.of("id")), true);

    private static EngineConfig config(TableAllowlist tables) {
        return new EngineConfig("sales", Map.of(), GuardrailPolicy.defaults().withTables(tables));
    }

    @Test
    void theAllowlistResolvesUnqualifiedNamesInTheEnginesSchema() {
        GuardrailPolicy policy = SourceSettings.allowlistIn("trino", config(CLAIMS), "schema", "tpch", s -> s);
        assertThat(policy.tables().defaultSchema()).contains("tpch");
        assertThat(policy.tables().tables()).isEqualTo(CLAIMS.tables());
    }

    @Test
    void aNetworkEngineNeedsAnAllowlistOfItsSchema() {
        assertThatThrownBy(() -> SourceSettings.allowlistIn("trino", config(TableAllowlist.unrestricted()), "schema", "tpch", s -> s))
                .isInstanceOf(GuardException.class)
                .hasMessage("Source 'sales': the trino engine needs a table allowlist (no allowlist, no queries).");
        TableAllowlist elsewhere = new TableAllowlist(Optional.of("other"), CLAIMS.tables(), true);
        assertThatThrownBy(() -> SourceSettings.allowlistIn("trino", config(elsewhere), "schema", "tpch", s -> s))
                .hasMessage("Source 'sales': the allowlist's default schema differs from 'schema'.");
        assertThatThrownBy(() -> SourceSettings.allowlistIn("postgresql", config(elsewhere), "tpch", s -> s))
                .hasMessage("Source 'sales': the allowlist's default schema differs from 'defaultSchema'.");
        TableAllowlist folded = new TableAllowlist(Optional.of("sales"), CLAIMS.tables(), true);
        assertThat(SourceSettings.allowlistIn("mysql", config(folded), "Sales", s -> s.toLowerCase(java.util.Locale.ROOT))
                .tables().defaultSchema()).contains("sales"); // the allowlist folds names itself
    }

    @Test
    void thePoolSizeIsAWholeNumberFromOneTo64() {
        GuardrailPolicy policy = GuardrailPolicy.defaults();
        assertThat(SourceSettings.poolSize(new EngineConfig("sales", Map.of(), policy))).isEqualTo(SourceSettings.DEFAULT_POOL_SIZE).isEqualTo(4);
        assertThat(SourceSettings.poolSize(new EngineConfig("sales", Map.of(SourceSettings.POOL_SIZE, " 64 "), policy))).isEqualTo(64);
        assertThatThrownBy(() -> SourceSettings.poolSize(new EngineConfig("sales", Map.of("poolSize", "65"), policy)))
                .hasMessage("Source 'sales': 'poolSize' must be a whole number from 1 to 64.");
    }
}
