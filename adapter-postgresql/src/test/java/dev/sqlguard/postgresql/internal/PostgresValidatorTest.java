package dev.sqlguard.postgresql.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.ColumnUse;
import dev.sqlguard.domain.CostClass;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.jdbc.ansi.AnsiRenderer;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.domain.UsePosition;

/** The validator without a server: what it renders, the facts it reports, and what it refuses before the server is asked. */
class PostgresValidatorTest {
    private final PostgresValidator validator = Validators.validator();

    static Stream<String> honest() {
        return Stream.of(
                "SELECT region, count(*) AS n, sum(amount) AS total FROM claims GROUP BY region ORDER BY region",
                "SELECT c.id, r.manager FROM claims c JOIN regions r ON c.region = r.region WHERE c.id <= ? ORDER BY c.id",
                "WITH big AS (SELECT id, amount FROM claims WHERE amount > 300) SELECT count(*) AS n FROM big",
                "SELECT region FROM claims WHERE id = 1 UNION SELECT region FROM regions WHERE region = 'west'",
                "SELECT id, sum(amount) OVER (PARTITION BY region ORDER BY created ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS run FROM claims",
                "SELECT id, rank() OVER w AS r, sum(amount) OVER v AS s FROM claims WINDOW v AS (ORDER BY (SELECT max(id) FROM users)),"
                        + " w AS (PARTITION BY region ORDER BY created) ORDER BY row_number() OVER v",
                "SELECT region COLLATE \"C\", upper(region) COLLATE \"und-x-icu\" AS u FROM claims WHERE region COLLATE \"C\" < 'n'"
                        + " ORDER BY region COLLATE \"C\" DESC",
                "SELECT region, count(*) FILTER (WHERE status = 'DENIED') AS denied FROM claims GROUP BY 1",
                "SELECT DISTINCT ON (region) region, id, amount FROM claims ORDER BY region, amount DESC",
                "SELECT date_trunc('month', created) AS m, avg(amount) AS a FROM claims GROUP BY 1 ORDER BY 1",
                "SELECT EXTRACT(YEAR FROM created) AS y, count(*) AS n FROM claims GROUP BY EXTRACT(YEAR FROM created)",
                "SELECT id FROM claims WHERE created >= DATE '2024-03-01' AND created < DATE '2024-03-01' + INTERVAL '1 month'",
                "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY amount) AS median FROM claims",
                "SELECT id, CASE WHEN amount > 300 THEN 'big' ELSE 'small' END AS size FROM claims ORDER BY id LIMIT 5",
                "SELECT id FROM claims WHERE region IN (SELECT region FROM regions WHERE manager LIKE 'N%')",
                "SELECT s.region, s.n FROM (SELECT region, count(*) AS n FROM claims GROUP BY region) s WHERE s.n > 3",
                "SELECT round(avg(amount)::numeric, 2) AS a, CAST(max(id) AS text) AS m FROM claims",
                "SELECT name, upper(password) AS p FROM users ORDER BY id",
                "SELECT * FROM regions ORDER BY 1",
                "SELECT r.* FROM regions r WHERE EXISTS (SELECT 1 FROM claims c WHERE c.region = r.region)",
                "SELECT region, string_agg(status, ',' ORDER BY id) AS s FROM claims GROUP BY region",
                "SELECT id, lag(amount, 1, 0) OVER (ORDER BY id) AS prev, rank() OVER (ORDER BY amount DESC) AS r FROM claims",
                "SELECT m.d, count(c.id) AS n FROM generate_series(DATE '2024-01-01', DATE '2024-12-01', INTERVAL '1 month') AS m(d)"
                        + " LEFT JOIN claims c ON date_trunc('month', c.created) = m.d GROUP BY m.d ORDER BY m.d",
                "SELECT g FROM generate_series(1, 10) g",
                "SELECT id FROM claims ORDER BY id FETCH FIRST 5 ROWS ONLY",
                "SELECT id FROM claims ORDER BY id OFFSET 2 ROWS FETCH NEXT ROW ONLY",
                "SELECT region, status, count(*) AS n, GROUPING(region, status) AS g FROM claims GROUP BY ROLLUP (region, status) ORDER BY 1, 2",
                "SELECT region, status, sum(amount) AS total FROM claims GROUP BY CUBE (region, (status, created))",
                "SELECT region, status, count(*) AS n FROM claims GROUP BY GROUPING SETS ((region), (status), ())",
                "SELECT region AS r, count(*) AS n FROM claims GROUP BY status, ROLLUP (1)",
                "SELECT region, c.id, r.manager FROM claims c JOIN regions r USING (region) ORDER BY c.id",
                "SELECT * FROM claims NATURAL FULL JOIN regions",
                "SELECT region, count(*) AS n FROM regions RIGHT JOIN claims USING (region) GROUP BY region",
                "SELECT c.id, x.n FROM claims c CROSS JOIN LATERAL (SELECT count(*) AS n FROM claims d WHERE d.region = c.region) x",
                "SELECT r.region, x.id FROM regions r LEFT JOIN LATERAL (SELECT id FROM claims WHERE claims.region = r.region"
                        + " ORDER BY amount DESC LIMIT 1) x ON TRUE",
                "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT n FROM r",
                "WITH RECURSIVE chain AS (SELECT id, region, 1 AS depth FROM claims WHERE id = 1 UNION ALL SELECT c.id, c.region, chain.depth + 1"
                        + " FROM chain JOIN claims c ON c.id = chain.id + 4 WHERE chain.depth < 5) SELECT * FROM chain",
                "WITH RECURSIVE p(name, path, d) AS (SELECT name, name, 0 FROM users UNION SELECT p.name, p.path || '/' || u.name, p.d + 1"
                        + " FROM p JOIN users u ON u.name > p.name WHERE p.d <= 3) SELECT path FROM p ORDER BY path",
                "WITH x(a, b) AS (SELECT region, count(*) FROM claims GROUP BY region) SELECT a, b FROM x");
    }

    @Test
    void recursiveCommonTableExpressionsMustCountTheirDepthAndCarryTheirFacts() {
        QueryPlan p = validator.plan("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT n FROM r");
        assertThat(p.executableSql()).isEqualTo("WITH RECURSIVE \"q1\"(\"n\") AS ((SELECT 1 AS \"?column?\") UNION ALL"
                + " (SELECT (\"t2\".\"n\" + 1) AS \"?column?\" FROM \"q1\" AS \"t2\" WHERE (\"t2\".\"n\" < 10)))"
                + " SELECT \"t3\".\"n\" AS \"n\" FROM \"q1\" AS \"t3\" LIMIT 1001");
        // lineage runs through the recursive term: the path holds names of the anchor and of the term's join
        QueryPlan path = validator.plan("WITH RECURSIVE p(name, path, d) AS (SELECT name, name, 0 FROM users UNION ALL"
                + " SELECT p.name, p.path || '/' || r.manager, p.d + 1 FROM p JOIN regions r ON r.region > p.path WHERE p.d < 3) SELECT path FROM p");
        assertThat(path.outputs().get(0).lineage()).containsExactlyInAnyOrder(new ColumnRef(TableRef.of("s", "users"), "name"),
                new ColumnRef(TableRef.of("s", "regions"), "manager"));
        // a sensitive value reaching a filter or a partial step inside the recursion is seen
        assertRefused("WITH RECURSIVE p(s, d) AS (SELECT password, 0 FROM users UNION ALL SELECT p.s, p.d + 1 FROM p WHERE p.d < 3 AND p.s > 'm')"
                + " SELECT count(*) AS n FROM p", ErrorCode.COLUMN_NOT_ALLOWED);
        assertRefused("WITH RECURSIVE p(s, d) AS (SELECT password, 0 FROM users UNION ALL SELECT substring(p.s, 2), p.d + 1 FROM p WHERE p.d < 3)"
                + " SELECT s FROM p", ErrorCode.COLUMN_NOT_ALLOWED);
        assertRefused("WITH RECURSIVE p(s, d) AS (SELECT name, 0 FROM users UNION ALL SELECT p.s, p.d + 1 FROM p WHERE p.d < 3)"
                + " SELECT s FROM p UNION SELECT api_key FROM users", ErrorCode.UNKNOWN_COLUMN);
        assertRefused("WITH RECURSIVE p(k, d) AS (SELECT id, 0 FROM users UNION ALL SELECT u.api_key, p.d + 1 FROM p JOIN users u ON u.id = p.k"
                + " WHERE p.d < 3) SELECT k FROM p", ErrorCode.UNKNOWN_COLUMN);
        // unbounded or exponential recursions are refused
        assertRefused("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r", ErrorCode.CONSTRUCT_NOT_ALLOWED);
        assertRefused("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10 OR n > 0) SELECT n FROM r", ErrorCode.CONSTRUCT_NOT_ALLOWED);
        assertRefused("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n FROM r WHERE n < 10) SELECT n FROM r", ErrorCode.CONSTRUCT_NOT_ALLOWED);
        assertRefused("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n - 1 FROM r WHERE n < 10) SELECT n FROM r", ErrorCode.CONSTRUCT_NOT_ALLOWED);
        assertRefused("WITH RECURSIVE r(n) AS (SELECT id FROM claims UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT n FROM r", ErrorCode.CONSTRUCT_NOT_ALLOWED);
        assertRefused("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 100000000) SELECT n FROM r", ErrorCode.UNBOUNDED_COST);
        assertRefused("WITH RECURSIVE r(s, d) AS (SELECT name, 0 FROM users UNION ALL SELECT r.s || r.s, r.d + 1 FROM r WHERE r.d < 30)"
                + " SELECT length(s) AS l FROM r", ErrorCode.UNBOUNDED_COST);
        assertRefused("WITH RECURSIVE r(s, d) AS (SELECT name, 0 FROM users UNION ALL SELECT repeat(r.s, 2), r.d + 1 FROM r WHERE r.d < 30)"
                + " SELECT length(s) AS l FROM r", ErrorCode.UNBOUNDED_COST);
        // a WITH RECURSIVE list may hold ordinary items, EXCEPT and INTERSECT included
        assertThat(validator.plan("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3),"
                + " e AS (SELECT id FROM claims EXCEPT SELECT n FROM r) SELECT count(*) AS c FROM e").executableSql())
                .startsWith("WITH RECURSIVE \"q1\"(\"n\") AS (").contains("\"q5\"(\"id\") AS ((SELECT");
        // forward and self references outside the recursive term
        assertRefused("WITH RECURSIVE a AS (SELECT n FROM b), b(n) AS (SELECT 1) SELECT n FROM a", ErrorCode.CONSTRUCT_NOT_ALLOWED);
        assertRefused("WITH RECURSIVE claims AS (SELECT id FROM claims) SELECT id FROM claims", ErrorCode.CONSTRUCT_NOT_ALLOWED);
    }

    @Test
    void usingAndNaturalJoinsAreRenderedAsOnWithTheMergedColumnFirst() {
        QueryPlan p = validator.plan("SELECT * FROM regions JOIN claims USING (region)");
        assertThat(p.maskedOutputs()).containsExactly(6);
        assertThat(AnsiRenderer.unmasked(PostgresDialect.INSTANCE, p)).isEqualTo("SELECT (CASE WHEN FALSE THEN \"t2\".\"region\" ELSE \"t1\".\"region\" END) AS \"region\","
                + " \"t1\".\"manager\" AS \"manager\", \"t2\".\"id\" AS \"id\", \"t2\".\"amount\" AS \"amount\","
                + " \"t2\".\"status\" AS \"status\", \"t2\".\"created\" AS \"created\", \"t2\".\"ssn\" AS \"ssn\""
                + " FROM \"s\".\"regions\" AS \"t1\" INNER JOIN \"s\".\"claims\" AS \"t2\" ON (\"t1\".\"region\" = \"t2\".\"region\") LIMIT 1001");
        ColumnRef regionOfClaims = new ColumnRef(TableRef.of("s", "claims"), "region");
        assertThat(p.uses()).contains(new ColumnUse(regionOfClaims, UsePosition.JOIN, List.of(dev.sqlguard.domain.FlowStep.partial("="))));
        assertThat(p.outputs().get(0).lineage()).containsExactlyInAnyOrder(regionOfClaims, new ColumnRef(TableRef.of("s", "regions"), "region"));
        // RIGHT JOIN takes the right column first; the qualified columns stay the items' own
        assertThat(validator.plan("SELECT region, r.region AS rr FROM regions r RIGHT JOIN claims c USING (region)").executableSql())
                .startsWith("SELECT (CASE WHEN TRUE THEN \"t2\".\"region\" ELSE \"t1\".\"region\" END) AS \"region\", \"t1\".\"region\" AS \"rr\"");
        // a second USING join reads the first join's merged column
        assertThat(validator.plan("SELECT id FROM claims a JOIN claims b USING (id) JOIN claims c USING (id)").executableSql())
                .contains("ON ((CASE WHEN FALSE THEN \"t2\".\"id\" ELSE \"t1\".\"id\" END) = \"t3\".\"id\")");
        // FULL JOIN takes whichever side has the row
        assertThat(validator.plan("SELECT region FROM regions r FULL JOIN claims c USING (region)").executableSql())
                .startsWith("SELECT coalesce(\"t1\".\"region\", \"t2\".\"region\") AS \"region\"");
        assertThat(validator.plan("SELECT id, name FROM claims NATURAL JOIN users").executableSql())
                .contains("ON (\"t1\".\"id\" = \"t2\".\"id\")");
        // SELECT * over a join whose item has a hidden column is refused like SELECT * over the item
        assertRefused("SELECT * FROM claims NATURAL JOIN users", ErrorCode.UNKNOWN_COLUMN);
        // a hidden column is absent: NATURAL does not join on it, as with a name that exists nowhere (issue 25)
        assertThat(validator.plan("SELECT u.id FROM users u NATURAL JOIN (SELECT 1 AS api_key) x").executableSql())
                .contains(" ON TRUE").doesNotContain("\"t1\".\"api_key\"");
        assertRefused("SELECT u.id FROM users u JOIN (SELECT 1 AS api_key) x USING (api_key)", ErrorCode.UNKNOWN_COLUMN);
        assertRefused("SELECT * FROM users JOIN (SELECT 1 AS id) x USING (id)", ErrorCode.UNKNOWN_COLUMN);
        assertRefused("SELECT region FROM claims JOIN regions USING (nope)", ErrorCode.UNKNOWN_COLUMN);
        assertRefused("SELECT 1 AS x FROM claims a JOIN claims b ON a.id = b.id JOIN regions USING (region)", ErrorCode.AMBIGUOUS_COLUMN);
        assertRefused("SELECT id FROM users JOIN (SELECT 'x' AS password) x USING (password)", ErrorCode.COLUMN_NOT_ALLOWED);
        assertThat(validator.plan("SELECT region, manager FROM claims NATURAL LEFT JOIN regions").executableSql())
                .contains(" LEFT JOIN \"s\".\"regions\" AS \"t2\" ON (\"t1\".\"region\" = \"t2\".\"region\")");
        assertRefused("SELECT id FROM claims JOIN regions USING (region, region)", ErrorCode.SYNTAX_ERROR);
    }

    @Test
    void lateralSubqueriesSeeTheItemsBeforeThemQualified() {
        QueryPlan p = validator.plan("SELECT c.id, x.n FROM claims c, LATERAL (SELECT count(*) AS n FROM regions r WHERE r.region = c.region) x");
        assertThat(p.executableSql()).contains("CROSS JOIN LATERAL (SELECT pg_catalog.count(*) AS \"n\" FROM \"s\".\"regions\" AS \"t2\""
                + " WHERE (\"t2\".\"region\" = \"t1\".\"region\")) AS \"t3\"");
        assertRefused("SELECT x.p FROM users u, LATERAL (SELECT u.api_key AS p) x", ErrorCode.UNKNOWN_COLUMN);
        assertRefused("SELECT x.n FROM users u, LATERAL (SELECT count(*) AS n FROM claims WHERE u.password = 'x') x", ErrorCode.COLUMN_NOT_ALLOWED);
        assertRefused("SELECT x.n FROM users u, (SELECT u.id AS n) x", ErrorCode.UNKNOWN_COLUMN);
        assertRefused("SELECT x.n FROM users u FULL JOIN LATERAL (SELECT u.id AS n) x ON TRUE", ErrorCode.JOIN_NOT_ALLOWED);
        // in an explicit join a LATERAL item sees the join's left input only, as on the server
        assertRefused("SELECT x.n FROM claims c, users u JOIN LATERAL (SELECT c.id AS n) x ON TRUE", ErrorCode.UNKNOWN_COLUMN);
    }

    /** Rendering is a fixpoint: what the validator renders, it reads back as exactly the same statement and facts. */
    @ParameterizedTest
    @MethodSource("honest")
    void rendersATextThatReadsBackAsTheSameTree(String sql) {
        QueryPlan plan = validator.plan(sql);
        // a plan that masks a sensitive output runs its statement under the masking projection: the statement is the fixpoint
        String statement = AnsiRenderer.unmasked(PostgresDialect.INSTANCE, plan);
        QueryPlan again = validator.plan(statement);
        assertThat(again.executableSql()).isEqualTo(plan.executableSql());
        assertThat(again.maskedOutputs()).isEqualTo(plan.maskedOutputs());
        assertThat(again.uses()).isEqualTo(plan.uses());
        assertThat(again.outputs()).extracting(o -> o.lineage()).isEqualTo(plan.outputs().stream().map(o -> o.lineage()).toList());
        assertThat(plan.executableSql()).doesNotContain("--").doesNotContain("/*");
        assertThat(statement).containsPattern("LIMIT [0-9]+( OFFSET [0-9]+)?$");
    }

    @Test
    void qualifiesEveryColumnAndTableAndReportsPositionsAndChains() {
        QueryPlan plan = validator.plan("SELECT upper(name) AS n FROM users WHERE id = 2 ORDER BY name");
        assertThat(plan.executableSql()).isEqualTo("SELECT pg_catalog.upper(\"t1\".\"name\") AS \"n\" FROM \"s\".\"users\" AS \"t1\""
                + " WHERE (\"t1\".\"id\" = 2) ORDER BY \"t1\".\"name\" LIMIT 1001");
        ColumnRef name = new ColumnRef(TableRef.of("s", "users"), "name");
        ColumnRef id = new ColumnRef(TableRef.of("s", "users"), "id");
        assertThat(plan.uses()).contains(
                new ColumnUse(name, UsePosition.OUTPUT, List.of(new dev.sqlguard.domain.FlowStep("upper", CostClass.TOTAL))),
                new ColumnUse(name, UsePosition.ORDERING, List.of()),
                new ColumnUse(id, UsePosition.FILTER, List.of(dev.sqlguard.domain.FlowStep.partial("="))));
    }

    @Test
    void anOrderByNameIsTheOutputColumnFirstAsPostgresReadsIt() {
        // PostgreSQL orders by the output column "region" (ssn), not by claims.region
        assertRefused("SELECT id, ssn AS region FROM claims ORDER BY region", ErrorCode.COLUMN_NOT_ALLOWED);
        QueryPlan plan = validator.plan("SELECT id, region AS r FROM claims ORDER BY r");
        assertThat(plan.executableSql()).endsWith("ORDER BY 2 LIMIT 1001");
    }

    @Test
    void sensitiveValuesMayOnlyBeSelectedThroughTotalSteps() {
        assertRefused("SELECT id FROM users WHERE password = 'x'", ErrorCode.COLUMN_NOT_ALLOWED);
        assertRefused("SELECT substring(password, 1, 1) AS c FROM users", ErrorCode.COLUMN_NOT_ALLOWED);
        assertRefused("SELECT CASE WHEN password > 'm' THEN 1 ELSE 0 END AS b FROM users", ErrorCode.COLUMN_NOT_ALLOWED);
        assertRefused("SELECT CAST(password AS integer) AS b FROM users", ErrorCode.COLUMN_NOT_ALLOWED);
        assertRefused("SELECT count(DISTINCT password) AS b FROM users", ErrorCode.COLUMN_NOT_ALLOWED);
        assertRefused("SELECT id FROM (SELECT id, upper(password) AS p FROM users) x WHERE x.p LIKE 'H%'", ErrorCode.COLUMN_NOT_ALLOWED);
        assertRefused("WITH x AS (SELECT password AS p FROM users) SELECT count(*) AS n FROM x GROUP BY p", ErrorCode.COLUMN_NOT_ALLOWED);
        assertRefused("SELECT name FROM users UNION SELECT password FROM users", ErrorCode.COLUMN_NOT_ALLOWED);
        assertRefused("SELECT row_number() OVER (ORDER BY password) AS r FROM users", ErrorCode.COLUMN_NOT_ALLOWED);
        assertRefused("SELECT id FROM claims WHERE ssn IN (SELECT name FROM users)", ErrorCode.COLUMN_NOT_ALLOWED);
        QueryPlan ok = validator.plan("SELECT upper(password) AS p, max(password) AS m FROM users GROUP BY id");
        assertThat(ok.outputs()).allSatisfy(o -> assertThat(o.lineage()).extracting(ColumnRef::column).contains("password"));
    }

    @Test
    void hiddenColumnsLookMissingAndWholeRowsAreRefused() {
        assertRefused("SELECT api_key FROM users", ErrorCode.UNKNOWN_COLUMN);
        assertRefused("SELECT nope FROM users", ErrorCode.UNKNOWN_COLUMN);
        assertRefused("SELECT * FROM users", ErrorCode.UNKNOWN_COLUMN);
        assertRefused("SELECT u FROM users u", ErrorCode.UNKNOWN_COLUMN);
        assertRefused("SELECT id FROM secrets", ErrorCode.TABLE_NOT_ALLOWED);
        assertRefused("SELECT id FROM nope", ErrorCode.TABLE_NOT_ALLOWED);
        assertRefused("SELECT relname FROM pg_catalog.pg_class", ErrorCode.TABLE_NOT_ALLOWED);
    }

    @Test
    void boundsAmplifyingCallsByTheirLiterals() {
        assertThat(validator.plan("SELECT lpad(name, 20, '*') AS p FROM users").amplifications()).hasSize(1);
        assertRefused("SELECT repeat(name, 100000) AS p FROM users", ErrorCode.UNBOUNDED_COST);
        assertRefused("SELECT lpad(name, 1000000000) AS p FROM users", ErrorCode.UNBOUNDED_COST);
        assertRefused("SELECT repeat(name, id::integer) AS p FROM users", ErrorCode.UNBOUNDED_COST);
        assertRefused("SELECT generate_series(1, 100000000) AS g", ErrorCode.UNBOUNDED_COST);
        assertRefused("SELECT g FROM generate_series(1, 100000000) g", ErrorCode.UNBOUNDED_COST);
        assertRefused("SELECT d FROM generate_series(DATE '2024-01-01', DATE '2999-01-01', INTERVAL '1 day') AS s(d)", ErrorCode.UNBOUNDED_COST);
        assertRefused("SELECT g FROM claims, generate_series(1, claims.id) g", ErrorCode.UNKNOWN_COLUMN);
        assertThat(validator.plan("SELECT generate_series(1, 10) AS g").amplifications()).singleElement()
                .satisfies(a -> assertThat(a.bound().getAsLong()).isEqualTo(10));
    }

    @Test
    void boundsValuesCopiedThroughConcatenationAndNestedCalls() {
        assertThat(validator.plan("SELECT name || ' ' || CAST(id AS text) || '!' AS label FROM users").amplifications())
                .singleElement().satisfies(a -> assertThat(a.bound().getAsLong()).isEqualTo(2));
        StringBuilder doubling = new StringBuilder("WITH l0 AS (SELECT name AS x FROM users)");
        for (int i = 1; i <= 7; i++) {
            doubling.append(", l").append(i).append(" AS (SELECT x || x AS x FROM l").append(i - 1).append(')');
        }
        assertRefused(doubling + " SELECT x FROM l7", ErrorCode.UNBOUNDED_COST);
        assertRefused("SELECT repeat(repeat(name, 60), 60) AS r FROM users", ErrorCode.UNBOUNDED_COST);
        assertRefused("WITH a AS (SELECT repeat(name, 60) AS x FROM users) SELECT repeat(x, 60) AS r FROM a", ErrorCode.UNBOUNDED_COST);
        assertRefused("SELECT repeat(name || name, 40) AS r FROM users", ErrorCode.UNBOUNDED_COST);
        assertThat(validator.plan("SELECT repeat(name, 3) AS r FROM users").amplifications()).isNotEmpty();
    }

    @Test
    void refusesDialectTricksBeforeParsing() {
        assertRefused("SELECT $$x$$ AS a", ErrorCode.UNSAFE_SYNTAX);
        assertRefused("SELECT E'a' AS a", ErrorCode.UNSAFE_SYNTAX);
        assertRefused("SELECT U&'a' AS a", ErrorCode.UNSAFE_SYNTAX);
        assertRefused("SELECT id FROM claims /* a /* b */ */", ErrorCode.UNSAFE_SYNTAX);
        assertRefused("SELECT 'a'\n'b' AS a", ErrorCode.UNSAFE_SYNTAX);
        assertRefused("SELECT 2 ^ 3 AS a", ErrorCode.UNSAFE_SYNTAX);
        assertRefused("SELECT id FROM claims WHERE region ~ 'n'", ErrorCode.UNSAFE_SYNTAX);
        assertRefused("SELECT id FROM claims; SELECT 1", ErrorCode.MULTIPLE_STATEMENTS);
    }

    private void assertRefused(String sql, ErrorCode code) {
        assertThatThrownBy(() -> validator.plan(sql)).as(sql).isInstanceOfSatisfying(GuardException.class,
                e -> assertThat(e.code()).as(sql + ": " + e.safeMessage()).isEqualTo(code));
    }

    @Test
    void fetchFirstIsALimit() {
        assertThat(validator.plan("SELECT id FROM claims ORDER BY id FETCH FIRST 5 ROWS ONLY").executableSql()).endsWith("ORDER BY 1 LIMIT 5");
        assertThat(validator.plan("SELECT id FROM claims FETCH FIRST ROW ONLY").executableSql()).endsWith(" LIMIT 1");
        assertThat(validator.plan("SELECT id FROM claims FETCH FIRST 5000 ROWS ONLY").executableSql()).endsWith(" LIMIT 1001");
        assertThat(validator.plan("SELECT x.id FROM (SELECT id FROM claims ORDER BY id FETCH FIRST 3 ROWS ONLY) x").executableSql())
                .contains("ORDER BY 1 LIMIT 3)");
        assertRefused("SELECT id FROM claims ORDER BY amount FETCH FIRST 3 ROWS WITH TIES", ErrorCode.CONSTRUCT_NOT_ALLOWED);
        assertThatThrownBy(() -> validator.plan("SELECT id FROM claims LIMIT 2 FETCH FIRST 3 ROWS ONLY")).isInstanceOf(GuardException.class);
    }

    @Test
    void groupingSetsRollupAndCubeGroupByEachElement() {
        QueryPlan p = validator.plan("SELECT region, status, count(*) AS n, GROUPING(region, status) AS g FROM claims GROUP BY ROLLUP (region, status)");
        assertThat(p.executableSql()).isEqualTo("SELECT \"t1\".\"region\" AS \"region\", \"t1\".\"status\" AS \"status\", pg_catalog.count(*) AS \"n\","
                + " GROUPING(\"t1\".\"region\", \"t1\".\"status\") AS \"g\" FROM \"s\".\"claims\" AS \"t1\""
                + " GROUP BY ROLLUP (\"t1\".\"region\", \"t1\".\"status\") LIMIT 1001");
        ColumnRef status = new ColumnRef(TableRef.of("s", "claims"), "status");
        assertThat(p.uses()).contains(new ColumnUse(status, UsePosition.GROUPING, List.of()));
        // GROUPING() derives from no value: its output has no lineage
        assertThat(p.outputs().get(3).lineage()).isEmpty();
        // CUBE ((a, b)) is one unit (two grouping sets), CUBE (a, b) two (four sets): JSqlParser 5.4 tells them apart only by the list's class
        assertThat(validator.plan("SELECT count(*) AS n FROM claims GROUP BY CUBE ((region, status))").executableSql())
                .contains("GROUP BY CUBE ((\"t1\".\"region\", \"t1\".\"status\"))");
        assertThat(validator.plan("SELECT count(*) AS n FROM claims GROUP BY CUBE (region, (status, created))").executableSql())
                .contains("GROUP BY CUBE (\"t1\".\"region\", (\"t1\".\"status\", \"t1\".\"created\"))");
        assertThat(validator.plan("SELECT region AS r, count(*) AS n FROM claims GROUP BY GROUPING SETS ((r), ())").executableSql())
                .contains("GROUP BY GROUPING SETS ((1), ())");
        // a sensitive or hidden column as a grouping element is refused like a plain GROUP BY
        assertRefused("SELECT count(*) AS n FROM users GROUP BY ROLLUP (password)", ErrorCode.COLUMN_NOT_ALLOWED);
        assertRefused("SELECT count(*) AS n FROM users GROUP BY CUBE (name, (id, password))", ErrorCode.COLUMN_NOT_ALLOWED);
        assertRefused("SELECT count(*) AS n FROM users GROUP BY GROUPING SETS ((password), ())", ErrorCode.COLUMN_NOT_ALLOWED);
        assertRefused("SELECT GROUPING(password) AS g FROM users GROUP BY ROLLUP (password)", ErrorCode.COLUMN_NOT_ALLOWED);
        assertRefused("SELECT count(*) AS n FROM claims GROUP BY ROLLUP (ssn)", ErrorCode.COLUMN_NOT_ALLOWED);
        assertRefused("SELECT count(*) AS n FROM users GROUP BY ROLLUP (name, api_key)", ErrorCode.UNKNOWN_COLUMN);
        // JSqlParser 5.4 does not parse a column next to GROUPING SETS
        assertRefused("SELECT count(*) AS n FROM claims GROUP BY region, GROUPING SETS ((status), ())", ErrorCode.SYNTAX_ERROR);
        // a quoted "rollup"(x) is a function call on the server, not the construct
        assertRefused("SELECT count(*) AS n FROM claims GROUP BY \"rollup\"(region)", ErrorCode.FUNCTION_NOT_ALLOWED);
    }

    /**
     * JSqlParser 5.4 reads {@code claims LEFT NATURAL JOIN regions} as {@code claims} aliased
     * {@code LEFT}, then an inner NATURAL JOIN, which would run as a join PostgreSQL never reads from
     * that text (it rejects it). An unquoted reserved word is never a table or subquery alias, with or
     * without AS (PostgreSQL 15.20 rejects every such alias: {@code pg_get_keywords()} catcode R and T).
     */
    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT * FROM claims LEFT NATURAL JOIN regions",
            "SELECT * FROM claims RIGHT NATURAL JOIN regions",
            "SELECT * FROM claims LEFT CROSS JOIN regions",
            "SELECT count(*) AS n FROM claims verbose",
            "SELECT count(*) AS n FROM claims AS left JOIN regions r ON r.region = left.region",
            "SELECT x.n FROM (SELECT count(*) AS n FROM claims) verbose, claims x"})
    void refusesUnquotedReservedWordsAsTableAliases(String sql) {
        assertThatThrownBy(() -> validator.plan(sql)).isInstanceOfSatisfying(GuardException.class, e -> {
            assertThat(e.code()).as(sql).isEqualTo(ErrorCode.SYNTAX_ERROR);
            assertThat(e.safeMessage()).as(sql).contains("reserved word");
        });
    }

    @Test
    void quotedAndNonReservedWordsStayAliases() {
        assertThat(validator.plan("SELECT \"left\".id FROM claims \"left\" ORDER BY 1").executableSql())
                .contains("FROM \"s\".\"claims\" AS \"t1\"");
        assertThat(validator.plan("SELECT data.id FROM claims data NATURAL LEFT JOIN regions ORDER BY 1").executableSql())
                .contains(" LEFT JOIN \"s\".\"regions\" AS \"t2\" ON ");
    }
}
