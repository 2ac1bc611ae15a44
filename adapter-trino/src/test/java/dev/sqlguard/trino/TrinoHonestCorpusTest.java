package dev.sqlguard.trino;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.testing.FixtureEngine;
import dev.sqlguard.testing.HonestCorpus;

/**
 * Honest analytical SQL of the kind agents write (aggregates, joins, CTEs, subqueries, set
 * operations, window functions, FILTER, date arithmetic), in Trino's dialect, run raw as the cluster's
 * admin and guarded through the engine as the read-only user (at least 150 of them): at most 1% may
 * be refused, and every answered query returns exactly the raw rows.
 */
@Tag("trino")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(1200)
class TrinoHonestCorpusTest {
    private FixtureEngine<TrinoFixture> server;
    private final QueryService service = new QueryService(AuditSink.discarding());

    @BeforeAll
    void start() throws Exception {
        TestCluster.require();
        server = FixtureEngine.open(new TrinoFixture(TestCluster.READ_ONLY), "corpus",
                FixtureEngine.plainPolicy(FixtureEngine.PLAIN_COLUMNS));
    }

    @AfterAll
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    static List<String> corpus() {
        List<String> q = new ArrayList<>(HonestCorpus.portable());
        String[] dims = {"region", "status", "date_trunc('month', created)", "EXTRACT(YEAR FROM created)", "month(created)"};
        String[] measures = {"count(*)", "sum(amount)", "avg(amount)", "min(amount)", "max(amount)", "count(DISTINCT status)",
                "round(avg(amount), 2)", "count_if(status = 'DENIED')", "count(*) FILTER (WHERE status = 'DENIED')", "stddev_samp(amount)"};
        for (String d : dims) {
            for (String m : measures) {
                q.add("SELECT " + d + " AS k, " + m + " AS v FROM claims GROUP BY 1 ORDER BY 1");
            }
        }
        for (String where : new String[] {"WHERE status <> 'DENIED'", "WHERE created >= DATE '2024-04-01'"}) {
            for (String d : new String[] {"region", "status"}) {
                for (String m : measures) {
                    q.add("SELECT " + d + " AS k, " + m + " AS v FROM claims " + where + " GROUP BY 1 ORDER BY 1");
                }
            }
        }
        for (String f : new String[] {"row_number()", "rank()", "dense_rank()", "ntile(3)"}) {
            for (String order : new String[] {"amount, id", "id DESC"}) {
                q.add("SELECT id, " + f + " OVER (ORDER BY " + order + ") AS w FROM claims ORDER BY id");
                q.add("SELECT id, " + f + " OVER (PARTITION BY region ORDER BY " + order + ") AS w FROM claims ORDER BY id");
            }
        }
        for (String join : new String[] {"JOIN", "LEFT JOIN"}) {
            for (String agg : new String[] {"count(*)", "sum(c.amount)", "max(c.created)"}) {
                q.add("SELECT r.manager AS k, " + agg + " AS v FROM regions r " + join + " claims c ON c.region = r.region"
                        + " AND c.status = 'APPROVED' GROUP BY r.manager ORDER BY 1");
            }
        }
        for (String op : new String[] {"UNION", "UNION ALL", "INTERSECT", "EXCEPT"}) {
            q.add("SELECT region FROM claims WHERE amount > 30000 " + op + " SELECT region FROM regions WHERE manager <> 'Sam' ORDER BY 1");
        }
        for (int threshold : new int[] {100, 20000, 55000}) {
            q.add("SELECT id, amount FROM claims WHERE amount > " + threshold + " ORDER BY id");
            q.add("SELECT region, count(*) AS n FROM claims WHERE amount BETWEEN " + threshold + " AND " + (threshold + 20000)
                    + " GROUP BY region HAVING count(*) > 1 ORDER BY region");
        }
        q.addAll(List.of(
                "SELECT id, region, amount, rank() OVER (PARTITION BY region ORDER BY amount DESC, id) AS r FROM claims ORDER BY region, r",
                "SELECT id, created + INTERVAL '30' DAY AS due FROM claims ORDER BY id LIMIT 10",
                "SELECT id FROM claims WHERE created >= DATE '2024-03-01' AND created < DATE '2024-03-01' + INTERVAL '1' MONTH ORDER BY id",
                "SELECT day_of_week(created) AS dow, count(*) AS n FROM claims GROUP BY 1 ORDER BY 1",
                "SELECT date_format(created, '%Y-%m') AS ym, sum(amount) AS s FROM claims GROUP BY 1 ORDER BY 1",
                "SELECT date_diff('day', created, DATE '2025-01-01') AS d FROM claims WHERE id = 3",
                "SELECT id FROM claims WHERE region LIKE 'n%' AND lower(status) LIKE 'app%' ORDER BY id",
                "SELECT id FROM claims WHERE status IS NOT NULL AND amount IS NOT NULL ORDER BY id LIMIT 5",
                "SELECT id FROM claims ORDER BY id OFFSET 5 LIMIT 5",
                "SELECT CAST(amount AS integer) AS a, CAST(amount AS decimal(10, 1)) AS b FROM claims WHERE id < 4 ORDER BY 1",
                "SELECT greatest(amount, 30000) AS g, least(amount, 30000) AS l FROM claims WHERE id < 4 ORDER BY 1, 2",
                "SELECT region, max_by(id, amount) AS top FROM claims GROUP BY region ORDER BY region",
                "SELECT region AS r, count(*) AS n FROM claims GROUP BY region ORDER BY n DESC, r"));
        return q;
    }

    @Test
    void honestQueriesRunGuardedExactlyAsRaw() throws SQLException {
        List<String> corpus = corpus();
        assertThat(corpus).hasSizeGreaterThanOrEqualTo(150).doesNotHaveDuplicates();
        try (Connection raw = TestCluster.connect(TestCluster.ADMIN, server.fixture().schema()); Statement s = raw.createStatement()) {
            HonestCorpus.Outcome outcome = HonestCorpus.compare(corpus, HonestCorpus.jdbc(s),
                    sql -> service.query(server.engine().binding(), new QueryRequest("corpus", sql, List.of(), "c")), HonestCorpus::plainCell);
            assertThat(outcome.print().rawFailures()).as("every query of the corpus runs raw").isEmpty();
            outcome.assertAgrees();
        }
    }
}
