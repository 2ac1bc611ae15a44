package dev.sqlguard.duckdb;

import static dev.sqlguard.duckdb.TestDatabases.query;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.ResultProjector;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.duckdb.internal.DuckDbEngine;
import dev.sqlguard.testing.ContractDataset;

/**
 * Statements that produce a table whose columns DuckDB derives from other columns' values
 * (SUMMARIZE's statistics, PIVOT's aggregates, UNPIVOT's value column): a column derived from a
 * sensitive column is sensitive everywhere the query around it uses it. The attacks are generated:
 * every way to produce the table (SUMMARIZE of the table, of {@code SELECT *}, schema-qualified, in a
 * CTE, nested twice, PIVOT, UNPIVOT) times every clause that can decide which rows come back, how many
 * or in which order (WHERE, JOIN ON, GROUP BY, HAVING, QUALIFY, CASE, aggregate FILTER, window
 * PARTITION BY, scalar subquery, EXISTS, IN, LIMIT, ORDER BY). Each is first shown to be an oracle
 * on raw DuckDB (a right and a wrong guess of a secret answer differently), then refused guarded.
 *
 * <p>Before the fix, a statement holding a SUMMARIZE of a whole table recorded every use of the
 * whole statement as an output: {@code SELECT column_name FROM (SUMMARIZE users) WHERE max LIKE 's3%'}
 * answered, and so did {@code SELECT id FROM users, (SUMMARIZE regions) s WHERE password LIKE ...}.
 */
class DuckDbTableProducingStatementsTest {
    private static final String GUESS = "GUESS";
    private static final String WRONG = "qqqq-no-such";

    @TempDir
    static Path folder;
    @TempDir
    static Path work;

    static DuckDbEngine engine;
    static final Map<String, List<List<String>>> rawRows = new LinkedHashMap<>();
    static final Map<String, String> rawErrors = new LinkedHashMap<>();

    /** One oracle: a template whose {@code GUESS} is replaced by the right or the wrong guess. */
    record Oracle(String template, String right) {
        String with(String guess) {
            return template.replace(GUESS, guess);
        }

        @Override
        public String toString() {
            return template;
        }
    }

    /** FROM items producing a table of statistics over users (alias s), whose min and max come from password too. */
    static List<String> summaries() {
        return List.of("(SUMMARIZE users) s", "(SUMMARIZE SELECT * FROM users) s", "(SUMMARIZE main.users) s",
                "(FROM (SUMMARIZE users)) s", "(SELECT * FROM (SUMMARIZE users) WHERE column_name <> 'x') s");
    }

    /** Clauses that decide rows, their count or their order, over a statistic {@code {STAT}} of FROM item {@code {S}}. */
    static List<String> uses() {
        return List.of(
                "SELECT s.column_name FROM {S} WHERE s.{STAT} LIKE '%GUESS%'",
                "SELECT r.region FROM regions r JOIN {S} ON s.{STAT} LIKE '%GUESS%' AND r.region = 'north'",
                "SELECT r.region FROM regions r LEFT JOIN {S} ON s.{STAT} LIKE '%GUESS%' WHERE s.column_name IS NOT NULL",
                "SELECT count(*) AS n FROM {S} GROUP BY s.{STAT} LIKE '%GUESS%'",
                "SELECT count(*) AS n FROM {S} HAVING bool_or(s.{STAT} LIKE '%GUESS%')",
                "SELECT s.column_name FROM {S} QUALIFY row_number() OVER () > 0 AND s.{STAT} LIKE '%GUESS%'",
                "SELECT s.column_name, CASE WHEN s.{STAT} LIKE '%GUESS%' THEN 1 ELSE 0 END AS hit FROM {S}",
                "SELECT s.column_name, s.{STAT} LIKE '%GUESS%' AS hit FROM {S}",
                "SELECT count(*) FILTER (WHERE s.{STAT} LIKE '%GUESS%') AS n FROM {S}",
                "SELECT s.column_name, count(*) OVER (PARTITION BY s.{STAT} LIKE '%GUESS%') AS n FROM {S}",
                "SELECT (SELECT count(*) FROM {S} WHERE s.{STAT} LIKE '%GUESS%') AS n",
                "SELECT count(*) AS n FROM regions WHERE EXISTS (SELECT 1 FROM {S} WHERE s.{STAT} LIKE '%GUESS%')",
                "SELECT count(*) AS n FROM regions WHERE 'password' IN (SELECT s.column_name FROM {S} WHERE s.{STAT} LIKE '%GUESS%')",
                "SELECT id FROM users LIMIT (SELECT count(*) FROM {S} WHERE s.{STAT} LIKE '%GUESS%')",
                "SELECT s.column_name FROM {S} WHERE s.{STAT} LIKE '%GUESS%' UNION ALL SELECT 'z'",
                "SELECT DISTINCT s.{STAT} LIKE '%GUESS%' AS hit FROM {S}",
                // a filter elsewhere in a statement that holds a SUMMARIZE is the query's own filter
                "SELECT u.id FROM users u, {S} WHERE s.column_name = 'id' AND u.password LIKE '%GUESS%'");
    }

    static List<Oracle> oracles() {
        List<Oracle> out = new ArrayList<>();
        for (String use : uses()) {
            for (String[] stat : new String[][] {{"max", "s3cr3t"}, {"min", "carol-pw"}}) {
                if (use.contains("u.password") && stat[0].equals("min")) {
                    continue;
                }
                for (String summary : summaries()) {
                    out.add(new Oracle(use.replace("{STAT}", stat[0]).replace("{S}", summary), stat[1]));
                }
                String cte = "WITH s AS (SUMMARIZE users) " + use.replace("{STAT}", stat[0]).replace("{S}", "s");
                out.add(new Oracle(cte, stat[1]));
            }
        }
        // PIVOT and UNPIVOT: the aggregated and the unpivoted values derive from password
        out.add(new Oracle("SELECT p.bob FROM (PIVOT users ON name IN ('alice', 'bob') USING max(password) GROUP BY id) p "
                + "WHERE p.bob LIKE '%GUESS%'", "s3cr3t"));
        out.add(new Oracle("SELECT count(*) FILTER (WHERE p.bob LIKE '%GUESS%') AS n "
                + "FROM (PIVOT users ON name IN ('alice', 'bob') USING max(password) GROUP BY id) p", "s3cr3t"));
        out.add(new Oracle("SELECT q.k FROM (UNPIVOT (SELECT id, name, password FROM users) ON name, password INTO NAME k VALUE v) q "
                + "WHERE q.v LIKE '%GUESS%'", "s3cr3t"));
        out.add(new Oracle("SELECT q.k FROM (SELECT id, name, password FROM users) UNPIVOT INCLUDE NULLS (v FOR k IN (name, password)) q "
                + "WHERE q.v LIKE '%GUESS%'", "s3cr3t"));
        out.add(new Oracle("SELECT count(*) AS n FROM (UNPIVOT (SELECT id, name, password FROM users) ON name, password INTO NAME k VALUE v) q "
                + "JOIN regions r ON q.v LIKE '%GUESS%'", "s3cr3t"));
        return out;
    }

    /** Orderings by a statistic of a sensitive column: the rows would come back in the order of a secret. */
    static List<String> orderings() {
        List<String> out = new ArrayList<>();
        for (String summary : summaries()) {
            out.add("SELECT s.column_name FROM " + summary + " ORDER BY s.max");
            out.add("SELECT s.column_name, row_number() OVER (ORDER BY s.min) AS r FROM " + summary);
            out.add("SELECT string_agg(s.column_name, ',' ORDER BY s.max) AS o FROM " + summary);
            out.add("SELECT DISTINCT ON (s.max) s.column_name FROM " + summary + " ORDER BY s.max");
        }
        out.add("WITH s AS (SUMMARIZE users) SELECT column_name FROM s ORDER BY max");
        out.add("SELECT p.id FROM (PIVOT users ON name IN ('alice', 'bob') USING max(password) GROUP BY id) p ORDER BY p.bob");
        return out;
    }

    /** Honest uses of the same statements: they run and answer what raw DuckDB answers. */
    static Stream<Arguments> honest() {
        return Stream.of(
                Arguments.of("SUMMARIZE regions"),
                Arguments.of("SELECT column_name, max FROM (SUMMARIZE regions) WHERE max LIKE 'W%'"),
                Arguments.of("SELECT column_name, column_type FROM (SUMMARIZE users) WHERE column_type = 'VARCHAR' ORDER BY column_name"),
                Arguments.of("WITH s AS (SUMMARIZE claims) SELECT column_name FROM s WHERE column_name LIKE 's%' ORDER BY 1"),
                Arguments.of("SELECT count(*) AS n FROM (SUMMARIZE users)"),
                Arguments.of("SELECT column_name, approx_unique FROM (SUMMARIZE regions) ORDER BY approx_unique DESC, column_name"),
                Arguments.of("SELECT r.region, s.column_name FROM regions r, (SUMMARIZE users) s WHERE s.column_name = 'name' ORDER BY 1"),
                Arguments.of("SELECT a.column_name FROM (SUMMARIZE regions) a JOIN (SUMMARIZE regions) b ON a.max = b.max ORDER BY 1"),
                Arguments.of("SELECT column_name, avg FROM (SUMMARIZE claims) WHERE avg IS NOT NULL ORDER BY column_name"),
                Arguments.of("PIVOT claims ON region IN ('north', 'south') USING count(*) GROUP BY status ORDER BY status"),
                Arguments.of("SELECT p.status FROM (PIVOT claims ON region IN ('north', 'south') USING sum(amount) GROUP BY status) p "
                        + "WHERE p.north > 100 ORDER BY 1"),
                Arguments.of("SELECT q.k, count(*) AS n FROM (UNPIVOT regions ON region, manager INTO NAME k VALUE v) q "
                        + "WHERE q.v LIKE '%e%' GROUP BY q.k ORDER BY q.k"),
                Arguments.of("SELECT column_name FROM (DESCRIBE users) WHERE column_name LIKE 'pass%'"),
                Arguments.of("SELECT count(*) AS n FROM (DESCRIBE SELECT * FROM users)"));
    }

    @BeforeAll
    static void open() throws Exception {
        Path db = TestDatabases.contractDatabase(folder);
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db)) {
            for (Oracle oracle : oracles()) {
                raw(c, oracle.with(oracle.right()));
                raw(c, oracle.with(WRONG));
            }
            for (String sql : orderings()) {
                raw(c, sql);
            }
            honest().forEach(a -> raw(c, (String) a.get()[0]));
        }
        engine = TestDatabases.engine(db, work, GuardrailPolicy.defaults());
    }

    @AfterAll
    static void close() {
        if (engine != null) {
            engine.close();
        }
    }

    private static void raw(Connection c, String sql) {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            List<List<String>> rows = new ArrayList<>();
            while (rs.next()) {
                List<String> row = new ArrayList<>(n);
                for (int i = 1; i <= n; i++) {
                    row.add(String.valueOf(rs.getObject(i)));
                }
                rows.add(row);
            }
            rawRows.put(sql, rows);
        } catch (SQLException e) {
            rawErrors.put(sql, e.getMessage());
        }
    }

    @Test
    void everyOracleAnswersTheGuessOnRawDuckDb() {
        List<String> broken = new ArrayList<>();
        for (Oracle oracle : oracles()) {
            String right = oracle.with(oracle.right());
            String wrong = oracle.with(WRONG);
            if (!rawRows.containsKey(right) || !rawRows.containsKey(wrong) || rawRows.get(right).equals(rawRows.get(wrong))) {
                broken.add(oracle.template() + " -> " + rawErrors.getOrDefault(right, String.valueOf(rawRows.get(right))));
            }
        }
        for (String sql : orderings()) {
            if (!rawRows.containsKey(sql)) {
                broken.add(sql + " -> " + rawErrors.get(sql));
            }
        }
        assertThat(broken).as("oracles that are not oracles on raw DuckDB test nothing").isEmpty();
        assertThat(oracles()).hasSizeGreaterThan(150);
    }

    @ParameterizedTest
    @MethodSource("oracles")
    void aColumnDerivedFromASensitiveColumnCannotDecideTheRows(Oracle oracle) {
        ToolResult right = query(engine, oracle.with(oracle.right()));
        ToolResult wrong = query(engine, oracle.with(WRONG));
        for (ToolResult r : List.of(right, wrong)) {
            assertThat(r.status()).as("%s answered %s", oracle, r.rows()).isEqualTo(ToolStatus.REJECTED);
            assertThat(r.error().orElseThrow().code()).as(oracle.template()).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
            assertNoSecret(r, oracle.template());
        }
        assertThat(right.error().orElseThrow().message()).isEqualTo(wrong.error().orElseThrow().message());
    }

    @ParameterizedTest
    @MethodSource("orderings")
    void aColumnDerivedFromASensitiveColumnCannotDecideTheOrder(String sql) {
        ToolResult r = query(engine, sql);
        assertThat(r.status()).as("%s answered %s", sql, r.rows()).isEqualTo(ToolStatus.REJECTED);
        assertThat(r.error().orElseThrow().code()).as(sql).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
    }

    @ParameterizedTest
    @MethodSource("honest")
    void honestUsesAnswerWhatDuckDbAnswers(String sql) {
        ToolResult r = query(engine, sql);
        assertThat(r.error()).as(sql).isEmpty();
        List<List<String>> rows = new ArrayList<>();
        for (List<Object> row : r.rows()) {
            rows.add(row.stream().map(String::valueOf).toList());
        }
        assertThat(rows).as(sql).isEqualTo(rawRows.get(sql));
    }

    /** A statistic of a sensitive column comes back, wherever the SUMMARIZE is, redacted and never in clear. */
    @Test
    void aStatisticOfASensitiveColumnComesBackRedacted() {
        for (String sql : List.of("SUMMARIZE users", "SELECT column_name, min, max FROM (SUMMARIZE users)",
                "WITH s AS (SUMMARIZE users) SELECT s.max AS m FROM s", "SELECT upper(s.max) AS m FROM (SUMMARIZE users) s",
                "SELECT s.max AS m FROM regions r, (SUMMARIZE users) s WHERE r.region = 'north'")) {
            ToolResult r = query(engine, sql);
            assertThat(r.error()).as(sql).isEmpty();
            assertThat(r.rows()).as(sql).isNotEmpty();
            assertNoSecret(r, sql);
            List<String> names = r.columns().stream().map(c -> c.name()).toList();
            int m = names.contains("max") ? names.indexOf("max") : names.indexOf("m");
            for (List<Object> row : r.rows()) {
                assertThat(row.get(m)).as(sql).isEqualTo(ResultProjector.REDACTED);
            }
        }
    }

    private static void assertNoSecret(ToolResult r, String sql) {
        String text = r.rows() + r.error().map(e -> e.message()).orElse("");
        for (String secret : ContractDataset.SECRETS) {
            assertThat(text).as(sql).doesNotContain(secret);
        }
        assertThat(text).as(sql).doesNotContain("s3cr3t").doesNotContain("carol-pw").doesNotContain("ak_live");
    }
}
