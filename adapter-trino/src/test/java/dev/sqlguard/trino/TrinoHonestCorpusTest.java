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
        List<String> q = new ArrayList<>();
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
                "SELECT c.region, r.manager, count(*) AS n FROM claims c JOIN regions r ON r.region = c.region GROUP BY c.region, r.manager ORDER BY 1",
                "SELECT c.id, r.manager FROM claims c INNER JOIN regions r ON c.region = r.region WHERE c.id <= 10 ORDER BY c.id",
                "SELECT r.region, c.id FROM claims c RIGHT JOIN regions r ON c.region = r.region AND c.id < 5 ORDER BY 1, 2",
                "SELECT r.region, c.id FROM claims c FULL JOIN regions r ON c.region = r.region AND c.id < 3 ORDER BY 1, 2",
                "SELECT count(*) AS n FROM claims a CROSS JOIN regions b",
                "WITH monthly AS (SELECT date_trunc('month', created) AS m, sum(amount) AS total FROM claims GROUP BY 1) SELECT m, total, total - lag(total) OVER (ORDER BY m) AS delta FROM monthly ORDER BY m",
                "WITH big AS (SELECT id, region, amount FROM claims WHERE amount > 30000) SELECT region, count(*) AS n FROM big GROUP BY region ORDER BY region",
                "WITH a AS (SELECT region, avg(amount) AS av FROM claims GROUP BY region), b AS (SELECT max(av) AS top FROM a) SELECT a.region FROM a, b WHERE a.av = b.top",
                "SELECT id, amount FROM claims WHERE amount > (SELECT avg(amount) FROM claims) ORDER BY id",
                "SELECT id FROM claims WHERE region IN (SELECT region FROM regions WHERE manager LIKE 'S%') ORDER BY id",
                "SELECT id FROM claims c WHERE EXISTS (SELECT 1 FROM regions r WHERE r.region = c.region AND r.manager = 'Wes') ORDER BY id",
                "SELECT id FROM claims c WHERE NOT EXISTS (SELECT 1 FROM regions r WHERE r.region = c.region AND r.manager = 'Wes') ORDER BY id",
                "SELECT s.region, s.n FROM (SELECT region, count(*) AS n FROM claims GROUP BY region) s WHERE s.n >= 15 ORDER BY 1",
                "SELECT id, region, amount, rank() OVER (PARTITION BY region ORDER BY amount DESC, id) AS r FROM claims ORDER BY region, r",
                "SELECT id, sum(amount) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS running FROM claims ORDER BY id",
                "SELECT id, avg(amount) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS moving FROM claims ORDER BY id",
                "SELECT id, lead(amount) OVER (PARTITION BY region ORDER BY id) AS nxt FROM claims ORDER BY id",
                "SELECT id, count(*) OVER (PARTITION BY status) AS n FROM claims ORDER BY id",
                "SELECT DISTINCT status FROM claims ORDER BY status",
                "SELECT id, created + INTERVAL '30' DAY AS due FROM claims ORDER BY id LIMIT 10",
                "SELECT id FROM claims WHERE created >= DATE '2024-03-01' AND created < DATE '2024-03-01' + INTERVAL '1' MONTH ORDER BY id",
                "SELECT day_of_week(created) AS dow, count(*) AS n FROM claims GROUP BY 1 ORDER BY 1",
                "SELECT date_format(created, '%Y-%m') AS ym, sum(amount) AS s FROM claims GROUP BY 1 ORDER BY 1",
                "SELECT date_diff('day', created, DATE '2025-01-01') AS d FROM claims WHERE id = 3",
                "SELECT id, CASE WHEN amount > 30000 THEN 'big' WHEN amount > 10000 THEN 'medium' ELSE 'small' END AS size FROM claims ORDER BY id",
                "SELECT CASE status WHEN 'APPROVED' THEN 1 ELSE 0 END AS ok, count(*) AS n FROM claims GROUP BY 1 ORDER BY 1",
                "SELECT coalesce(nullif(region, 'north'), 'N') AS r, count(*) AS n FROM claims GROUP BY 1 ORDER BY 1",
                "SELECT upper(region) AS u, lower(status) AS l, length(region) AS n FROM claims WHERE id < 5 ORDER BY 1, 2",
                "SELECT concat(region, '-', status) AS k, count(*) AS n FROM claims GROUP BY 1 ORDER BY 1",
                "SELECT region || ':' || status AS k FROM claims WHERE id = 7",
                "SELECT substr(region, 1, 2) AS p, count(*) AS n FROM claims GROUP BY 1 ORDER BY 1",
                "SELECT id FROM claims WHERE region LIKE 'n%' AND lower(status) LIKE 'app%' ORDER BY id",
                "SELECT id FROM claims WHERE region NOT IN ('north', 'south') ORDER BY id",
                "SELECT id FROM claims WHERE status IS NOT NULL AND amount IS NOT NULL ORDER BY id LIMIT 5",
                "SELECT id FROM claims ORDER BY id OFFSET 5 LIMIT 5",
                "SELECT CAST(amount AS integer) AS a, CAST(amount AS decimal(10, 1)) AS b FROM claims WHERE id < 4 ORDER BY 1",
                "SELECT abs(amount - 30000) AS d FROM claims ORDER BY d LIMIT 3",
                "SELECT floor(amount / 10000) * 10000 AS bucket, count(*) AS n FROM claims GROUP BY 1 ORDER BY 1",
                "SELECT greatest(amount, 30000) AS g, least(amount, 30000) AS l FROM claims WHERE id < 4 ORDER BY 1, 2",
                "SELECT mod(id, 7) AS m, count(*) AS n FROM claims GROUP BY 1 ORDER BY 1",
                "SELECT bool_and(amount > 0) AS all_pos, bool_or(amount > 60000) AS any_big FROM claims",
                "SELECT var_pop(amount) AS v, corr(amount, id) AS c FROM claims",
                "SELECT region, max_by(id, amount) AS top FROM claims GROUP BY region ORDER BY region",
                "SELECT name FROM users ORDER BY id",
                "SELECT count(*) AS n, max(id) AS m FROM users",
                "SELECT * FROM regions ORDER BY region",
                "SELECT r.* FROM regions r WHERE r.manager > 'M' ORDER BY 1",
                "SELECT id, region FROM claims ORDER BY amount DESC NULLS LAST, id LIMIT 5",
                "SELECT region AS r, count(*) AS n FROM claims GROUP BY region ORDER BY n DESC, r",
                "SELECT \"region\", count(*) AS \"Count\" FROM \"claims\" GROUP BY \"region\" ORDER BY 1"));
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
