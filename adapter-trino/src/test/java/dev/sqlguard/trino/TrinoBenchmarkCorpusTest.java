package dev.sqlguard.trino;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.testing.BenchmarkCorpus;
import dev.sqlguard.testing.FixtureEngine;
import dev.sqlguard.testing.HonestCorpus;

/** {@link BenchmarkCorpus} raw as the cluster's admin and guarded as the read-only user: at most 1% refused, none different. */
@Tag("trino")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(1500)
class TrinoBenchmarkCorpusTest {
    private FixtureEngine<TrinoFixture> server;
    private final QueryService service = new QueryService(AuditSink.discarding());

    @BeforeAll
    void start() throws Exception {
        TestCluster.require();
        TrinoFixture fixture = new TrinoFixture(TestCluster.READ_ONLY);
        try (Connection c = TestCluster.connect(TestCluster.ADMIN, fixture.schema()); Statement s = c.createStatement()) {
            for (String ddl : BenchmarkCorpus.ddl(BenchmarkCorpus.Dialect.TRINO)) {
                s.execute(ddl);
            }
        }
        Map<String, List<String>> tables = new HashMap<>(FixtureEngine.PLAIN_COLUMNS);
        // Trino folds every name to lower case, quoted or not
        tables.putAll(BenchmarkCorpus.allowlist(name -> name.toLowerCase(Locale.ROOT)));
        // the raw side has no time limit; the shared test machine can make a small query wait its turn for long
        dev.sqlguard.domain.GuardrailPolicy plain = FixtureEngine.plainPolicy(tables);
        server = FixtureEngine.open(fixture, "bench", new dev.sqlguard.domain.GuardrailPolicy(plain.tables(), java.util.Set.of(),
                java.util.Set.of(), java.util.Set.of(), dev.sqlguard.domain.Limits.defaults().withTimeout(java.time.Duration.ofSeconds(120))));
    }

    @AfterAll
    void stop() throws SQLException {
        if (server != null) {
            try (Connection c = TestCluster.connect(TestCluster.ADMIN, server.fixture().schema()); Statement s = c.createStatement()) {
                for (BenchmarkCorpus.Table t : BenchmarkCorpus.tables()) {
                    s.execute("DROP TABLE IF EXISTS " + t.name());
                }
            }
            server.close();
        }
    }

    @Test
    void benchmarkQueriesRunGuardedExactlyAsRaw() throws SQLException {
        List<String> corpus = BenchmarkCorpus.queries(BenchmarkCorpus.Dialect.TRINO);
        assertThat(corpus).hasSizeGreaterThanOrEqualTo(500).doesNotHaveDuplicates();
        try (Connection raw = TestCluster.connect(TestCluster.ADMIN, server.fixture().schema()); Statement s = raw.createStatement()) {
            HonestCorpus.Outcome outcome = HonestCorpus.compare(corpus, HonestCorpus.jdbc(s),
                    sql -> service.query(server.engine().binding(), new QueryRequest("bench", sql, List.of(), "c")), HonestCorpus::plainCell);
            outcome.print();
            outcome.different().forEach(System.out::println);
            assertThat(outcome.rawFailures()).as("every query of the corpus runs raw").isEmpty();
            outcome.assertAgrees();
        }
    }
}
