package dev.sqlguard.duckdb.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The scans of DuckDB's own bound plans and the operator each is the direct input of: what the row-filter
 * check ({@code DuckDbValidator#requireFilteredScans}) reads to refuse a scan of a filtered table that is not
 * directly below a filter.
 */
class PlanScansTest {
    static Connection connection;
    static final DuckDbCatalog.Table T = new DuckDbCatalog.Table("memory", "main", "t", List.of(
            new DuckDbCatalog.Column("id", "BIGINT"), new DuckDbCatalog.Column("g", "VARCHAR")), 0);

    @BeforeAll
    static void open() throws SQLException {
        connection = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement st = connection.createStatement()) {
            st.execute("CREATE TABLE t AS SELECT i AS id, 'g' || (i % 3) AS g FROM range(10) r(i)");
            st.execute("CREATE TABLE u AS SELECT i AS id FROM range(3) r(i)");
        }
    }

    @AfterAll
    static void close() throws SQLException {
        connection.close();
    }

    static JsonNode plan(String sql) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(
                "SELECT json_serialize_plan(?::VARCHAR, optimize := false, skip_null := true, skip_empty := true)")) {
            ps.setString(1, sql);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                JsonNode plan = DuckDbParser.parse(rs.getString(1));
                assertThat(plan.path("error").asBoolean(true)).as(sql).isFalse();
                return plan;
            }
        }
    }

    /** The type of the operator each scan of {@code t} is a direct input of ({@code none} when it is no operator's input). */
    static List<String> inputsOfT(String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        PlanScans.collect(plan(sql).path("plans"), (scan, input) -> {
            if (PlanScans.isScanOf(scan, T)) {
                out.add(input == null ? "none" : input.path("type").asText());
            }
        });
        return out;
    }

    @Test
    void aDerivedTableWithAWhereScansItsTableDirectlyBelowAFilter() throws SQLException {
        assertThat(inputsOfT("SELECT count(*) FROM (SELECT id, g FROM t WHERE (g = 'g1')) AS t")).containsExactly("LOGICAL_FILTER");
        assertThat(inputsOfT("SELECT a.id FROM (SELECT id, g FROM t WHERE (g = $1)) AS a JOIN (SELECT id, g FROM t WHERE (g = $1)) AS b "
                + "ON a.id = b.id")).containsExactly("LOGICAL_FILTER", "LOGICAL_FILTER");
    }

    @Test
    void aScanWithoutTheDerivedTablesFilterIsSeen() throws SQLException {
        assertThat(inputsOfT("SELECT id FROM t")).containsExactly("LOGICAL_PROJECTION");
        assertThat(inputsOfT("SELECT count(*) FROM t")).doesNotContain("LOGICAL_FILTER").hasSize(1);
        assertThat(inputsOfT("SELECT u.id FROM u JOIN t ON t.id = u.id")).containsExactly("LOGICAL_COMPARISON_JOIN");
        assertThat(inputsOfT("SELECT * FROM (SELECT id, g FROM t WHERE (g = 'g1')) AS a UNION ALL SELECT id, g FROM t"))
                .containsExactlyInAnyOrder("LOGICAL_FILTER", "LOGICAL_PROJECTION");
    }

    @Test
    void aScanInsideAWithQueryOrASubqueryIsSeenToo() throws SQLException {
        assertThat(inputsOfT("WITH w AS (SELECT id FROM t) SELECT count(*) FROM w, w AS w2")).isNotEmpty().doesNotContain("LOGICAL_FILTER");
        assertThat(inputsOfT("SELECT id FROM u WHERE id IN (SELECT id FROM t)")).isNotEmpty().doesNotContain("LOGICAL_FILTER");
    }

    @Test
    void aScanIsOfItsOwnTableOnly() throws SQLException {
        List<String> tables = new ArrayList<>();
        PlanScans.collect(plan("SELECT u.id FROM u, t").path("plans"), (scan, input) -> tables.add(
                scan.path("function_data").path("table").asText() + ":" + PlanScans.isScanOf(scan, T)));
        assertThat(tables).containsExactlyInAnyOrder("u:false", "t:true");
    }
}
