package dev.sqlguard.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.ResultColumn;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.testing.FixtureEngine;
import dev.sqlguard.testing.HonestCorpus;
import dev.sqlguard.testing.differential.Outcome;
import dev.sqlguard.testing.differential.Outcomes;

/**
 * The cases the MariaDB differential generator found (issue 25, docs/testing.md), each run raw on the
 * least-privilege account and through the engine over the contract dataset: the guarded outcome is
 * the raw one (the same rows, or a refusal where MariaDB refuses too), or a refusal that says how to
 * write the query more plainly where MariaDB's reading of a name depends on more than the text shows.
 */
@Tag("mysql")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(300)
class GeneratedFindingsServerTest {
    private String database;
    private Engine engine;
    private Connection raw;
    private final QueryService service = new QueryService(AuditSink.discarding());

    @BeforeAll
    void start() throws SQLException {
        assumeTrue(TestServer.available(), "no MySQL-compatible server");
        database = TestServer.createDatabase();
        engine = MySqlServerTest.engine(database, false, FixtureEngine.plainPolicy(FixtureEngine.PLAIN_COLUMNS), Map.of());
        raw = DriverManager.getConnection(TestServer.url() + "/" + database, TestServer.roUser(), TestServer.roPassword());
    }

    @AfterAll
    void stop() throws SQLException {
        if (raw != null) {
            raw.close();
        }
        if (engine != null) {
            engine.close();
        }
        if (database != null) {
            TestServer.dropDatabase(database);
        }
    }

    private ToolResult guardedResult(String sql) {
        return service.query(engine.binding(), new QueryRequest("db", sql, List.of(), "d"));
    }

    private Outcome guarded(String sql) {
        return Outcomes.guarded(guardedResult(sql), HonestCorpus::plainCell);
    }

    private Outcome raw(String sql) {
        return Outcomes.raw(raw, sql, HonestCorpus::plainCell);
    }

    /** The query runs raw, and gives the same rows (at least one) through the engine. */
    private void sameRows(String sql) {
        Outcome expected = raw(sql);
        assertThat(expected).as("raw: %s", sql).isInstanceOf(Outcome.Rows.class);
        assertThat(((Outcome.Rows) expected).rows()).as("raw: %s", sql).isNotEmpty();
        assertThat(guarded(sql)).as(sql).isEqualTo(expected);
    }

    /** MariaDB refuses the query, and so does the engine, with {@code code}. */
    private void refusedAsRaw(String sql, String code) {
        assertThat(raw(sql)).as("raw: %s", sql).isInstanceOf(Outcome.Failed.class);
        Outcome g = guarded(sql);
        assertThat(g).as(sql).isInstanceOf(Outcome.Failed.class);
        assertThat(((Outcome.Failed) g).code()).as(sql).isEqualTo(code);
    }

    /** Seeds 23, 34, 44, 60, 146: a window's PARTITION BY and ORDER BY read a select-list alias, wherever the item stands. */
    @Test
    void aWindowReadsASelectListAlias() {
        sameRows("SELECT id, amount AS x, rank() OVER (ORDER BY x, id) AS r FROM claims ORDER BY 1");
        sameRows("SELECT id, region AS g, count(*) OVER (PARTITION BY g) AS n FROM claims ORDER BY 1");
        sameRows("SELECT rank() OVER (ORDER BY x DESC, id) AS r, amount AS x, id FROM claims ORDER BY 3");
        sameRows("SELECT id, 0 - amount AS x, rank() OVER (ORDER BY (x), id) AS r, rank() OVER (ORDER BY x + 0, id) AS r2"
                + " FROM claims ORDER BY 1");
        sameRows("SELECT region, sum(amount) AS s, rank() OVER (ORDER BY s) AS r, count(*) OVER (PARTITION BY s) AS n"
                + " FROM claims GROUP BY region ORDER BY 1");
        sameRows("SELECT c.id, c.status AS st, dense_rank() OVER w AS r FROM claims c WINDOW w AS (PARTITION BY st ORDER BY c.id)"
                + " ORDER BY 1");
    }

    /**
     * Seeds 149, 205: a window key named both as an alias and as a column. A window's ORDER BY key is the alias, grouped or
     * not, as a statement's whole ORDER BY item is (MariaDB resolves both in {@code find_order_in_list}, without looking at
     * the tables); a PARTITION BY key is looked up as a GROUP BY item, in the tables too, and the guard asks for another
     * alias there.
     */
    @Test
    void aWindowKeyThatIsBothAnAliasAndAColumnIsTheAliasInOrderByAndRefusedInPartitionBy() {
        sameRows("SELECT id, 0 - amount AS amount, rank() OVER (ORDER BY amount, id) AS r FROM claims ORDER BY 1");
        sameRows("SELECT region, 0 - sum(amount) AS amount, rank() OVER (ORDER BY amount) AS r FROM claims GROUP BY region ORDER BY 1");
        sameRows("SELECT region, sum(amount) AS amount, rank() OVER (ORDER BY (amount) DESC) AS r FROM claims GROUP BY region ORDER BY 1");
        sameRows("SELECT c.region, min(c.amount) AS amount, dense_rank() OVER (PARTITION BY count(*) > 1 ORDER BY amount) AS r"
                + " FROM claims c JOIN regions r ON c.region = r.region GROUP BY c.region ORDER BY 1");
        sameRows("SELECT d.id, 10 - d.id AS amount, rank() OVER (ORDER BY amount DESC) AS r FROM (SELECT id, amount FROM claims) d ORDER BY 1");
        for (String sql : List.of("SELECT id, upper(status) AS status, count(*) OVER (PARTITION BY status) AS n FROM claims ORDER BY 1",
                "SELECT id, 10 - id AS region, count(*) OVER (PARTITION BY region) AS n FROM claims ORDER BY 1")) {
            assertThat(raw(sql)).as("raw: %s", sql).isInstanceOf(Outcome.Rows.class);
            Outcome g = guarded(sql);
            assertThat(g).as(sql).isInstanceOf(Outcome.Failed.class);
            assertThat(((Outcome.Failed) g).code()).as(sql).isEqualTo("AMBIGUOUS_COLUMN");
            assertThat(((Outcome.Failed) g).message()).as(sql).contains("rename the alias");
        }
        // the alias of the very column it names is that column
        sameRows("SELECT id, amount AS amount, rank() OVER (ORDER BY amount, id) AS r FROM claims ORDER BY 1");
    }

    /**
     * Seeds 597, 657, 1576, 2011, 3549, 4277 (a run of 5,000 from seed 1): a window keyed by the alias of a window
     * function, its own included, is refused by MariaDB (4016) even where a table column has the name.
     */
    @Test
    void aWindowKeyedByAWindowFunctionsAliasIsRefused() {
        refusedAsRaw("SELECT 7 AS amount, rank() OVER (ORDER BY id) AS id FROM claims c", "AMBIGUOUS_COLUMN");
        refusedAsRaw("SELECT id, dense_rank() OVER (PARTITION BY region ORDER BY region DESC) AS region FROM claims ORDER BY 1",
                "AMBIGUOUS_COLUMN");
        refusedAsRaw("SELECT 6 AS k, rank() OVER (ORDER BY x0) AS x0 FROM claims ORDER BY 1, 2", "CONSTRUCT_NOT_ALLOWED");
        refusedAsRaw("SELECT id, count(*) OVER (PARTITION BY r) AS n, rank() OVER (ORDER BY id) AS r FROM claims", "CONSTRUCT_NOT_ALLOWED");
        // qualified, the name is the column
        sameRows("SELECT 7 AS amount, rank() OVER (ORDER BY c.id) AS id FROM claims c ORDER BY 2");
    }

    /**
     * Seeds 81, 172: MariaDB labels a repeated output of a grouped query unreliably (both columns of
     * {@code s1.x0, s1.x0 AS manager ... GROUP BY ...} come back labelled {@code manager} when {@code x0} is
     * {@code abs(0)}); the engine answered INTERNAL_ERROR. The statement now runs under a query that names
     * each output once.
     */
    @Test
    void repeatedOutputsOfAGroupedQueryKeepTheirLabels() {
        String sql = "SELECT s1.x0, s1.x0 AS manager, max(abs(40)) AS x2, max(40) FROM (SELECT abs(0) AS x0, 1 AS manager"
                + " FROM regions) s1 GROUP BY s1.x0, 2 ORDER BY 1, 2, 3, 4";
        sameRows(sql);
        assertThat(guardedResult(sql).columns()).extracting(ResultColumn::name).containsExactly("x0", "manager", "x2", "max(40)");
        sameRows("SELECT s1.x0 AS a, (s1.x0) AS b, count(*) AS n FROM (SELECT abs(0) AS x0 FROM claims) s1 GROUP BY 1 ORDER BY 1");
    }

    /**
     * Seed 4,008,499: an ungrouped statement that repeats an output ran under the relabelling query too, which stores its
     * rows in a temporary table typed from the outputs; MariaDB types {@code -30000.50 * nullif(50, 7)} DECIMAL(8,2) there,
     * and -1,500,025.00 came back -999,999.99. Only a grouped statement is relabelled now (MariaDB labels repeated
     * outputs right without GROUP BY).
     */
    @Test
    void anUngroupedStatementThatRepeatsAnOutputRunsAsWritten() {
        String sql = "SELECT regions.*, - 30000.50 * nullif(50, 7) AS region, DATE '2024-08-17' AS x0, region FROM regions ORDER BY 1, 2, 3, 4, 5";
        sameRows(sql);
        assertThat(guardedResult(sql).sql().orElseThrow()).doesNotContain("sqlguard_result");
        sameRows("SELECT id, id AS k, amount * nullif(50, 7) AS a FROM claims ORDER BY 1 LIMIT 5");
        sameRows("SELECT DISTINCT region, region AS r2 FROM claims ORDER BY 1");
    }

    /** Seed 213: MariaDB refuses an aggregate's alias inside an ORDER BY or window expression (1247), and so does the guard. */
    @Test
    void anAggregatesAliasInsideAnOrderExpressionIsRefusedAsMariaDbDoes() {
        refusedAsRaw("SELECT region, sum(amount) AS s FROM claims GROUP BY region ORDER BY s + 0", "CONSTRUCT_NOT_ALLOWED");
        refusedAsRaw("SELECT region, max(amount) AS s FROM claims GROUP BY region ORDER BY 0 - s, 1", "CONSTRUCT_NOT_ALLOWED");
        refusedAsRaw("SELECT region, sum(amount) AS s, rank() OVER (ORDER BY s + 0) AS r FROM claims GROUP BY region",
                "CONSTRUCT_NOT_ALLOWED");
        // the alias alone, in parentheses or not, is the aggregate
        sameRows("SELECT region, sum(amount) AS s FROM claims GROUP BY region ORDER BY (s), 1");
        sameRows("SELECT region, sum(amount) AS s FROM claims GROUP BY region ORDER BY s DESC, 1");
        // HAVING reads it inside an expression
        sameRows("SELECT region, sum(amount) AS s FROM claims GROUP BY region HAVING s + 0 > 0 ORDER BY 1");
    }

    /**
     * Inside an aggregate's arguments MariaDB reads a bare name as a column of the FROM tables before a select-list
     * alias, in HAVING, in ORDER BY and in a window's keys, whether the alias stands for an aggregate or not. The guard
     * refused these as ambiguous (about one in twelve of the differential's policy refusals); an analyst writes them
     * often: {@code SUM(amount) AS amount ... HAVING SUM(amount) > x ORDER BY amount}. A name in two joined tables is
     * still refused, as MariaDB refuses it.
     */
    @Test
    void insideAnAggregateANameIsTheTableColumnNotTheAlias() {
        sameRows("SELECT region, sum(amount) AS amount FROM claims GROUP BY region HAVING sum(amount) > 0 ORDER BY amount DESC, 1");
        // an alias over another aggregate, and one over another column: the answer tells which one the server read
        sameRows("SELECT region, min(amount) AS amount FROM claims GROUP BY region HAVING max(amount) > 100 ORDER BY 1");
        sameRows("SELECT region AS amount, count(*) AS n FROM claims GROUP BY region HAVING max(amount) > 100 ORDER BY 1");
        sameRows("SELECT region, min(amount) AS amount FROM claims GROUP BY region ORDER BY max(amount) DESC, 1");
        sameRows("SELECT id, 0 - id AS amount FROM claims GROUP BY id ORDER BY sum(amount) DESC, 1 LIMIT 5");
        sameRows("SELECT region, min(amount) AS amount, rank() OVER (ORDER BY max(amount) DESC) AS r FROM claims GROUP BY region"
                + " ORDER BY 1");
        sameRows("SELECT status AS amount, rank() OVER (PARTITION BY count(*) ORDER BY max(amount)) AS r FROM claims GROUP BY status"
                + " ORDER BY 1");
        // over a derived table, a CTE and a join whose other side lacks the name
        sameRows("SELECT d.region, min(d.amount) AS amount FROM (SELECT region, amount FROM claims) d GROUP BY d.region"
                + " HAVING max(amount) > 100 ORDER BY 1");
        sameRows("WITH c AS (SELECT region, amount FROM claims) SELECT region, min(amount) AS amount FROM c GROUP BY region"
                + " ORDER BY max(amount), 1");
        sameRows("SELECT c.region, min(c.amount) AS amount FROM claims c JOIN regions r ON c.region = r.region GROUP BY c.region"
                + " HAVING max(amount) > 100 ORDER BY 1");
        // in two joined tables the name is ambiguous for MariaDB too
        refusedAsRaw("SELECT c.region, count(*) AS region FROM claims c JOIN regions r ON c.region = r.region GROUP BY c.region"
                + " HAVING max(region) > 'a'", "AMBIGUOUS_COLUMN");
    }

    /**
     * MySQL differential seeds from 3,000,001 (100,000 cases, 2026-12-07): the raw run of a generated query crashed
     * MariaDB 10.11 (signal 11 in filesort, the server down for every source). Minimal: {@code SELECT count(1),
     * rank() OVER (ORDER BY count(1)) FROM claims GROUP BY id IS NULL}. The server takes {@code id IS NULL} over a
     * column that cannot be NULL for a constant only late in planning; grouped by such keys alone, a window function
     * over an aggregate crashed it, and {@code row_number() OVER ()} numbered the rows before grouping. The guard passed
     * the text and crashed the server too. It now renders {@code IS [NOT] NULL} and {@code ISNULL(x)} as the null-safe
     * comparison with NULL, which the server never takes for a constant that way: each vector answers as its
     * {@code <=> NULL} twin runs raw, and the server is still up after each.
     */
    @Test
    void aNullTestTheServerTakesForAConstantNeverReachesItAsWritten() {
        Map<String, String> twins = new java.util.LinkedHashMap<>();
        twins.put("SELECT count(1) AS n, rank() OVER (ORDER BY count(1)) AS r FROM claims GROUP BY id IS NULL",
                "SELECT count(1) AS n, rank() OVER (ORDER BY count(1)) AS r FROM claims GROUP BY id <=> NULL");
        twins.put("SELECT count(1) AS n, row_number() OVER () AS r FROM claims GROUP BY id IS NULL",
                "SELECT count(1) AS n, row_number() OVER () AS r FROM claims GROUP BY id <=> NULL");
        twins.put("SELECT k, rank() OVER (ORDER BY count(1)) AS r FROM (SELECT (c.id IS NULL) AS k FROM claims c) s1 GROUP BY k",
                "SELECT k, rank() OVER (ORDER BY count(1)) AS r FROM (SELECT (c.id <=> NULL) AS k FROM claims c) s1 GROUP BY k");
        twins.put("SELECT count(1) AS n, rank() OVER (ORDER BY max(amount)) AS r FROM claims GROUP BY isnull(id)",
                "SELECT count(1) AS n, rank() OVER (ORDER BY max(amount)) AS r FROM claims GROUP BY id <=> NULL");
        twins.put("SELECT count(1) AS n, sum(count(1)) OVER (ORDER BY count(1)) AS r FROM claims GROUP BY NOT (id IS NOT NULL)",
                "SELECT count(1) AS n, sum(count(1)) OVER (ORDER BY count(1)) AS r FROM claims GROUP BY NOT (NOT (id <=> NULL))");
        twins.put("SELECT count(1) AS n, rank() OVER (ORDER BY count(1)) AS r FROM claims GROUP BY (id IS NULL) + 1",
                "SELECT count(1) AS n, rank() OVER (ORDER BY count(1)) AS r FROM claims GROUP BY (id <=> NULL) + 1");
        // IS NOT NULL alone is no constant, but under a NOT (through an AND too) the server turns it into IS NULL
        twins.put("SELECT count(1) AS n, rank() OVER (ORDER BY count(1)) AS r FROM claims GROUP BY NOT ((id IS NOT NULL) AND TRUE)",
                "SELECT count(1) AS n, rank() OVER (ORDER BY count(1)) AS r FROM claims GROUP BY NOT ((NOT (id <=> NULL)) AND TRUE)");
        twins.forEach((sql, twin) -> {
            ToolResult result = guardedResult(sql);
            assertThat(result.sql()).as(sql).isPresent();
            assertThat(result.sql().get()).as(sql).doesNotContainIgnoringCase("IS NULL").doesNotContainIgnoringCase("isnull(");
            Outcome expected = raw(twin);
            assertThat(expected).as("raw: %s", twin).isInstanceOf(Outcome.Rows.class);
            assertThat(Outcomes.guarded(result, HonestCorpus::plainCell)).as(sql).isEqualTo(expected);
            assertThat(raw("SELECT 1 AS up")).as("the server after %s", sql).isInstanceOf(Outcome.Rows.class);
        });
        // the forms still mean what they meant, in WHERE too
        sameRows("SELECT id FROM claims WHERE status IS NULL OR id IS NOT NULL ORDER BY 1 LIMIT 3");
        sameRows("SELECT count(*) AS n, sum(isnull(status)) AS s FROM claims");
    }

    /** Seed 254: a negative position ({@code - 1}, {@code -(1)}) is refused by MariaDB, never read as position 1. */
    @Test
    void aNegativePositionIsNoPosition() {
        for (String sql : List.of("SELECT status, count(*) AS n FROM claims GROUP BY status, - 1",
                "SELECT id FROM claims ORDER BY -1", "SELECT id FROM claims ORDER BY (-(1))")) {
            assertThat(raw(sql)).as("raw: %s", sql).isInstanceOf(Outcome.Failed.class);
            assertThat(guarded(sql)).as(sql).isInstanceOf(Outcome.Failed.class);
            assertThat(((Outcome.Failed) guarded(sql)).code()).as(sql).isNotEqualTo("INTERNAL_ERROR");
        }
        sameRows("SELECT id, status FROM claims ORDER BY +2, (1)");
    }

    /**
     * The public text-to-SQL benchmarks write strings in double quotes (Spider's {@code WHERE country = "France"}), and
     * MariaDB's default sql_mode reads {@code "x"} as the string {@code 'x'}: the guard refused every such question
     * ({@code UNSAFE_SYNTAX}). It now reads a double-quoted run as the server's default mode does, and each answers as
     * raw. A run the rewrite cannot speak for (after a character set introducer) is still refused.
     */
    @Test
    void aDoubleQuotedRunIsTheStringTheServerReads() {
        sameRows("SELECT id FROM claims WHERE region = \"north\" ORDER BY id");
        sameRows("SELECT count(*) AS n FROM claims WHERE status IN (\"APPROVED\", 'DENIED')");
        sameRows("SELECT concat(region, \"-\", status) AS k, count(*) AS n FROM claims GROUP BY k ORDER BY k");
        sameRows("SELECT region, \"it's\" AS x, \"say \"\"hi\"\"\" AS y FROM regions ORDER BY region");
        sameRows("SELECT region AS \"r\", count(*) AS \"n\" FROM claims WHERE region LIKE \"%o%\" GROUP BY region ORDER BY 1");
        sameRows("SELECT `region` FROM regions WHERE manager > \"M\" /* \"not a string\" */ ORDER BY 1");
        Outcome introduced = guarded("SELECT _utf8mb4\"north\" AS r");
        assertThat(introduced).isInstanceOf(Outcome.Failed.class);
        assertThat(((Outcome.Failed) introduced).code()).isEqualTo("UNSAFE_SYNTAX");
    }

    /**
     * MariaDB compares table names, schema names and table aliases as {@code lower_case_table_names} says (0 on Linux:
     * exactly), and column names, column aliases, CTE definitions and window names case-insensitively. The guard folded
     * every name, so it answered {@code SELECT c.id FROM claims C} and {@code FROM Claims}, which the server refuses. Each
     * text now gives the raw outcome: the same rows, or refused where the server refuses it (whatever this server's
     * setting is).
     */
    @Test
    void tableNamesAndAliasesAreComparedAsTheServerComparesThem() {
        List<String> texts = List.of(
                "SELECT C.id FROM claims C WHERE c.id = 1",
                "SELECT id FROM Claims WHERE id = 1",
                "SELECT CLAIMS.id FROM claims WHERE id = 1",
                "SELECT d.id FROM (SELECT id FROM claims) D WHERE D.id = 1",
                "WITH Big AS (SELECT id FROM claims) SELECT Big.id FROM big WHERE big.id = 1",
                "SELECT (SELECT count(*) FROM regions R WHERE r.region = c.region) AS n FROM claims c WHERE c.id = 1",
                "SELECT count(*) AS n FROM claims a JOIN regions A ON a.region = A.region",
                "WITH Big AS (SELECT id FROM claims) SELECT count(*) AS n FROM big",
                "SELECT claims.ID FROM claims WHERE Claims.id = 1 OR claims.Id = 2",
                "SELECT claims.ID FROM claims WHERE claims.id = 1 OR claims.Id = 2 ORDER BY 1",
                "SELECT rank() OVER W AS r FROM claims WINDOW w AS (ORDER BY id) ORDER BY 1 LIMIT 2");
        boolean someFailRaw = false;
        for (String sql : texts) {
            Outcome expected = raw(sql);
            Outcome got = guarded(sql);
            if (expected instanceof Outcome.Rows) {
                assertThat(got).as(sql).isEqualTo(expected);
            } else {
                someFailRaw = true;
                assertThat(got).as(sql).isInstanceOf(Outcome.Failed.class);
            }
        }
        assertThat(raw(texts.get(texts.size() - 1))).isInstanceOf(Outcome.Rows.class);
        if (lowerCaseTableNames() == 0) {
            assertThat(someFailRaw).as("a server that compares table names exactly refuses some of these").isTrue();
        }
    }

    private long lowerCaseTableNames() {
        try (java.sql.Statement s = raw.createStatement(); java.sql.ResultSet rs = s.executeQuery("SELECT @@lower_case_table_names")) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
