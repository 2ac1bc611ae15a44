package dev.sqlguard.trino;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.SensitiveNames;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.testing.FixtureEngine;
import dev.sqlguard.testing.HonestCorpus;

/**
 * Honest SQL that Trino runs and the guard used to refuse: every word Trino names as a keyword
 * ({@code DatabaseMetaData.getSQLKeywords()}) or a function ({@code SHOW FUNCTIONS}) that Trino
 * takes as a bare column name, INTERSECT and EXCEPT (planned with constant marker columns), a FROM
 * subquery without an alias, and MySQL's {@code LIMIT m, n}, which Trino refuses, refused with advice.
 */
@Tag("trino")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(1200)
class TrinoHonestRefusalsTest {
    private FixtureEngine<TrinoFixture> server;
    /** The engine's own reading of set operations mixed without parentheses: each query's two readings give different rows. */
    static final List<String> MIXED_SET_OPERATIONS = List.of(
            "SELECT id FROM claims WHERE id <= 2 UNION SELECT id FROM claims WHERE id = 3 EXCEPT SELECT id FROM claims WHERE id = 3 ORDER BY 1",
            "SELECT id FROM claims WHERE id <= 2 UNION SELECT id FROM claims WHERE id = 3 INTERSECT SELECT id FROM claims WHERE id = 4 ORDER BY 1",
            "SELECT id FROM claims WHERE id <= 3 EXCEPT SELECT id FROM claims WHERE id = 1 UNION SELECT id FROM claims WHERE id = 1 ORDER BY 1",
            "SELECT id FROM claims WHERE id <= 3 INTERSECT SELECT id FROM claims WHERE id >= 2 UNION ALL SELECT id FROM claims WHERE id = 9 ORDER BY 1",
            "SELECT id FROM claims WHERE id <= 5 EXCEPT SELECT id FROM claims WHERE id <= 3 INTERSECT SELECT id FROM claims WHERE id >= 3",
            "SELECT region FROM claims UNION ALL SELECT region FROM regions EXCEPT SELECT region FROM claims WHERE amount > 30000"
                    + " UNION SELECT manager FROM regions");

    private final QueryService service = new QueryService(AuditSink.discarding());
    private final List<String> words = new ArrayList<>();

    @BeforeAll
    void start() throws Exception {
        TestCluster.require();
        TrinoFixture fixture = new TrinoFixture(TestCluster.READ_ONLY);
        TreeSet<String> candidates = new TreeSet<>(List.of("year", "time", "position", "cross", "format", "uuid", "date", "type",
                "status", "order", "month", "day", "hour", "minute", "second", "value", "zone", "first", "last", "rows"));
        try (Connection c = TestCluster.connect(TestCluster.ADMIN, fixture.schema()); Statement s = c.createStatement()) {
            for (String k : c.getMetaData().getSQLKeywords().split(",")) {
                candidates.add(k.strip().toLowerCase(Locale.ROOT));
            }
            try (ResultSet rs = s.executeQuery("SHOW FUNCTIONS")) {
                while (rs.next()) {
                    candidates.add(rs.getString(1).toLowerCase(Locale.ROOT));
                }
            }
            candidates.removeIf(w -> !w.matches("[a-z_][a-z0-9_]*") || SensitiveNames.isSensitive(w, java.util.Set.of()));
            words.addAll(candidates);
            List<String> columns = new ArrayList<>();
            List<String> values = new ArrayList<>();
            for (int i = 0; i < words.size(); i++) {
                columns.add("\"" + words.get(i) + "\" integer");
                values.add(String.valueOf(i));
            }
            s.execute("CREATE TABLE kw (" + String.join(", ", columns) + ")");
            s.execute("INSERT INTO kw VALUES (" + String.join(", ", values) + ")");
        }
        Map<String, List<String>> tables = new HashMap<>(FixtureEngine.PLAIN_COLUMNS);
        tables.put("kw", words);
        server = FixtureEngine.open(fixture, "kw", FixtureEngine.plainPolicy(tables));
    }

    @AfterAll
    void stop() throws SQLException {
        if (server != null) {
            try (Connection c = TestCluster.connect(TestCluster.ADMIN, server.fixture().schema()); Statement s = c.createStatement()) {
                s.execute("DROP TABLE IF EXISTS kw");
            }
            server.close();
        }
    }

    private ToolResult guarded(String sql) {
        return service.query(server.engine().binding(), new QueryRequest("kw", sql, List.of(), "c"));
    }

    @Test
    void mixedSetOperationsAnswerInTheEnginesReading() throws SQLException {
        HonestCorpus.Outcome outcome = compare(MIXED_SET_OPERATIONS);
        assertThat(outcome.refused()).as("refused").isEmpty();
        assertThat(outcome.different()).as("different").isEmpty();
        assertThat(outcome.ran()).isEqualTo(MIXED_SET_OPERATIONS.size());
    }

    @Test
    void everyWordTrinoTakesAsABareColumnNameRuns() throws SQLException {
        assertThat(words).hasSizeGreaterThan(200).contains("year", "uuid", "position", "format");
        List<String> corpus = new ArrayList<>();
        for (String w : words) {
            corpus.add("SELECT " + w + " FROM kw");
            corpus.add("SELECT " + w + " AS v, count(*) AS n FROM kw WHERE " + w + " >= 0 GROUP BY " + w + " ORDER BY " + w);
        }
        HonestCorpus.Outcome outcome = compare(corpus);
        assertThat(outcome.ran()).as("words Trino takes bare").isGreaterThan(300);
        assertThat(outcome.refused()).as("refused").isEmpty();
        assertThat(outcome.different()).as("different").isEmpty();
    }

    @Test
    void setOperationsAndUnaliasedSubqueriesRun() throws SQLException {
        List<String> corpus = List.of(
                "SELECT region FROM claims INTERSECT SELECT region FROM regions",
                "SELECT region FROM regions EXCEPT SELECT region FROM claims WHERE status = 'DENIED' ORDER BY 1",
                "SELECT region FROM claims WHERE amount > 30000 INTERSECT ALL SELECT region FROM claims WHERE status = 'APPROVED'",
                "SELECT region FROM claims EXCEPT ALL SELECT region FROM regions",
                "SELECT count(*) AS n FROM (SELECT region FROM claims INTERSECT SELECT region FROM regions) x",
                "SELECT count(*) AS n FROM (SELECT region FROM claims WHERE amount > 1000)",
                "SELECT region, n FROM (SELECT region, count(*) AS n FROM claims GROUP BY region) ORDER BY region");
        compare(corpus).assertEachAgrees();
    }

    @Test
    void mysqlsLimitFormIsRefusedWithAdvice() throws SQLException {
        try (Connection c = TestCluster.connect(TestCluster.ADMIN, server.fixture().schema()); Statement s = c.createStatement()) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.executeQuery("SELECT id FROM claims ORDER BY id LIMIT 9, 2"))
                    .isInstanceOf(SQLException.class);
        }
        ToolResult r = guarded("SELECT id FROM claims ORDER BY id LIMIT 9, 2");
        assertThat(r.status()).isNotEqualTo(ToolStatus.OK);
        assertThat(r.error().orElseThrow().code()).isEqualTo(ErrorCode.CONSTRUCT_NOT_ALLOWED);
        assertThat(r.error().orElseThrow().message()).contains("LIMIT 2 OFFSET 9");
    }

    /**
     * Named windows run as raw: each SELECT's WINDOW clause is rendered whole, its definitions over the input
     * columns (an output named like one of them changes nothing), called in any order, used or not. COLLATE,
     * which Trino does not have, is refused with a message that says so.
     */
    /** LATERAL, which Trino runs, was refused as a relation (the wider generator). */
    @Test
    void lateralRuns() throws SQLException {
        compare(List.of(
                "SELECT c.id, l.k FROM claims c, LATERAL (SELECT count(*) AS k FROM users u WHERE u.id < c.id) l ORDER BY 1",
                "SELECT c.id, l.k FROM claims c CROSS JOIN LATERAL (SELECT max(u.id) AS k FROM users u WHERE u.id < c.id) l ORDER BY 1"))
                .assertEachAgrees();
    }

    @Test
    void namedWindowsRunAndCollateIsRefused() throws SQLException {
        List<String> corpus = List.of(
                "SELECT id, region, rank() OVER w AS r FROM claims WINDOW w AS (PARTITION BY region ORDER BY amount DESC) ORDER BY id",
                "SELECT id, sum(amount) OVER w AS s, count(*) OVER w AS n FROM claims"
                        + " WINDOW w AS (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) ORDER BY id",
                "SELECT id, sum(amount) OVER b AS x, sum(amount) OVER a AS y FROM claims"
                        + " WINDOW a AS (PARTITION BY region), b AS (PARTITION BY status) ORDER BY id",
                "SELECT id FROM claims WINDOW w AS (PARTITION BY region) ORDER BY id",
                "SELECT r, count(*) AS n FROM (SELECT rank() OVER w AS r FROM claims WINDOW w AS (PARTITION BY region ORDER BY created)) x"
                        + " GROUP BY r ORDER BY r",
                "SELECT id AS region, rank() OVER w AS r FROM claims WINDOW w AS (ORDER BY region, id) ORDER BY 1");
        compare(corpus).assertEachAgrees();
        try (Connection c = TestCluster.connect(TestCluster.ADMIN, server.fixture().schema()); Statement s = c.createStatement()) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.executeQuery("SELECT region COLLATE \"C\" AS r FROM claims"))
                    .isInstanceOf(SQLException.class);
        }
        ToolResult collate = guarded("SELECT region COLLATE \"C\" AS r FROM claims");
        assertThat(collate.status()).isNotEqualTo(ToolStatus.OK);
        assertThat(collate.error().orElseThrow().code()).isEqualTo(ErrorCode.CONSTRUCT_NOT_ALLOWED);
        assertThat(collate.error().orElseThrow().message()).contains("COLLATE does not exist on Trino");
    }

    /**
     * Issue 25: inside an ORDER BY expression Trino reads a name as the output column first. The guard
     * answered ids 1, 2, 3 where Trino gives 200, 199, 198; it then refused with advice, and now writes such
     * a name as the output's expression, which leaves Trino no other reading (about 2.5% of the generated cases
     * had been refused, among them {@code SELECT amount * 2 AS d ... ORDER BY d + 1}). From a subquery of the
     * key, or where two outputs have the name, it still refuses with advice. GROUP BY an output name that no
     * input column has is refused as Trino refuses it, exactly like a name that exists nowhere.
     */
    @Test
    void outputNamesInOrderByExpressionsAndGroupByAreReadAsTrinoReadsThem() throws SQLException {
        ToolResult fromSubquery = guarded("SELECT id AS x, 0 - id AS id FROM claims ORDER BY (SELECT id) LIMIT 3");
        assertThat(fromSubquery.status()).isNotEqualTo(ToolStatus.OK);
        assertThat(fromSubquery.error().orElseThrow().code()).isEqualTo(ErrorCode.CONSTRUCT_NOT_ALLOWED);
        assertThat(fromSubquery.error().orElseThrow().message()).contains("output column");
        assertThat(guarded("SELECT id AS k, 0 - id AS k FROM claims ORDER BY k + 0 LIMIT 3").status()).isNotEqualTo(ToolStatus.OK);
        HonestCorpus.Outcome same = compare(List.of(
                "SELECT id AS x, 0 - id AS id FROM claims ORDER BY id + 0 LIMIT 3",
                "SELECT id, amount * 2 AS d FROM claims ORDER BY d + 1 DESC, 1 LIMIT 5",
                "SELECT region, sum(amount) AS total FROM claims GROUP BY region ORDER BY total / 2 DESC",
                "SELECT upper(region) AS region, id FROM claims ORDER BY lower(region), id LIMIT 5",
                "SELECT id, region FROM claims ORDER BY id + 0 LIMIT 3",
                "SELECT id AS x, region FROM claims ORDER BY id + 0 DESC LIMIT 3",
                "SELECT c.id AS x, 0 - c.id AS id FROM claims c ORDER BY c.id + 0 LIMIT 3",
                "SELECT id AS x, 0 - id AS id FROM claims ORDER BY id LIMIT 3",
                "SELECT region, count(*) AS n FROM claims GROUP BY region ORDER BY region"));
        assertThat(same.different()).isEmpty();
        assertThat(same.refused()).isEmpty();
        try (Connection c = TestCluster.connect(TestCluster.ADMIN, server.fixture().schema()); Statement s = c.createStatement()) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.executeQuery("SELECT upper(region) AS r, count(*) AS n FROM claims GROUP BY r"))
                    .isInstanceOf(SQLException.class);
        }
        ToolResult byOutput = guarded("SELECT upper(region) AS r, count(*) AS n FROM claims GROUP BY r");
        ToolResult byNothing = guarded("SELECT upper(region) AS nosuch_zz, count(*) AS n FROM claims GROUP BY nosuch");
        assertThat(byOutput.status()).isNotEqualTo(ToolStatus.OK);
        assertThat(byOutput.error().orElseThrow().code()).isEqualTo(byNothing.error().orElseThrow().code());
        assertThat(byOutput.error().orElseThrow().message().replace("\"r\"", "N").replace("'r'", "N").replace(" r ", " N "))
                .isEqualTo(byNothing.error().orElseThrow().message().replace("\"nosuch\"", "N").replace("'nosuch'", "N").replace(" nosuch ", " N "));
    }

    /**
     * Quantified comparisons ({@code = ANY}, {@code <> ALL}, {@code > SOME} over a subquery or a VALUES list) and
     * VALUES in FROM with its columns named, or after IN, run as raw. Trino gives the columns of a VALUES list no
     * names a query can read, so a VALUES in FROM whose alias does not name each column is refused with advice.
     */
    @Test
    void quantifiedComparisonsAndValuesRun() throws SQLException {
        List<String> corpus = List.of(
                "SELECT id FROM claims WHERE region = ANY (SELECT region FROM regions WHERE manager LIKE 'S%') ORDER BY id",
                "SELECT id FROM claims WHERE region <> ALL (SELECT region FROM regions WHERE manager LIKE 'S%') ORDER BY id",
                "SELECT id, amount FROM claims WHERE amount > ALL (SELECT amount FROM claims WHERE region = 'north') ORDER BY id",
                "SELECT id FROM claims WHERE amount > SOME (SELECT amount FROM claims WHERE region = 'south' AND status = 'DENIED') ORDER BY id",
                "SELECT id FROM claims WHERE amount >= ANY (SELECT max(amount) FROM claims GROUP BY region) ORDER BY id",
                "SELECT region, count(*) AS n FROM claims WHERE status = ANY (SELECT status FROM claims WHERE amount > 50000) GROUP BY region ORDER BY 1",
                "SELECT id FROM claims WHERE NOT (region = ANY (SELECT region FROM regions WHERE manager > 'M')) ORDER BY id",
                "SELECT id, amount > ALL (SELECT amount FROM claims WHERE region = 'east') AS top FROM claims ORDER BY id",
                "SELECT id FROM claims WHERE id = SOME (SELECT id * 3 FROM claims) AND id <> ALL (SELECT id * 2 FROM claims) ORDER BY id",
                "SELECT id FROM claims WHERE region = ANY (VALUES ('north'), ('east')) ORDER BY id",
                "SELECT id FROM claims WHERE amount > ALL (VALUES (10000), (20000)) ORDER BY id",
                "SELECT t.id, t.name FROM (VALUES (1, 'a'), (2, 'b')) AS t (id, name) ORDER BY t.id",
                "SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS t (id, name) ORDER BY 1",
                "SELECT count(*) AS n FROM (VALUES (1), (2), (3)) AS t (x)",
                "SELECT v.region, v.target, count(c.id) AS n FROM (VALUES ('north', 10), ('south', 20), ('nowhere', 0)) AS v (region, target)"
                        + " LEFT JOIN claims c ON c.region = v.region GROUP BY v.region, v.target ORDER BY 1",
                "SELECT c.id, v.label FROM claims c JOIN (VALUES ('APPROVED', 'ok'), ('DENIED', 'no')) AS v (status, label)"
                        + " ON v.status = c.status WHERE c.id < 10 ORDER BY c.id",
                "SELECT p.lo, count(*) AS n FROM claims c JOIN (VALUES (DATE '2024-01-01', DATE '2024-04-01'), (DATE '2024-04-01', DATE '2025-01-01'))"
                        + " AS p (lo, hi) ON c.created >= p.lo AND c.created < p.hi GROUP BY p.lo ORDER BY 1",
                "SELECT a, b FROM (VALUES (1, NULL), (2, 2.5)) AS t (a, b) ORDER BY a",
                "SELECT id FROM claims WHERE id IN (VALUES (1), (3), (5)) ORDER BY id",
                "SELECT id FROM claims WHERE region NOT IN (VALUES ('north'), ('south')) ORDER BY id",
                "SELECT id FROM claims WHERE region IN (SELECT region FROM (VALUES ('north'), ('west')) AS v (region)) ORDER BY id",
                "SELECT c.id, v.n FROM claims c CROSS JOIN (VALUES (1), (2)) AS v (n) WHERE c.id <= 2 ORDER BY 1, 2");
        HonestCorpus.Outcome outcome = compare(corpus);
        assertThat(outcome.refused()).as("refused").isEmpty();
        assertThat(outcome.different()).as("different").isEmpty();
        assertThat(outcome.ran()).isEqualTo(corpus.size());
        ToolResult unnamed = guarded("SELECT * FROM (VALUES (1, 'a')) AS t");
        assertThat(unnamed.status()).isNotEqualTo(ToolStatus.OK);
        assertThat(unnamed.error().orElseThrow().code()).isEqualTo(ErrorCode.SYNTAX_ERROR);
        assertThat(unnamed.error().orElseThrow().message()).contains("AS t (id, name)");
        ToolResult hidden = guarded("SELECT id FROM claims WHERE region = ANY (SELECT ssn FROM claims)");
        ToolResult hiddenIn = guarded("SELECT id FROM claims WHERE region IN (SELECT ssn FROM claims)");
        assertThat(hidden.error()).isPresent().isEqualTo(hiddenIn.error());
        assertThat(hidden.error().orElseThrow().code()).isEqualTo(ErrorCode.UNKNOWN_COLUMN);
    }

    /**
     * Rows of values, which Trino 483 runs as PostgreSQL 15 does: {@code (a, b) [NOT] IN (SELECT x, y ...)}, a list of
     * rows or {@code VALUES}, {@code (a, b) = (c, d)} and the other comparisons, {@code (a, b) = ANY (SELECT x, y ...)}
     * and {@code <> ALL}; a hidden column inside a row is a name that does not exist.
     */
    @Test
    void rowsOfValuesRun() throws SQLException {
        List<String> corpus = List.of(
                "SELECT id, (id, status) IN (SELECT u5.id, u5.name FROM users u5) AS k FROM claims ORDER BY 1",
                "SELECT id FROM claims WHERE (id, region) IN (SELECT c2.id + 1, c2.region FROM claims c2) ORDER BY id",
                "SELECT id FROM claims WHERE (id, region) NOT IN (SELECT c2.id * 2, c2.region FROM claims c2 WHERE c2.amount > 1000) ORDER BY id",
                "SELECT id FROM claims WHERE (abs(7), upper(region)) = (7, 'NORTH') ORDER BY id",
                "SELECT id, (region, status) <> ('north', 'APPROVED') AS k FROM claims ORDER BY id",
                "SELECT id FROM claims WHERE (region, status) IN (('north', 'APPROVED'), ('south', 'DENIED')) ORDER BY id",
                "SELECT id FROM claims WHERE (region, id % 3) NOT IN (('east', 0), ('west', 1)) ORDER BY id",
                "SELECT id FROM claims WHERE (region, status) IN (VALUES ('north', 'APPROVED'), ('east', 'DENIED')) ORDER BY id",
                // Trino 483 refuses a correlated row IN ("Given correlated subquery is not supported"), raw and guarded alike
                "SELECT r.region FROM regions r WHERE (r.region, upper(r.manager)) IN (SELECT c.region, c.status FROM claims c) ORDER BY 1",
                "SELECT id FROM claims WHERE (id, NULL) = (1, 2) OR (id, status) = (2, status) ORDER BY id",
                "SELECT count(*) AS n FROM claims WHERE (region, status) IN (SELECT region, status FROM claims WHERE id < 10 UNION SELECT 'west', 'DENIED')",
                "SELECT id FROM claims WHERE NOT ((region, amount > 1000) = ('south', TRUE)) ORDER BY id",
                "SELECT region, count(*) AS n FROM claims WHERE (status, region) <> ('DENIED', 'east') GROUP BY region ORDER BY 1",
                "SELECT id FROM claims WHERE (region, id) < ('north', 20) ORDER BY id",
                "SELECT id, (status, amount) >= ('DENIED', 30000) AS k, (id, id) <= (4, 0) AS j, (region, 1) > ('m', 2) AS i FROM claims ORDER BY id",
                "SELECT id FROM claims WHERE (id, region) = ANY (SELECT c2.id * 3, c2.region FROM claims c2) ORDER BY id",
                "SELECT id FROM claims WHERE (id, region) <> ALL (SELECT c2.id + 2, c2.region FROM claims c2 WHERE c2.status = 'DENIED') ORDER BY id",
                "SELECT id FROM claims WHERE (region, status) = SOME (VALUES ('north', 'APPROVED'), ('west', 'DENIED')) ORDER BY id",
                "SELECT count(*) AS n FROM claims WHERE (region, status) = ALL (SELECT region, status FROM claims WHERE id = 3)",
                "SELECT count(*) AS n FROM claims WHERE (region, status) <> SOME (SELECT region, status FROM claims WHERE id < 3)",
                "SELECT u.id FROM users u WHERE (u.id, u.name) IN (SELECT id, name FROM users WHERE id > 1) ORDER BY 1");
        HonestCorpus.Outcome outcome = compare(corpus);
        assertThat(outcome.refused()).as("refused").isEmpty();
        assertThat(outcome.different()).as("different").isEmpty();
        assertThat(outcome.ran()).isEqualTo(corpus.size());
        for (String probe : List.of("SELECT id FROM claims WHERE (id, %s) IN (SELECT id, region FROM claims)",
                "SELECT id FROM claims WHERE (id, region) IN (SELECT id, %s FROM claims)", "SELECT id FROM claims WHERE (id, %s) = (1, 'x')")) {
            ToolResult hidden = guarded(probe.formatted("ssn"));
            ToolResult absent = guarded(probe.formatted("ssn_zz"));
            assertThat(hidden.error().orElseThrow().code()).as(probe).isEqualTo(ErrorCode.UNKNOWN_COLUMN);
            assertThat(absent.error().orElseThrow().code()).as(probe).isEqualTo(ErrorCode.UNKNOWN_COLUMN);
            assertThat(absent.error().orElseThrow().message().replace("ssn_zz", "ssn")).as(probe).isEqualTo(hidden.error().orElseThrow().message());
        }
    }

    /**
     * {@code ROLLUP}, {@code CUBE}, {@code GROUPING SETS} and {@code GROUPING(...)}, which Trino has and the guard refused
     * ("GROUPING SETS, ROLLUP and CUBE are not allowed", and 'rollup' or 'cube' as a function not allowlisted: about 2% of
     * the generated cases); a hidden column is as missing inside them as anywhere, and a sensitive one groups nothing.
     */
    @Test
    void groupingSetsRun() throws SQLException {
        List<String> corpus = List.of(
                "SELECT region, status, count(*) AS n, sum(amount) AS s FROM claims GROUP BY ROLLUP (region, status) ORDER BY 1, 2",
                "SELECT region, status, count(*) AS n FROM claims GROUP BY CUBE (region, status) ORDER BY 1, 2",
                "SELECT region, status, count(*) AS n FROM claims GROUP BY GROUPING SETS ((region), (status), ()) ORDER BY 1, 2",
                "SELECT region, grouping(region) AS g, count(*) AS n FROM claims GROUP BY ROLLUP (region) ORDER BY 2, 1",
                "SELECT c.region, r.manager, count(*) AS n FROM claims c JOIN regions r ON r.region = c.region"
                        + " GROUP BY ROLLUP (c.region, r.manager) ORDER BY 1, 2");
        HonestCorpus.Outcome outcome = compare(corpus);
        assertThat(outcome.refused()).as("refused").isEmpty();
        assertThat(outcome.different()).as("different").isEmpty();
        assertThat(outcome.ran()).isEqualTo(corpus.size());
        String probe = "SELECT %s, count(*) AS n FROM claims GROUP BY ROLLUP (%s)";
        ToolResult hidden = guarded(probe.formatted("ssn", "ssn"));
        ToolResult absent = guarded(probe.formatted("ssn_zz", "ssn_zz"));
        assertThat(hidden.error().orElseThrow().code()).isEqualTo(absent.error().orElseThrow().code());
        assertThat(absent.error().orElseThrow().message().replace("ssn_zz", "ssn")).isEqualTo(hidden.error().orElseThrow().message());
    }

    /**
     * The standard's keyword forms, written by the fourth-wave generator: {@code POSITION(a IN b)}, {@code SUBSTRING(x
     * FROM a [FOR b])} and {@code TRIM}, rendered in the same form with each argument in parentheses.
     */
    @Test
    void theStandardsKeywordFormsRun() throws SQLException {
        List<String> corpus = List.of(
                "SELECT id, POSITION('r' IN region) AS p, position(upper('o') IN upper(region || status)) AS q FROM claims ORDER BY id",
                "SELECT id, SUBSTRING(region FROM 2) AS a, substring(status || region FROM 1 + 1 FOR 2) AS b FROM claims ORDER BY id",
                "SELECT id, TRIM(BOTH 'n' FROM region) AS a, TRIM(LEADING 'n' FROM region) AS b, TRIM(TRAILING 'h' FROM region) AS c,"
                        + " TRIM('  x ') AS d, TRIM(BOTH FROM ' ' || region || ' ') AS e FROM claims ORDER BY id",
                "SELECT region, count(*) AS n FROM claims WHERE POSITION('o' IN status) > 0 AND SUBSTRING(region FROM 1 FOR 1) <> 'w'"
                        + " GROUP BY region ORDER BY 1");
        HonestCorpus.Outcome outcome = compare(corpus);
        assertThat(outcome.refused()).as("refused").isEmpty();
        assertThat(outcome.different()).as("different").isEmpty();
        assertThat(outcome.ran()).isEqualTo(corpus.size());
        for (String probe : List.of("SELECT POSITION('1' IN %s) AS p FROM claims", "SELECT SUBSTRING(%s FROM 1 FOR 3) AS p FROM claims",
                "SELECT TRIM(BOTH '9' FROM %s) AS p FROM claims")) {
            ToolResult hidden = guarded(probe.formatted("ssn"));
            ToolResult absent = guarded(probe.formatted("ssn_zz"));
            assertThat(hidden.error().orElseThrow().code()).as(probe).isEqualTo(absent.error().orElseThrow().code());
            assertThat(absent.error().orElseThrow().message().replace("ssn_zz", "ssn")).as(probe).isEqualTo(hidden.error().orElseThrow().message());
        }
    }

    private HonestCorpus.Outcome compare(List<String> corpus) throws SQLException {
        try (Connection raw = TestCluster.connect(TestCluster.ADMIN, server.fixture().schema()); Statement s = raw.createStatement()) {
            HonestCorpus.Outcome outcome = HonestCorpus.compare(corpus, HonestCorpus.jdbc(s), this::guarded, HonestCorpus::plainCell);
            outcome.print();
            outcome.different().forEach(System.out::println);
            return outcome;
        }
    }
}
