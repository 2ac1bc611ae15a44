package dev.sqlguard.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.testing.HonestCorpus;

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
        HonestCorpus.Outcome outcome = HonestCorpus.compare(queries, this::raw,
                sql -> service.query(engine.binding(), QueryRequest.of("db", sql)), AnalyticalCorpusTest::cell).print();
        assertThat(outcome.ran()).isGreaterThanOrEqualTo(300);
        outcome.assertAgrees();
    }

    /** The server's own rows, on a connection of their own (a failed statement leaves nothing behind). */
    private List<List<Object>> raw(String sql) throws Exception {
        try (Connection c = TestServer.admin(database); Statement s = c.createStatement()) {
            return HonestCorpus.jdbc(s).rows(sql);
        }
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
