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

import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.testing.BenchmarkCorpus;
import dev.sqlguard.testing.FixtureEngine;
import dev.sqlguard.testing.HonestCorpus;

/** {@link BenchmarkCorpus} raw as the admin role and guarded as the least-privilege role: at most 1% refused, none different. */
@Tag("postgresql")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(600)
class PostgresBenchmarkCorpusTest {
    private FixtureEngine<PostgresFixture> server;
    private final QueryService service = new QueryService(AuditSink.discarding());

    @BeforeAll
    void start() throws Exception {
        assumeTrue(TestServer.available(), "no PostgreSQL server");
        PostgresFixture fixture = new PostgresFixture(false);
        try (Connection c = TestServer.admin(fixture.server()); Statement s = c.createStatement()) {
            s.execute("SET search_path = " + fixture.schema());
            for (String ddl : BenchmarkCorpus.ddl(BenchmarkCorpus.Dialect.POSTGRESQL)) {
                s.execute(ddl);
            }
            s.execute("GRANT SELECT ON ALL TABLES IN SCHEMA " + fixture.schema() + " TO " + fixture.server().roUser());
            s.execute("ANALYZE");
        }
        Map<String, List<String>> tables = new HashMap<>(FixtureEngine.PLAIN_COLUMNS);
        tables.putAll(BenchmarkCorpus.allowlist(name -> name));
        server = FixtureEngine.open(fixture, "bench", FixtureEngine.plainPolicy(tables));
    }

    @AfterAll
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void benchmarkQueriesRunGuardedExactlyAsRaw() throws SQLException {
        List<String> corpus = BenchmarkCorpus.queries(BenchmarkCorpus.Dialect.POSTGRESQL);
        assertThat(corpus).hasSizeGreaterThanOrEqualTo(500).doesNotHaveDuplicates();
        try (Connection raw = TestServer.admin(server.fixture().server()); Statement s = raw.createStatement()) {
            s.execute("SET search_path = " + server.fixture().schema());
            HonestCorpus.Outcome outcome = HonestCorpus.compare(corpus, HonestCorpus.jdbc(s),
                    sql -> service.query(server.engine().binding(), new QueryRequest("bench", sql, List.of(), "c")), HonestCorpus::plainCell);
            outcome.print();
            outcome.different().forEach(System.out::println);
            assertThat(outcome.rawFailures()).as("every query of the corpus runs raw").isEmpty();
            outcome.assertAgrees();
        }
    }
}
