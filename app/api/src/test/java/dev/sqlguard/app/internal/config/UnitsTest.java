package dev.sqlguard.app.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

class UnitsTest {
    @Test
    void parsesDurations() {
        assertThat(Units.duration("500ms")).contains(Duration.ofMillis(500));
        assertThat(Units.duration("10s")).contains(Duration.ofSeconds(10));
        assertThat(Units.duration("1m")).contains(Duration.ofMinutes(1));
        assertThat(Units.duration(" 2 h ")).contains(Duration.ofHours(2));
        assertThat(Units.duration("10")).isEmpty();
        assertThat(Units.duration("0s")).isEmpty();
        assertThat(Units.duration("-1s")).isEmpty();
        assertThat(Units.duration("1.5s")).isEmpty();
    }

    @Test
    void parsesSizes() {
        Map.of("1048576", 1_048_576L, "256MB", 256_000_000L, "1GiB", 1L << 30, "64kib", 65_536L, "2 TB", 2_000_000_000_000L,
                "5b", 5L).forEach((text, bytes) -> assertThat(Units.bytes(text)).as(text).contains(bytes));
        assertThat(Units.bytes("0")).isEmpty();
        assertThat(Units.bytes("1PB")).isEmpty();
        assertThat(Units.bytes("999999999999999TiB")).isEmpty();
        assertThat(Units.bytes("lots")).isEmpty();
    }

    @Test
    void substitutesEnvironmentVariables() throws EnvSubstitution.Problem {
        Map<String, String> env = Map.of("A", "x", "EMPTY", "");
        assertThat(EnvSubstitution.apply("${A}-${EMPTY}-$${A}-$5", env::get).text()).isEqualTo("x--${A}-$5");
        assertThat(EnvSubstitution.apply("${A}", env::get).variables()).containsExactly("A");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> EnvSubstitution.apply("${B}", env::get))
                .hasMessage("environment variable B is not set");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> EnvSubstitution.apply("${A", env::get))
                .hasMessage("'${' has no closing '}'");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> EnvSubstitution.apply("${A B}", env::get))
                .hasMessageStartingWith("'${...}' must hold an environment variable name");
    }
}
