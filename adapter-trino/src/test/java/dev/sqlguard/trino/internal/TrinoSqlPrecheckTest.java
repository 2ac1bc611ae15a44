package dev.sqlguard.trino.internal;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.jdbc.StrictQuotingDialect;

/** Trino's lexical rules: the kit's StrictQuotingDialect pre-check, which PostgreSQL shares. */
class TrinoSqlPrecheckTest {
    @ParameterizedTest
    @CsvSource(delimiter = '¦', quoteCharacter = '%', value = {
            "SELECT id FROM claims WHERE region = U&'\\0041'¦UNSAFE_SYNTAX",
            "SELECT U&\"ssn\" FROM claims¦UNSAFE_SYNTAX",
            "SELECT u&'x' AS a¦UNSAFE_SYNTAX",
            "SELECT X'41' AS b¦UNSAFE_SYNTAX",
            "SELECT E'x' AS b¦UNSAFE_SYNTAX",
            "SELECT n'x' AS b¦UNSAFE_SYNTAX",
            "SELECT 'a' 'b' AS b¦UNSAFE_SYNTAX",
            "SELECT ARRAY[1] AS a¦UNSAFE_SYNTAX",
            "SELECT m['k'] AS v FROM t¦UNSAFE_SYNTAX",
            "SELECT $1 AS a¦UNSAFE_SYNTAX",
            "SELECT 1 AS a FROM t WHERE a ~ 'x'¦UNSAFE_SYNTAX",
            "SELECT 1 | 2 AS a¦UNSAFE_SYNTAX",
            "SELECT 1 AS a WHERE 1 !== 2¦UNSAFE_SYNTAX",
            "SELECT a:b AS f FROM t¦UNSAFE_SYNTAX",
            "SELECT `a` FROM t¦UNSAFE_SYNTAX",
            "SELECT 1 /* /* */ */ AS a¦UNSAFE_SYNTAX",
            "SELECT 1 AS a /* x¦UNSAFE_SYNTAX",
            "SELECT 'a\\' AS a¦UNSAFE_SYNTAX",
            "SELECT 'open AS a¦SYNTAX_ERROR",
            "SELECT 1 AS a; DROP TABLE t¦MULTIPLE_STATEMENTS",
            "'   '¦EMPTY_QUERY"})
    void refuses(String sql, ErrorCode code) {
        String text = sql.equals("'   '") ? "   " : sql;
        assertThatThrownBy(() -> StrictQuotingDialect.check(text, 10_000)).isInstanceOfSatisfying(GuardException.class,
                e -> org.assertj.core.api.Assertions.assertThat(e.code()).isEqualTo(code));
    }

    @ParameterizedTest
    @ValueSource(strings = {"SELECT a || 'U&''x''' AS b FROM t -- U&'x' [ ] $ ~\n WHERE \"col[1]\" != 'a''b'",
            "SELECT x::varchar AS v FROM t;  ", "SELECT userid, nu FROM t WHERE e = 'x' AND b = 'y'", "SELECT 1 AS a /* ~ @ # */", "SELECT 'a' /* a comment ends the run */ 'b' AS b"})
    void accepts(String sql) {
        assertThatCode(() -> StrictQuotingDialect.check(sql, 10_000)).doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(ints = {33, 40})
    void boundsTheNesting(int depth) {
        String sql = "SELECT " + "(".repeat(depth) + "1" + ")".repeat(depth) + " AS a";
        assertThatThrownBy(() -> StrictQuotingDialect.check(sql, 10_000)).isInstanceOfSatisfying(GuardException.class,
                e -> org.assertj.core.api.Assertions.assertThat(e.code()).isEqualTo(ErrorCode.QUERY_TOO_COMPLEX));
    }
}
