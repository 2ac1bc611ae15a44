package dev.sqlguard.duckdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.sqlguard.duckdb.internal.DuckDbEngine;
import dev.sqlguard.testing.BenchmarkCorpus;
import dev.sqlguard.testing.FixtureEngine;

/**
 * {@link BenchmarkCorpus} on DuckDB: the raw answers first, on the read-write connection that built the
 * file (with one thread, as the engine runs), then guarded through the engine over the file opened
 * read-only: at most 1% refused, none different.
 */
class DuckDbBenchmarkCorpusTest {
    @TempDir
    static Path folder;
    @TempDir
    static Path work;

    static final Map<String, Object> RAW = new HashMap<>();
    static DuckDbEngine engine;

    @BeforeAll
    static void createAndAnswerRaw() throws Exception {
        Path db = folder.resolve("bench.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db); Statement s = c.createStatement()) {
            for (String ddl : BenchmarkCorpus.ddl(BenchmarkCorpus.Dialect.DUCKDB)) {
                s.execute(ddl);
            }
            s.execute("SET threads = 1");
            for (String sql : BenchmarkCorpus.queries(BenchmarkCorpus.Dialect.DUCKDB)) {
                // a failed query closes its Statement (DuckDB JDBC): one Statement per query
                try (Statement q = c.createStatement(); java.sql.ResultSet rs = q.executeQuery(sql)) {
                    List<List<Object>> rows = new ArrayList<>();
                    int n = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        List<Object> row = new ArrayList<>();
                        for (int i = 1; i <= n; i++) {
                            row.add(DuckDbHonestCorpusTest.likeTheEngine(rs.getObject(i)));
                        }
                        rows.add(row);
                    }
                    RAW.put(sql, rows);
                } catch (java.sql.SQLException e) {
                    RAW.put(sql, e);
                }
            }
        }
        engine = TestDatabases.engine(db, work, FixtureEngine.plainPolicy(BenchmarkCorpus.allowlist(name -> name)));
    }

    @AfterAll
    static void close() {
        if (engine != null) {
            engine.close();
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void benchmarkQueriesRunGuardedExactlyAsRaw() {
        List<String> corpus = BenchmarkCorpus.queries(BenchmarkCorpus.Dialect.DUCKDB);
        assertThat(corpus).hasSizeGreaterThanOrEqualTo(500).doesNotHaveDuplicates();
        dev.sqlguard.testing.HonestCorpus.Outcome outcome = dev.sqlguard.testing.HonestCorpus.compare(corpus, sql -> {
            Object raw = RAW.get(sql);
            if (raw instanceof Exception e) {
                throw e;
            }
            return (List<List<Object>>) raw;
        }, sql -> TestDatabases.query(engine, sql), dev.sqlguard.testing.HonestCorpus::plainCell).print();
        outcome.different().forEach(System.out::println);
        assertThat(outcome.rawFailures()).as("every query of the corpus runs raw").isEmpty();
        outcome.assertAgrees();
    }
}
