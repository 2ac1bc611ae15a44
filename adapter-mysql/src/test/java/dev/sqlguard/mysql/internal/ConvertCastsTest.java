package dev.sqlguard.mysql.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The text rewrite of {@code CONVERT(x, type)} into {@code CAST(x AS type)}, branch by branch. */
class ConvertCastsTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            # the cast form, nested, with its type's spacing normalized
            SELECT CONVERT(a, CHAR(10)) FROM t                | SELECT CAST(a AS CHAR(10)) FROM t
            SELECT convert (a + 1 , DECIMAL( 10 , 2 ) ) AS d  | SELECT CAST(a + 1  AS DECIMAL( 10 , 2 )) AS d
            SELECT CONVERT(a, SIGNED   INTEGER)               | SELECT CAST(a AS SIGNED INTEGER)
            SELECT CONVERT(CONVERT(a, CHAR), DATE)            | SELECT CAST(CAST(a AS CHAR) AS DATE)
            SELECT f(CONVERT(a, TIME), CONVERT(b, DATE))      | SELECT f(CAST(a AS TIME), CAST(b AS DATE))
            # USING counts only at the call's own level; a word that merely contains it is a name
            SELECT CONVERT(a USING utf8mb4)                   | SELECT CONVERT(a USING utf8mb4)
            SELECT CONVERT(CONVERT(a USING latin1), CHAR)     | SELECT CAST(CONVERT(a USING latin1) AS CHAR)
            SELECT CONVERT(a_using, CHAR)                     | SELECT CAST(a_using AS CHAR)
            SELECT CONVERT(CONVERT(a, CHAR) USING utf8mb4)    | SELECT CONVERT(CAST(a AS CHAR) USING utf8mb4)
            # commas and parentheses in strings, quoted names and comments are not the call's
            SELECT CONVERT('a,)', CHAR)                       | SELECT CAST('a,)' AS CHAR)
            SELECT CONVERT('it''s, (', CHAR)                  | SELECT CAST('it''s, (' AS CHAR)
            SELECT CONVERT(`a,(`, SIGNED)                     | SELECT CAST(`a,(` AS SIGNED)
            SELECT CONVERT(a /* , ) */, DATE)                 | SELECT CAST(a /* , ) */ AS DATE)
            SELECT 'CONVERT(a, CHAR)' AS s                    | SELECT 'CONVERT(a, CHAR)' AS s
            SELECT CONVERT /* x */ (a, CHAR)                  | SELECT CAST(a AS CHAR)
            # anything else stays as written (and is refused later)
            SELECT CONVERT(a, b, CHAR)                        | SELECT CONVERT(a, b, CHAR)
            SELECT CONVERT(a, JSON)                           | SELECT CONVERT(a, JSON)
            SELECT CONVERT(a, CHAR CHARACTER SET utf8mb4)     | SELECT CONVERT(a, CHAR CHARACTER SET utf8mb4)
            SELECT CONVERT(a)                                 | SELECT CONVERT(a)
            SELECT x.convert(a, CHAR)                         | SELECT x.convert(a, CHAR)
            SELECT convert_tz(a, CHAR)                        | SELECT convert_tz(a, CHAR)
            SELECT CONVERT(a, CHAR FROM t                     | SELECT CONVERT(a, CHAR FROM t
            SELECT CONVERT(a, CHAR), CONVERT(b, (DATE)        | SELECT CONVERT(a, CHAR), CONVERT(b, (DATE)
            """)
    void rewritesOnlyTheCastForm(String sql, String expected) {
        assertThat(ConvertCasts.rewrite(sql)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            "SELECT CONVERT(a -- , )\n, DATE)"                | "SELECT CAST(a -- , )\n AS DATE)"
            "SELECT CONVERT(a, CHAR) -- CONVERT(b, DATE)\n"   | "SELECT CAST(a AS CHAR) -- CONVERT(b, DATE)\n"
            """)
    void lineCommentsAreSkipped(String sql, String expected) {
        assertThat(ConvertCasts.rewrite(sql.replace("\\n", "\n"))).isEqualTo(expected.replace("\\n", "\n"));
    }
}
