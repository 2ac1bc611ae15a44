package dev.sqlguard.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.ToolError;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.testing.FixtureEngine;
import dev.sqlguard.testing.HonestCorpus;

/**
 * Quantified comparisons ({@code x = ANY (subquery)}, {@code <> ALL}, {@code > SOME}) and {@code VALUES} (a FROM
 * item with its column list, {@code x IN (VALUES ...)}), which PostgreSQL runs, answered guarded exactly as raw over
 * the contract dataset; inside them the checks of their plain forms hold: a hidden column is a name that does not
 * exist, the function allowlist applies, and a sensitive column compared through {@code = ANY} is refused exactly as
 * through {@code IN}. {@code (TABLE t)} is refused with advice.
 */
@Tag("postgresql")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(300)
class PostgresQuantifiedAndValuesTest {
    /** Quantified comparisons over subqueries (and over VALUES), correlated or not, in WHERE and in the select list. */
    static final List<String> QUANTIFIED = List.of(
            "SELECT id FROM claims WHERE region = ANY (SELECT region FROM regions WHERE manager LIKE 'S%') ORDER BY id",
            "SELECT id FROM claims WHERE region <> ALL (SELECT region FROM regions WHERE manager LIKE 'S%') ORDER BY id",
            "SELECT id, amount FROM claims WHERE amount > ALL (SELECT amount FROM claims WHERE region = 'north') ORDER BY id",
            "SELECT id FROM claims WHERE amount > SOME (SELECT amount FROM claims WHERE region = 'south' AND status = 'DENIED') ORDER BY id",
            "SELECT id FROM claims WHERE amount >= ANY (SELECT max(amount) FROM claims GROUP BY region) ORDER BY id",
            "SELECT id FROM claims WHERE amount <= ALL (SELECT c2.amount FROM claims c2 WHERE c2.region = claims.region) ORDER BY id",
            "SELECT id FROM claims c WHERE c.created < ALL (SELECT d.created FROM claims d WHERE d.region = c.region AND d.id <> c.id) ORDER BY id",
            "SELECT region, count(*) AS n FROM claims WHERE status = ANY (SELECT status FROM claims WHERE amount > 50000) GROUP BY region ORDER BY 1",
            "SELECT id FROM claims WHERE NOT (region = ANY (SELECT region FROM regions WHERE manager > 'M')) ORDER BY id",
            "SELECT id, amount > ALL (SELECT amount FROM claims WHERE region = 'east') AS top FROM claims ORDER BY id",
            "SELECT id FROM claims WHERE region = ANY (SELECT region FROM regions UNION SELECT 'nowhere') ORDER BY id",
            "SELECT id FROM claims WHERE amount > ALL (SELECT amount FROM claims WHERE 1 = 0) AND id < 5 ORDER BY id",
            "SELECT id FROM claims WHERE amount < ANY (SELECT avg(amount) FROM claims) AND region = 'west' ORDER BY id",
            "SELECT id FROM claims WHERE id = SOME (SELECT id * 3 FROM claims) AND id <> ALL (SELECT id * 2 FROM claims) ORDER BY id",
            "SELECT r.region, (SELECT count(*) FROM claims c WHERE c.region = r.region AND c.amount > ALL (SELECT 30000)) AS n"
                    + " FROM regions r ORDER BY 1",
            "select id from claims where amount > some (select amount * 2 from claims where region = 'west') order by id",
            "SELECT id FROM claims WHERE id = ANY (SELECT id * 2 FROM claims ORDER BY 1 LIMIT 3) ORDER BY id",
            "SELECT id FROM claims WHERE region = ANY (VALUES ('north'), ('east')) ORDER BY id",
            "SELECT id FROM claims WHERE amount > ALL (VALUES (10000), (20000)) ORDER BY id");

    /** VALUES as a FROM item, with all, some or none of its columns named, joined, nested, and as the list of IN. */
    static final List<String> VALUES = List.of(
            "SELECT t.id, t.name FROM (VALUES (1, 'a'), (2, 'b')) AS t (id, name) ORDER BY t.id",
            "SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS t (id, name) ORDER BY 1",
            "SELECT id, name FROM (VALUES (1, 'a'), (2, 'b')) t (id, name) ORDER BY id",
            "SELECT column1, column2 FROM (VALUES (1, 'x'), (2, 'y')) AS t ORDER BY column1",
            "SELECT t.column2 FROM (VALUES (1, 'x')) t",
            "SELECT id, column2 FROM (VALUES (1, 'a'), (2, 'b')) AS t (id) ORDER BY id",
            "SELECT count(*) AS n FROM (VALUES (1), (2), (3)) AS t (x)",
            "SELECT v.region, v.target, count(c.id) AS n FROM (VALUES ('north', 10), ('south', 20), ('nowhere', 0)) AS v (region, target)"
                    + " LEFT JOIN claims c ON c.region = v.region GROUP BY v.region, v.target ORDER BY 1",
            "SELECT c.id, v.label FROM claims c JOIN (VALUES ('APPROVED', 'ok'), ('DENIED', 'no')) AS v (status, label)"
                    + " ON v.status = c.status WHERE c.id < 10 ORDER BY c.id",
            "SELECT c.id, v.amount FROM claims c JOIN (VALUES (1, 5.5), (2, 7)) AS v (id, amount) ON v.id = c.id ORDER BY 1",
            "SELECT p.lo, count(*) AS n FROM claims c JOIN (VALUES (DATE '2024-01-01', DATE '2024-04-01'), (DATE '2024-04-01', DATE '2025-01-01'))"
                    + " AS p (lo, hi) ON c.created >= p.lo AND c.created < p.hi GROUP BY p.lo ORDER BY 1",
            "SELECT t.k, t.v FROM (VALUES ('a', upper('x')), ('b', lower('Y'))) AS t (k, v) ORDER BY 1",
            "SELECT a, b FROM (VALUES (1, NULL), (2, 2.5)) AS t (a, b) ORDER BY a",
            "SELECT m FROM (VALUES ((SELECT max(amount) FROM claims))) AS t (m)",
            "SELECT x FROM (SELECT x FROM (VALUES (1), (2)) AS a (x)) AS b ORDER BY x",
            "SELECT ssn AS note FROM (VALUES ('not the hidden column')) AS v (ssn)",
            "SELECT id FROM claims WHERE id IN (VALUES (1), (3), (5)) ORDER BY id",
            "SELECT id FROM claims WHERE region NOT IN (VALUES ('north'), ('south')) ORDER BY id",
            // a name of the VALUES columns shadows the outer query's column of that name, as in PostgreSQL
            "SELECT id FROM claims WHERE region IN (SELECT region FROM (VALUES ('north'), ('west')) AS v (region)) ORDER BY id",
            "SELECT count(*) AS n FROM claims WHERE EXISTS (SELECT 1 FROM (VALUES ('north')) AS v (region) WHERE region = 'north')",
            "SELECT id FROM claims WHERE EXISTS (SELECT 1 FROM (VALUES ('north'), ('east')) AS v (r) WHERE r = region) ORDER BY id",
            "SELECT c.id, v.n FROM claims c CROSS JOIN (VALUES (1), (2)) AS v (n) WHERE c.id <= 2 ORDER BY 1, 2");

    private FixtureEngine<PostgresFixture> server;
    private final QueryService service = new QueryService(AuditSink.discarding());

    @BeforeAll
    void start() throws Exception {
        assumeTrue(TestServer.available(), "no PostgreSQL server");
        // claims.ssn and users.api_key hidden; users.password readable but sensitive
        Map<String, List<String>> tables = new HashMap<>(FixtureEngine.PLAIN_COLUMNS);
        tables.put("users", List.of("id", "name", "password"));
        server = FixtureEngine.open(new PostgresFixture(false), "qv", FixtureEngine.plainPolicy(tables));
    }

    @AfterAll
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private ToolResult guarded(String sql) {
        return service.query(server.engine().binding(), new QueryRequest("qv", sql, List.of(), "c"));
    }

    private ToolError refusal(String sql) {
        ToolResult r = guarded(sql);
        assertThat(r.status()).as(sql).isEqualTo(ToolStatus.REJECTED);
        return r.error().orElseThrow();
    }

    @Test
    void quantifiedComparisonsAnswerAsRaw() throws SQLException {
        assertAgrees(QUANTIFIED);
    }

    @Test
    void valuesAnswerAsRaw() throws SQLException {
        assertAgrees(VALUES);
    }

    @Test
    void quantifiedComparisonsAreRenderedAsTheyAreRead() {
        ToolResult r = guarded("SELECT id FROM claims WHERE amount > SOME (SELECT amount FROM claims WHERE id < 3) ORDER BY id");
        assertThat(r.status()).isEqualTo(ToolStatus.OK);
        assertThat(r.sql().orElseThrow()).contains("(\"t1\".\"amount\" > ANY (SELECT \"t2\".\"amount\" AS \"amount\" FROM");
        ToolResult v = guarded("SELECT id, column2 FROM (VALUES (1, 'a'), (2, 'b')) AS t (id) ORDER BY id");
        assertThat(v.status()).isEqualTo(ToolStatus.OK);
        assertThat(v.sql().orElseThrow()).contains("(VALUES (1, 'a'), (2, 'b')) AS \"t1\" (\"id\", \"column2\")");
    }

    @Test
    void aHiddenColumnInsideIsANameThatDoesNotExist() {
        ToolError in = refusal("SELECT id FROM claims WHERE region IN (SELECT ssn FROM claims)");
        assertThat(in.code()).isEqualTo(ErrorCode.UNKNOWN_COLUMN);
        for (String sql : List.of("SELECT id FROM claims WHERE region = ANY (SELECT ssn FROM claims)",
                "SELECT id FROM claims WHERE region = ANY (SELECT ssn FROM claims WHERE id * 2 > 0)",
                "SELECT id FROM claims WHERE region <> ALL (SELECT ssn FROM claims)",
                "SELECT id FROM claims WHERE region IN (SELECT ssn FROM (VALUES ('x')) AS v (s))",
                "SELECT id FROM claims c WHERE EXISTS (SELECT 1 FROM (VALUES (c.ssn)) AS v (s) WHERE v.s IS NOT NULL)",
                "SELECT v.x FROM claims c JOIN (VALUES ('x')) AS v (x) ON v.x = c.ssn")) {
            assertThat(refusal(sql)).as(sql).isEqualTo(in);
        }
        ToolError absent = refusal("SELECT id FROM claims WHERE region = ANY (SELECT nosuch FROM claims)");
        assertThat(absent.code()).isEqualTo(in.code());
        assertThat(absent.message().replace("nosuch", "ssn")).isEqualTo(in.message());
        // a VALUES list with fewer columns than its alias names is refused like PostgreSQL refuses it
        assertThat(refusal("SELECT a FROM (VALUES (1)) AS t (a, b)").code()).isEqualTo(ErrorCode.SYNTAX_ERROR);
        assertThat(refusal("SELECT c FROM (VALUES (1, 2)) AS t (a, b)").code()).isEqualTo(ErrorCode.UNKNOWN_COLUMN);
    }

    @Test
    void theFunctionAllowlistAppliesInside() {
        ToolError in = refusal("SELECT id FROM claims WHERE region IN (SELECT current_setting('search_path'))");
        assertThat(in.code()).isEqualTo(ErrorCode.FUNCTION_NOT_ALLOWED);
        assertThat(refusal("SELECT id FROM claims WHERE region = ANY (SELECT current_setting('search_path'))")).isEqualTo(in);
        assertThat(refusal("SELECT x FROM (VALUES (current_setting('search_path'))) AS v (x)")).isEqualTo(in);
        assertThat(refusal("SELECT id FROM claims WHERE region IN (VALUES (current_setting('search_path')))")).isEqualTo(in);
    }

    @Test
    void aSensitiveColumnComparedThroughAnyIsRefusedAsThroughIn() {
        // JSqlParser reads the second body's ANY as a call of a function ANY: it is the same comparison
        for (String body : List.of("SELECT password FROM users", "SELECT lower(password) FROM users WHERE id > 0")) {
            ToolError in = refusal("SELECT count(*) AS n FROM regions WHERE region IN (" + body + ")");
            assertThat(in.code()).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
            for (String op : List.of("= ANY", "<> ALL", "> SOME", "= SOME", "<= ALL")) {
                String sql = "SELECT count(*) AS n FROM regions WHERE region " + op + " (" + body + ")";
                assertThat(refusal(sql)).as(sql).isEqualTo(in);
            }
        }
        ToolError derived = refusal("SELECT count(*) AS n FROM users u WHERE EXISTS (SELECT 1 FROM (SELECT u.password AS p) AS v WHERE v.p LIKE 'h%')");
        assertThat(refusal("SELECT count(*) AS n FROM users u WHERE EXISTS (SELECT 1 FROM (VALUES (u.password)) AS v (p) WHERE v.p LIKE 'h%')"))
                .isEqualTo(derived);
        ToolError listed = refusal("SELECT count(*) AS n FROM users WHERE password IN ('hunter2-alice-pw', 'x')");
        assertThat(refusal("SELECT count(*) AS n FROM users WHERE password IN (VALUES ('hunter2-alice-pw'), ('x'))").code())
                .isEqualTo(listed.code());
    }

    @Test
    void aParenthesisedTableStatementIsRefusedWithAdvice() throws SQLException {
        String sql = "SELECT r.region FROM (TABLE regions) AS r ORDER BY 1";
        try (Connection raw = TestServer.admin(server.fixture().server()); Statement s = raw.createStatement()) {
            s.execute("SET search_path = " + server.fixture().schema());
            s.executeQuery(sql).close();
            assertThatThrownBy(() -> s.executeQuery("SELECT r.region FROM (regions) AS r")).isInstanceOf(SQLException.class);
        }
        ToolError e = refusal(sql);
        assertThat(e.code()).isEqualTo(ErrorCode.CONSTRUCT_NOT_ALLOWED);
        assertThat(e.message()).contains("SELECT * FROM");
        assertThat(guarded("SELECT r.region FROM (SELECT * FROM regions) AS r ORDER BY 1").status()).isEqualTo(ToolStatus.OK);
    }

    private void assertAgrees(List<String> corpus) throws SQLException {
        try (Connection raw = TestServer.admin(server.fixture().server()); Statement s = raw.createStatement()) {
            s.execute("SET search_path = " + server.fixture().schema());
            HonestCorpus.compare(corpus, HonestCorpus.jdbc(s), this::guarded, HonestCorpus::plainCell).assertEachAgrees();
        }
    }
}
