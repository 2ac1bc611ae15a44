package dev.sqlguard.duckdb;

import static dev.sqlguard.duckdb.TestDatabases.query;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.ResultProjector;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.duckdb.internal.DuckDbEngine;

/**
 * Redaction hides the values of sensitive columns; these tests prove, through QueryService and the
 * whole engine, that a sensitive column cannot be used as an oracle either: it may feed an output
 * value (which comes back redacted) but not decide which rows come back, how many, or in what order.
 */
class DuckDbSensitiveColumnTest {
    @TempDir
    static Path folder;
    @TempDir
    static Path work;

    static DuckDbEngine engine;

    @BeforeAll
    static void open() throws Exception {
        engine = TestDatabases.engine(TestDatabases.contractDatabase(folder), work, GuardrailPolicy.defaults());
    }

    @AfterAll
    static void close() {
        engine.close();
    }

    static List<String> oracles() {
        return List.of(
                // predicates
                "SELECT count(*) AS n FROM users WHERE password LIKE 'a%'",
                "SELECT count(*) AS n FROM users WHERE starts_with(api_key, 'ak')",
                "SELECT count(*) FROM users WHERE users.password > 'm'",
                "SELECT count(*) FROM users WHERE main.users.password > 'm'",
                "SELECT count(*) FROM users WHERE password IS NULL",
                "SELECT count(*) FROM users WHERE CASE WHEN password LIKE 'a%' THEN true ELSE false END",
                "SELECT count(*) FROM users WHERE list_contains(list_filter([password], x -> x LIKE 'h%'), name)",
                "SELECT count(*) FROM users WHERE #3 LIKE 'h%'",
                "SELECT password AS p FROM users WHERE p LIKE 'h%'",
                "SELECT count(*) FROM claims WHERE ssn BETWEEN '1' AND '2'",
                "SELECT max(id) FROM users HAVING max(password) > 'm'",
                "SELECT name FROM users QUALIFY row_number() OVER (ORDER BY password) = 1",
                // joins
                "SELECT count(*) FROM users u JOIN claims c ON u.password = c.status",
                "SELECT count(*) FROM users u JOIN users v ON u.api_key = v.api_key",
                "SELECT count(*) FROM users u LEFT JOIN (SELECT password AS x FROM users) p ON p.x = u.name",
                "SELECT count(*) FROM users u SEMI JOIN users v ON v.password LIKE 'h%' AND u.id = v.id",
                "SELECT count(*) FROM users u JOIN (SELECT id, name AS password FROM users) p USING (password)",
                "SELECT count(*) FROM users NATURAL JOIN (SELECT 'guess' AS password)",
                // grouping and ordering
                "SELECT count(*) FROM claims GROUP BY ssn",
                "SELECT ssn, count(*) FROM claims GROUP BY 1",
                "SELECT ssn, count(*) FROM claims GROUP BY ALL",
                "SELECT region, count(*) FROM claims GROUP BY ROLLUP (region, ssn)",
                "SELECT name FROM users ORDER BY password",
                "SELECT name FROM users ORDER BY upper(password) DESC",
                "SELECT password AS p, name FROM users ORDER BY p",
                "SELECT password, name FROM users ORDER BY 1",
                "SELECT name, password FROM users ORDER BY ALL",
                // a top-level #1 in ORDER BY names the first output column (DuckDB), elsewhere the first FROM column
                "SELECT password, id FROM users ORDER BY #1",
                "SELECT name, password FROM users ORDER BY #2",
                "SELECT DISTINCT ON (#1) password, id FROM users",
                "SELECT id, count(*) OVER (PARTITION BY #3) AS n FROM users",
                "SELECT name FROM users WHERE name = ANY (SELECT password FROM users)",
                "SELECT name FROM users LIMIT 50 PERCENT OFFSET (SELECT length(min(api_key)) FROM users)",
                "SELECT DISTINCT password FROM users",
                "SELECT DISTINCT name, api_key FROM users",
                "SELECT count(*) FROM (SELECT DISTINCT password FROM users)",
                "SELECT DISTINCT ON (password) name FROM users",
                "SELECT DISTINCT ON (1) password, name FROM users",
                // windows and aggregates
                "SELECT name, row_number() OVER (ORDER BY password) AS r FROM users",
                "SELECT name, count(*) OVER (PARTITION BY password) AS r FROM users",
                "SELECT name, sum(id) FILTER (WHERE api_key > 'm') OVER () AS s FROM users",
                "SELECT count(*) FILTER (WHERE password LIKE 'a%') AS n FROM users",
                "SELECT sum(id) FILTER (WHERE api_key > 'm') AS n FROM users",
                "SELECT string_agg(name, ',' ORDER BY password) AS s FROM users",
                "SELECT list(name ORDER BY api_key) AS s FROM users",
                // row counts: LIMIT, OFFSET, table functions, unnest
                "SELECT name FROM users LIMIT (SELECT length(max(password)) FROM users)",
                "SELECT name FROM users LIMIT 1 OFFSET (SELECT length(max(password)) FROM users)",
                "SELECT * FROM range((SELECT length(max(password)) FROM users))",
                "SELECT count(*) FROM users, unnest(string_split(password, ''))",
                "SELECT id, unnest(string_split(password, '')) AS c FROM users",
                "SELECT id, unnest(CASE WHEN password LIKE 'h%' THEN [1] ELSE [] END) AS c FROM users",
                // derived tables, CTEs, lateral joins
                "WITH x AS (SELECT password AS p FROM users) SELECT count(*) FROM x WHERE p LIKE 'a%'",
                "WITH x AS (SELECT upper(password) AS p FROM users), y AS (SELECT p AS q FROM x) SELECT count(*) FROM y WHERE q > 'M'",
                "SELECT count(*) FROM (SELECT password AS p FROM users) WHERE p LIKE 'a%'",
                "SELECT count(*) FROM (SELECT id FROM users WHERE password LIKE 'a%')",
                "SELECT count(*) FROM (SELECT password FROM users UNION ALL SELECT 'x') t(p) WHERE p LIKE 'h%'",
                "SELECT count(*) FROM users u, LATERAL (SELECT 1 AS one WHERE u.password LIKE 'h%')",
                "SELECT count(*) FROM users u, LATERAL (SELECT u.password AS p) l WHERE l.p LIKE 'h%'",
                "WITH RECURSIVE r(p) AS (SELECT password FROM users UNION SELECT p FROM r) SELECT count(*) FROM r",
                "WITH RECURSIVE r(n, p) AS (SELECT 1, password FROM users UNION ALL SELECT n + 1, p FROM r WHERE p > 'm' AND n < 3) "
                        + "SELECT count(*) FROM r",
                // set operations compare whole rows
                "SELECT password FROM users INTERSECT SELECT 'guess'",
                "SELECT password FROM users INTERSECT ALL SELECT 'guess'",
                "SELECT password FROM users EXCEPT SELECT 'guess'",
                "SELECT password FROM users UNION SELECT 'guess'",
                "SELECT count(*) FROM (SELECT password FROM users UNION SELECT 'guess')",
                "SELECT password FROM users UNION BY NAME SELECT 'guess' AS password",
                // subqueries
                "SELECT count(*) FROM users u WHERE EXISTS (SELECT 1 FROM users v WHERE v.id = u.id AND v.password LIKE 'a%')",
                "SELECT count(*) FROM claims WHERE id IN (SELECT id FROM users WHERE password LIKE 'a%')",
                "SELECT count(*) FROM users WHERE name IN (SELECT password FROM users)",
                "SELECT count(*) FROM users WHERE (SELECT max(password) FROM users) > 'm'",
                "SELECT (SELECT count(*) FROM users WHERE password LIKE 'a%') AS n",
                "SELECT name, (SELECT count(*) FROM claims c WHERE c.status = u.password) AS n FROM users u",
                "SELECT name FROM users ORDER BY (SELECT max(password) FROM users)",
                "SELECT (SELECT name FROM users ORDER BY password LIMIT 1) AS first",
                "SELECT name FROM users WHERE id = (SELECT id FROM users ORDER BY api_key DESC LIMIT 1)",
                "SELECT * FROM users ORDER BY 3",
                // the lineage of VALUES is traced too
                "SELECT count(*) FROM users u, (VALUES (u.password)) v(p) WHERE v.p > 'm'");
    }

    @ParameterizedTest
    @MethodSource("oracles")
    void aSensitiveColumnCannotDecideWhichRowsComeBack(String sql) {
        ToolResult r = query(engine, sql);
        assertThat(r.error()).as(sql).isPresent();
        assertThat(r.error().get().code()).as(sql).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
        assertThat(r.rows()).as(sql).isEmpty();
        String message = r.error().get().message();
        assertThat(message).as(sql).contains("sensitive").doesNotContain("'a%'").doesNotContain("guess").doesNotContain("hunter2");
    }

    @Test
    void theRefusalNamesTheColumnAndWhatIsAllowed() {
        ToolResult r = query(engine, "SELECT count(*) AS n FROM users WHERE password LIKE 'a%'");
        assertThat(r.error().orElseThrow().message()).isEqualTo(
                "Column 'password' is sensitive: it may be selected (values come back redacted) but not used to filter, join, group or order.");
        ToolResult union = query(engine, "SELECT api_key FROM users INTERSECT SELECT 'guess'");
        assertThat(union.error().orElseThrow().message()).startsWith("Column 'api_key' is sensitive").contains("INTERSECT");
    }

    static List<String> honest() {
        return List.of(
                "SELECT * FROM users ORDER BY id",
                "SELECT * FROM users ORDER BY 2",
                "SELECT name, password FROM users WHERE id = 2",
                "SELECT count(DISTINCT password) AS n FROM users",
                "SELECT password IS NULL AS x FROM users ORDER BY id",
                "SELECT max(password) AS m, min(api_key) AS k FROM users",
                "SELECT string_agg(password, ',' ORDER BY id) AS s FROM users",
                "SELECT list(api_key) FILTER (WHERE id > 1) AS s FROM users",
                "SELECT name, lag(password) OVER (ORDER BY id) AS prev FROM users ORDER BY id",
                "SELECT (SELECT max(password) FROM users) AS m",
                "SELECT password FROM users UNION ALL SELECT name FROM users",
                "WITH x AS (SELECT id, password AS p FROM users) SELECT id, p FROM x WHERE id > 1 ORDER BY id",
                "SELECT u.name, c.ssn FROM users u JOIN claims c ON c.id = u.id ORDER BY u.id",
                "SELECT u.id, u.password FROM users u JOIN users v USING (id) ORDER BY u.id",
                "SELECT region, count(*) AS n, max(ssn) AS s FROM claims GROUP BY region ORDER BY region",
                "SELECT * FROM (SELECT password AS p, name FROM users) ORDER BY name",
                "SELECT u2.p FROM users, LATERAL (SELECT users.password AS p) u2",
                // a sensitive argument only feeds the value, which comes back redacted
                "SELECT arg_max(name, password) AS s FROM users",
                "SELECT name, lag(name, length(password)) OVER (ORDER BY id) AS l FROM users ORDER BY id");
    }

    @ParameterizedTest
    @MethodSource("honest")
    void aSensitiveColumnMayStillBeSelectedAndComesBackRedacted(String sql) {
        ToolResult r = query(engine, sql);
        assertThat(r.error()).as(sql).isEmpty();
        assertThat(r.status()).as(sql).isEqualTo(ToolStatus.OK);
        assertThat(r.rows()).as(sql).isNotEmpty();
        assertThat(r.rows().toString()).as(sql).contains(ResultProjector.REDACTED)
                .doesNotContain("hunter2").doesNotContain("ak_live").doesNotContain("123-45-6789");
    }

    @Test
    void honestAnalyticalSqlOverOrdinaryColumnsIsUnchanged() {
        for (String sql : List.of(
                "SELECT region, count(*) AS n FROM claims GROUP BY ALL ORDER BY ALL",
                "SELECT region, count(*) AS n FROM claims GROUP BY 1 ORDER BY 1",
                "SELECT DISTINCT region FROM claims ORDER BY region",
                "SELECT DISTINCT ON (region) region, id FROM claims ORDER BY region, id",
                "SELECT region FROM claims UNION SELECT status FROM claims ORDER BY 1",
                "SELECT name, id FROM users ORDER BY #2",
                "SELECT id FROM users INTERSECT SELECT id FROM claims ORDER BY id",
                "SELECT count(*) FILTER (WHERE status = 'open') AS n FROM claims",
                "SELECT name, row_number() OVER (PARTITION BY id % 2 ORDER BY name) AS r FROM users ORDER BY name",
                "SELECT string_agg(name, ',' ORDER BY name) AS s FROM users",
                "SELECT count(*) FROM claims WHERE id IN (SELECT id FROM users WHERE name LIKE 'a%')",
                "WITH x AS (SELECT region AS r FROM claims) SELECT r, count(*) FROM x WHERE r <> 'east' GROUP BY r ORDER BY r",
                "SELECT name FROM users ORDER BY id LIMIT (SELECT count(*) FROM users) - 1",
                "SELECT * FROM range(3)",
                "SELECT name FROM users u WHERE EXISTS (SELECT * FROM users v WHERE v.id = u.id) ORDER BY id",
                "SELECT unnest([1, 2, 3]) AS v")) {
            ToolResult r = query(engine, sql);
            assertThat(r.error()).as(sql).isEmpty();
            assertThat(r.rows()).as(sql).isNotEmpty();
            assertThat(r.rows().toString()).as(sql).doesNotContain(ResultProjector.REDACTED);
        }
    }

    @Test
    void aColumnThePolicyRedactsIsSensitiveInTheSameWay() {
        try (DuckDbEngine redacting = TestDatabases.engine(folder.resolve("data.duckdb"), work,
                GuardrailPolicy.defaults().withRedact(Set.of("region")))) {
            ToolResult filtered = query(redacting, "SELECT count(*) FROM claims WHERE region = 'north'");
            assertThat(filtered.error().orElseThrow().code()).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
            assertThat(filtered.error().orElseThrow().message()).startsWith("Column 'region' is sensitive");
            ToolResult grouped = query(redacting, "SELECT count(*) FROM claims GROUP BY region");
            assertThat(grouped.error().orElseThrow().code()).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
            ToolResult selected = query(redacting, "SELECT region, status FROM claims WHERE id = 1");
            assertThat(selected.error()).isEmpty();
            assertThat(selected.rows().get(0).get(0)).isEqualTo(ResultProjector.REDACTED);
            assertThat(selected.rows().get(0).get(1)).isNotEqualTo(ResultProjector.REDACTED);
        }
        ToolResult open = query(engine, "SELECT count(*) FROM claims WHERE region = 'north'");
        assertThat(open.error()).isEmpty();
    }
}
