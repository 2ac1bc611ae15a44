package dev.sqlguard.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.ports.Engine;

class PrivateDatabaseFixtureTest {
    @Test
    void uniqueNamesArePrefixedLowerCaseAndDoNotRepeat() {
        Set<String> names = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            String name = PrivateDatabaseFixture.uniqueName();
            assertThat(name).matches("sqlguard_t_[0-9a-f]{12}");
            names.add(name);
        }
        assertThat(names).hasSize(1000);
    }

    @Test
    void theCrossJoinCountsEveryCopyOfClaims() {
        assertThat(PrivateDatabaseFixture.claimsCrossJoin(6)).isEqualTo(
                "SELECT count(*) AS n FROM claims a JOIN claims b ON a.id > 0 JOIN claims c ON c.id > 0"
                        + " JOIN claims d ON d.id > 0 JOIN claims e ON e.id > 0 JOIN claims f ON f.id > 0");
        assertThat(PrivateDatabaseFixture.claimsCrossJoin(2)).isEqualTo("SELECT count(*) AS n FROM claims a JOIN claims b ON a.id > 0");
        assertThatThrownBy(() -> PrivateDatabaseFixture.claimsCrossJoin(1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PrivateDatabaseFixture.claimsCrossJoin(27)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void enginesAreBuiltThroughTheFactoryFromThePropertiesAndTheWorkFolder() {
        MemoryFixture fixture = new MemoryFixture();
        GuardrailPolicy policy = GuardrailPolicy.defaults();

        try (Engine engine = fixture.engine("s1", policy)) {
            assertThat(engine.sourceId()).isEqualTo("s1");
        }

        assertThat(fixture.configs).singleElement().satisfies(config -> {
            assertThat(config.sourceId()).isEqualTo("s1");
            assertThat(config.properties()).isEqualTo(Map.of("runawayQuery", fixture.runawayQuery()));
            assertThat(config.policy()).isSameAs(policy);
        });
        assertThat(fixture.contexts).singleElement()
                .satisfies(context -> assertThat(context.workDirectory()).isEqualTo(Path.of("target")));
    }

    @Test
    void aFingerprintThatCannotBeReadFailsTheTest() {
        MemoryFixture fixture = new MemoryFixture();
        assertThat(fixture.fingerprint()).isEqualTo("digest");

        fixture.fingerprintFailure = new SQLException("connection lost");
        assertThatThrownBy(fixture::fingerprint).isInstanceOf(IllegalStateException.class)
                .hasMessage("fingerprint failed").hasCause(fixture.fingerprintFailure);
    }
}
