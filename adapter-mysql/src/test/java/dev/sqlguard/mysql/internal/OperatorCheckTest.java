package dev.sqlguard.mysql.internal;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

/** The operator check alone: analytical shapes pass it (subqueries, CTEs, set operations, windows), differentials do not. */
class OperatorCheckTest {
    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT a + b * c - d / 2 AS x FROM t WHERE a = 1 AND b <> 2 OR NOT c > 3",
            "SELECT a FROM t WHERE a IN (SELECT b FROM u WHERE b > 1 AND c IS NOT NULL) AND NOT EXISTS (SELECT 1 FROM u WHERE u.b = t.a)",
            "WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT n FROM r",
            "SELECT a FROM t WHERE a > (SELECT avg(b) FROM u) UNION SELECT b FROM u INTERSECT SELECT c FROM v",
            "SELECT a, sum(b) OVER (PARTITION BY c ORDER BY d) AS s FROM t",
            "SELECT CASE WHEN a = 1 THEN b + 1 ELSE NOT c END AS x FROM t",
            "SELECT a FROM t WHERE d > CURRENT_DATE - INTERVAL 7 DAY AND a BETWEEN 1 AND 5 AND b LIKE 'x%'",
            "SELECT x.a FROM (SELECT a FROM t WHERE a = 1 OR a = 2) x",
            "SELECT (a = b) = c AS chained FROM t",
            "SELECT (a OR b) XOR c AS x FROM t",
            "SELECT a FROM t WHERE NOT a = 1 AND NOT (b = 2 OR c = 3)",
            "SELECT -a * b AS x, a - -b AS y FROM t"})
    void analyticalShapesPass(String sql) {
        assertThatCode(() -> OperatorCheck.check(MySqlValidator.parseOne(sql))).doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT 0 = NOT 0",
            "SELECT a FROM t WHERE a = 1 OR b = 2 XOR c = 3",
            "SELECT a FROM t WHERE a IN (SELECT b FROM u WHERE b = 1 OR c = 2 XOR d = 3)",
            "WITH w AS (SELECT a FROM t WHERE a = NOT b) SELECT a FROM w",
            "SELECT a FROM t UNION SELECT a FROM u WHERE a = 1 OR b = 2 XOR c = 3",
            "SELECT (SELECT max(a) FROM u WHERE a = NOT b) AS m FROM t"})
    void differentialsAreRefusedAnywhere(String sql) {
        assertThatThrownBy(() -> OperatorCheck.check(MySqlValidator.parseOne(sql)))
                .isInstanceOfSatisfying(GuardException.class, e -> org.assertj.core.api.Assertions.assertThat(e.code())
                        .isEqualTo(ErrorCode.UNSAFE_SYNTAX));
    }
}
