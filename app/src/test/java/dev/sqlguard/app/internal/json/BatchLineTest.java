package dev.sqlguard.app.internal.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

class BatchLineTest {
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

    @Test
    void parsesAnHonestLine() {
        BatchLine line = BatchLine.parse("{\"id\": \"q1\", \"sql\": \"SELECT ?\", \"params\": [1, 2.5, \"x\", null, false]}");

        assertThat(line.error()).isEmpty();
        assertThat(line.readable()).isTrue();
        assertThat(line.id().textValue()).isEqualTo("q1");
        assertThat(line.sql()).isEqualTo("SELECT ?");
        assertThat(line.params()).containsExactlyElementsOf(Arrays.asList(1L, new BigDecimal("2.5"), "x", null, false));
    }

    @Test
    void reportsBadLinesWithTheirIdWhenItIsReadable() {
        assertThat(code(BatchLine.parse("{not json"))).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(BatchLine.parse("{not json").readable()).isFalse();
        assertThat(BatchLine.parse("[1,2]").readable()).isFalse();
        assertThat(BatchLine.parse("{\"id\": {\"x\":1}, \"sql\": \"SELECT 1\"}").readable()).isFalse();

        BatchLine noSql = BatchLine.parse("{\"id\": 5}");
        assertThat(noSql.readable()).isTrue();
        assertThat(noSql.id().intValue()).isEqualTo(5);
        assertThat(noSql.error().orElseThrow().safeMessage()).isEqualTo("Each line needs a string field \"sql\".");

        assertThat(code(BatchLine.parse("{\"id\": 1, \"sql\": 42}"))).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(code(BatchLine.parse("{\"id\": 1, \"sql\": \"SELECT ?\", \"params\": \"x\"}"))).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(code(BatchLine.parse("{\"id\": 1, \"sql\": \"SELECT ?\", \"params\": [[1]]}"))).isEqualTo(ErrorCode.UNSUPPORTED_PARAMETER);
        assertThat(code(BatchLine.parse("{\"id\": 1, \"sql\": \"SELECT ?\", \"params\": [{\"a\":1}]}"))).isEqualTo(ErrorCode.UNSUPPORTED_PARAMETER);
        assertThat(code(BatchLine.parse("{\"id\": 1, \"sql\": \"SELECT 1\", \"source\": \"other\"}"))).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(code(BatchLine.parse("{\"id\": 1, \"sql\": \"a\", \"sql\": \"b\"}"))).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(code(BatchLine.parse("{\"sql\": \"SELECT 1\"} {\"sql\": \"SELECT 2\"}"))).isEqualTo(ErrorCode.INVALID_ARGUMENT);
    }

    private static ErrorCode code(BatchLine line) {
        return line.error().orElseThrow().code();
    }
}
