package dev.sqlguard.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;

/**
 * Runs a corpus of honest queries raw on an engine's server and guarded through sqlguard, and
 * compares: a query the server runs must run guarded (at most a share may be refused) and give the
 * same rows. Rows are compared in order when the outermost query orders them, as multisets otherwise;
 * each engine says how a cell is written down for the comparison.
 */
public final class HonestCorpus {
    private HonestCorpus() {
    }

    /**
     * Honest queries over the contract dataset ({@link ContractDataset}) in SQL that every engine
     * of the ANSI family reads the same way (PostgreSQL and Trino run all of them): joins of each
     * kind, CTEs, scalar, {@code IN} and {@code EXISTS} subqueries, window frames, {@code CASE},
     * string and numeric functions, {@code bool_and}/{@code bool_or}, {@code var_pop}/{@code corr},
     * {@code *} and {@code NULLS LAST}. An engine's own corpus adds these to its dialect's queries.
     */
    public static List<String> portable() {
        return List.of(
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
            "SELECT id, sum(amount) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS running FROM claims ORDER BY id",
            "SELECT id, avg(amount) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS moving FROM claims ORDER BY id",
            "SELECT id, lead(amount) OVER (PARTITION BY region ORDER BY id) AS nxt FROM claims ORDER BY id",
            "SELECT id, count(*) OVER (PARTITION BY status) AS n FROM claims ORDER BY id",
            "SELECT DISTINCT status FROM claims ORDER BY status",
            "SELECT id, CASE WHEN amount > 30000 THEN 'big' WHEN amount > 10000 THEN 'medium' ELSE 'small' END AS size FROM claims ORDER BY id",
            "SELECT CASE status WHEN 'APPROVED' THEN 1 ELSE 0 END AS ok, count(*) AS n FROM claims GROUP BY 1 ORDER BY 1",
            "SELECT coalesce(nullif(region, 'north'), 'N') AS r, count(*) AS n FROM claims GROUP BY 1 ORDER BY 1",
            "SELECT upper(region) AS u, lower(status) AS l, length(region) AS n FROM claims WHERE id < 5 ORDER BY 1, 2",
            "SELECT concat(region, '-', status) AS k, count(*) AS n FROM claims GROUP BY 1 ORDER BY 1",
            "SELECT region || ':' || status AS k FROM claims WHERE id = 7",
            "SELECT substr(region, 1, 2) AS p, count(*) AS n FROM claims GROUP BY 1 ORDER BY 1",
            "SELECT id FROM claims WHERE region NOT IN ('north', 'south') ORDER BY id",
            "SELECT abs(amount - 30000) AS d FROM claims ORDER BY d LIMIT 3",
            "SELECT floor(amount / 10000) * 10000 AS bucket, count(*) AS n FROM claims GROUP BY 1 ORDER BY 1",
            "SELECT mod(id, 7) AS m, count(*) AS n FROM claims GROUP BY 1 ORDER BY 1",
            "SELECT bool_and(amount > 0) AS all_pos, bool_or(amount > 60000) AS any_big FROM claims",
            "SELECT var_pop(amount) AS v, corr(amount, id) AS c FROM claims",
            "SELECT name FROM users ORDER BY id",
            "SELECT count(*) AS n, max(id) AS m FROM users",
            "SELECT * FROM regions ORDER BY region",
            "SELECT r.* FROM regions r WHERE r.manager > 'M' ORDER BY 1",
            "SELECT id, region FROM claims ORDER BY amount DESC NULLS LAST, id LIMIT 5",
            "SELECT \"region\", count(*) AS \"Count\" FROM \"claims\" GROUP BY \"region\" ORDER BY 1");
    }

    /** Runs one query on the server without sqlguard: its rows, or an exception when the server refuses it. */
    @FunctionalInterface
    public interface RawRunner {
        List<List<Object>> rows(String sql) throws Exception;
    }

    /** Runs each query on {@code statement} and reads every cell with {@code getObject}. */
    public static RawRunner jdbc(java.sql.Statement statement) {
        return sql -> {
            List<List<Object>> rows = new ArrayList<>();
            try (java.sql.ResultSet rs = statement.executeQuery(sql)) {
                int n = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    List<Object> row = new ArrayList<>(n);
                    for (int i = 1; i <= n; i++) {
                        row.add(rs.getObject(i));
                    }
                    rows.add(row);
                }
            }
            return rows;
        };
    }

    /** What a comparison found. */
    public record Outcome(int queries, int ran, List<String> refused, List<String> different, List<String> rawFailures) {
        /** Prints the counts and every refusal and raw failure, for the test's log. */
        public Outcome print() {
            System.out.printf(Locale.ROOT, "corpus: %d queries, %d run by the server, %d refused by the guard, %d different%n",
                    queries, ran, refused.size(), different.size());
            rawFailures.forEach(f -> System.out.println("server refused: " + f));
            refused.forEach(f -> System.out.println("guard refused: " + f));
            return this;
        }

        /** No different answer, and at most one in a hundred of the queries the server ran refused. */
        public void assertAgrees() {
            assertThat(different).as("answers that differ from the raw ones").isEmpty();
            assertThat(refused.size()).as("refused by the guard: %s", refused).isLessThanOrEqualTo(ran / 100);
        }

        /** Prints the outcome; then every query ran raw and was answered guarded with the same rows, none refused. */
        public void assertEachAgrees() {
            print();
            different.forEach(System.out::println);
            assertThat(refused).as("refused").isEmpty();
            assertThat(different).as("different").isEmpty();
            assertThat(ran).as("run raw").isEqualTo(queries);
        }
    }

    /**
     * Compares every query of {@code corpus}: raw first (a query the server refuses is counted, not
     * compared), then guarded.
     */
    public static Outcome compare(List<String> corpus, RawRunner raw, Function<String, ToolResult> guarded,
                                  Function<Object, String> cell) {
        List<String> refused = new ArrayList<>();
        List<String> different = new ArrayList<>();
        List<String> rawFailures = new ArrayList<>();
        int ran = 0;
        for (String sql : corpus) {
            List<List<String>> expected;
            try {
                expected = cells(raw.rows(sql), cell);
            } catch (Exception e) {
                rawFailures.add(sql + " -> " + e.getMessage());
                continue;
            }
            ran++;
            ToolResult result = guarded.apply(sql);
            if (result.status() != ToolStatus.OK && result.status() != ToolStatus.NO_EVIDENCE) {
                refused.add(sql + "\n    -> " + result.error().map(e -> e.code() + ": " + e.message()).orElse(result.status().name()));
                continue;
            }
            assertThat(result.truncated()).as(sql).isFalse();
            List<List<String>> actual = cells(result.rows(), cell);
            if (!ordersOutermost(sql)) {
                actual = sorted(actual);
                expected = sorted(expected);
            }
            if (!actual.equals(expected)) {
                different.add(sql + "\n    raw:     " + expected + "\n    guarded: " + actual + "\n    ran:     "
                        + result.sql().orElse(""));
            }
        }
        return new Outcome(corpus.size(), ran, refused, different, rawFailures);
    }

    /** Whether the statement's outermost query orders its rows (an ORDER BY after the last parenthesis, not a window's). */
    public static boolean ordersOutermost(String sql) {
        String upper = sql.toUpperCase(Locale.ROOT);
        int order = upper.lastIndexOf("ORDER BY");
        return order >= 0 && upper.lastIndexOf(')') < order && !upper.substring(order).contains(" OVER ");
    }

    /**
     * A cell as the ANSI engines' corpora compare it: numbers to at most six decimals, dates and
     * date-times as ISO text with seconds and without a UTC offset.
     */
    public static String plainCell(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof Number n) {
            BigDecimal d = new BigDecimal(n.toString());
            return d.setScale(Math.min(6, Math.max(0, d.scale())), RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
        }
        if (v instanceof java.sql.Date d) {
            return d.toLocalDate().toString();
        }
        if (v instanceof java.sql.Timestamp t) {
            return plainCell(t.toLocalDateTime());
        }
        // the projector writes date-times with seconds (LocalDateTime.toString drops zero seconds), and a
        // timestamp with time zone with its offset, where raw JDBC gives a Timestamp in the JVM's zone (UTC here)
        String text = v.toString().replaceAll("(T[0-9:]+)(Z|\\+00:00)$", "$1");
        return text.matches("[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}") ? text + ":00" : text;
    }

    private static List<List<String>> cells(List<? extends List<?>> rows, Function<Object, String> cell) {
        List<List<String>> out = new ArrayList<>(rows.size());
        for (List<?> row : rows) {
            out.add(row.stream().map(cell).toList());
        }
        return out;
    }

    private static List<List<String>> sorted(List<List<String>> rows) {
        List<List<String>> out = new ArrayList<>(rows);
        out.sort(Comparator.comparing(Object::toString));
        return out;
    }
}
