package dev.sqlguard.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
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
 * Rows of values, which PostgreSQL 15 and Trino 483 both run: {@code (a, b) [NOT] IN (SELECT x, y ...)},
 * {@code (a, b) [NOT] IN ((1, 'x'), (2, 'y'))} (and {@code IN (VALUES ...)}), {@code (a, b) = (c, d)} and the other
 * comparisons, {@code (a, b) = ANY (SELECT x, y ...)} and {@code <> ALL}, answered guarded exactly as raw over the
 * contract dataset. Inside a row the checks of a single value
 * hold: a hidden column is a name that does not exist, and a sensitive column tested against a subquery is refused
 * as in {@code x IN (subquery)}. Rows of unequal widths, a row compared by {@code < ANY} and a row anywhere else
 * are refused.
 */
@Tag("postgresql")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(300)
class PostgresRowValuesTest {
    /** Rows of values as the model writes them, in WHERE and in the select list, correlated or not. */
    static final List<String> ROWS = List.of(
            "SELECT id, (id, status) IN (SELECT u5.id, u5.name FROM users u5) AS k FROM claims ORDER BY 1",
            "SELECT id FROM claims WHERE (id, region) IN (SELECT c2.id + 1, c2.region FROM claims c2) ORDER BY id",
            "SELECT id FROM claims WHERE (id, region) NOT IN (SELECT c2.id * 2, c2.region FROM claims c2 WHERE c2.amount > 1000) ORDER BY id",
            "SELECT id FROM claims WHERE (abs(7), upper(region)) = (7, 'NORTH') ORDER BY id",
            "SELECT id, (region, status) <> ('north', 'APPROVED') AS k FROM claims ORDER BY id",
            "SELECT id FROM claims WHERE (region, status) IN (('north', 'APPROVED'), ('south', 'DENIED')) ORDER BY id",
            "SELECT id FROM claims WHERE (region, id % 3) NOT IN (('east', 0), ('west', 1)) ORDER BY id",
            "SELECT id FROM claims WHERE (region, status) IN (VALUES ('north', 'APPROVED'), ('east', 'DENIED')) ORDER BY id",
            "SELECT r.region FROM regions r WHERE (r.region, r.manager) IN (SELECT c.region, r.manager FROM claims c WHERE c.amount > 50000) ORDER BY 1",
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

    private FixtureEngine<PostgresFixture> server;
    private final QueryService service = new QueryService(AuditSink.discarding());

    @BeforeAll
    void start() throws Exception {
        assumeTrue(TestServer.available(), "no PostgreSQL server");
        // claims.ssn and users.api_key hidden; users.password readable but sensitive
        Map<String, List<String>> tables = new HashMap<>(FixtureEngine.PLAIN_COLUMNS);
        tables.put("users", List.of("id", "name", "password"));
        server = FixtureEngine.open(new PostgresFixture(false), "rv", FixtureEngine.plainPolicy(tables));
    }

    @AfterAll
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private ToolResult guarded(String sql) {
        return service.query(server.engine().binding(), new QueryRequest("rv", sql, List.of(), "c"));
    }

    private ToolError refusal(String sql) {
        ToolResult r = guarded(sql);
        assertThat(r.status()).as(sql).isEqualTo(ToolStatus.REJECTED);
        return r.error().orElseThrow();
    }

    @Test
    void rowsOfValuesAnswerAsRaw() throws SQLException {
        try (Connection raw = TestServer.admin(server.fixture().server()); Statement s = raw.createStatement()) {
            s.execute("SET search_path = " + server.fixture().schema());
            HonestCorpus.compare(ROWS, HonestCorpus.jdbc(s), this::guarded, HonestCorpus::plainCell).assertEachAgrees();
        }
    }

    @Test
    void aRowIsRenderedValueByValue() {
        ToolResult r = guarded("SELECT id FROM claims WHERE (id, lower(region)) IN (SELECT id, region FROM claims WHERE id < 9) ORDER BY id");
        assertThat(r.status()).as(r.error().toString()).isEqualTo(ToolStatus.OK);
        assertThat(r.rows()).isNotEmpty();
        assertThat(r.sql().orElseThrow()).contains("((\"t1\".\"id\", ").contains(") IN (SELECT \"t2\".\"id\" AS ");
        ToolResult eq = guarded("SELECT id FROM claims WHERE (id, region) = (3, 'north')");
        assertThat(eq.sql().orElseThrow()).contains("((\"t1\".\"id\", \"t1\".\"region\") = (3, 'north'))");
    }

    @Test
    void aHiddenColumnInARowIsANameThatDoesNotExist() {
        List<String> probes = List.of("SELECT id FROM claims WHERE (id, %s) IN (SELECT id, region FROM claims)",
                "SELECT id FROM claims WHERE (id, region) IN (SELECT id, %s FROM claims)",
                "SELECT id FROM claims WHERE (id, region) NOT IN (SELECT c.id, c.%s FROM claims c)",
                "SELECT id FROM claims WHERE (id, %s) = (1, 'x')",
                "SELECT id FROM claims WHERE (region, 1) IN (('x', 1), (%s, 2))",
                "SELECT id, (id, %s) <> (1, 'x') AS k FROM claims");
        for (String probe : probes) {
            ToolError hidden = refusal(probe.formatted("ssn"));
            ToolError absent = refusal(probe.formatted("ssn_zz"));
            assertThat(hidden.code()).as(probe).isEqualTo(ErrorCode.UNKNOWN_COLUMN);
            assertThat(absent.code()).as(probe).isEqualTo(hidden.code());
            assertThat(absent.message().replace("ssn_zz", "ssn")).as(probe).isEqualTo(hidden.message());
        }
    }

    @Test
    void aSensitiveColumnInARowIsRefusedAsAlone() {
        ToolError alone = refusal("SELECT count(*) AS n FROM users WHERE password IN (SELECT password FROM users)");
        assertThat(alone.code()).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
        assertThat(refusal("SELECT count(*) AS n FROM users WHERE (id, password) IN (SELECT id, password FROM users)").code())
                .isEqualTo(alone.code());
        assertThat(refusal("SELECT count(*) AS n FROM users WHERE (id, name) IN (SELECT id, password FROM users)").code())
                .isEqualTo(alone.code());
        ToolError listed = refusal("SELECT count(*) AS n FROM users WHERE password IN ('hunter2-alice-pw', 'x')");
        assertThat(refusal("SELECT count(*) AS n FROM users WHERE (id, password) IN ((1, 'hunter2-alice-pw'), (2, 'x'))").code())
                .isEqualTo(listed.code());
        ToolError compared = refusal("SELECT count(*) AS n FROM users WHERE password = 'hunter2-alice-pw'");
        assertThat(refusal("SELECT count(*) AS n FROM users WHERE (id, password) = (1, 'hunter2-alice-pw')").code())
                .isEqualTo(compared.code());
    }

    @Test
    void rowsOfUnequalWidthsAndOtherUsesAreRefused() {
        assertThat(refusal("SELECT id FROM claims WHERE (id, region) IN (SELECT id FROM claims)").code()).isEqualTo(ErrorCode.SYNTAX_ERROR);
        assertThat(refusal("SELECT id FROM claims WHERE (id, region) = (1, 'x', 2)").code()).isEqualTo(ErrorCode.SYNTAX_ERROR);
        assertThat(refusal("SELECT id FROM claims WHERE (id, region) IN ((1, 'x'), (2, 'y', 3))").code()).isEqualTo(ErrorCode.SYNTAX_ERROR);
        for (String sql : List.of("SELECT (id, region) AS r FROM claims", "SELECT id FROM claims WHERE (id, region) < ANY (SELECT id, region FROM claims)",
                "SELECT id FROM claims WHERE (id, region) = 1", "SELECT id FROM claims WHERE (id, (region, status)) = (1, ('x', 'y'))")) {
            assertThat(refusal(sql).code()).as(sql).isEqualTo(ErrorCode.CONSTRUCT_NOT_ALLOWED);
        }
    }
}
