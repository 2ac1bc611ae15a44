package dev.sqlguard.postgresql;

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
 * operations, window functions, FILTER, DISTINCT ON, date arithmetic), run raw as the admin role and
 * guarded through the engine with the least-privilege role (at least 300 of them): at most 1% may be refused, and every
 * answered query returns exactly the raw rows.
 */
@Tag("postgresql")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(300)
class PostgresHonestCorpusTest {
    private FixtureEngine<PostgresFixture> server;
    private final QueryService service = new QueryService(AuditSink.discarding());

    @BeforeAll
    void start() throws Exception {
        assumeTrue(TestServer.available(), "no PostgreSQL server");
        server = FixtureEngine.open(new PostgresFixture(false), "corpus", FixtureEngine.plainPolicy(FixtureEngine.PLAIN_COLUMNS));
    }

    @AfterAll
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    static List<String> corpus() {
        List<String> q = new ArrayList<>(HonestCorpus.portable());
        String[] dims = {"region", "status", "date_trunc('month', created)", "EXTRACT(YEAR FROM created)", "CAST(date_trunc('week', created) AS date)"};
        String[] measures = {"count(*)", "sum(amount)", "avg(amount)", "min(amount)", "max(amount)", "count(DISTINCT status)",
                "round(avg(amount), 2)", "percentile_cont(0.5) WITHIN GROUP (ORDER BY amount)",
                "count(*) FILTER (WHERE status = 'DENIED')", "stddev_samp(amount)"};
        for (String d : dims) {
            for (String m : measures) {
                q.add("SELECT " + d + " AS k, " + m + " AS v FROM claims GROUP BY 1 ORDER BY 1");
            }
        }
        for (String where : new String[] {"WHERE status <> 'DENIED'", "WHERE created >= DATE '2024-04-01'"}) {
            for (String d : dims) {
                for (String m : measures) {
                    q.add("SELECT " + d + " AS k, " + m + " AS v FROM claims " + where + " GROUP BY 1 ORDER BY 1");
                }
            }
        }
        for (String f : new String[] {"row_number()", "rank()", "dense_rank()", "percent_rank()", "cume_dist()", "ntile(3)"}) {
            for (String order : new String[] {"amount", "created", "id DESC"}) {
                q.add("SELECT id, " + f + " OVER (ORDER BY " + order + ") AS w FROM claims ORDER BY id");
                q.add("SELECT id, " + f + " OVER (PARTITION BY region ORDER BY " + order + ") AS w FROM claims ORDER BY id");
            }
        }
        for (String join : new String[] {"JOIN", "LEFT JOIN"}) {
            for (String agg : new String[] {"count(*)", "sum(c.amount)", "avg(c.amount)", "max(c.created)"}) {
                for (String key : new String[] {"r.manager", "r.region"}) {
                    q.add("SELECT " + key + " AS k, " + agg + " AS v FROM regions r " + join + " claims c ON c.region = r.region"
                            + " AND c.status = 'APPROVED' GROUP BY " + key + " ORDER BY 1");
                }
            }
        }
        for (int threshold = 5000; threshold <= 50000; threshold += 5000) {
            q.add("WITH f AS (SELECT region, amount FROM claims WHERE amount > " + threshold + ") SELECT region, count(*) AS n,"
                    + " sum(amount) AS total FROM f GROUP BY region ORDER BY region");
        }
        for (String op : new String[] {"UNION", "UNION ALL", "INTERSECT", "EXCEPT"}) {
            for (String filter : new String[] {"amount > 30000", "status = 'PENDING'", "created < DATE '2024-06-01'"}) {
                q.add("SELECT region FROM claims WHERE " + filter + " " + op + " SELECT region FROM regions WHERE manager <> 'Sam' ORDER BY 1");
            }
        }
        for (int threshold : new int[] {100, 5000, 20000, 40000, 55000}) {
            q.add("SELECT id, amount FROM claims WHERE amount > " + threshold + " ORDER BY id");
            q.add("SELECT region, count(*) AS n FROM claims WHERE amount BETWEEN " + threshold + " AND " + (threshold + 20000)
                    + " GROUP BY region HAVING count(*) > 1 ORDER BY region");
        }
        q.addAll(List.of(
                "SELECT r.manager, sum(c.amount) AS total FROM regions r LEFT JOIN claims c ON c.region = r.region AND c.status = 'APPROVED' GROUP BY r.manager ORDER BY 2 DESC",
                "SELECT region, (SELECT manager FROM regions r WHERE r.region = c.region) AS manager, count(*) AS n FROM claims c GROUP BY region ORDER BY region",
                "SELECT region FROM claims UNION SELECT region FROM regions ORDER BY 1",
                "SELECT region FROM claims UNION ALL SELECT region FROM regions ORDER BY 1",
                "SELECT region FROM regions EXCEPT SELECT region FROM claims WHERE status = 'DENIED' ORDER BY 1",
                "SELECT region FROM regions INTERSECT SELECT region FROM claims WHERE amount > 50000 ORDER BY 1",
                "SELECT id, region, amount, rank() OVER (PARTITION BY region ORDER BY amount DESC) AS r FROM claims ORDER BY region, r",
                "SELECT id, row_number() OVER (ORDER BY created) AS n FROM claims ORDER BY id",
                "SELECT id, amount - lag(amount, 1, 0) OVER (ORDER BY id) AS diff FROM claims ORDER BY id",
                "SELECT id, ntile(4) OVER (ORDER BY amount) AS q FROM claims ORDER BY id",
                "SELECT id, dense_rank() OVER (ORDER BY status) AS d, percent_rank() OVER (ORDER BY amount) AS p FROM claims ORDER BY id",
                "SELECT region, first_value(id) OVER (PARTITION BY region ORDER BY amount) AS f FROM claims ORDER BY region, f",
                "SELECT DISTINCT ON (region) region, id, amount FROM claims ORDER BY region, amount DESC",
                "SELECT region, count(*) FILTER (WHERE amount > 30000) AS big, count(*) AS total FROM claims GROUP BY region ORDER BY region",
                "SELECT id, created + INTERVAL '30 days' AS due FROM claims ORDER BY id LIMIT 10",
                "SELECT id, created - DATE '2024-01-01' AS days FROM claims ORDER BY id",
                "SELECT id FROM claims WHERE created >= DATE '2024-03-01' AND created < DATE '2024-03-01' + INTERVAL '1 month' ORDER BY id",
                "SELECT date_part('dow', created) AS dow, count(*) AS n FROM claims GROUP BY 1 ORDER BY 1",
                "SELECT to_char(created, 'YYYY-MM') AS ym, sum(amount) AS s FROM claims GROUP BY 1 ORDER BY 1",
                "SELECT age(DATE '2025-01-01', created) AS a FROM claims WHERE id = 3",
                "SELECT left(status, 3) AS s, right(region, 2) AS r FROM claims WHERE id IN (1, 2, 3) ORDER BY 1",
                "SELECT id FROM claims WHERE region LIKE 'n%' AND status ILIKE 'app%' ORDER BY id",
                "SELECT id FROM claims WHERE status IS NOT NULL AND amount IS NOT NULL ORDER BY id LIMIT 5 OFFSET 5",
                "SELECT CAST(amount AS integer) AS a, amount::numeric(10, 1) AS b FROM claims WHERE id < 4 ORDER BY 1",
                "SELECT width_bucket(amount, 0, 70000, 7) AS b, count(*) AS n FROM claims GROUP BY 1 ORDER BY 1",
                "SELECT greatest(amount, 30000) AS g, least(amount, 30000) AS l FROM claims WHERE id < 4 ORDER BY 1",
                "SELECT sum(amount) / count(*) AS mean, sum(amount) * 1.0 / nullif(count(*), 0) AS mean2 FROM claims",
                "SELECT region, string_agg(status, ',' ORDER BY id) AS statuses FROM claims WHERE id < 9 GROUP BY region ORDER BY region",
                "SELECT percentile_disc(0.9) WITHIN GROUP (ORDER BY amount) AS p90 FROM claims",
                "SELECT mode() WITHIN GROUP (ORDER BY region) AS m FROM claims",
                "SELECT generate_series(1, 5) AS g",
                "SELECT m.d, count(c.id) AS n FROM generate_series(DATE '2024-01-01', DATE '2024-12-01', INTERVAL '1 month') AS m(d)"
                        + " LEFT JOIN claims c ON date_trunc('month', c.created) = m.d GROUP BY m.d ORDER BY m.d",
                "SELECT g, g * g AS sq FROM generate_series(1, 10) g ORDER BY g",
                "SELECT region AS r, count(*) AS n FROM claims GROUP BY r ORDER BY n DESC, r",
                "SELECT id, amount FROM claims ORDER BY amount DESC, id FETCH FIRST 5 ROWS ONLY",
                "SELECT id FROM claims ORDER BY id OFFSET 10 ROWS FETCH NEXT 3 ROWS ONLY",
                "SELECT region FROM claims ORDER BY id FETCH FIRST ROW ONLY",
                "SELECT region, status, count(*) AS n, sum(amount) AS total FROM claims GROUP BY ROLLUP (region, status) ORDER BY 1, 2",
                "SELECT region, status, count(*) AS n, GROUPING(region, status) AS g FROM claims GROUP BY CUBE (region, status) ORDER BY 4, 1, 2",
                "SELECT region, status, avg(amount) AS a FROM claims GROUP BY GROUPING SETS ((region), (status), ()) ORDER BY 1, 2",
                "SELECT date_trunc('month', created) AS m, region, count(*) AS n FROM claims GROUP BY ROLLUP (1, 2) ORDER BY 1, 2",
                "SELECT region AS r, status, count(*) AS n FROM claims GROUP BY region, ROLLUP (status) ORDER BY 1, 2",
                "SELECT region, status, max(amount) AS m FROM claims GROUP BY CUBE ((region, status)) ORDER BY 1, 2"));
        // JOIN ... USING and NATURAL JOIN: the merged column, its place first in *, and each join kind's merged value
        for (String kind : new String[] {"JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN"}) {
            q.add("SELECT region, count(c.id) AS n, max(r.manager) AS m FROM claims c " + kind + " regions r USING (region) GROUP BY region ORDER BY 1");
            q.add("SELECT * FROM regions " + kind + " (SELECT region, count(*) AS n FROM claims WHERE status = 'DENIED' GROUP BY region) d"
                    + " USING (region) ORDER BY 1");
            q.add("SELECT * FROM (SELECT region, status FROM claims WHERE id <= 12) a NATURAL " + kind.replace("JOIN", "").strip()
                    + " JOIN (SELECT region, status, count(*) AS n FROM claims WHERE id > 6 GROUP BY 1, 2) b ORDER BY 1, 2, 3");
            q.add("SELECT k, a.k AS ak, b.k AS bk FROM (SELECT g AS k FROM generate_series(1, 6) g) a " + kind
                    + " (SELECT g AS k FROM generate_series(4, 9) g) b USING (k) ORDER BY 1, 2, 3");
        }
        q.addAll(List.of(
                "SELECT * FROM regions NATURAL JOIN regions r2 ORDER BY 1",
                "SELECT region, manager, count(*) AS n FROM claims NATURAL JOIN regions GROUP BY region, manager ORDER BY 1",
                "SELECT c.id, name FROM claims c NATURAL JOIN users WHERE c.id < 3 ORDER BY 1",
                "SELECT * FROM regions r1 JOIN regions r2 USING (region, manager) ORDER BY region",
                "SELECT region, a.n, b.m FROM (SELECT region, count(*) AS n FROM claims GROUP BY region) a"
                        + " JOIN (SELECT region, max(amount) AS m FROM claims GROUP BY region) b USING (region)"
                        + " JOIN regions USING (region) WHERE region <> 'east' ORDER BY region",
                // the merged column has the two sides' common type, as COALESCE gives it: numeric here, text there
                "SELECT k / 2 AS h FROM (SELECT 3 AS k) a JOIN (SELECT 3.0 AS k) b USING (k)",
                "SELECT k, octet_length(k) AS l FROM (SELECT CAST('ab' AS char(4)) AS k) a JOIN (SELECT 'ab'::text AS k) b USING (k)",
                "SELECT k, octet_length(k) AS l FROM (SELECT 'ab'::text AS k) a RIGHT JOIN (SELECT CAST('ab' AS char(4)) AS k) b USING (k)",
                "SELECT k FROM (SELECT 1.50 AS k) a FULL JOIN (SELECT 1.5 AS k) b USING (k)",
                "SELECT region, status, count(*) AS n FROM claims c JOIN regions USING (region) GROUP BY region, status ORDER BY 1, 2",
                // LATERAL subqueries with outer references
                "SELECT r.region, x.id, x.amount FROM regions r CROSS JOIN LATERAL (SELECT id, amount FROM claims c"
                        + " WHERE c.region = r.region ORDER BY amount DESC, id LIMIT 2) x ORDER BY 1, 3 DESC",
                "SELECT r.region, x.n FROM regions r, LATERAL (SELECT count(*) AS n FROM claims WHERE claims.region = r.region"
                        + " AND status = 'DENIED') x ORDER BY 1",
                "SELECT r.manager, x.first_claim FROM regions r LEFT JOIN LATERAL (SELECT min(created) AS first_claim FROM claims c"
                        + " WHERE c.region = r.region AND c.amount > 40000) x ON TRUE ORDER BY 1",
                "SELECT u.name, x.total FROM users u JOIN LATERAL (SELECT sum(amount) AS total FROM claims c WHERE c.id <= u.id * 10) x"
                        + " ON x.total > 0 ORDER BY 1",
                "SELECT g, x.n FROM generate_series(1, 5) g, LATERAL (SELECT count(*) AS n FROM claims WHERE id % 5 = g - 1) x ORDER BY 1",
                "SELECT c.id, x.prev FROM claims c LEFT JOIN LATERAL (SELECT max(p.amount) AS prev FROM claims p WHERE p.region = c.region"
                        + " AND p.id < c.id) x ON TRUE WHERE c.id <= 10 ORDER BY 1",
                "SELECT region, x.k FROM claims c JOIN regions r USING (region), LATERAL (SELECT upper(r.manager) || '-' || c.status AS k) x"
                        + " WHERE c.id < 8 ORDER BY c.id",
                // WITH RECURSIVE with a literal depth bound, and column lists
                "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT n FROM r ORDER BY n",
                "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 100) SELECT sum(n) AS s, count(*) AS c FROM r",
                "WITH RECURSIVE d(dt, i) AS (SELECT DATE '2024-01-01', 0 UNION ALL SELECT dt + 7, i + 1 FROM d WHERE i < 30)"
                        + " SELECT d.dt, count(c.id) AS n FROM d LEFT JOIN claims c ON c.created >= d.dt AND c.created < d.dt + 7 GROUP BY d.dt ORDER BY 1",
                "WITH RECURSIVE chain AS (SELECT id, region, 1 AS depth FROM claims WHERE id = 1 UNION ALL SELECT c.id, c.region, chain.depth + 1"
                        + " FROM chain JOIN claims c ON c.id = chain.id + 4 WHERE chain.depth < 5) SELECT * FROM chain ORDER BY depth",
                "WITH RECURSIVE p(name, path, d) AS (SELECT name, CAST(name AS text), 0 FROM users UNION SELECT p.name, p.path || '/' || u.name, p.d + 1"
                        + " FROM p JOIN users u ON u.name > p.name WHERE p.d < 3) SELECT path, d FROM p ORDER BY path",
                "WITH RECURSIVE m(mon, k) AS (SELECT DATE '2024-01-01', 1 UNION ALL SELECT CAST(mon + INTERVAL '1 month' AS date), k + 1 FROM m"
                        + " WHERE k < 12) SELECT m.mon, count(c.id) AS n, coalesce(sum(c.amount), 0) AS total FROM m"
                        + " LEFT JOIN claims c ON date_trunc('month', c.created) = m.mon GROUP BY m.mon ORDER BY 1",
                "WITH RECURSIVE t(i, total) AS (SELECT 1, CAST(0 AS numeric) UNION ALL SELECT t.i + 1, t.total + (SELECT amount FROM claims"
                        + " WHERE id = t.i) FROM t WHERE t.i < 10) SELECT i, total FROM t ORDER BY i",
                "WITH RECURSIVE fib(i, a, b) AS (SELECT 1, CAST(0 AS bigint), CAST(1 AS bigint) UNION ALL SELECT i + 1, b, a + b FROM fib"
                        + " WHERE i < 30) SELECT i, a FROM fib ORDER BY i",
                "WITH RECURSIVE r(n) AS (SELECT 0 UNION ALL SELECT 1 + n FROM r WHERE 20 > n) SELECT count(*) AS c, max(n) AS m FROM r",
                "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 2 FROM r WHERE n <= 15), s AS (SELECT n, n * n AS sq FROM r)"
                        + " SELECT n, sq FROM s ORDER BY n",
                "WITH RECURSIVE ordered(region, pos) AS (SELECT min(region), 1 FROM regions UNION ALL SELECT (SELECT min(r.region) FROM regions r"
                        + " WHERE r.region > o.region), o.pos + 1 FROM ordered o WHERE o.pos < 4) SELECT region, pos FROM ordered ORDER BY pos",
                "WITH RECURSIVE r(n, src) AS (SELECT 1, 'a' UNION ALL SELECT 5, 'b' UNION ALL SELECT n + 1, src FROM r WHERE n < 8)"
                        + " SELECT src, count(*) AS c FROM r GROUP BY src ORDER BY src",
                "WITH RECURSIVE r(n) AS (SELECT 1 UNION SELECT n + 1 FROM r WHERE n < 5) SELECT r.n, c.region FROM r JOIN claims c ON c.id = r.n ORDER BY 1",
                "WITH RECURSIVE lvl(region, n) AS (SELECT region, 1 FROM regions UNION ALL SELECT l.region, l.n + 1 FROM lvl l WHERE l.n < 3),"
                        + " tot AS (SELECT region, count(*) AS c FROM claims GROUP BY region) SELECT region, n, c FROM lvl JOIN tot USING (region) ORDER BY 1, 2",
                "WITH x(a, b) AS (SELECT region, count(*) FROM claims GROUP BY region) SELECT a, b FROM x ORDER BY a",
                "WITH x(r, m) AS (SELECT region, manager FROM regions), y AS (SELECT r, count(*) AS n FROM x JOIN claims c ON c.region = x.r GROUP BY r)"
                        + " SELECT * FROM y ORDER BY r"));
        return q;
    }

    @Test
    void honestQueriesRunGuardedExactlyAsRaw() throws SQLException {
        List<String> corpus = corpus();
        assertThat(corpus).hasSizeGreaterThanOrEqualTo(300).doesNotHaveDuplicates();
        try (Connection raw = TestServer.admin(server.fixture().server()); Statement s = raw.createStatement()) {
            s.execute("SET search_path = " + server.fixture().schema());
            HonestCorpus.Outcome outcome = HonestCorpus.compare(corpus, HonestCorpus.jdbc(s),
                    sql -> service.query(server.engine().binding(), new QueryRequest("corpus", sql, List.of(), "c")), HonestCorpus::plainCell);
            assertThat(outcome.print().rawFailures()).as("every query of the corpus runs raw").isEmpty();
            outcome.assertAgrees();
        }
    }
}
