package dev.sqlguard.app.internal.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.GuardException;

class JsonParamsTest {
    @Test
    void typesCommandLineParametersAsJsonLiterals() {
        assertThat(JsonParams.fromCommandLine("42", 1)).isEqualTo(42L);
        assertThat(JsonParams.fromCommandLine("-7", 1)).isEqualTo(-7L);
        assertThat(JsonParams.fromCommandLine("99999999999999999999", 1)).isEqualTo(new BigInteger("99999999999999999999"));
        assertThat(JsonParams.fromCommandLine("4.20", 1)).isEqualTo(new BigDecimal("4.20"));
        assertThat(JsonParams.fromCommandLine("true", 1)).isEqualTo(true);
        assertThat(JsonParams.fromCommandLine("null", 1)).isNull();
        assertThat(JsonParams.fromCommandLine("\"42\"", 1)).isEqualTo("42");
        assertThat(JsonParams.fromCommandLine("north", 1)).isEqualTo("north");
        assertThat(JsonParams.fromCommandLine("2024-01-31", 1)).isEqualTo("2024-01-31");
        assertThat(JsonParams.fromCommandLine("007", 1)).isEqualTo("007");
        assertThat(JsonParams.fromCommandLine("", 1)).isEqualTo("");
        assertThat(JsonParams.fromCommandLine("1 2", 1)).isEqualTo("1 2");
        assertThatThrownBy(() -> JsonParams.fromCommandLine("[1]", 2))
                .isInstanceOf(GuardException.class)
                .hasMessage("Parameter 2 must be a string, number, boolean or null, not an object or array.");
    }
}
