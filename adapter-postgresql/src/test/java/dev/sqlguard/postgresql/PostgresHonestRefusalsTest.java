package dev.sqlguard.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
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
import dev.sqlguard.domain.SensitiveNames;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.testing.FixtureEngine;
import dev.sqlguard.testing.HonestCorpus;

/**
 * Names PostgreSQL reads as plain column names, guarded exactly as raw: every keyword that
 * {@code pg_get_keywords()} says may name a column (catcode U or C) as a bare column, a table with a
 * keyword-named column in a join (EXPLAIN prints it quoted, {@code t2."time"}), {@code date(x)}, and
 * MySQL's {@code LIMIT m, n}, which PostgreSQL refuses, refused with advice.
 */
@Tag("postgresql")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(300)
class PostgresHonestRefusalsTest {
    private FixtureEngine<PostgresFixture> server;
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
    private final List<String> keywords = new ArrayList<>();

    @BeforeAll
    void start() throws Exception {
        assumeTrue(TestServer.available(), "no PostgreSQL server");
        PostgresFixture fixture = new PostgresFixture(false);
        Map<String, List<String>> tables = new HashMap<>(FixtureEngine.PLAIN_COLUMNS);
        try (Connection c = TestServer.admin(fixture.server()); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT word FROM pg_catalog.pg_get_keywords() WHERE catcode IN ('U', 'C') ORDER BY 1")) {
                while (rs.next()) {
                    // a keyword named like a secret (password) is redacted and may not filter rows: the policy's decision
                    if (!SensitiveNames.isSensitive(rs.getString(1), java.util.Set.of())) {
                        keywords.add(rs.getString(1));
                    }
                }
            }
            s.execute("SET search_path = " + fixture.schema());
            List<String> columns = new ArrayList<>();
            List<String> values = new ArrayList<>();
            for (int i = 0; i < keywords.size(); i++) {
                columns.add("\"" + keywords.get(i) + "\" integer");
                values.add(String.valueOf(i));
            }
            s.execute("CREATE TABLE kw (" + String.join(", ", columns) + ")");
            s.execute("INSERT INTO kw VALUES (" + String.join(", ", values) + ")");
            s.execute("CREATE TABLE a (id integer, \"time\" text, note text, \"position\" integer)");
            s.execute("CREATE TABLE b (id integer, \"cross\" text)");
            s.execute("INSERT INTO a VALUES (1, '10:00', 'first', 3), (2, '11:00', 'second', 4)");
            s.execute("INSERT INTO b VALUES (1, 'x'), (3, 'y')");
            s.execute("GRANT SELECT ON ALL TABLES IN SCHEMA " + fixture.schema() + " TO " + fixture.server().roUser());
            s.execute("ANALYZE");
        }
        tables.put("kw", keywords);
        tables.put("a", List.of("id", "time", "note", "position"));
        tables.put("b", List.of("id", "cross"));
        server = FixtureEngine.open(fixture, "kw", FixtureEngine.plainPolicy(tables));
    }

    @AfterAll
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private ToolResult guarded(String sql) {
        return service.query(server.engine().binding(), new QueryRequest("kw", sql, List.of(), "c"));
    }

    @Test
    void mixedSetOperationsAnswerInTheEnginesReading() throws SQLException {
        HonestCorpus.Outcome outcome = compareAll(MIXED_SET_OPERATIONS);
        assertThat(outcome.refused()).as("refused").isEmpty();
        assertThat(outcome.different()).as("different").isEmpty();
        assertThat(outcome.ran()).isEqualTo(MIXED_SET_OPERATIONS.size());
    }

    @Test
    void aJoinOfATableWithKeywordNamedColumnsAnswers() throws SQLException {
        List<String> corpus = List.of(
                "SELECT a.note FROM a JOIN b ON a.id = b.id",
                "SELECT a.note, b.\"cross\" FROM a LEFT JOIN b ON a.id = b.id ORDER BY 1",
                "SELECT count(*) AS n FROM a JOIN b ON a.id = b.id WHERE a.note <> 'x'",
                "SELECT a.\"time\", a.\"position\" FROM a JOIN b ON a.id = b.id",
                "SELECT time, position FROM a ORDER BY position",
                "SELECT a.time, a.position + 1 AS p FROM a ORDER BY 2");
        assertAgrees(corpus);
    }

    @Test
    void everyKeywordPostgresqlTakesAsAColumnNameRunsBare() throws SQLException {
        assertThat(keywords).hasSizeGreaterThan(300).contains("year", "position", "time", "value");
        List<String> corpus = new ArrayList<>();
        for (String w : keywords) {
            corpus.add("SELECT " + w + " FROM kw");
            corpus.add("SELECT " + w + " AS v, count(*) AS n FROM kw WHERE " + w + " >= 0 GROUP BY " + w + " ORDER BY " + w);
        }
        assertAgrees(corpus);
    }

    @Test
    void dateIsItsFunctionStyleCast() throws SQLException {
        assertAgrees(List.of("SELECT date(created) AS d, count(*) AS n FROM claims GROUP BY 1 ORDER BY 1",
                "SELECT date('2024-03-01') AS d", "SELECT id FROM claims WHERE date(created) >= date('2024-06-01') ORDER BY id"));
    }

    /**
     * An aggregate's own ORDER BY with FILTER, {@code string_agg(x, ',' ORDER BY x) FILTER (WHERE ...)}: JSqlParser reads
     * it as a window node (its ORDER BY apart), which was refused as a clause "not allowed (IGNORE NULLS, KEEP)".
     */
    @Test
    void anOrderedAggregateWithFilterAnswers() throws SQLException {
        assertAgrees(List.of("SELECT status, string_agg(region, ',' ORDER BY region) FILTER (WHERE id > 3) AS s FROM claims GROUP BY status ORDER BY 1",
                "SELECT string_agg(DISTINCT region, '|' ORDER BY region DESC) FILTER (WHERE amount > 1000) AS s FROM claims",
                "SELECT region, string_agg(status, ',' ORDER BY id, status) FILTER (WHERE status <> 'DENIED') AS s FROM claims GROUP BY region ORDER BY 1"));
        ToolResult over = guarded("SELECT string_agg(region, ',' ORDER BY region) OVER () AS s FROM claims");
        assertThat(over.status()).isEqualTo(ToolStatus.REJECTED);
        assertThat(over.error().orElseThrow().message()).contains("not with OVER");
    }

    /**
     * The standard's keyword forms (the fourth wave of the generator: every one of them was refused, 1,221 and 459 cases
     * of 10,000 tenant cases): {@code position(a IN b)}, {@code substring(x FROM a [FOR b])} and {@code TRIM}, with an
     * operator inside an argument, which the rendering parenthesizes so that it cannot reach the keyword.
     */
    @Test
    void theStandardsKeywordFormsAnswer() throws SQLException {
        assertAgrees(List.of("SELECT id, POSITION('r' IN region) AS p, position(upper('o') IN upper(region || status)) AS q FROM claims ORDER BY id",
                "SELECT id, SUBSTRING(region FROM 2) AS a, substring(status || region FROM 1 + 1 FOR 2) AS b FROM claims ORDER BY id",
                "SELECT id, TRIM(BOTH 'n' FROM region) AS a, TRIM(LEADING 'n' FROM region) AS b, TRIM(TRAILING 'h' FROM region) AS c,"
                        + " TRIM('  x ') AS d, TRIM(BOTH FROM ' ' || region || ' ') AS e, TRIM('e' FROM status) AS f FROM claims ORDER BY id",
                "SELECT region, count(*) AS n FROM claims WHERE POSITION('o' IN status) > 0 AND SUBSTRING(region FROM 1 FOR 1) <> 'w'"
                        + " GROUP BY region HAVING max(TRIM(LEADING 'n' FROM region)) IS NOT NULL ORDER BY 1",
                "SELECT id FROM claims ORDER BY SUBSTRING(status FROM 2 FOR 3), POSITION('s' IN region), id"));
        // ssn is hidden: it is as missing inside a keyword form as anywhere else
        for (String sql : List.of("SELECT POSITION('1' IN ssn) AS p FROM claims", "SELECT SUBSTRING(ssn FROM 1 FOR 3) AS p FROM claims",
                "SELECT TRIM(BOTH '9' FROM ssn) AS p FROM claims")) {
            ToolResult hidden = guarded(sql);
            ToolResult missing = guarded(sql.replace("ssn", "nosuch"));
            assertThat(hidden.status()).as(sql).isEqualTo(ToolStatus.REJECTED);
            assertThat(hidden.error().orElseThrow().code()).as(sql).isEqualTo(missing.error().orElseThrow().code());
            assertThat(hidden.error().orElseThrow().message()).as(sql).isEqualTo(missing.error().orElseThrow().message().replace("nosuch", "ssn"));
        }
    }

    @Test
    void mysqlsLimitFormIsRefusedWithAdvice() throws SQLException {
        try (Connection c = TestServer.admin(server.fixture().server()); Statement s = c.createStatement()) {
            s.execute("SET search_path = " + server.fixture().schema());
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.executeQuery("SELECT id FROM claims ORDER BY id LIMIT 9, 2"))
                    .isInstanceOf(SQLException.class);
        }
        ToolResult r = guarded("SELECT id FROM claims ORDER BY id LIMIT 9, 2");
        assertThat(r.status()).isNotEqualTo(ToolStatus.OK);
        assertThat(r.error().orElseThrow().code()).isEqualTo(ErrorCode.CONSTRUCT_NOT_ALLOWED);
        assertThat(r.error().orElseThrow().message()).contains("LIMIT 2 OFFSET 9");
        assertThat(guarded("SELECT id FROM claims ORDER BY id LIMIT 2 OFFSET 9").status()).isEqualTo(ToolStatus.OK);
    }

    /**
     * Benchmark questions PostgreSQL itself refuses (Spider's {@code SELECT max(capacity), average FROM stadium}): the guard
     * refuses them too, with the server's reason in its own words. The grouping error's sentence with the advice once ran
     * past a message's bound, and the model read the code's default sentence about comments and escapes instead.
     */
    @Test
    void aQueryTheServerCannotAnalyseIsRefusedWithItsReason() throws SQLException {
        Map<String, String> reasons = new java.util.LinkedHashMap<>();
        reasons.put("SELECT max(amount), region FROM claims", "GROUP BY");
        reasons.put("SELECT count(*) FROM claims WHERE region = 2014", "cast");
        reasons.put("SELECT c.id FROM claims c JOIN regions r ON c.id = r.region", "cast");
        try (Connection c = TestServer.admin(server.fixture().server()); Statement s = c.createStatement()) {
            s.execute("SET search_path = " + server.fixture().schema());
            for (String sql : reasons.keySet()) {
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.executeQuery(sql)).as(sql).isInstanceOf(SQLException.class);
            }
        }
        reasons.forEach((sql, reason) -> {
            ToolResult r = guarded(sql);
            assertThat(r.status()).as(sql).isEqualTo(ToolStatus.REJECTED);
            String message = r.error().orElseThrow().message();
            assertThat(message).as(sql).contains(reason).doesNotContain("comments");
        });
    }

    private HonestCorpus.Outcome compareAll(List<String> corpus) throws SQLException {
        try (Connection raw = TestServer.admin(server.fixture().server()); Statement s = raw.createStatement()) {
            s.execute("SET search_path = " + server.fixture().schema());
            HonestCorpus.Outcome outcome = HonestCorpus.compare(corpus, HonestCorpus.jdbc(s), this::guarded, HonestCorpus::plainCell);
            outcome.print();
            outcome.different().forEach(System.out::println);
            return outcome;
        }
    }

    private void assertAgrees(List<String> corpus) throws SQLException {
        try (Connection raw = TestServer.admin(server.fixture().server()); Statement s = raw.createStatement()) {
            s.execute("SET search_path = " + server.fixture().schema());
            HonestCorpus.compare(corpus, HonestCorpus.jdbc(s), this::guarded, HonestCorpus::plainCell).assertEachAgrees();
        }
    }
}
