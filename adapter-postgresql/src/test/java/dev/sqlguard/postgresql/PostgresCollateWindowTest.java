package dev.sqlguard.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.testing.FixtureEngine;
import dev.sqlguard.testing.HonestCorpus;

/**
 * COLLATE and named windows on PostgreSQL: honest queries that use them give the raw rows (COLLATE in the select
 * list, WHERE, GROUP BY and ORDER BY, where a name under COLLATE is the input column even when an output has that
 * name; a named window with PARTITION BY and ORDER BY, two calls sharing one, an unused one beside a used one,
 * windows called in another order than defined, one in a subquery, an output named like the input column a
 * definition names); what PostgreSQL refuses is refused; and a sensitive column under COLLATE, or in a named
 * window, used or not, is refused exactly as the same column bare or in an inline window.
 */
@Tag("postgresql")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(300)
class PostgresCollateWindowTest {
    private final QueryService service = new QueryService(AuditSink.discarding());
    private FixtureEngine<PostgresFixture> server;
    /** Over the same database, with users.password allowlisted: a sensitive column a query may show (redacted) but not use. */
    private Engine sensitive;

    @BeforeAll
    void start() throws Exception {
        assumeTrue(TestServer.available(), "no PostgreSQL server");
        server = FixtureEngine.open(new PostgresFixture(false), "cw", FixtureEngine.plainPolicy(FixtureEngine.PLAIN_COLUMNS));
        Map<String, List<String>> tables = new TreeMap<>(FixtureEngine.PLAIN_COLUMNS);
        tables.put("users", List.of("id", "name", "password"));
        sensitive = server.fixture().engine("cw", new GuardrailPolicy(TableAllowlist.of(tables), java.util.Set.of(), java.util.Set.of(),
                java.util.Set.of(), Limits.defaults()));
    }

    @AfterAll
    void stop() {
        try {
            if (sensitive != null) {
                sensitive.close();
            }
        } finally {
            if (server != null) {
                server.close();
            }
        }
    }

    private ToolResult guarded(String sql) {
        return service.query(server.engine().binding(), new QueryRequest("cw", sql, List.of(), "c"));
    }

    private ToolResult guardedSensitive(String sql) {
        return service.query(sensitive.binding(), new QueryRequest("cw", sql, List.of(), "c"));
    }

    @Test
    void collateRunsAndGivesTheRawRows() throws SQLException {
        assertAgrees(List.of(
                "SELECT id, region COLLATE \"C\" FROM claims ORDER BY id",
                "SELECT name || '!' COLLATE \"C\" AS v FROM users ORDER BY 1",
                "SELECT id FROM claims WHERE region COLLATE \"C\" < 'o' ORDER BY id",
                "SELECT manager FROM regions ORDER BY manager COLLATE \"und-x-icu\"",
                "SELECT v FROM (SELECT manager AS v FROM regions UNION ALL SELECT region FROM regions) x ORDER BY v COLLATE \"und-x-icu\" DESC",
                "SELECT upper(region) COLLATE \"C\" AS u, count(*) AS n FROM claims GROUP BY upper(region) COLLATE \"C\" ORDER BY 1",
                "SELECT status, min(region COLLATE \"und-x-icu\") AS m FROM claims GROUP BY status ORDER BY status",
                // the name under COLLATE is the input column region, not the output named region (which is id)
                "SELECT id AS region, region AS r FROM claims ORDER BY region COLLATE \"C\" DESC, 1"));
    }

    /** The first query orders by the output region (the id) and the second by the input column: the guard keeps both readings. */
    @Test
    void anOutputNameUnderCollateIsTheInputColumn() {
        List<List<Object>> bare = guarded("SELECT id AS region FROM claims WHERE id <= 8 ORDER BY region DESC").rows();
        List<List<Object>> collated = guarded("SELECT id AS region FROM claims WHERE id <= 8 ORDER BY region COLLATE \"C\" DESC, 1").rows();
        assertThat(bare).extracting(row -> row.get(0).toString()).containsExactly("8", "7", "6", "5", "4", "3", "2", "1");
        assertThat(collated).extracting(row -> row.get(0).toString()).containsExactly("3", "7", "1", "5", "4", "8", "2", "6");
    }

    @Test
    void namedWindowsRunAndGiveTheRawRows() throws SQLException {
        assertAgrees(List.of(
                "SELECT id, region, rank() OVER w AS r FROM claims WINDOW w AS (PARTITION BY region ORDER BY amount DESC) ORDER BY id",
                "SELECT id, sum(amount) OVER w AS s, row_number() OVER w AS n FROM claims"
                        + " WINDOW w AS (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) ORDER BY id",
                "SELECT id, count(*) OVER v AS c, max(amount) OVER w AS m FROM claims"
                        + " WINDOW u AS (PARTITION BY status), v AS (PARTITION BY region), w AS (PARTITION BY status ORDER BY id) ORDER BY id",
                "SELECT r, count(*) AS n FROM (SELECT rank() OVER w AS r FROM claims WINDOW w AS (PARTITION BY region ORDER BY created)) x"
                        + " GROUP BY r ORDER BY r",
                "SELECT id, dense_rank() OVER w AS r FROM claims WINDOW w AS (ORDER BY region COLLATE \"und-x-icu\", status) ORDER BY id",
                "SELECT id, region FROM claims WINDOW w AS (ORDER BY amount DESC) ORDER BY row_number() OVER w LIMIT 5",
                "SELECT id FROM claims WINDOW w AS (PARTITION BY region) ORDER BY id",
                // called in another order than defined: PostgreSQL plans the windows in the clause's order
                "SELECT id, sum(amount) OVER b AS x, sum(amount) OVER a AS y FROM claims"
                        + " WINDOW a AS (PARTITION BY region), b AS (PARTITION BY status) ORDER BY id",
                "SELECT id AS region, rank() OVER w AS r FROM claims WINDOW w AS (ORDER BY region, id) ORDER BY 1"));
    }

    /** What PostgreSQL itself refuses (an undefined window, one defined twice) the guard refuses with its own code. */
    @Test
    void windowsPostgresqlRefusesAreRefused() throws SQLException {
        for (String sql : List.of("SELECT rank() OVER v AS r FROM claims WINDOW w AS (ORDER BY id)",
                "SELECT id FROM claims WINDOW w AS (ORDER BY id), w AS (ORDER BY region)",
                "SELECT (SELECT rank() OVER w FROM regions LIMIT 1) AS r FROM claims WINDOW w AS (ORDER BY id)")) {
            try (Connection c = TestServer.admin(server.fixture().server()); Statement s = c.createStatement()) {
                s.execute("SET search_path = " + server.fixture().schema());
                assertThatThrownBy(() -> s.executeQuery(sql)).as(sql).isInstanceOf(SQLException.class);
            }
            ToolResult r = guarded(sql);
            assertThat(r.status()).as(sql).isNotEqualTo(ToolStatus.OK);
            assertThat(r.error().orElseThrow().code()).as(sql).isEqualTo(ErrorCode.CONSTRUCT_NOT_ALLOWED);
        }
    }

    /** A hidden column in an unused definition is refused as the same name anywhere: PostgreSQL checks unused definitions. */
    @Test
    void anUnusedDefinitionNamingAHiddenColumnIsRefusedAsAnAbsentColumn() {
        ErrorCode absent = guarded("SELECT id FROM claims ORDER BY ssn").error().orElseThrow().code();
        assertThat(guarded("SELECT id FROM claims WINDOW w AS (ORDER BY ssn)").error().orElseThrow().code()).isEqualTo(absent);
        assertThat(guarded("SELECT id FROM claims ORDER BY ssn COLLATE \"C\"").error().orElseThrow().code()).isEqualTo(absent);
    }

    /** Each pair: a sensitive column under COLLATE or in a named window, and the same use written plainly. */
    @Test
    void aSensitiveColumnIsRefusedUnderCollateAndInNamedWindowsAsItIsPlainly() {
        String[][] pairs = {
                {"SELECT name FROM users ORDER BY password COLLATE \"C\"", "SELECT name FROM users ORDER BY password"},
                {"SELECT count(*) AS n FROM users WHERE password COLLATE \"C\" > 'm'", "SELECT count(*) AS n FROM users WHERE password > 'm'"},
                {"SELECT count(*) AS n FROM users GROUP BY password COLLATE \"C\"", "SELECT count(*) AS n FROM users GROUP BY password"},
                {"SELECT name, rank() OVER w AS r FROM users WINDOW w AS (ORDER BY password COLLATE \"C\")",
                        "SELECT name, rank() OVER (ORDER BY password) AS r FROM users"},
                {"SELECT name, count(*) OVER w AS n FROM users WINDOW w AS (PARTITION BY password)",
                        "SELECT name, count(*) OVER (PARTITION BY password) AS n FROM users"},
                {"SELECT name FROM users WINDOW w AS (ORDER BY password)", "SELECT name, rank() OVER (ORDER BY password) AS r FROM users"}};
        for (String[] pair : pairs) {
            ToolResult plain = guardedSensitive(pair[1]);
            assertThat(plain.status()).as(pair[1]).isNotEqualTo(ToolStatus.OK);
            ToolResult r = guardedSensitive(pair[0]);
            assertThat(r.status()).as(pair[0]).isEqualTo(plain.status());
            assertThat(r.error().orElseThrow().code()).as(pair[0]).isEqualTo(plain.error().orElseThrow().code());
        }
        // shown under COLLATE, the column is still that column: redacted as it is bare
        ToolResult shown = guardedSensitive("SELECT name, password COLLATE \"C\" AS p FROM users ORDER BY name");
        ToolResult bare = guardedSensitive("SELECT name, password AS p FROM users ORDER BY name");
        assertThat(shown.status()).isEqualTo(bare.status());
        assertThat(shown.rows()).isEqualTo(bare.rows());
        assertThat(shown.rows()).extracting(row -> row.get(1)).doesNotContain("hunter2-alice-pw");
    }

    private void assertAgrees(List<String> corpus) throws SQLException {
        try (Connection raw = TestServer.admin(server.fixture().server()); Statement s = raw.createStatement()) {
            s.execute("SET search_path = " + server.fixture().schema());
            HonestCorpus.compare(corpus, HonestCorpus.jdbc(s), this::guarded, HonestCorpus::plainCell).assertEachAgrees();
        }
    }
}
