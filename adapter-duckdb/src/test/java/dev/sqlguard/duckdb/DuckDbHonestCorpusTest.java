package dev.sqlguard.duckdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Struct;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.duckdb.DuckDBStruct;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.sqlguard.domain.CellValues;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.ResultColumn;
import dev.sqlguard.domain.ToolError;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.duckdb.HonestCorpus.Entry;
import dev.sqlguard.duckdb.HonestCorpus.Expectation;
import dev.sqlguard.duckdb.internal.DuckDbEngine;

/**
 * An honest analytical corpus ({@code honest/duckdb-analytics.sql}, the kind of SQL an LLM agent writes
 * for business questions) run twice over the same DuckDB file ({@code honest/duckdb-analytics-schema.sql}):
 * raw through a plain JDBC connection, and guarded through QueryService and the whole engine with the
 * default policy. Every query must come back with the same rows; the guard may not refuse honest SQL
 * nor change its answer.
 *
 * <p>The raw results are computed first, on the read-write connection that created the file, which is
 * closed before the engine opens the file read-only (DuckDB refuses both in one JVM). That connection
 * runs with {@code threads=1}, as the engine does by default, so floating-point aggregates add up in
 * the same order.
 *
 * <p>Normalisation, so that a raw JDBC value and the guarded JSON-safe value compare equal when they
 * carry the same answer:
 * <ul>
 *   <li>raw values first go through the same conversion the engine applies to JDBC values
 *       ({@code java.sql} dates and times to {@code java.time}, arrays to lists, structs and maps to
 *       maps, nested values too) and the domain's own cell conversion ({@code CellValues}), then both
 *       sides go through one canonical form;</li>
 *   <li>integral numbers of any width and {@code BigDecimal}s compare by numeric value
 *       ({@code 5}, {@code 5.00} and {@code Long 5} are equal); {@code Float}s are read through their
 *       decimal text, as the engine does; finite {@code Double}s compare rounded to 12 significant
 *       digits; non-finite ones as the text the engine returns;</li>
 *   <li>dates, times, timestamps and intervals compare as the ISO-8601 text the engine returns for
 *       them; lists, structs and maps element by element, in the same canonical form; binary as
 *       base64;</li>
 *   <li>strings and booleans compare exactly, and a string never equals a number;</li>
 *   <li>a query with an {@code ORDER BY} outside every parenthesis is compared row by row in order;
 *       any other query as a multiset of rows.</li>
 * </ul>
 * Column labels are not compared (the guarded wrapper may rename duplicates); differences are printed.
 *
 * <p>Entries marked {@code -- KNOWN REFUSAL:} or {@code -- KNOWN MISMATCH:} are honest queries the
 * guard gets wrong today: they are reported on every run and do not fail it, unless they start to
 * match, in which case the test fails so that the marker is removed.
 */
class DuckDbHonestCorpusTest {
    private static final String SCHEMA = "/honest/duckdb-analytics-schema.sql";
    private static final String CORPUS = "/honest/duckdb-analytics.sql";
    private static final int MAX_ROWS = 1000;
    private static final MathContext DOUBLE_DIGITS = new MathContext(12);

    @TempDir
    static Path folder;
    @TempDir
    static Path work;

    static List<Entry> entries;
    static final Map<Integer, Answer> raw = new LinkedHashMap<>();
    static DuckDbEngine engine;

    /** A result in canonical form, or the raw side's error. */
    record Answer(List<String> columns, List<List<String>> rows, String error) {
    }

    /** What happened to one entry on the guarded side. */
    enum Verdict { MATCH, REFUSED, MISMATCH }

    record Outcome(Entry entry, Verdict verdict, String detail) {
    }

    @BeforeAll
    static void createAndAnswerRaw() throws Exception {
        entries = HonestCorpus.parse(HonestCorpus.resource(CORPUS));
        Path db = folder.resolve("analytics.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db)) {
            try (Statement st = c.createStatement()) {
                for (Entry ddl : HonestCorpus.parse(HonestCorpus.resource(SCHEMA))) {
                    st.execute(ddl.sql());
                }
                st.execute("SET threads = 1");
            }
            for (Entry e : entries) {
                raw.put(e.number(), rawAnswer(c, e));
            }
        }
        engine = TestDatabases.engine(db, work, GuardrailPolicy.defaults());
    }

    @AfterAll
    static void close() {
        if (engine != null) {
            engine.close();
        }
    }

    @Test
    void theCorpusIsLargeAndEveryQueryIsValidDuckDbWithASmallNonEmptyResult() {
        assertThat(entries).hasSizeGreaterThanOrEqualTo(220);
        List<String> broken = new ArrayList<>();
        for (Entry e : entries) {
            Answer a = raw.get(e.number());
            if (a.error() != null) {
                broken.add(label(e) + ": raw DuckDB failed: " + a.error());
            } else if (a.rows().isEmpty() || a.rows().size() >= MAX_ROWS) {
                broken.add(label(e) + ": raw result has " + a.rows().size() + " rows (want 1.." + (MAX_ROWS - 1) + ")");
            }
        }
        assertThat(broken).as("corpus entries that are wrong SQL or too big, fix the corpus").isEmpty();
    }

    @Test
    void everyHonestQueryReturnsTheSameRowsGuardedAndRaw() {
        List<Outcome> outcomes = new ArrayList<>();
        List<String> labelNotes = new ArrayList<>();
        for (Entry e : entries) {
            Answer expected = raw.get(e.number());
            if (expected.error() != null) {
                continue; // reported by the corpus test
            }
            ToolResult result = TestDatabases.query(engine, e.sql(), e.params().toArray());
            outcomes.add(judge(e, expected, result));
            List<String> labels = result.columns().stream().map(ResultColumn::name).toList();
            if (result.error().isEmpty() && !labels.equals(expected.columns())) {
                labelNotes.add(label(e) + ": guarded labels " + labels + ", raw " + expected.columns());
            }
        }

        List<Outcome> unexpected = new ArrayList<>();
        List<Outcome> known = new ArrayList<>();
        List<Outcome> stale = new ArrayList<>();
        for (Outcome o : outcomes) {
            Expectation want = o.entry().expectation();
            if (want == Expectation.MATCH) {
                if (o.verdict() != Verdict.MATCH) {
                    unexpected.add(o);
                }
            } else if (o.verdict() == Verdict.MATCH) {
                stale.add(o);
            } else {
                known.add(o);
            }
        }
        long matches = outcomes.stream().filter(o -> o.verdict() == Verdict.MATCH).count();
        long refused = outcomes.stream().filter(o -> o.verdict() == Verdict.REFUSED).count();
        long mismatched = outcomes.stream().filter(o -> o.verdict() == Verdict.MISMATCH).count();

        StringBuilder report = new StringBuilder();
        report.append("Honest DuckDB corpus: ").append(entries.size()).append(" queries, ")
                .append(matches).append(" run and match, ").append(refused).append(" refused, ")
                .append(mismatched).append(" return other rows; ")
                .append(known.size()).append(" of these are marked known, ")
                .append(unexpected.size()).append(" unexpected, ")
                .append(stale.size()).append(" marked but now matching.\n");
        section(report, "Known refusals and mismatches (marked in " + CORPUS + ")", known);
        section(report, "UNEXPECTED refusals and mismatches", unexpected);
        section(report, "Marked known but now matching: remove the marker", stale);
        if (!labelNotes.isEmpty()) {
            report.append("\nColumn labels that differ (not compared):\n");
            labelNotes.forEach(n -> report.append("  ").append(n).append('\n'));
        }
        System.out.println(report);

        if (!unexpected.isEmpty() || !stale.isEmpty()) {
            fail(report.toString());
        }
    }

    /** The comparison itself is not vacuous: another answer, another order or a changed cell is a mismatch. */
    @Test
    void theComparisonNoticesAnotherAnswer() {
        Entry ordered = entries.stream().filter(e -> HonestCorpus.ordersItsResult(e.sql()) && raw.get(e.number()).rows().size() > 2
                && e.expectation() == Expectation.MATCH).findFirst().orElseThrow();
        ToolResult result = TestDatabases.query(engine, ordered.sql(), ordered.params().toArray());
        assertThat(judge(ordered, raw.get(ordered.number()), result).verdict()).isEqualTo(Verdict.MATCH);

        List<List<String>> reversed = new ArrayList<>(raw.get(ordered.number()).rows());
        Collections.reverse(reversed);
        Answer otherOrder = new Answer(List.of(), reversed, null);
        assertThat(judge(ordered, otherOrder, result).verdict()).isEqualTo(Verdict.MISMATCH);

        List<List<String>> changed = new ArrayList<>(raw.get(ordered.number()).rows());
        List<String> first = new ArrayList<>(changed.get(0));
        first.set(0, first.get(0) + "x");
        changed.set(0, first);
        assertThat(judge(ordered, new Answer(List.of(), changed, null), result).verdict()).isEqualTo(Verdict.MISMATCH);

        Entry unordered = new Entry(0, 0, "SELECT channel FROM orders GROUP BY channel", List.of(), Expectation.MATCH, "");
        assertThat(HonestCorpus.ordersItsResult(unordered.sql())).isFalse();
        assertThat(HonestCorpus.ordersItsResult("SELECT string_agg(x ORDER BY x) FROM (SELECT 1 AS x) ORDER BY 1")).isTrue();
        assertThat(HonestCorpus.ordersItsResult("SELECT row_number() OVER (ORDER BY x) FROM (SELECT 1 AS x)")).isFalse();
        ToolResult channels = TestDatabases.query(engine, unordered.sql());
        List<List<String>> expected = channels.rows().stream().map(r -> r.stream().map(DuckDbHonestCorpusTest::canonical).toList()).toList();
        List<List<String>> shuffled = new ArrayList<>(expected);
        Collections.reverse(shuffled);
        assertThat(judge(unordered, new Answer(List.of(), shuffled, null), channels).verdict()).isEqualTo(Verdict.MATCH);
        assertThat(judge(unordered, new Answer(List.of(), shuffled.subList(1, shuffled.size()), null), channels).verdict())
                .isEqualTo(Verdict.MISMATCH);

        assertThat(canonical(5L)).isEqualTo(canonical(new BigDecimal("5.00"))).isEqualTo(canonical(5));
        assertThat(canonical("5")).isNotEqualTo(canonical(5L));
        assertThat(canonical(0.1 + 0.2)).isEqualTo(canonical(0.3));
        assertThat(canonical(0.3)).isNotEqualTo(canonical(0.31));
    }

    private static void section(StringBuilder report, String title, List<Outcome> outcomes) {
        if (outcomes.isEmpty()) {
            return;
        }
        report.append('\n').append(title).append(" (").append(outcomes.size()).append("):\n");
        for (Outcome o : outcomes) {
            report.append("  ").append(label(o.entry())).append(' ').append(o.verdict())
                    .append(o.entry().note().isEmpty() ? "" : " [marker: " + o.entry().note() + "]").append('\n')
                    .append("    SQL: ").append(o.entry().oneLine()).append('\n');
            if (!o.entry().params().isEmpty()) {
                report.append("    params: ").append(o.entry().params()).append('\n');
            }
            report.append("    ").append(o.detail()).append('\n');
        }
    }

    private static String label(Entry e) {
        return "#" + e.number() + " (line " + e.line() + ")";
    }

    private static Outcome judge(Entry e, Answer expected, ToolResult result) {
        if (result.error().isPresent()) {
            ToolError error = result.error().get();
            return new Outcome(e, Verdict.REFUSED, error.code() + ": " + error.message());
        }
        if (result.truncated()) {
            return new Outcome(e, Verdict.MISMATCH, "guarded result truncated at " + result.rows().size() + " rows");
        }
        if (result.status() != ToolStatus.OK && result.status() != ToolStatus.NO_EVIDENCE) {
            return new Outcome(e, Verdict.MISMATCH, "status " + result.status());
        }
        List<List<String>> guarded = new ArrayList<>();
        for (List<Object> row : result.rows()) {
            guarded.add(row.stream().map(DuckDbHonestCorpusTest::canonical).toList());
        }
        boolean ordered = HonestCorpus.ordersItsResult(e.sql());
        List<List<String>> want = expected.rows();
        List<List<String>> got = guarded;
        if (!ordered) {
            want = sorted(want);
            got = sorted(got);
        }
        if (want.equals(got)) {
            return new Outcome(e, Verdict.MATCH, "");
        }
        return new Outcome(e, Verdict.MISMATCH, difference(want, got, ordered));
    }

    private static List<List<String>> sorted(List<List<String>> rows) {
        List<List<String>> out = new ArrayList<>(rows);
        out.sort(Comparator.comparing(Object::toString));
        return out;
    }

    private static String difference(List<List<String>> want, List<List<String>> got, boolean ordered) {
        String how = ordered ? "in order" : "as multisets";
        if (want.size() != got.size()) {
            return "compared " + how + ": raw has " + want.size() + " rows, guarded " + got.size()
                    + "; first raw row " + (want.isEmpty() ? "-" : want.get(0)) + ", first guarded row " + (got.isEmpty() ? "-" : got.get(0));
        }
        for (int i = 0; i < want.size(); i++) {
            if (!want.get(i).equals(got.get(i))) {
                return "compared " + how + ", " + want.size() + " rows: first difference at row " + (i + 1)
                        + ": raw " + want.get(i) + ", guarded " + got.get(i);
            }
        }
        return "compared " + how + ": equal?";
    }

    private static Answer rawAnswer(Connection c, Entry e) {
        try (PreparedStatement ps = c.prepareStatement(e.sql())) {
            for (int i = 0; i < e.params().size(); i++) {
                Object p = e.params().get(i);
                ps.setObject(i + 1, p instanceof Integer n ? Long.valueOf(n) : p);
            }
            try (ResultSet rs = ps.executeQuery()) {
                ResultSetMetaData md = rs.getMetaData();
                List<String> columns = new ArrayList<>();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    columns.add(md.getColumnLabel(i));
                }
                List<List<String>> rows = new ArrayList<>();
                while (rs.next() && rows.size() <= MAX_ROWS) {
                    List<String> row = new ArrayList<>(columns.size());
                    for (int i = 1; i <= columns.size(); i++) {
                        row.add(canonical(CellValues.convert(likeTheEngine(rs.getObject(i)), Integer.MAX_VALUE).value()));
                    }
                    rows.add(row);
                }
                return new Answer(columns, rows, null);
            }
        } catch (SQLException ex) {
            return new Answer(List.of(), List.of(), ex.getMessage().lines().findFirst().orElse(""));
        }
    }

    /** The conversion the engine applies to JDBC values before the domain sees them (DuckDbCursor). */
    static Object likeTheEngine(Object value) throws SQLException {
        if (value instanceof java.sql.Timestamp t) {
            return t.toLocalDateTime();
        }
        if (value instanceof java.sql.Date d) {
            return d.toLocalDate();
        }
        if (value instanceof java.sql.Time t) {
            return t.toLocalTime();
        }
        if (value instanceof Array array) {
            List<Object> out = new ArrayList<>();
            for (Object item : (Object[]) array.getArray()) {
                out.add(likeTheEngine(item));
            }
            return out;
        }
        if (value instanceof DuckDBStruct struct) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<String, Object> e : struct.getMap().entrySet()) {
                out.put(e.getKey(), likeTheEngine(e.getValue()));
            }
            return out;
        }
        if (value instanceof Struct struct) {
            List<Object> out = new ArrayList<>();
            for (Object item : struct.getAttributes()) {
                out.add(likeTheEngine(item));
            }
            return out;
        }
        if (value instanceof Blob blob) {
            return blob.getBytes(1, (int) blob.length());
        }
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                out.put(likeTheEngine(e.getKey()), likeTheEngine(e.getValue()));
            }
            return out;
        }
        return value;
    }

    /** One canonical text per value; see the class comment. */
    static String canonical(Object value) {
        if (value == null) {
            return "NULL";
        }
        if (value instanceof Boolean b) {
            return "b:" + b;
        }
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return "n:" + ((Number) value).longValue();
        }
        if (value instanceof BigInteger i) {
            return "n:" + i;
        }
        if (value instanceof BigDecimal d) {
            return "n:" + (d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString());
        }
        if (value instanceof Float f) {
            return Float.isFinite(f) ? canonical(new BigDecimal(f.toString())) : "s:" + (double) f;
        }
        if (value instanceof Double d) {
            return Double.isFinite(d) ? canonical(new BigDecimal(d).round(DOUBLE_DIGITS)) : "s:" + d;
        }
        if (value instanceof byte[] bytes) {
            return "s:" + Base64.getEncoder().encodeToString(bytes);
        }
        if (value instanceof List<?> list) {
            StringBuilder out = new StringBuilder("l:[");
            list.forEach(item -> out.append(canonical(item)).append(';'));
            return out.append(']').toString();
        }
        if (value instanceof Map<?, ?> map) {
            StringBuilder out = new StringBuilder("m:{");
            map.forEach((k, v) -> out.append(k).append('=').append(canonical(v)).append(';'));
            return out.append('}').toString();
        }
        return "s:" + value; // text, and the engine's ISO-8601 text for dates, times and intervals
    }
}
