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
