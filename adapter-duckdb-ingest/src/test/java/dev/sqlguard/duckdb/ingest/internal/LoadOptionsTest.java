package dev.sqlguard.duckdb.ingest.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LoadOptionsTest {
    @Test
    void defaultsAreHeaderTrueAndNoHints() {
        LoadOptions options = LoadOptions.parse(Map.of());

        assertThat(options).isEqualTo(new LoadOptions(Optional.empty(), true, null, Map.of(), null, '.', null, null, false));
    }

    @Test
    void typesKeepCommasInsideParenthesesAndNormaliseTheTypeText() {
        LoadOptions options = LoadOptions.parse(Map.of("types",
                " amount : decimal( 10, 2 ) ,day:date, note :varchar[] , ts:timestamp  with time zone"));

        assertThat(options.types()).containsExactly(Map.entry("amount", "DECIMAL( 10, 2 )"), Map.entry("day", "DATE"),
                Map.entry("note", "VARCHAR[]"), Map.entry("ts", "TIMESTAMP WITH TIME ZONE"));
        assertThat(options.typeFor("AMOUNT")).contains("DECIMAL( 10, 2 )");
    }

    @ParameterizedTest
    @ValueSource(strings = {"a:INT); DROP TABLE t; --", "a:INT'", "a:", ":INT", "a", "a:INT,A:BIGINT", "a:1INT",
            "a:INT -- x", "a:STRUCT(x INT)", ","})
    void typesThatAreNotPlainTypeNamesAreRefused(String types) {
        assertThatThrownBy(() -> LoadOptions.parse(Map.of("types", types)))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
    }

    @Test
    void delimiterAliasesAndLimits() {
        assertThat(LoadOptions.parse(Map.of("delimiter", "\\t")).delimiter()).isEqualTo("\t");
        assertThat(LoadOptions.parse(Map.of("delimiter", "tab")).delimiter()).isEqualTo("\t");
        assertThat(LoadOptions.parse(Map.of("delimiter", "||")).delimiter()).isEqualTo("||");
        for (String bad : new String[] {"", "\"", "a\nb", "12345"}) {
            assertThatThrownBy(() -> LoadOptions.parse(Map.of("delimiter", bad))).isInstanceOf(GuardException.class);
        }
    }

    @Test
    void formatAliasesAndUnknownOptions() {
        assertThat(LoadOptions.parse(Map.of("format", "JSONL")).format()).contains(InputFormat.NDJSON);
        assertThat(LoadOptions.parse(Map.of("header", "FALSE")).header()).isFalse();
        assertThatThrownBy(() -> LoadOptions.parse(Map.of("sheet", " "))).isInstanceOf(GuardException.class);
        assertThatThrownBy(() -> LoadOptions.parse(Map.of("Header", "true")))
                .hasMessage("Unknown load option 'Header'; known options: dateformat, decimal, delimiter, format, header, null_padding, rejects, sheet, types.");
    }

    @Test
    void fileNamesImplyFormats() {
        assertThat(InputFormat.fromFileName("A.CSV")).contains(InputFormat.CSV);
        assertThat(InputFormat.fromFileName("a.tsv.gz")).contains(InputFormat.TSV);
        assertThat(InputFormat.fromFileName("a.jsonl")).contains(InputFormat.NDJSON);
        assertThat(InputFormat.fromFileName("a.parquet")).contains(InputFormat.PARQUET);
        assertThat(InputFormat.fromFileName("a.xlsx")).contains(InputFormat.XLSX);
        assertThat(InputFormat.fromFileName("a.xlsx.gz")).isEmpty();
        assertThat(InputFormat.fromFileName("a.xls")).isEmpty();
        assertThat(InputFormat.fromFileName("csv")).isEmpty();
    }
}
