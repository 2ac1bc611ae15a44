package dev.sqlguard.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
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
import dev.sqlguard.testing.BenchmarkCorpus;
import dev.sqlguard.testing.HonestCorpus;

/** {@link BenchmarkCorpus} raw and guarded on the MySQL-compatible server: at most 1% refused, none different. */
@Tag("mysql")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(600)
class MySqlBenchmarkCorpusTest {
    private static final Pattern DATE_TIME = Pattern.compile("^(\\d{4}-\\d{2}-\\d{2})[T ](\\d{2}:\\d{2})(:00)?(\\.0+)?$");

    private String database;
    private Engine engine;
    private final QueryService service = new QueryService(AuditSink.discarding());

    @BeforeAll
    void setUp() throws Exception {
        assumeTrue(TestServer.available(), "no MySQL-compatible server");
        database = TestServer.createDatabase();
        try (Connection c = TestServer.admin(database); Statement s = c.createStatement()) {
            for (String statement : BenchmarkCorpus.ddl(BenchmarkCorpus.Dialect.MYSQL)) {
                s.execute(statement);
            }
        }
        GuardrailPolicy policy = new GuardrailPolicy(TableAllowlist.of(BenchmarkCorpus.allowlist(name -> name)), Set.of(), Set.of(), Set.of(),
                Limits.defaults().withTimeout(Duration.ofSeconds(20)));
        engine = MySqlServerTest.engine(database, false, policy, java.util.Map.of());
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
    void benchmarkQueriesRunGuardedExactlyAsRaw() throws Exception {
        List<String> corpus = BenchmarkCorpus.queries(BenchmarkCorpus.Dialect.MYSQL);
        assertThat(corpus).hasSizeGreaterThanOrEqualTo(500).doesNotHaveDuplicates();
        HonestCorpus.Outcome outcome = HonestCorpus.compare(corpus, this::raw,
                sql -> service.query(engine.binding(), QueryRequest.of("db", sql)), MySqlBenchmarkCorpusTest::cell).print();
        outcome.different().forEach(System.out::println);
        assertThat(outcome.rawFailures()).as("every query of the corpus runs raw").isEmpty();
        outcome.assertAgrees();
    }

    /** Set operations mixed without parentheses, each with two readings that give different rows: MariaDB's own reading answers. */
    @Test
    void mixedSetOperationsAnswerInMariaDbsReading() throws Exception {
        String a = "SELECT driverid FROM f1_drivers WHERE driverid ";
        List<String> corpus = List.of(
                a + "<= 2 UNION " + a + "= 3 EXCEPT " + a + "= 3 ORDER BY 1",
                a + "<= 2 UNION " + a + "= 3 INTERSECT " + a + "= 4 ORDER BY 1",
                a + "<= 3 EXCEPT " + a + "= 1 UNION " + a + "= 1 ORDER BY 1",
                a + "<= 3 INTERSECT " + a + ">= 2 UNION ALL " + a + "= 9 ORDER BY 1",
                a + "<= 5 EXCEPT " + a + "<= 3 INTERSECT " + a + ">= 3");
        HonestCorpus.Outcome outcome = HonestCorpus.compare(corpus, this::raw,
                sql -> service.query(engine.binding(), QueryRequest.of("db", sql)), MySqlBenchmarkCorpusTest::cell).print();
        assertThat(outcome.ran()).isEqualTo(corpus.size());
        assertThat(outcome.refused()).isEmpty();
        assertThat(outcome.different()).isEmpty();
    }

    private List<List<Object>> raw(String sql) throws Exception {
        try (Connection c = TestServer.admin(database); Statement s = c.createStatement()) {
            return HonestCorpus.jdbc(s).rows(sql);
        }
    }

    private static String cell(Object v) {
        if (v == null) {
            return "NULL";
        }
        if (v instanceof Double || v instanceof Float) {
            return new BigDecimal(v.toString()).round(new MathContext(9)).stripTrailingZeros().toPlainString();
        }
        if (v instanceof Number n) {
            BigDecimal d = new BigDecimal(n.toString());
            return (d.scale() > 6 ? d.round(new MathContext(12)) : d).stripTrailingZeros().toPlainString();
        }
        return DATE_TIME.matcher(v.toString()).replaceAll("$1 $2");
    }
}
