package dev.sqlguard.mysql.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.OutputColumn;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.TableRef;

class MySqlValidatorTest {
    private final MySqlValidator validator = TestSchemas.validator();

    private QueryPlan plan(String sql, Object... params) {
        return TestSchemas.authorized(validator, TestSchemas.policy(), sql, params);
    }

    private ErrorCode code(String sql, Object... params) {
        try {
            plan(sql, params);
            return null;
        } catch (GuardException e) {
            return e.code();
        }
    }

    @Test
    void rendersQualifiedQuotedSqlWithGeneratedAliasesAndTheRowBound() {
        QueryPlan p = plan("select region, sum(amount) as total from claims where status = 'APPROVED' group by region order by total desc");
        assertThat(p.executableSql()).isEqualTo(
                "SELECT `t1`.`region` AS `region`, sum(`t1`.`amount`) AS `total` FROM `guard`.`claims` AS `t1`"
                        + " WHERE (`t1`.`status` = 'APPROVED') GROUP BY `t1`.`region` ORDER BY 2 DESC LIMIT 101");
        assertThat(p.tables()).containsExactly(TableRef.of("guard", "claims"));
        assertThat(p.functions()).containsExactly("sum");
        assertThat(p.outputs()).extracting(OutputColumn::name).containsExactly("region", "total");
    }

    @Test
    void nullSafeEqualityIsRenderedAsWrittenAndChainsGetTheServersGrouping() {
        // JSqlParser 5.4 names MySQL's <=> CosineSimilarity; the server reads it as a comparison, left to right
        assertThat(plan("SELECT id FROM claims WHERE region <=> NULL").executableSql())
                .contains("WHERE (`t1`.`region` <=> NULL)");
        assertThat(plan("SELECT id FROM claims WHERE id + 1 <=> 2 * id").executableSql())
                .contains("WHERE ((`t1`.`id` + 1) <=> (2 * `t1`.`id`))");
        assertThat(plan("SELECT id FROM claims WHERE id <=> 5 = FALSE").executableSql())
                .contains("WHERE (((`t1`.`id` <=> 5)) = FALSE)");
        assertThat(code("SELECT id FROM claims WHERE id <=> NOT 5")).isEqualTo(ErrorCode.UNSAFE_SYNTAX);
        assertThat(code("SELECT id FROM claims WHERE NOT id <=> 5 AND TRUE")).isNull();
        // a sensitive value steers a filter through <=> exactly as through =: refused alike
        assertThat(code("SELECT id FROM users WHERE password <=> 'x'")).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED)
                .isEqualTo(code("SELECT id FROM users WHERE password = 'x'"));
        assertThat(code("SELECT id FROM users ORDER BY password <=> NULL")).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
    }

    @Test
    void explicitLimitIsCappedAtMaxRowsPlusOne() {
        assertThat(plan("SELECT id FROM claims LIMIT 5").executableSql()).endsWith(" LIMIT 5");
        assertThat(plan("SELECT id FROM claims LIMIT 100000000").executableSql()).endsWith(" LIMIT 101");
        assertThat(plan("SELECT id FROM claims LIMIT 3, 7").executableSql()).endsWith(" LIMIT 7 OFFSET 3");
        assertThat(plan("SELECT id FROM claims LIMIT 7 OFFSET 3").executableSql()).endsWith(" LIMIT 7 OFFSET 3");
        assertThat(code("SELECT id FROM claims LIMIT ?", 3)).isEqualTo(ErrorCode.CONSTRUCT_NOT_ALLOWED);
    }

    @Test
    void lineageFollowsAliasesAggregatesAndExpressions() {
        QueryPlan p = plan("SELECT max(password) AS x, name, count(DISTINCT api_key) AS k, count(*), CASE WHEN name LIKE 'a%' THEN 1 ELSE 0 END AS c FROM users");
        assertThat(p.outputs().get(0)).isEqualTo(OutputColumn.traced("x", java.util.Set.of(new ColumnRef(TableRef.of("guard", "users"), "password"))));
        assertThat(p.outputs().get(2).lineage()).containsExactly(new ColumnRef(TableRef.of("guard", "users"), "api_key"));
        assertThat(p.outputs().get(4).lineage()).containsExactly(new ColumnRef(TableRef.of("guard", "users"), "name"));
        assertThat(p.outputs().get(3).name()).isEqualTo("count(*)");
        assertThat(p.outputs().get(3).lineage()).isEmpty();
        assertThat(p.outputs()).allMatch(OutputColumn::lineageComplete);
    }

    @Test
    void joinsResolveThroughAliasesAndRefuseAmbiguity() {
        QueryPlan p = plan("SELECT c.region, r.manager, count(*) AS n FROM claims c JOIN regions AS r ON c.region = r.region GROUP BY c.region, r.manager");
        assertThat(p.executableSql()).contains("FROM `guard`.`claims` AS `t1` INNER JOIN `guard`.`regions` AS `t2` ON (`t1`.`region` = `t2`.`region`)");
        assertThat(plan("SELECT manager FROM claims LEFT JOIN regions ON claims.region = regions.region").executableSql())
                .contains("LEFT JOIN").contains("`t2`.`manager`");
        assertThat(code("SELECT region FROM claims JOIN regions ON claims.region = regions.region")).isEqualTo(ErrorCode.AMBIGUOUS_COLUMN);
        assertThat(code("SELECT id FROM claims JOIN users ON claims.id = users.id")).isEqualTo(ErrorCode.AMBIGUOUS_COLUMN);
        assertThat(code("SELECT c.id FROM claims c JOIN claims c ON c.id = c.id")).isEqualTo(ErrorCode.AMBIGUOUS_COLUMN);
        assertThat(code("SELECT claims.id FROM claims c")).isEqualTo(ErrorCode.UNKNOWN_COLUMN);
        // a column that is not allowlisted is indistinguishable from one that does not exist
        assertThat(code("SELECT c.id FROM claims c JOIN regions r ON c.ssn = r.region")).isEqualTo(ErrorCode.UNKNOWN_COLUMN);
        assertThat(code("SELECT c.id FROM claims c JOIN regions r ON r.region = x.region")).isEqualTo(ErrorCode.UNKNOWN_COLUMN);
    }

    @Test
    void selectAliasesInOrderByHavingAndGroupByAreNotTableColumns() {
        QueryPlan p = plan("SELECT status AS s, count(*) AS n FROM claims GROUP BY s HAVING n > 1 ORDER BY n");
        assertThat(p.executableSql()).contains("GROUP BY 1 HAVING (`n` > 1) ORDER BY 2 LIMIT");
        // an alias that is also a column name of the FROM tables is ambiguous (the server prefers the column in GROUP BY)
        assertThat(code("SELECT max(name) AS password FROM users GROUP BY password")).isEqualTo(ErrorCode.AMBIGUOUS_COLUMN);
        // ssn is hidden, so the name is only the alias (as if the column did not exist)
        assertThat(plan("SELECT max(id) AS ssn FROM claims ORDER BY ssn").executableSql()).contains("ORDER BY 1 LIMIT");
        // the alias that is the column itself is fine
        assertThat(plan("SELECT region FROM claims GROUP BY region ORDER BY region").executableSql())
                .contains("GROUP BY `t1`.`region` ORDER BY `t1`.`region`");
        assertThat(code("SELECT region AS r FROM claims WHERE r = 'x'")).isEqualTo(ErrorCode.UNKNOWN_COLUMN);
    }

    @Test
    void parametersAreCountedOnceEachAndInOrder() {
        QueryPlan p = plan("SELECT id, ? AS tag FROM claims WHERE region = ? AND amount > ?", "x", "north", 10);
        assertThat(p.parameters()).containsExactly("x", "north", 10L);
        assertThat(p.executableSql()).contains("? AS `tag`").contains("(`t1`.`region` = ?)");
        assertThatThrownBy(() -> plan("SELECT id FROM claims WHERE region = ?"))
                .isInstanceOf(GuardException.class).extracting(e -> ((GuardException) e).code()).isEqualTo(ErrorCode.PARAMETER_COUNT_MISMATCH);
        assertThat(code("SELECT id FROM claims c JOIN regions r ON r.region = ? WHERE c.id = ?", "a", 1)).isNull();
        assertThat(code("SELECT ? AS a, id FROM claims c JOIN regions r ON r.region = ? WHERE c.id = ?", "z", "a", 1)).isNull();
        assertThat(code("SELECT id FROM claims WHERE id = :id")).isEqualTo(ErrorCode.CONSTRUCT_NOT_ALLOWED);
        assertThat(code("SELECT id FROM claims WHERE id = ?1", 1)).isNotNull();
    }

    @Test
    void plansAreCachedByTheDomainDecoratorAndBoundPerCall() {
        dev.sqlguard.domain.port.CachingValidator cached = new dev.sqlguard.domain.port.CachingValidator(validator);
        cached.validate(QueryRequest.of("src", "SELECT id FROM claims WHERE id = ?", 1));
        QueryPlan second = cached.validate(QueryRequest.of("src", "SELECT id FROM claims WHERE id = ?", 2));
        assertThat(second.parameters()).containsExactly(2L);
        assertThat(cached.size()).isEqualTo(1);
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of("SELECT count(DISTINCT *) FROM claims", null),
                Arguments.of("SELECT ssn FROM claims", ErrorCode.UNKNOWN_COLUMN),
                Arguments.of("SELECT c.ssn FROM claims c", ErrorCode.UNKNOWN_COLUMN),
                Arguments.of("SELECT id FROM claims c WHERE c.ssn = '1'", ErrorCode.UNKNOWN_COLUMN),
                Arguments.of("SELECT id FROM claims WHERE EXISTS (SELECT 1 FROM secrets)", ErrorCode.TABLE_NOT_ALLOWED),
                Arguments.of("SELECT x.id FROM (SELECT id FROM secrets) x", ErrorCode.TABLE_NOT_ALLOWED),
                Arguments.of("WITH s AS (SELECT value FROM secrets) SELECT 1 FROM s", ErrorCode.TABLE_NOT_ALLOWED),
                Arguments.of("SELECT id FROM claims UNION SELECT id FROM secrets", ErrorCode.TABLE_NOT_ALLOWED),
                Arguments.of("SELECT id FROM claims UNION SELECT id, name FROM users", ErrorCode.SYNTAX_ERROR),
                Arguments.of("SELECT id FROM claims WHERE id IN (SELECT id, name FROM users)", ErrorCode.SYNTAX_ERROR),
                Arguments.of("SELECT id FROM (SELECT id FROM claims)", ErrorCode.SYNTAX_ERROR),
                Arguments.of("SELECT id FROM claims MINUS SELECT id FROM users", null),
                Arguments.of("SELECT id FROM claims FULL JOIN regions ON claims.region = regions.region", ErrorCode.JOIN_NOT_ALLOWED),
                Arguments.of("SELECT id FROM claims WINDOW w AS (ORDER BY id)", ErrorCode.CONSTRUCT_NOT_ALLOWED),
                Arguments.of("SELECT repeat(name, id) FROM users", ErrorCode.UNBOUNDED_COST),
                Arguments.of("SELECT lpad(name, 1000000000, 'x') FROM users", ErrorCode.UNBOUNDED_COST),
                Arguments.of("SELECT space(amount) FROM claims", ErrorCode.UNBOUNDED_COST),
                Arguments.of("SELECT repeat(repeat('ab', 1000), 1000) FROM claims", ErrorCode.UNBOUNDED_COST),
                Arguments.of("SELECT lowr(name) FROM users", ErrorCode.FUNCTION_NOT_ALLOWED),
                Arguments.of("SELECT regexp_replace(name, 'a', 'b') FROM users", ErrorCode.FUNCTION_NOT_ALLOWED),
                Arguments.of("SELECT id FROM secrets", ErrorCode.TABLE_NOT_ALLOWED),
                Arguments.of("SELECT user FROM mysql.user", ErrorCode.TABLE_NOT_ALLOWED),
                Arguments.of("SELECT id FROM other.claims", ErrorCode.TABLE_NOT_ALLOWED),
                Arguments.of("SELECT id FROM `guard.claims`", null),
                Arguments.of("SELECT id FROM information_schema.tables", ErrorCode.TABLE_NOT_ALLOWED),
                Arguments.of("VALUES (1)", null),
                Arguments.of("(SELECT id FROM claims)", ErrorCode.CONSTRUCT_NOT_ALLOWED),
                Arguments.of("SELECT id FROM claims FOR UPDATE", ErrorCode.CONSTRUCT_NOT_ALLOWED),
                Arguments.of("SELECT id FROM claims FOR SHARE", ErrorCode.CONSTRUCT_NOT_ALLOWED),
                Arguments.of("SELECT id FROM claims LOCK IN SHARE MODE", null),
                Arguments.of("SELECT id FROM claims INTO OUTFILE '/tmp/x'", ErrorCode.EXTERNAL_ACCESS_DENIED),
                Arguments.of("SELECT id INTO DUMPFILE '/tmp/x' FROM claims", ErrorCode.EXTERNAL_ACCESS_DENIED),
                Arguments.of("SELECT id INTO @v FROM claims", null),
                Arguments.of("SELECT @@version", ErrorCode.VARIABLE_NOT_ALLOWED),
                Arguments.of("SELECT @a := id FROM claims", null),
                Arguments.of("SELECT id FROM claims WHERE id = @x", ErrorCode.VARIABLE_NOT_ALLOWED),
                Arguments.of("SELECT load_file('/etc/passwd')", ErrorCode.EXTERNAL_ACCESS_DENIED),
                Arguments.of("SELECT sleep(5)", ErrorCode.FUNCTION_NOT_ALLOWED),
                Arguments.of("SELECT benchmark(1000000, 1)", ErrorCode.FUNCTION_NOT_ALLOWED),
                Arguments.of("SELECT get_lock('x', 1)", ErrorCode.FUNCTION_NOT_ALLOWED),
                Arguments.of("SELECT guard.f_write() FROM users", ErrorCode.FUNCTION_NOT_ALLOWED),
                Arguments.of("SELECT NEXTVAL(seq)", null),
                Arguments.of("SELECT c.id FROM claims c JOIN (SELECT id AS ssn FROM users) x USING (ssn)", ErrorCode.UNKNOWN_COLUMN),
                Arguments.of("SELECT id FROM claims CROSS JOIN users USING (id)", ErrorCode.SYNTAX_ERROR),
                Arguments.of("SELECT id FROM claims STRAIGHT_JOIN regions ON claims.region = regions.region", null),
                Arguments.of("SELECT id FROM claims USE INDEX (PRIMARY)", null),
                Arguments.of("SELECT id FROM claims WHERE name REGEXP 'a'", null),
                Arguments.of("SELECT id FROM claims WHERE region = 'a' || 'b'", ErrorCode.UNSAFE_SYNTAX),
                Arguments.of("SELECT _binary'x' FROM claims", null),
                Arguments.of("SELECT X'41' FROM claims", null),
                Arguments.of("SELECT N'x' AS a FROM claims", ErrorCode.UNSAFE_SYNTAX),
                Arguments.of("SHOW TABLES", null),
                Arguments.of("DESCRIBE users", null),
                Arguments.of("EXPLAIN SELECT id FROM claims", null),
                Arguments.of("INSERT INTO claims (id) VALUES (1)", ErrorCode.STATEMENT_NOT_ALLOWED),
                Arguments.of("UPDATE claims SET amount = 0", ErrorCode.STATEMENT_NOT_ALLOWED),
                Arguments.of("DELETE FROM claims", ErrorCode.STATEMENT_NOT_ALLOWED),
                Arguments.of("DROP TABLE claims", ErrorCode.STATEMENT_NOT_ALLOWED),
                Arguments.of("SET SESSION TRANSACTION READ WRITE", null),
                Arguments.of("SET SESSION tx_read_only = 0", null),
                Arguments.of("SET STATEMENT max_statement_time=0 FOR SELECT id FROM claims", null),
                Arguments.of("CALL p()", null),
                Arguments.of("DO sleep(1)", null),
                Arguments.of("HANDLER users OPEN", null),
                Arguments.of("PREPARE s FROM 'DELETE FROM claims'", null),
                Arguments.of("EXECUTE s", null),
                Arguments.of("LOCK TABLES claims WRITE", null),
                Arguments.of("SELECT id FROM claims; DELETE FROM claims", ErrorCode.MULTIPLE_STATEMENTS),
                Arguments.of("SELECT id FROM claims;", null),
                Arguments.of("SELECT 1 /*! , (SELECT password FROM users LIMIT 1) */", ErrorCode.UNSAFE_SYNTAX),
                Arguments.of("SELECT id FROM claims /*!50000 UNION SELECT api_key FROM users */", ErrorCode.UNSAFE_SYNTAX),
                Arguments.of("SELECT id FROM claims /*M!100000 INTO OUTFILE '/tmp/x' */", ErrorCode.UNSAFE_SYNTAX),
                Arguments.of("/*!SET STATEMENT max_statement_time=0 FOR*/ SELECT id FROM claims", ErrorCode.UNSAFE_SYNTAX),
                Arguments.of("SELECT /*+ SET_VAR(sql_mode='') */ id FROM claims", ErrorCode.UNSAFE_SYNTAX),
                Arguments.of("SELECT id FROM claims WHERE 1=1 --x\n UNION SELECT password FROM users", ErrorCode.UNSAFE_SYNTAX),
                Arguments.of("SELECT id FROM claims // x", ErrorCode.UNSAFE_SYNTAX),
                Arguments.of("SELECT id FROM claims # x", ErrorCode.UNSAFE_SYNTAX),
                Arguments.of("SELECT id FROM claims WHERE region = 'a\\' OR 1=1 -- '", ErrorCode.UNSAFE_SYNTAX),
                // "a" is the string 'a' under the server's default mode (renderedSqlHasNoCommentsAndQuotesStringsItself); after
                // an introducer it is refused
                Arguments.of("SELECT id FROM claims WHERE region = _latin1\"a\" ", ErrorCode.UNSAFE_SYNTAX),
                Arguments.of("SELECT {fn version()}", ErrorCode.UNSAFE_SYNTAX),
                Arguments.of("SELECT id FROM claims /* a /* b */", ErrorCode.UNSAFE_SYNTAX),
                Arguments.of("SELECT id FROM claims /* open", ErrorCode.UNSAFE_SYNTAX),
                Arguments.of("SELECT 'open FROM claims", ErrorCode.SYNTAX_ERROR),
                Arguments.of("SELECT id FROM claims -- fine\n", null),
                Arguments.of("   ", ErrorCode.EMPTY_QUERY),
                Arguments.of(";", null),
                Arguments.of("SELEC id FROM claims", ErrorCode.SYNTAX_ERROR));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("refused")
    void refusesEveryVector(String sql, ErrorCode expected) {
        ErrorCode got = code(sql);
        if (expected == null) {
            // the exact code depends on where the parser gives up; what matters is that it is refused
            boolean refused = got != null;
            boolean trailingSemicolonOrComment = sql.equals("SELECT id FROM claims;") || sql.startsWith("SELECT id FROM claims -- fine");
            assertThat(refused || trailingSemicolonOrComment).as("refused: %s", sql).isTrue();
            if (trailingSemicolonOrComment) {
                assertThat(got).isNull();
            }
        } else {
            assertThat(got).as(sql).isEqualTo(expected);
        }
    }

    @Test
    void renderedSqlHasNoCommentsAndQuotesStringsItself() {
        QueryPlan p = plan("SELECT id /* harmless */ FROM claims WHERE region = 'it''s' -- trailing\n");
        assertThat(p.executableSql()).doesNotContain("/*").doesNotContain("--").contains("'it''s'");
        // a double-quoted run is the string the server's default mode reads
        assertThat(plan("SELECT id FROM claims WHERE region = \"it's\" ").executableSql()).contains("= 'it''s'").doesNotContain("\"");
    }

    @Test
    @Timeout(10)
    void boundsCostBeforeParsing() {
        java.util.Set<Thread> before = Thread.getAllStackTraces().keySet();
        String deep = "SELECT id FROM claims WHERE " + "(".repeat(33) + "id = 1" + ")".repeat(33);
        assertThat(code(deep)).isEqualTo(ErrorCode.QUERY_TOO_COMPLEX);
        String ok = "SELECT id FROM claims WHERE " + "(".repeat(30) + "id = 1" + ")".repeat(30);
        assertThat(code(ok)).isNull();
        String huge = "SELECT id FROM claims WHERE id IN (" + "1, ".repeat(60_000) + "1)";
        assertThat(code(huge)).isEqualTo(ErrorCode.QUERY_TOO_LONG);
        String nots = "SELECT id FROM claims WHERE " + "NOT ".repeat(20_000) + "id = 1";
        assertThat(code(nots)).isIn(ErrorCode.QUERY_TOO_COMPLEX, ErrorCode.SYNTAX_ERROR);
        // parsing happens on the caller's thread: no parser worker is left behind
        assertThat(Thread.getAllStackTraces().keySet()).allMatch(t -> before.contains(t) || !t.isAlive() || t.isDaemon() && t.getName().startsWith("surefire"));
    }

    @Test
    void dialectLiteralsAndOperatorsRenderExplicitly() {
        QueryPlan p = plan("SELECT CAST(amount AS DECIMAL(10,2)) AS a, -amount AS n, NOT (id > 3) AS b FROM claims "
                + "WHERE created BETWEEN DATE '2024-01-01' AND DATE '2024-12-31' AND status IN ('A', 'B') AND region IS NOT NULL "
                + "AND region NOT LIKE 'x%' AND id % 2 = 0 OR TRUE");
        assertThat(p.executableSql()).contains("CAST(`t1`.`amount` AS DECIMAL(10, 2)) AS `a`")
                .contains("(`t1`.`created` BETWEEN DATE '2024-01-01' AND DATE '2024-12-31')")
                .contains("(`t1`.`status` IN ('A', 'B'))").contains("(NOT (`t1`.`region` <=> NULL))")
                .contains("(`t1`.`region` NOT LIKE 'x%')").contains("OR TRUE)");
    }

    @Test
    void policyFunctionsReplaceTheDefaults() {
        var policy = TestSchemas.policy().withFunctions(java.util.Set.of("lower", "count"));
        MySqlValidator custom = new MySqlValidator("src", TestSchemas.snapshot(), policy, Optional.of(5000L));
        QueryPlan p = custom.validate(QueryRequest.of("src", "SELECT lower(name) AS n FROM users", List.of()));
        assertThat(p.executableSql()).startsWith("SELECT /*+ MAX_EXECUTION_TIME(5000) */ lower(`t1`.`name`) AS `n`");
        assertThatThrownBy(() -> custom.validate(QueryRequest.of("src", "SELECT sum(id) FROM users", List.of())))
                .extracting(e -> ((GuardException) e).code()).isEqualTo(ErrorCode.FUNCTION_NOT_ALLOWED);
        var withToday = TestSchemas.policy().withFunctions(java.util.Set.of("count", "current_date"));
        MySqlValidator today = new MySqlValidator("src", TestSchemas.snapshot(), withToday, Optional.empty());
        assertThat(today.validate(QueryRequest.of("src", "SELECT count(*) AS n FROM claims WHERE created < current_date()", List.of()))
                .executableSql()).contains("(`t1`.`created` < CURRENT_DATE)");
        assertThatThrownBy(() -> custom.validate(QueryRequest.of("src", "SELECT id FROM claims WHERE created < CURRENT_DATE", List.of())))
                .extracting(e -> ((GuardException) e).code()).isEqualTo(ErrorCode.FUNCTION_NOT_ALLOWED);
        var withSleep = TestSchemas.policy().withFunctions(java.util.Set.of("sleep"));
        MySqlValidator unsafe = new MySqlValidator("src", TestSchemas.snapshot(), withSleep, Optional.empty());
        assertThatThrownBy(() -> unsafe.validate(QueryRequest.of("src", "SELECT sleep(1)", List.of())))
                .extracting(e -> ((GuardException) e).code()).isEqualTo(ErrorCode.FUNCTION_NOT_ALLOWED);
    }
}
