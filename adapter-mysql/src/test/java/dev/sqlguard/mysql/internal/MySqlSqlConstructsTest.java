package dev.sqlguard.mysql.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.sqlguard.domain.Amplification;
import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.ColumnUse;
import dev.sqlguard.domain.CostClass;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.FlowStep;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.domain.UsePosition;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.ColumnInfo;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.TableInfo;

/** Each analytical construct: how it is rendered, and the facts it reports for the domain to decide on. */
class MySqlSqlConstructsTest {
    private static final TableRef USERS = TableRef.of("guard", "users");
    private static final TableRef CLAIMS = TableRef.of("guard", "claims");
    private static final ColumnRef PASSWORD = new ColumnRef(USERS, "password");

    private final MySqlValidator validator = TestSchemas.validator();

    private QueryPlan plan(String sql, Object... params) {
        return validator.validate(QueryRequest.of("src", sql, params));
    }

    private QueryPlan authorized(String sql, Object... params) {
        return TestSchemas.authorized(validator, TestSchemas.policy(), sql, params);
    }

    private GuardException refusal(String sql) {
        try {
            authorized(sql);
        } catch (GuardException e) {
            return e;
        }
        throw new AssertionError("not refused: " + sql);
    }

    private static Set<UsePosition> positions(QueryPlan p, ColumnRef column) {
        return p.uses().stream().filter(u -> u.column().equals(column)).map(ColumnUse::position).collect(Collectors.toSet());
    }

    @Test
    void scalarSubqueriesAreRenderedQualifiedAndCorrelated() {
        QueryPlan p = authorized("SELECT name, (SELECT count(*) FROM claims c WHERE c.id = u.id) AS n FROM users u WHERE u.id > (SELECT min(id) FROM claims)");
        assertThat(p.executableSql()).isEqualTo("SELECT `t1`.`name` AS `name`, (SELECT count(*) AS `count(*)` FROM `guard`.`claims` AS `t2`"
                + " WHERE (`t2`.`id` = `t1`.`id`)) AS `n` FROM `guard`.`users` AS `t1` WHERE (`t1`.`id` > (SELECT min(`t3`.`id`) AS `min(id)`"
                + " FROM `guard`.`claims` AS `t3`)) LIMIT 101");
        assertThat(p.tables()).containsExactlyInAnyOrder(USERS, CLAIMS);
        assertThat(positions(p, new ColumnRef(USERS, "id"))).contains(UsePosition.FILTER);
    }

    @Test
    void inAndExistsSubqueriesReportSubqueryPredicates() {
        QueryPlan p = plan("SELECT id FROM claims WHERE region IN (SELECT password FROM users)");
        assertThat(p.executableSql()).contains("WHERE (`t1`.`region` IN (SELECT `t2`.`password` AS `password` FROM `guard`.`users` AS `t2`))");
        assertThat(positions(p, PASSWORD)).contains(UsePosition.SUBQUERY_PREDICATE);
        assertThat(positions(p, new ColumnRef(CLAIMS, "region"))).contains(UsePosition.SUBQUERY_PREDICATE, UsePosition.FILTER);
        assertThat(plan("SELECT id FROM claims c WHERE NOT EXISTS (SELECT 1 FROM regions r WHERE r.region = c.region)").executableSql())
                .contains("WHERE (NOT (EXISTS (SELECT 1 AS `1` FROM `guard`.`regions` AS `t2` WHERE (`t2`.`region` = `t1`.`region`))))");
        assertThat(plan("SELECT id FROM claims WHERE id > ALL (SELECT id FROM users)").executableSql())
                .contains("(`t1`.`id` > ALL (SELECT `t2`.`id` AS `id` FROM `guard`.`users` AS `t2`))");
        assertThat(refusal("SELECT id FROM claims WHERE id IN (SELECT id FROM users WHERE password LIKE 'a%')").code())
                .isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
        assertThat(refusal("SELECT id FROM claims WHERE region NOT IN (SELECT password FROM users)").getMessage())
                .contains("'password'").contains("filter rows");
    }

    /**
     * Rows of values (MariaDB 10.11 runs them): each value is rendered as a single value is and used as one
     * is, in IN (subquery) as a subquery predicate, in a comparison under the comparison's step.
     */
    @Test
    void rowsOfValuesAreRenderedValueByValueAndEachValueIsUsedAsASingleOneIs() {
        QueryPlan p = plan("SELECT id FROM claims WHERE (id, region) IN (SELECT id, password FROM users)");
        assertThat(p.executableSql()).contains("WHERE ((`t1`.`id`, `t1`.`region`) IN (SELECT `t2`.`id` AS `id`,"
                + " `t2`.`password` AS `password` FROM `guard`.`users` AS `t2`))");
        assertThat(positions(p, PASSWORD)).contains(UsePosition.SUBQUERY_PREDICATE);
        assertThat(positions(p, new ColumnRef(CLAIMS, "region"))).contains(UsePosition.SUBQUERY_PREDICATE, UsePosition.FILTER);
        assertThat(positions(p, new ColumnRef(USERS, "id"))).contains(UsePosition.SUBQUERY_PREDICATE);
        assertThat(refusal("SELECT id FROM claims WHERE (id, region) NOT IN (SELECT id, password FROM users)").getMessage())
                .contains("'password'").contains("filter rows");
        assertThat(plan("SELECT id FROM users WHERE ((id, name)) = (1, 'x') OR (id, name) <=> (2, NULL) OR (abs(7), upper(name)) < (20, 'W')")
                .executableSql()).contains("WHERE ((((`t1`.`id`, `t1`.`name`) = (1, 'x')) OR ((`t1`.`id`, `t1`.`name`) <=> (2, NULL)))"
                        + " OR ((abs(7), upper(`t1`.`name`)) < (20, 'W')))");
        assertThat(plan("SELECT id FROM users WHERE (id, name) NOT IN ((1, 'x'), (((2, 'y'))))").executableSql())
                .contains("WHERE ((`t1`.`id`, `t1`.`name`) NOT IN ((1, 'x'), (2, 'y')))");
        QueryPlan compared = plan("SELECT id FROM users WHERE (id, password) > (1, 'h')");
        assertThat(compared.uses()).anySatisfy(u -> {
            assertThat(u.column()).isEqualTo(PASSWORD);
            assertThat(u.position()).isEqualTo(UsePosition.FILTER);
            assertThat(u.chain()).containsExactly(FlowStep.partial(">"));
        });
        for (String sql : List.of("SELECT id FROM users WHERE (id, password) > (1, 'h')", "SELECT (id, password) = (1, 'x') AS x FROM users",
                "SELECT id FROM users WHERE (1, 'hunter2-alice-pw') IN (SELECT id, password FROM users)",
                "SELECT id FROM users WHERE (id, name) IN ((1, password), (2, 'y'))")) {
            assertThat(refusal(sql).code()).as(sql).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
        }
    }

    /** What the server refuses (a width mismatch, a row against a single value) and what is not checked, refused. */
    @ParameterizedTest
    @ValueSource(strings = {"SELECT id FROM users WHERE (id, name) = (1, 'x', 3)", "SELECT id FROM users WHERE (id, name) IN (SELECT id FROM users)",
            "SELECT id FROM users WHERE (id, name) IN (SELECT id, name, id FROM users)", "SELECT id FROM users WHERE (id, name) IN (1, 2)",
            "SELECT id FROM users WHERE (id, name) IN ((1, 'x'), 3)", "SELECT id FROM users WHERE (id, name) IN ((1, 'x'), (2, 'y', 3))",
            "SELECT id FROM users WHERE id IN ((1, 2))", "SELECT id FROM users WHERE (id, name) = 1", "SELECT id FROM users WHERE 1 = (id, name)",
            "SELECT id FROM users WHERE (id, (name, id)) = (1, ('x', 2))", "SELECT id FROM users WHERE (id, name) = ANY (SELECT id, name FROM users)",
            "SELECT id FROM users WHERE (id, name) = (SELECT id, name FROM users LIMIT 1)", "SELECT id FROM users WHERE (id, name) = ROW(1, 'x')",
            "SELECT id FROM users WHERE (id, name) IS NULL", "SELECT id FROM users WHERE (id, name) BETWEEN (0, 'a') AND (9, 'z')",
            "SELECT id FROM users WHERE (id, name) LIKE 'x'", "SELECT id FROM users WHERE (id, name) + 1 = 2", "SELECT (id, name) FROM users",
            "SELECT id FROM users ORDER BY (id, name)", "SELECT id FROM users WHERE 1 = (id, name) = (1, 'x')",
            "SELECT id FROM users WHERE CASE (id, name) WHEN (1, 'x') THEN 1 ELSE 0 END = 1"})
    void rowsTheServerRefusesOrThatAreNotCheckedAreRefused(String sql) {
        assertThat(refusal(sql).code()).as(sql).isIn(ErrorCode.SYNTAX_ERROR, ErrorCode.UNSAFE_SYNTAX);
    }

    /** A row's values are checked for grouping as any parenthesised expression is; a row cannot open a way around it. */
    @Test
    void aRowsValuesAreCheckedForOperatorGrouping() {
        assertThat(refusal("SELECT id FROM users WHERE (id = 1 OR id = 2 XOR id = 3, 2) = (1, 2)").getMessage()).contains("add parentheses");
        assertThat(refusal("SELECT id FROM users WHERE (id, 2) IN ((0 = NOT 0, 2))").getMessage()).contains("add parentheses");
        assertThat(refusal("SELECT id FROM users WHERE (id, 1) <=> (id, 0 = NOT 0)").getMessage()).contains("add parentheses");
        assertThat(refusal("SELECT id FROM users WHERE (id, name) IN (SELECT id, name FROM users WHERE id = 1 OR id = 2 XOR id = 3)").getMessage())
                .contains("add parentheses");
        // MariaDB reads NOT after the comparison and a chain left to right, as the renderer writes them
        assertThat(plan("SELECT id FROM users WHERE NOT (id, name) = (1, 'x')").executableSql())
                .contains("WHERE (NOT ((`t1`.`id`, `t1`.`name`) = (1, 'x')))");
        assertThat(plan("SELECT id FROM users WHERE (id, name) = (1, 'x') = 0").executableSql())
                .contains("WHERE ((((`t1`.`id`, `t1`.`name`) = (1, 'x'))) = 0)");
    }

    @Test
    void derivedTablesCarryLineageAndFlows() {
        QueryPlan p = authorized("SELECT x.p, x.n FROM (SELECT upper(password) AS p, name AS n FROM users) x WHERE x.n = 'a'");
        assertThat(SelectRenderer.unmasked(p, Optional.empty())).isEqualTo("SELECT `t1`.`p` AS `p`, `t1`.`n` AS `n` FROM (SELECT upper(`t2`.`password`) AS `p`,"
                + " `t2`.`name` AS `n` FROM `guard`.`users` AS `t2`) AS `t1` WHERE (`t1`.`n` = 'a') LIMIT 101");
        assertThat(p.outputs().get(0).lineage()).containsExactly(PASSWORD);
        ColumnUse output = p.uses().stream().filter(u -> u.column().equals(PASSWORD) && u.position() == UsePosition.OUTPUT).findFirst().orElseThrow();
        assertThat(output.chain()).containsExactly(FlowStep.total("upper"));
        assertThat(refusal("SELECT x.p FROM (SELECT upper(password) AS p FROM users) x WHERE x.p = 'A'").getMessage())
                .contains("'password'").contains("filter rows");
        // a derived table's column computed through a partial step fails closed even when not selected outside
        assertThat(refusal("SELECT 1 AS one FROM (SELECT pow(ascii(substring(password, 8, 1)), 155) AS x FROM users) t").code())
                .isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
    }

    @Test
    void ctesIncludingRecursiveOnesAreRenderedUnderGeneratedNames() {
        QueryPlan p = authorized("WITH big AS (SELECT id, amount FROM claims WHERE amount > 10), b2 AS (SELECT id FROM big) SELECT count(*) AS n FROM b2");
        assertThat(p.executableSql()).isEqualTo("WITH `cte1` (`id`, `amount`) AS (SELECT `t1`.`id` AS `id`, `t1`.`amount` AS `amount`"
                + " FROM `guard`.`claims` AS `t1` WHERE (`t1`.`amount` > 10)), `cte2` (`id`) AS (SELECT `t2`.`id` AS `id` FROM `cte1` AS `t2`)"
                + " SELECT count(*) AS `n` FROM `cte2` AS `t3` LIMIT 101");
        QueryPlan r = authorized("WITH RECURSIVE seq (n, p) AS (SELECT 1, password FROM users WHERE id = 1 UNION ALL SELECT n + 1, p FROM seq WHERE n < 5) SELECT n, p FROM seq");
        assertThat(SelectRenderer.unmasked(r, Optional.empty())).startsWith("WITH RECURSIVE `cte1` (`n`, `p`) AS (");
        assertThat(r.outputs().get(1).lineage()).containsExactly(PASSWORD);
        // the recursive step's use of p reaches the CTE's column, and from there the filter
        assertThat(refusal("WITH RECURSIVE s (n, p) AS (SELECT 1, password FROM users UNION ALL SELECT n + 1, p FROM s WHERE p LIKE 'a%' AND n < 3) SELECT n FROM s").code())
                .isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
        assertThat(refusal("WITH p AS (SELECT password FROM users) SELECT count(*) AS n FROM p WHERE password > 'm'").code())
                .isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
    }

    @Test
    void setOperationsCompareRowsExceptUnionAll() {
        QueryPlan all = plan("SELECT password FROM users UNION ALL SELECT name FROM users ORDER BY 1 LIMIT 5");
        assertThat(SelectRenderer.unmasked(all, Optional.empty())).isEqualTo("(SELECT `t1`.`password` AS `password` FROM `guard`.`users` AS `t1`) UNION ALL"
                + " (SELECT `t2`.`name` AS `name` FROM `guard`.`users` AS `t2`) ORDER BY 1 LIMIT 5");
        assertThat(all.outputs().get(0).lineage()).containsExactlyInAnyOrder(PASSWORD, new ColumnRef(USERS, "name"));
        assertThat(positions(all, PASSWORD)).contains(UsePosition.ORDERING).doesNotContain(UsePosition.SET_COMPARISON);
        assertThat(authorized("SELECT password FROM users UNION ALL SELECT name FROM users").outputs()).hasSize(1);
        QueryPlan ordered = plan("SELECT id FROM claims UNION SELECT id FROM users ORDER BY id DESC");
        assertThat(ordered.executableSql()).endsWith("ORDER BY 1 DESC LIMIT 101");
        assertThat(positions(ordered, new ColumnRef(CLAIMS, "id"))).contains(UsePosition.SET_COMPARISON);
        for (String op : List.of("UNION", "INTERSECT", "EXCEPT", "UNION DISTINCT")) {
            assertThat(refusal("SELECT password FROM users " + op + " SELECT 'guess'").getMessage()).as(op)
                    .contains("compared by a set operation");
        }
    }

    @Test
    void windowFunctionsRenderFramesAndReportWindowUses() {
        QueryPlan p = authorized("SELECT id, sum(amount) OVER (PARTITION BY region ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS s,"
                + " rank() OVER (ORDER BY amount DESC) AS r, count(*) OVER () AS n FROM claims");
        assertThat(p.executableSql()).contains("sum(`t1`.`amount`) OVER (PARTITION BY `t1`.`region` ORDER BY `t1`.`id` ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS `s`")
                .contains("rank() OVER (ORDER BY `t1`.`amount` DESC) AS `r`").contains("count(*) OVER () AS `n`");
        assertThat(positions(p, new ColumnRef(CLAIMS, "region"))).contains(UsePosition.WINDOW);
        assertThat(refusal("SELECT id, lag(password) OVER (ORDER BY password) AS x FROM users").getMessage()).contains("partition or order a window");
        assertThat(authorized("SELECT id, lag(password) OVER (ORDER BY id) AS x FROM users").outputs().get(1).lineage()).containsExactly(PASSWORD);
    }

    @Test
    void caseIntervalCastAndGroupConcatRenderExplicitly() {
        QueryPlan p = authorized("SELECT CASE WHEN amount > 10 THEN 'big' ELSE 'small' END AS size, created + INTERVAL 7 DAY AS due,"
                + " date_add(created, INTERVAL 1 MONTH) AS m, CAST(amount AS FLOAT) AS f, CAST(amount AS DOUBLE) AS d, CAST(id AS SIGNED) AS s,"
                + " CAST(amount AS DECIMAL(10,1)) AS dc, CAST(id AS CHAR) AS c, CAST(created AS DATE) AS dt, extract(YEAR FROM created) AS y FROM claims");
        assertThat(p.executableSql()).contains("(CASE WHEN (`t1`.`amount` > 10) THEN 'big' ELSE 'small' END) AS `size`")
                .contains("(`t1`.`created` + INTERVAL 7 DAY) AS `due`").contains("date_add(`t1`.`created`, INTERVAL 1 MONTH) AS `m`")
                .contains("CAST(`t1`.`amount` AS FLOAT)").contains("CAST(`t1`.`amount` AS DOUBLE)").contains("CAST(`t1`.`id` AS SIGNED)")
                .contains("CAST(`t1`.`amount` AS DECIMAL(10, 1))").contains("CAST(`t1`.`id` AS CHAR)").contains("CAST(`t1`.`created` AS DATE)")
                .contains("EXTRACT(YEAR FROM `t1`.`created`)");
        QueryPlan g = authorized("SELECT region, group_concat(DISTINCT status ORDER BY status DESC SEPARATOR '; ') AS s FROM claims GROUP BY region");
        assertThat(g.executableSql()).contains("group_concat(DISTINCT `t1`.`status` ORDER BY `t1`.`status` DESC SEPARATOR '; ') AS `s`");
        assertThat(refusal("SELECT group_concat(name ORDER BY password) AS s FROM users").getMessage()).contains("order rows");
        assertThat(authorized("SELECT CAST(password AS CHAR) AS p FROM users").outputs().get(0).lineage()).containsExactly(PASSWORD);
        assertThat(refusal("SELECT CAST(password AS SIGNED) AS p FROM users").code()).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
    }

    @Test
    void joinsWithoutOnCommaAndCrossJoinsAreRendered() {
        assertThat(plan("SELECT c.id, r.manager FROM claims c, regions r WHERE c.region = r.region").executableSql())
                .contains("FROM `guard`.`claims` AS `t1`, `guard`.`regions` AS `t2` WHERE (`t1`.`region` = `t2`.`region`)");
        assertThat(plan("SELECT count(*) AS n FROM claims CROSS JOIN regions").executableSql()).contains("`t1` CROSS JOIN `guard`.`regions` AS `t2`");
        assertThat(plan("SELECT count(*) AS n FROM claims JOIN regions").executableSql()).contains("`t1` INNER JOIN `guard`.`regions` AS `t2` LIMIT");
        assertThat(plan("SELECT r.manager FROM claims c RIGHT JOIN regions r ON c.region = r.region").executableSql()).contains(" RIGHT JOIN ");
        assertThat(refusal("SELECT count(*) AS n FROM users a JOIN users b ON a.password = b.password").getMessage()).contains("join tables");
    }

    @Test
    void wildcardsExpandToTheAllowlistedColumnsOnly() {
        QueryPlan p = authorized("SELECT * FROM claims");
        assertThat(p.outputs()).extracting(o -> o.name()).containsExactly("id", "region", "amount", "status", "created");
        assertThat(p.executableSql()).doesNotContain("ssn");
        QueryPlan t = authorized("SELECT c.*, r.manager FROM claims c JOIN regions r ON r.region = c.region");
        assertThat(t.outputs()).extracting(o -> o.name()).containsExactly("id", "region", "amount", "status", "created", "manager");
        assertThat(authorized("SELECT x.* FROM (SELECT id, name FROM users) x").outputs()).hasSize(2);
    }

    @Test
    void aHiddenColumnIsIndistinguishableFromAMissingOne() {
        GuardException hidden = refusal("SELECT ssn FROM claims");
        GuardException missing = refusal("SELECT nosuch FROM claims");
        assertThat(hidden.code()).isEqualTo(missing.code()).isEqualTo(ErrorCode.UNKNOWN_COLUMN);
        assertThat(hidden.getMessage().replace("ssn", "X")).isEqualTo(missing.getMessage().replace("nosuch", "X"));
        GuardException hiddenQualified = refusal("SELECT c.ssn FROM claims c");
        GuardException missingQualified = refusal("SELECT c.nosuch FROM claims c");
        assertThat(hiddenQualified.getMessage().replace("ssn", "X")).isEqualTo(missingQualified.getMessage().replace("nosuch", "X"));
        GuardException hiddenTable = refusal("SELECT id FROM secrets");
        GuardException missingTable = refusal("SELECT id FROM nosuch");
        assertThat(hiddenTable.code()).isEqualTo(missingTable.code());
        assertThat(hiddenTable.getMessage().replace("secrets", "X")).isEqualTo(missingTable.getMessage().replace("nosuch", "X"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"year", "month", "day", "hour", "minute", "second", "current", "uuid", "number", "window", "enum",
            "unknown", "nchar", "only"})
    void keywordNamedColumnsWorkQualifiedOrNot(String column) {
        TableInfo table = new TableInfo("guard", "kw", List.of(new ColumnInfo("id", "int"), new ColumnInfo(column, "int")), OptionalLong.of(1));
        GuardrailPolicy policy = new GuardrailPolicy(TableAllowlist.of(Optional.of("guard"), Map.of("kw", List.of("*"))),
                Set.of(), Set.of(), Set.of(), TestSchemas.policy().limits());
        MySqlValidator v = new MySqlValidator("src", SchemaSnapshot.caseInsensitive("guard", List.of(table)), policy, Optional.empty());
        String quoted = "`t1`.`" + column + "`";
        for (String sql : List.of("SELECT " + column + " FROM kw WHERE " + column + " > 1 ORDER BY " + column,
                "SELECT k." + column + " FROM kw k WHERE k." + column + " > 1 ORDER BY k." + column,
                "SELECT " + column + ", count(*) AS n FROM kw GROUP BY " + column)) {
            QueryPlan p = TestSchemas.authorized(v, policy, sql);
            assertThat(p.executableSql()).as(sql).contains(quoted + " AS `" + column + "`");
            assertThat(p.outputs().get(0).name()).isEqualToIgnoringCase(column);
        }
    }

    @Test
    void refusedFunctionsAreNamedWithTheClosestAllowlistedNames() {
        assertThat(refusal("SELECT lowr(name) AS n FROM users").getMessage()).contains("'lowr'").contains("Did you mean").contains("'lower'");
        assertThat(refusal("SELECT sleep(1)").getMessage()).contains("'sleep' is never allowed");
    }

    @Test
    void theCatalogueClassifiesEveryFunction() {
        assertThat(MySqlFunctions.costClass("upper")).contains(CostClass.TOTAL);
        assertThat(MySqlFunctions.costClass("group_concat")).contains(CostClass.TOTAL);
        for (String partial : List.of("pow", "exp", "cot", "log", "sqrt", "substring", "ascii", "json_extract", "date_add", "sum")) {
            assertThat(MySqlFunctions.costClass(partial)).as(partial).contains(CostClass.PARTIAL);
        }
        for (String amplifying : List.of("repeat", "lpad", "rpad", "space", "replace")) {
            assertThat(MySqlFunctions.costClass(amplifying)).as(amplifying).contains(CostClass.AMPLIFYING);
        }
        assertThat(MySqlFunctions.defaults()).doesNotContainAnyElementsOf(MySqlFunctions.NEVER_ALLOWED);
        for (MySqlFunctions.Category c : MySqlFunctions.Category.values()) {
            assertThat(MySqlFunctions.names(c)).as(c.name()).isNotEmpty();
        }
    }

    @Test
    void amplifyingCallsNeedLiteralBoundsWithinTheLimits() {
        QueryPlan p = authorized("SELECT repeat('ab', 10) AS a, lpad(name, 12, '*') AS b, repeat(name, 3) AS c, space(4) AS d FROM users");
        assertThat(p.amplifications()).contains(Amplification.absolute("repeat", 20), Amplification.absolute("lpad", 12),
                Amplification.relative("repeat", 3), Amplification.absolute("space", 4));
        assertThat(refusal("SELECT repeat(name, id) AS r FROM users").code()).isEqualTo(ErrorCode.UNBOUNDED_COST);
        assertThat(refusal("SELECT rpad(name, 100000000, 'x') AS r FROM users").code()).isEqualTo(ErrorCode.UNBOUNDED_COST);
        assertThat(refusal("SELECT repeat(name, 1000) AS r FROM users").code()).isEqualTo(ErrorCode.UNBOUNDED_COST);
        assertThat(refusal("SELECT lpad(password, 20, '*') AS r FROM users").code()).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
    }

    @Test
    void theErrorOracleOfPartialFunctionsIsAFactTheDomainRefuses() {
        QueryPlan p = plan("SELECT pow(ascii(substring(password, 8, 1)), 154) AS x FROM users WHERE id = 1");
        ColumnUse use = p.uses().stream().filter(u -> u.column().equals(PASSWORD)).findFirst().orElseThrow();
        assertThat(use.position()).isEqualTo(UsePosition.OUTPUT);
        assertThat(use.chain()).extracting(FlowStep::operation).containsExactly("substring", "ascii", "pow");
        assertThat(use.firstNonTotal()).contains(FlowStep.partial("substring"));
        assertThat(refusal("SELECT pow(ascii(substring(password, 8, 1)), 154) AS x FROM users WHERE id = 1").getMessage())
                .contains("'password'").contains("not computed on or compared");
    }

    @Test
    void chainedComparisonsAreReadLeftToRightAsMariaDbReadsThem() {
        assertThat(plan("SELECT id FROM claims WHERE id = amount = 1").executableSql())
                .contains("WHERE (((`t1`.`id` = `t1`.`amount`)) = 1)");
        assertThat(plan("SELECT id = amount = 1 = 0 AS x FROM claims").executableSql())
                .startsWith("SELECT (((((`t1`.`id` = `t1`.`amount`)) = 1)) = 0) AS `x`");
        assertThat(plan("SELECT id FROM claims WHERE region = 'a' AND id + 1 > amount * 2 = 1").executableSql())
                .contains("AND ((((`t1`.`id` + 1) > (`t1`.`amount` * 2))) = 1))");
        assertThat(plan("SELECT id FROM claims WHERE NOT id = amount = 1").executableSql())
                .contains("WHERE (NOT (((`t1`.`id` = `t1`.`amount`)) = 1))");
        // a chain through a keyword operator is not rewritten, and stays refused
        assertThat(refusal("SELECT id FROM claims WHERE region LIKE 'a' = 1 = id").code()).isEqualTo(ErrorCode.SYNTAX_ERROR);
        // a chain over a sensitive value is a fact like any other
        assertThat(refusal("SELECT id FROM users WHERE password = 'x' = 1").code()).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
        assertThat(ChainedComparisons.parenthesise("SELECT 'a = b = c' AS s")).isEqualTo("SELECT 'a = b = c' AS s");
    }

    /**
     * A sensitive output is masked by a query around the statement, after its own ordering and row bound:
     * a WITH column list names the statement's columns by position (two outputs may share a label, which a
     * derived table would refuse), each masked output is a NULL of its own type under its own label, and the
     * optimizer hint moves to the outer query block, the only one MySQL reads it in. A statement without a
     * sensitive output is rendered as before.
     */
    @Test
    void aSensitiveOutputIsMaskedByAQueryAroundTheStatement() {
        QueryPlan p = authorized("SELECT id, password FROM users ORDER BY id DESC");
        assertThat(p.maskedOutputs()).containsExactly(1);
        assertThat(p.executableSql()).isEqualTo("WITH `sqlguard_result` (`c1`, `c2`) AS (SELECT `t1`.`id` AS `id`, `t1`.`password` AS `password`"
                + " FROM `guard`.`users` AS `t1` ORDER BY `t1`.`id` DESC LIMIT 101) SELECT `sqlguard_result`.`c1` AS `id`,"
                + " CASE WHEN 1 = 0 THEN `sqlguard_result`.`c2` END AS `password` FROM `sqlguard_result` LIMIT 101");
        QueryPlan same = authorized("SELECT u.name, v.password AS name FROM users u JOIN users v ON u.id = v.id");
        assertThat(same.maskedOutputs()).containsExactly(1);
        assertThat(same.executableSql()).startsWith("WITH `sqlguard_result` (`c1`, `c2`) AS (SELECT `t1`.`name` AS `name`, `t2`.`password` AS `name`")
                .endsWith(") SELECT `sqlguard_result`.`c1` AS `name`, CASE WHEN 1 = 0 THEN `sqlguard_result`.`c2` END AS `name` FROM `sqlguard_result` LIMIT 101");
        QueryPlan withCte = authorized("WITH x AS (SELECT id, api_key FROM users) SELECT api_key, id FROM x");
        assertThat(withCte.maskedOutputs()).containsExactly(0);
        assertThat(withCte.executableSql()).startsWith("WITH `sqlguard_result` (`c1`, `c2`) AS (WITH `cte1` (`id`, `api_key`) AS (");
        // the parameters keep their order: none is added
        QueryPlan bound = authorized("SELECT password, id FROM users WHERE id = ? AND name <> ?", 1, "x");
        assertThat(bound.parameters()).containsExactly(1L, "x");
        assertThat(bound.executableSql().chars().filter(c -> c == '?').count()).isEqualTo(2);

        MySqlValidator mysql8 = new MySqlValidator("src", TestSchemas.snapshot(), TestSchemas.policy(), Optional.of(5000L));
        String hinted = mysql8.validate(QueryRequest.of("src", "SELECT id, password FROM users UNION ALL SELECT id, name FROM users")).executableSql();
        assertThat(hinted).startsWith("WITH `sqlguard_result` (`c1`, `c2`) AS ((SELECT `t1`.`id`")
                .contains(") SELECT /*+ MAX_EXECUTION_TIME(5000) */ `sqlguard_result`.`c1` AS `id`, CASE WHEN 1 = 0 THEN");
        assertThat(hinted.split("MAX_EXECUTION_TIME", -1)).hasSize(2);
        assertThat(mysql8.validate(QueryRequest.of("src", "SELECT id, name FROM users")).executableSql())
                .isEqualTo("SELECT /*+ MAX_EXECUTION_TIME(5000) */ `t1`.`id` AS `id`, `t1`.`name` AS `name` FROM `guard`.`users` AS `t1` LIMIT 101");
    }

    @Test
    void theMySqlTimeHintAppearsOnceAfterTheStatementsFirstSelect() {
        MySqlValidator mysql8 = new MySqlValidator("src", TestSchemas.snapshot(), TestSchemas.policy(), Optional.of(5000L));
        String hint = "/*+ MAX_EXECUTION_TIME(5000) */";
        String with = mysql8.validate(QueryRequest.of("src", "WITH x AS (SELECT id FROM claims) SELECT id FROM x WHERE id IN (SELECT id FROM users)")).executableSql();
        assertThat(with).startsWith("WITH `cte1` (`id`) AS (SELECT `t1`.`id`").contains(") SELECT " + hint + " `t2`.`id`");
        assertThat(with.split("MAX_EXECUTION_TIME", -1)).hasSize(2);
        String union = mysql8.validate(QueryRequest.of("src", "SELECT id FROM claims UNION SELECT id FROM users")).executableSql();
        assertThat(union).startsWith("(SELECT " + hint + " `t1`.`id`");
        assertThat(union.split("MAX_EXECUTION_TIME", -1)).hasSize(2);
    }

    @Test
    void aFallbackThatCanFailMakesCoalesceAnOracleOnNulls() {
        // coalesce evaluates its fallback only where the value is NULL: a failing fallback tells which values are NULL
        assertThat(refusal("SELECT coalesce(password, pow(10, 400 + id - id)) AS x FROM users").getMessage())
                .contains("'password'").contains("coalesce fallback");
        assertThat(refusal("SELECT ifnull(password, (SELECT name FROM users)) AS x FROM users").code()).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
        assertThat(authorized("SELECT coalesce(password, 'none') AS x, ifnull(api_key, name) AS y FROM users").outputs()).hasSize(2);
        assertThat(authorized("SELECT coalesce(pow(id, 2), password) AS x FROM users").outputs()).hasSize(1);
        // concat stops at the first NULL: a failing later argument tells whether password is NULL
        assertThat(refusal("SELECT concat(password, pow(10, 400 + id - id)) AS x FROM users").getMessage())
                .contains("'password'").contains("concat before a failing argument");
        assertThat(authorized("SELECT concat(pow(id, 2), password) AS x, concat(name, password) AS y FROM users").outputs()).hasSize(2);
        // group_concat skips rows whose arguments are NULL before computing their ORDER BY keys
        assertThat(refusal("SELECT group_concat(password ORDER BY pow(10, 400 + id - id)) AS x FROM users").getMessage())
                .contains("'password'").contains("group_concat before a failing ORDER BY");
        assertThat(authorized("SELECT group_concat(password ORDER BY id) AS x FROM users").outputs()).hasSize(1);
    }

    @Test
    void aBareTableNameIsNotReadAsAnOuterColumn() {
        assertThat(refusal("SELECT (SELECT u FROM users u WHERE u.id = x.u) AS v FROM (SELECT 1 AS u) x").code())
                .isEqualTo(ErrorCode.AMBIGUOUS_COLUMN);
    }

    @Test
    void parametersBindInTextOrderThroughSubqueriesAndCtes() {
        QueryPlan p = plan("WITH c AS (SELECT id FROM claims WHERE region = ?) SELECT ? AS tag, id FROM c WHERE id IN (SELECT id FROM users WHERE name = ?)",
                "north", "t", "alice");
        assertThat(p.parameters()).containsExactly("north", "t", "alice");
        assertThat(p.executableSql().chars().filter(ch -> ch == '?').count()).isEqualTo(3);
        assertThat(p.executableSql()).doesNotContain("\u0000");
    }

    @Test
    void regexpAndRlikeAreRenderedAsRegexpAndArePartial() {
        QueryPlan p = authorized("SELECT id FROM claims WHERE region REGEXP '^n' OR status NOT RLIKE ?", "PAID");
        assertThat(p.executableSql()).contains("WHERE ((`t1`.`region` REGEXP '^n') OR (`t1`.`status` NOT REGEXP ?))");
        assertThat(positions(p, new ColumnRef(CLAIMS, "region"))).contains(UsePosition.FILTER);
        // a pattern the server cannot compile fails: the step is partial, and a sensitive value may not pass it
        assertThat(refusal("SELECT id FROM users WHERE password REGEXP '^a'").code()).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
        assertThat(refusal("SELECT password REGEXP '^a' AS x FROM users").code()).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
        assertThat(refusal("SELECT id FROM claims WHERE region REGEXP BINARY 'n'").code()).isEqualTo(ErrorCode.CONSTRUCT_NOT_ALLOWED);
        // REGEXP binds like LIKE on the server: an unparenthesised arithmetic operand is fine, a comparison is not
        assertThat(refusal("SELECT id FROM claims WHERE region = 'x' REGEXP 'y'").code())
                .isIn(ErrorCode.UNSAFE_SYNTAX, ErrorCode.SYNTAX_ERROR);
        // a hidden column stays hidden inside a pattern
        assertThat(refusal("SELECT id FROM claims WHERE ssn REGEXP '^1'").code()).isEqualTo(ErrorCode.UNKNOWN_COLUMN);
    }

    @Test
    void collateIsRenderedOnItsOperandAndIsTotal() {
        QueryPlan p = authorized("SELECT name COLLATE utf8mb4_bin AS n FROM users WHERE name = 'Alice' COLLATE utf8mb4_general_ci ORDER BY name COLLATE utf8mb4_bin");
        assertThat(p.executableSql()).startsWith("SELECT (`t1`.`name` COLLATE utf8mb4_bin) AS `n` FROM `guard`.`users` AS `t1` WHERE (`t1`.`name` = ('Alice' COLLATE utf8mb4_general_ci))");
        assertThat(p.executableSql()).contains("ORDER BY (`t1`.`name` COLLATE utf8mb4_bin)");
        // a sensitive value may be returned (redacted) under another collation, never ordered or filtered by it
        assertThat(authorized("SELECT password COLLATE utf8mb4_bin AS p FROM users").outputs()).hasSize(1);
        assertThat(refusal("SELECT id FROM users ORDER BY password COLLATE utf8mb4_bin").code()).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
        assertThat(refusal("SELECT id FROM users WHERE name COLLATE `utf8mb4_bin` = 'a'").code())
                .isIn(ErrorCode.CONSTRUCT_NOT_ALLOWED, ErrorCode.SYNTAX_ERROR);
        // the server binds COLLATE tighter than a sign, and so does the parser
        assertThat(plan("SELECT -id COLLATE utf8mb4_bin AS x FROM users").executableSql()).startsWith("SELECT (-(`t1`.`id` COLLATE utf8mb4_bin)) AS `x`");
        // a column named window is still a column; WINDOW name AS ( is the clause
        assertThat(plan("SELECT id, count(*) OVER w AS n FROM claims WINDOW w AS (ORDER BY id)").executableSql()).contains("OVER (ORDER BY `t1`.`id`)");
    }

    @Test
    void convertUsingIsRenderedAndConvertWithATypeBecomesACast() {
        QueryPlan p = authorized("SELECT CONVERT(name USING utf8mb4) AS n, CONVERT(password USING latin1) AS p FROM users");
        assertThat(SelectRenderer.unmasked(p, Optional.empty())).startsWith("SELECT CONVERT(`t1`.`name` USING utf8mb4) AS `n`, CONVERT(`t1`.`password` USING latin1) AS `p`");
        assertThat(p.outputs().get(1).lineage()).containsExactly(PASSWORD);
        // JSqlParser reads CONVERT(a, CHAR(10)) as SQL Server's CONVERT(type, value); the server reads CAST(a AS CHAR(10))
        assertThat(authorized("SELECT CONVERT(name, CHAR(10)) AS n FROM users").executableSql())
                .startsWith("SELECT CAST(`t1`.`name` AS CHAR(10)) AS `n` FROM");
        assertThat(plan("SELECT CONVERT(amount + 1, DECIMAL(10, 2)) AS a, convert(created,date) AS d, CONVERT(id, SIGNED INTEGER) AS i FROM claims")
                .executableSql()).startsWith("SELECT CAST((`t1`.`amount` + 1) AS DECIMAL(10, 2)) AS `a`, CAST(`t1`.`created` AS DATE) AS `d`,"
                        + " CAST(`t1`.`id` AS SIGNED INTEGER) AS `i` FROM");
        // nested, inside USING, with a comma inside the value, a parameter, a string holding "CONVERT(" and a comment
        assertThat(plan("SELECT CONVERT(CONVERT(concat(name, ','), CHAR(5)) USING utf8mb4) AS n, CONVERT(?, UNSIGNED) AS u,"
                + " 'CONVERT(a, CHAR)' AS s FROM users WHERE CONVERT /* x */ (id, CHAR) = '1'", 7).executableSql())
                .startsWith("SELECT CONVERT(CAST(concat(`t1`.`name`, ',') AS CHAR(5)) USING utf8mb4) AS `n`, CAST(? AS UNSIGNED) AS `u`,"
                        + " 'CONVERT(a, CHAR)' AS `s` FROM `guard`.`users` AS `t1` WHERE (CAST(`t1`.`id` AS CHAR) = '1')");
        // the same flows as CAST: a text cast passes a sensitive value, any other cast computes on it
        QueryPlan text = authorized("SELECT CONVERT(password, CHAR) AS p FROM users");
        assertThat(text.outputs().get(0).lineage()).containsExactly(PASSWORD);
        assertThat(refusal("SELECT CONVERT(password, SIGNED) AS p FROM users").code()).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
        assertThat(refusal("SELECT id FROM users WHERE CONVERT(password, CHAR) = 'x'").code()).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
        assertThat(refusal("SELECT CONVERT(ssn, CHAR) AS s FROM claims").code()).isEqualTo(ErrorCode.UNKNOWN_COLUMN);
        // a type CAST does not take, or no type at all: still refused, with what to write
        GuardException e = refusal("SELECT CONVERT(name, JSON) AS n FROM users");
        assertThat(e.code()).isEqualTo(ErrorCode.CONSTRUCT_NOT_ALLOWED);
        assertThat(e.getMessage()).contains("the types CAST takes");
        assertThat(refusal("SELECT CONVERT(name, CHAR CHARACTER SET utf8mb4) AS n FROM users").code())
                .isIn(ErrorCode.CONSTRUCT_NOT_ALLOWED, ErrorCode.UNSAFE_SYNTAX, ErrorCode.SYNTAX_ERROR);
        assertThat(refusal("SELECT CONVERT(name USING utf16) AS n FROM users").code()).isEqualTo(ErrorCode.CONSTRUCT_NOT_ALLOWED);
        assertThat(refusal("SELECT id FROM users WHERE CONVERT(password USING utf8mb4) = 'x'").code()).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
    }

    @Test
    void withRollupIsRenderedAndGroupsLikeGroupBy() {
        QueryPlan p = authorized("SELECT region, status, count(*) AS n FROM claims GROUP BY region, status WITH ROLLUP HAVING count(*) > 0 LIMIT 10");
        assertThat(p.executableSql()).isEqualTo("SELECT `t1`.`region` AS `region`, `t1`.`status` AS `status`, count(*) AS `n` FROM `guard`.`claims` AS `t1`"
                + " GROUP BY `t1`.`region`, `t1`.`status` WITH ROLLUP HAVING (count(*) > 0) LIMIT 10");
        assertThat(positions(p, new ColumnRef(CLAIMS, "region"))).contains(UsePosition.GROUPING, UsePosition.OUTPUT);
        assertThat(authorized("SELECT region AS r, count(*) AS n FROM claims GROUP BY r WITH ROLLUP").executableSql())
                .contains("GROUP BY 1 WITH ROLLUP LIMIT 101");
        // the super-aggregate rows group by the sensitive value as much as GROUP BY does
        assertThat(refusal("SELECT count(*) AS n FROM users GROUP BY password WITH ROLLUP").code()).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
        assertThat(refusal("SELECT count(*) AS n FROM claims GROUP BY ssn WITH ROLLUP").code()).isEqualTo(ErrorCode.UNKNOWN_COLUMN);
        assertThat(refusal("SELECT region, count(*) FROM claims GROUP BY GROUPING SETS ((region), ())").code())
                .isIn(ErrorCode.CONSTRUCT_NOT_ALLOWED, ErrorCode.SYNTAX_ERROR);
    }

    @Test
    void usingIsRenderedAsAnOnOverQualifiedColumnsWithOneMergedColumn() {
        QueryPlan p = authorized("SELECT * FROM claims JOIN regions USING (region) WHERE region <> 'x'");
        assertThat(p.executableSql()).isEqualTo("SELECT `t1`.`region` AS `region`, `t1`.`id` AS `id`, `t1`.`amount` AS `amount`,"
                + " `t1`.`status` AS `status`, `t1`.`created` AS `created`, `t2`.`manager` AS `manager`"
                + " FROM `guard`.`claims` AS `t1` INNER JOIN `guard`.`regions` AS `t2` ON (`t1`.`region` = `t2`.`region`)"
                + " WHERE (`t1`.`region` <> 'x') LIMIT 101");
        ColumnRef claimsRegion = new ColumnRef(CLAIMS, "region");
        ColumnRef regionsRegion = new ColumnRef(TableRef.of("guard", "regions"), "region");
        assertThat(positions(p, claimsRegion)).contains(UsePosition.JOIN, UsePosition.FILTER, UsePosition.OUTPUT);
        assertThat(positions(p, regionsRegion)).contains(UsePosition.JOIN);
        assertThat(p.outputs().get(0).lineage()).containsExactlyInAnyOrder(claimsRegion, regionsRegion);
        // RIGHT: the merged column is the right side's, and the right side's columns come first
        assertThat(plan("SELECT * FROM claims RIGHT JOIN regions USING (region)").executableSql())
                .startsWith("SELECT `t2`.`region` AS `region`, `t2`.`manager` AS `manager`, `t1`.`id` AS `id`,")
                .contains("RIGHT JOIN `guard`.`regions` AS `t2` ON (`t1`.`region` = `t2`.`region`)");
        // qualified names still mean their own table's column; t.* keeps the common column
        assertThat(plan("SELECT regions.region AS rr, c.* FROM claims c LEFT JOIN regions USING (region)").executableSql())
                .startsWith("SELECT `t2`.`region` AS `rr`, `t1`.`id` AS `id`, `t1`.`region` AS `region`,");
        // a comma binds looser than JOIN: the USING's left side is users only
        assertThat(plan("SELECT id FROM regions, users JOIN claims USING (id)").executableSql())
                .isEqualTo("SELECT `t2`.`id` AS `id` FROM `guard`.`regions` AS `t1`, `guard`.`users` AS `t2` INNER JOIN `guard`.`claims` AS `t3`"
                        + " ON (`t2`.`id` = `t3`.`id`) LIMIT 101");
        // a chain: the second USING's left side is the merged column
        assertThat(SelectRenderer.unmasked(plan("SELECT * FROM users u JOIN claims c USING (id) JOIN (SELECT id, name AS n FROM users) x USING (id)"), Optional.empty()))
                .contains("ON (`t1`.`id` = `t2`.`id`)").contains("ON (`t1`.`id` = `t3`.`id`)").startsWith("SELECT `t1`.`id` AS `id`, `t1`.`name` AS `name`");
        // after the merge an unqualified name is no longer ambiguous, but is next to another table's column of the same name
        assertThat(refusal("SELECT id FROM users JOIN claims USING (id), (SELECT 1 AS id) x").code()).isEqualTo(ErrorCode.AMBIGUOUS_COLUMN);
        assertThat(refusal("SELECT 1 FROM users u JOIN claims c ON u.id = c.id JOIN (SELECT 1 AS id) x USING (id)").code())
                .isEqualTo(ErrorCode.AMBIGUOUS_COLUMN);
    }

    @Test
    void naturalJoinsJoinOnEveryCommonColumnAndNeverOnAHiddenOne() {
        assertThat(plan("SELECT * FROM claims NATURAL JOIN regions").executableSql())
                .contains("INNER JOIN `guard`.`regions` AS `t2` ON (`t1`.`region` = `t2`.`region`)");
        assertThat(SelectRenderer.unmasked(plan("SELECT * FROM users NATURAL LEFT JOIN (SELECT id, name, 1 AS k FROM users) x"), Optional.empty()))
                .contains("LEFT JOIN (SELECT").contains("ON ((`t1`.`id` = `t2`.`id`) AND (`t1`.`name` = `t2`.`name`))");
        assertThat(SelectRenderer.unmasked(plan("SELECT * FROM regions NATURAL RIGHT JOIN users"), Optional.empty()))
                .startsWith("SELECT `t2`.`id` AS `id`,").contains("RIGHT JOIN `guard`.`users` AS `t2` ON TRUE");
        // claims.ssn is not allowlisted: a NATURAL join does not join on it; USING (ssn) is an unknown column
        // (issue 25: absent, so NATURAL joins on the other common columns, as for a name that exists nowhere)
        assertThat(plan("SELECT x.id FROM (SELECT id, id AS ssn FROM users) x NATURAL JOIN claims").executableSql())
                .isEqualTo(plan("SELECT x.id FROM (SELECT id, id AS nosuch FROM users) x NATURAL JOIN claims").executableSql()
                        .replace("nosuch", "ssn"));
        GuardException unknown = refusal("SELECT 1 FROM claims JOIN (SELECT id AS ssn FROM users) x USING (ssn)");
        GuardException missing = refusal("SELECT 1 FROM claims JOIN (SELECT id AS nosuch FROM users) x USING (nosuch)");
        assertThat(unknown.code()).isEqualTo(ErrorCode.UNKNOWN_COLUMN).isEqualTo(missing.code());
        assertThat(unknown.getMessage().replace("ssn", "nosuch")).isEqualTo(missing.getMessage());
        // a USING column that is visible in one table of the left side and hidden in another: the server finds it ambiguous
        GuardException both = refusal("SELECT 1 FROM claims c JOIN (SELECT 1 AS ssn) v ON c.id = v.ssn JOIN (SELECT 1 AS ssn) w USING (ssn)");
        assertThat(both.code()).isEqualTo(ErrorCode.JOIN_NOT_ALLOWED);
        assertThat(both.getMessage()).doesNotContainIgnoringCase("ssn");
        // a sensitive common column is a join key: refused as in ON
        assertThat(refusal("SELECT u.id FROM users u JOIN (SELECT password FROM users) x USING (password)").code())
                .isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
        assertThat(refusal("SELECT x.id FROM users NATURAL JOIN (SELECT id, name, password FROM users) x").code())
                .isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
    }

    @Test
    void namedWindowsAreWrittenOutInEachOver() {
        QueryPlan p = authorized("SELECT id, sum(amount) OVER w AS running, rank() OVER w AS r FROM claims WINDOW w AS (PARTITION BY region ORDER BY id)");
        assertThat(p.executableSql()).isEqualTo("SELECT `t1`.`id` AS `id`, sum(`t1`.`amount`) OVER (PARTITION BY `t1`.`region` ORDER BY `t1`.`id`) AS `running`,"
                + " rank() OVER (PARTITION BY `t1`.`region` ORDER BY `t1`.`id`) AS `r` FROM `guard`.`claims` AS `t1` LIMIT 101");
        assertThat(positions(p, new ColumnRef(CLAIMS, "region"))).contains(UsePosition.WINDOW);
        assertThat(authorized("SELECT id, count(*) OVER w AS n FROM claims WINDOW w AS (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)")
                .executableSql()).contains("count(*) OVER (ORDER BY `t1`.`id` ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)");
        // a sensitive column in a named window orders the rows: refused as in an inline window
        assertThat(refusal("SELECT id, row_number() OVER w AS n FROM users WINDOW w AS (ORDER BY password)").code())
                .isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
        assertThat(refusal("SELECT id, row_number() OVER v AS n FROM claims WINDOW w AS (ORDER BY id)").code()).isEqualTo(ErrorCode.SYNTAX_ERROR);
        assertThat(refusal("SELECT id, row_number() OVER w AS n FROM claims WINDOW w AS (ORDER BY id), v AS (ORDER BY ssn)").code())
                .isEqualTo(ErrorCode.CONSTRUCT_NOT_ALLOWED);
        // window names belong to their block: a subquery cannot use the outer block's window
        assertThat(refusal("SELECT id, (SELECT max(id) OVER w FROM users LIMIT 1) AS m, row_number() OVER w AS n FROM claims WINDOW w AS (ORDER BY id)").code())
                .isEqualTo(ErrorCode.SYNTAX_ERROR);
    }

    @Test
    void aHavingAliasOfAnExpressionItemIsRenderedAsThatAlias() {
        // the server reads a bare name in HAVING in the select list (and the GROUP BY columns) only; the
        // expression written out again would name columns that HAVING cannot see (MariaDB 1054 for `k`)
        assertThat(authorized("SELECT region, sum(amount) AS total FROM claims GROUP BY region HAVING total > 100").executableSql())
                .isEqualTo("SELECT `t1`.`region` AS `region`, sum(`t1`.`amount`) AS `total` FROM `guard`.`claims` AS `t1`"
                        + " GROUP BY `t1`.`region` HAVING (`total` > 100) LIMIT 101");
        assertThat(authorized("SELECT amount + 1 AS kk, count(*) FROM claims GROUP BY kk HAVING kk > 2 AND kk < 9").executableSql())
                .contains(" GROUP BY 1 HAVING ((`kk` > 2) AND (`kk` < 9)) LIMIT");
        // the label as the select list renders it, whatever case the HAVING writes
        assertThat(authorized("SELECT region, sum(amount) AS Total FROM claims GROUP BY region HAVING TOTAL > 1").executableSql())
                .contains("HAVING (`Total` > 1)");
        // a parameter of the item is rendered once, so the query can take it
        QueryPlan p = authorized("SELECT region, sum(amount) * ? AS total FROM claims GROUP BY region HAVING total > ?", 2, 100);
        assertThat(p.executableSql()).contains("(sum(`t1`.`amount`) * ?) AS `total`").contains("HAVING (`total` > ?)");
        assertThat(p.parameters()).containsExactly(2L, 100L);
        // named like a column that is not allowlisted: HAVING still reads the select list first (SensitiveOracleServerTest)
        assertThat(authorized("SELECT region, count(*) AS ssn FROM claims GROUP BY region HAVING ssn > 1").executableSql())
                .contains("HAVING (`ssn` > 1)");
    }

    @Test
    void aHavingAliasIsWrittenOutWhereTheServerCouldReadTheNameAsAColumn() {
        // in an aggregate's arguments the server reads a FROM column first: the expression, never the name
        assertThat(authorized("SELECT region, amount + 1 AS ssn FROM claims GROUP BY region HAVING max(ssn) > 2").executableSql())
                .contains("HAVING (max(((`t1`.`amount` + 1))) > 2)").doesNotContain("`ssn` >");
        assertThat(authorized("SELECT region, amount + 1 AS kk FROM claims GROUP BY region HAVING count(DISTINCT kk) > 1 OR kk > 3")
                .executableSql()).contains("HAVING ((count(DISTINCT ((`t1`.`amount` + 1))) > 1) OR (`kk` > 3))");
        // and in an ORDER BY expression (measured: ORDER BY concat(ssn) ordered by the table's ssn)
        assertThat(authorized("SELECT amount + 1 AS ssn FROM claims ORDER BY ssn * 2").executableSql())
                .contains("ORDER BY (((`t1`.`amount` + 1)) * 2) LIMIT");
        // a column item: the column, as before
        assertThat(authorized("SELECT region AS r, count(*) AS n FROM claims GROUP BY region HAVING r <> 'x'").executableSql())
                .contains("HAVING ((`t1`.`region`) <> 'x')");
        // two items with the name: the server could take either, so the (same) expression is written out
        assertThat(authorized("SELECT sum(amount) AS s, sum(amount) AS s FROM claims GROUP BY region HAVING s > 1").executableSql())
                .contains("HAVING ((sum(`t1`.`amount`)) > 1)");
        // a column of an enclosing block with the name could be a GROUP BY column, which the server prefers
        assertThat(authorized("SELECT id FROM claims c WHERE 1 < (SELECT count(*) AS status FROM regions r GROUP BY r.manager HAVING status > 0)")
                .executableSql()).contains("HAVING ((count(*)) > 0)");
        // a name that is not plain ASCII compares under the server's collation rules: written out
        assertThat(authorized("SELECT region, sum(amount) AS `tötal` FROM claims GROUP BY region HAVING `tötal` > 1").executableSql())
                .contains("HAVING ((sum(`t1`.`amount`)) > 1)");
        // an alias that is also a visible column name of the FROM tables: the server reads the select list and the
        // GROUP BY columns only, so it is the alias, written back as its label, unless a GROUP BY key could be that column
        assertThat(authorized("SELECT sum(amount) AS region FROM claims GROUP BY status HAVING region > 1").executableSql())
                .contains("HAVING (`region` > 1)");
        assertThat(refusal("SELECT sum(amount) AS region FROM claims GROUP BY status, region HAVING region > 1").code())
                .isEqualTo(ErrorCode.AMBIGUOUS_COLUMN);
        assertThat(refusal("SELECT region AS r, sum(amount) AS region FROM claims GROUP BY 1 HAVING region > 1").code())
                .isEqualTo(ErrorCode.AMBIGUOUS_COLUMN);
    }

    @Test
    void aHavingAliasReportsTheUsesOfTheItemsExpression() {
        // the alias and the expression written out are the same facts: a sensitive column stays a filter use
        QueryPlan alias = plan("SELECT name, max(password) AS m FROM users GROUP BY name HAVING m > 'a'");
        QueryPlan written = plan("SELECT name, max(password) AS m FROM users GROUP BY name HAVING max(password) > 'a'");
        assertThat(alias.executableSql()).contains("HAVING (`m` > 'a')");
        assertThat(alias.uses()).isEqualTo(written.uses());
        assertThat(alias.uses()).contains(new ColumnUse(PASSWORD, UsePosition.FILTER,
                List.of(new FlowStep("max", CostClass.TOTAL), FlowStep.partial(">"))));
        assertThat(refusal("SELECT name, max(password) AS m FROM users GROUP BY name HAVING m > 'a'").code())
                .isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
        assertThat(refusal("SELECT name, max(length(password)) AS l FROM users GROUP BY name HAVING l = 8").code())
                .isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
        assertThat(refusal("SELECT name, max(password) AS m FROM users GROUP BY name HAVING m IS NULL OR name = 'x'").code())
                .isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
    }
}
