package dev.sqlguard.jdbc.ansi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.expression.CastExpression;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;

class CastTypesTest {
    private static final CastTypes TYPES = new CastTypes("int|integer|double precision|float|text|date",
            Map.of("int", "integer", "float", "double precision"), "numeric", "CAST supports integer, numeric, text and date.");

    private static String render(String type) throws JSQLParserException {
        CastExpression cast = (CastExpression) CCJSqlParserUtil.parseExpression("CAST(x AS " + type + ")");
        return TYPES.render(cast.getColDataType());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "INT|integer",
            "integer|integer",
            "Double   Precision|double precision",
            "FLOAT|double precision",
            "text|text",
            "decimal|numeric",
            "NUMERIC(10, 2)|numeric(10, 2)",
            "decimal(12)|numeric(12)",
            "VARCHAR(20)|varchar(20)",
            "character varying|varchar",
            "character(3)|char(3)",
            "char|char"})
    void rendersEachAllowedTypeUnderTheEnginesName(String written, String rendered) throws JSQLParserException {
        assertThat(render(written)).isEqualTo(rendered);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "bigint|CONSTRUCT_NOT_ALLOWED",
            "numeric(100, 2)|CONSTRUCT_NOT_ALLOWED",
            "varchar(123456)|CONSTRUCT_NOT_ALLOWED",
            "int[]|UNSAFE_SYNTAX",
            "varchar(10) CHARACTER SET latin1|UNSAFE_SYNTAX"})
    void refusesEveryOtherType(String written, ErrorCode code) {
        assertThatThrownBy(() -> render(written)).as(written).isInstanceOfSatisfying(GuardException.class, e -> {
            assertThat(e.code()).isEqualTo(code);
            if (code == ErrorCode.CONSTRUCT_NOT_ALLOWED) {
                assertThat(e.safeMessage()).isEqualTo("CAST supports integer, numeric, text and date.");
            }
        });
    }
}
