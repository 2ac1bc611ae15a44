package dev.sqlguard.duckdb.ingest.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.xml.sax.SAXException;

class XlsxSheetHandlerTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '~', value = {
        "General|-1", "0|0", "#,##0|0", "0.00|2", "#,##0.000|3", "\"$\"#,##0.00|2", "[$€-407]#,##0.00;[Red]-#,##0.00|2",
        "0.00%|-1", "0.00E+00|-1", "# ?/?|-1", "@|-1", "0.0#|-1", "_-* #,##0.00_-|2", "\"Total \"0.0|1"})
    void fixedDecimalScale(String format, int scale) {
        assertThat(XlsxSheetHandler.fixedDecimalScale(format)).isEqualTo(scale);
    }

    @Test
    void columnReferences() throws SAXException {
        assertThat(XlsxSheetHandler.columnOf("A1")).isZero();
        assertThat(XlsxSheetHandler.columnOf("Z9")).isEqualTo(25);
        assertThat(XlsxSheetHandler.columnOf("AA10")).isEqualTo(26);
        assertThat(XlsxSheetHandler.columnOf("XFD1048576")).isEqualTo(16_383);
        assertThatThrownBy(() -> XlsxSheetHandler.columnOf("ABCD1")).isInstanceOf(SAXException.class);
        assertThatThrownBy(() -> XlsxSheetHandler.columnOf("12")).isInstanceOf(SAXException.class);
    }

    @Test
    void cellsRenderTextDuckDbCastsBackExactly() {
        assertThat(XlsxCell.number(12.0, -1).text()).isEqualTo("12");
        assertThat(XlsxCell.number(1e20, -1).text()).isEqualTo("100000000000000000000");
        assertThat(XlsxCell.number(0.1, 2).text()).isEqualTo("0.1");
        assertThat(XlsxCell.number(1.0E-7, -1).text()).isEqualTo("0.0000001");
        assertThat(XlsxCell.number(-3.25, 2).valueScale()).isEqualTo(2);
    }

    @Test
    void profilesPickTheNarrowestTypeThatHoldsEveryCell() {
        assertThat(profile(XlsxCell.number(1, -1), XlsxCell.number(2, 0))).isEqualTo("BIGINT");
        assertThat(profile(XlsxCell.number(1, 2), XlsxCell.number(2.5, 2))).isEqualTo("DECIMAL(18,2)");
        assertThat(profile(XlsxCell.number(1.005, 2))).isEqualTo("DOUBLE");
        assertThat(profile(XlsxCell.number(1, 2), XlsxCell.number(2.5, -1))).isEqualTo("DOUBLE");
        assertThat(profile(XlsxCell.number(1e16, -1))).isEqualTo("DOUBLE");
        assertThat(profile(XlsxCell.number(1, -1), XlsxCell.string("x"))).isEqualTo("VARCHAR");
        assertThat(profile(XlsxCell.bool(true))).isEqualTo("BOOLEAN");
        assertThat(profile()).isEqualTo("VARCHAR");
        assertThat(profile(XlsxCell.date(java.time.LocalDate.of(2024, 1, 1).atStartOfDay()))).isEqualTo("DATE");
        assertThat(profile(XlsxCell.date(java.time.LocalDate.of(2024, 1, 1).atStartOfDay()),
                XlsxCell.date(java.time.LocalDateTime.of(2024, 1, 1, 1, 0)))).isEqualTo("TIMESTAMP");
    }

    private static String profile(XlsxCell... cells) {
        ColumnProfile profile = new ColumnProfile();
        for (XlsxCell cell : cells) {
            profile.observe(cell);
        }
        return profile.type();
    }
}
