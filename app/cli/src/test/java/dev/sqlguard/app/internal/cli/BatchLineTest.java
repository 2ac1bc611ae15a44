package dev.sqlguard.app.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.ErrorCode;

class BatchLineTest {
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
