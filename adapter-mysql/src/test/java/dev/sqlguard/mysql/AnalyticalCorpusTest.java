package dev.sqlguard.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.ports.Engine;

/**
 * An honest corpus of analytical queries (subqueries, CTEs incl. recursive ones, set operations,
 * window functions, CASE, INTERVAL arithmetic, GROUP_CONCAT, comma and cross joins, {@code *},
 * keyword-named columns, casts) over four small schemas, run raw on the server and through the guard
 * with every table and column allowlisted and nothing sensitive. The guard may refuse at most 1% of
 * what the server runs, and every guarded result must equal the raw one: as an ordered list when
 * the query orders its rows, as a multiset otherwise.
 */
@Tag("mysql")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(600)
class AnalyticalCorpusTest {
    private static final Set<String> TABLES = Set.of("singer", "stadium", "concert", "singer_in_concert", "customers",
            "products", "orders", "order_items", "departments", "employees");
    private static final Pattern DATE_TIME = Pattern.compile("^(\\d{4}-\\d{2}-\\d{2})[T ](\\d{2}:\\d{2})(:00)?(\\.0+)?$");
    private static final Pattern TIME = Pattern.compile("^(\\d{2}:\\d{2})(:00)?(\\.0+)?$");

    private String database;
    private Engine engine;
    private final QueryService service = new QueryService(AuditSink.discarding());

    @BeforeAll
    void setUp() throws Exception {
        assumeTrue(TestServer.available(), "no MySQL-compatible server");
        database = TestServer.createDatabase();
        try (Connection c = TestServer.admin(database); Statement s = c.createStatement()) {
            for (String statement : resource("corpus/schema.sql")) {
                s.execute(statement);
            }
        }
        Map<String, List<String>> all = new java.util.HashMap<>();
        TABLES.forEach(t -> all.put(t, List.of("*")));
        GuardrailPolicy policy = new GuardrailPolicy(TableAllowlist.of(all), Set.of(), Set.of(), Set.of(),
                Limits.defaults().withMaxRows(5_000).withTimeout(Duration.ofSeconds(20)));
        engine = MySqlServerTest.engine(database, false, policy, Map.of());
    }

    @AfterAll
    void tearDown() {
        if (engine != null) {
            engine.close();
        }
        if (database != null) {
            TestServer.dropDatabase(database);
        }
    }

    @Test
    void theGuardRunsWhatTheServerRunsWithTheSameResults() throws Exception {
        List<String> queries = resource("corpus/queries.sql");
        assertThat(queries).hasSizeGreaterThanOrEqualTo(300);
        List<String> refused = new ArrayList<>();
        List<String> different = new ArrayList<>();
        List<String> rawFailures = new ArrayList<>();
        int ran = 0;
        for (String sql : queries) {
            Optional<List<List<String>>> raw = raw(sql, rawFailures);
            if (raw.isEmpty()) {
                continue;
            }
            ran++;
            ToolResult r = service.query(engine.binding(), QueryRequest.of("db", sql));
            if (r.status() != ToolStatus.OK && r.status() != ToolStatus.NO_EVIDENCE) {
                refused.add(sql + "\n    -> " + r.error().map(e -> e.code() + ": " + e.message()).orElse(r.status().name()));
                continue;
            }
            assertThat(r.truncated()).as(sql).isFalse();
            List<List<String>> guarded = normalize(r.rows());
            List<List<String>> expected = raw.get();
            if (!orders(sql)) {
                guarded = sorted(guarded);
                expected = sorted(expected);
            }
            if (!guarded.equals(expected)) {
                different.add(sql + "\n    raw:     " + expected + "\n    guarded: " + guarded + "\n    ran:     " + r.sql().orElse(""));
            }
        }
        System.out.printf("corpus: %d queries, %d run by the server, %d refused by the guard, %d different%n",
                queries.size(), ran, refused.size(), different.size());
        rawFailures.forEach(f -> System.out.println("server refused: " + f));
        refused.forEach(f -> System.out.println("guard refused: " + f));
        assertThat(different).as("results that differ from the server's").isEmpty();
        assertThat(ran).isGreaterThanOrEqualTo(300);
        assertThat(refused.size()).as("refused by the guard: %s", refused).isLessThanOrEqualTo(ran / 100);
    }

    private Optional<List<List<String>>> raw(String sql, List<String> failures) {
        try (Connection c = TestServer.admin(database); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            List<List<Object>> rows = new ArrayList<>();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    row.add(rs.getObject(i));
                }
                rows.add(row);
            }
            return Optional.of(normalize(rows));
        } catch (SQLException e) {
            failures.add(sql + " -> " + e.getMessage());
            return Optional.empty();
        }
    }

    /** Whether the statement's outermost query orders its rows. */
    private static boolean orders(String sql) {
        String upper = sql.toUpperCase(java.util.Locale.ROOT);
        int order = upper.lastIndexOf("ORDER BY");
        return order >= 0 && upper.lastIndexOf(')') < order && !upper.substring(order).contains(" OVER ");
    }

    private static List<List<String>> normalize(List<List<Object>> rows) {
        List<List<String>> out = new ArrayList<>();
        for (List<Object> row : rows) {
            List<String> cells = new ArrayList<>();
            row.forEach(v -> cells.add(cell(v)));
            out.add(cells);
        }
        return out;
    }

    private static String cell(Object v) {
        if (v == null) {
            return "NULL";
        }
        if (v instanceof Boolean b) {
            return b ? "1" : "0";
        }
        if (v instanceof Double || v instanceof Float) {
            return new BigDecimal(v.toString()).round(new MathContext(9)).stripTrailingZeros().toPlainString();
        }
        if (v instanceof Number n) {
            BigDecimal d = new BigDecimal(n.toString());
            return (d.scale() > 6 ? d.round(new MathContext(12)) : d).stripTrailingZeros().toPlainString();
        }
        if (v instanceof byte[] bytes) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        String text = v.toString();
        text = DATE_TIME.matcher(text).replaceAll("$1 $2");
        return TIME.matcher(text).replaceAll("$1");
    }

    private static List<List<String>> sorted(List<List<String>> rows) {
        List<List<String>> out = new ArrayList<>(rows);
        out.sort(Comparator.comparing(Object::toString));
        return out;
    }

    private static List<String> resource(String name) throws IOException {
        try (InputStream in = AnalyticalCorpusTest.class.getClassLoader().getResourceAsStream(name)) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            List<String> out = new ArrayList<>();
            for (String line : text.split("\n")) {
                String s = line.strip();
                if (!s.isEmpty() && !s.startsWith("--")) {
                    out.add(s.endsWith(";") ? s.substring(0, s.length() - 1) : s);
                }
            }
            return out;
        }
    }

}
