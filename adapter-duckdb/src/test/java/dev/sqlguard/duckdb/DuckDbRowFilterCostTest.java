package dev.sqlguard.duckdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.RowPolicy;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.duckdb.internal.DuckDbEngine;

/**
 * What a tenant filter costs per call (issue 31): a tenant-filtered aggregate through the engine against the
 * same aggregate with the {@code WHERE} written by hand, through an engine over the same file without the
 * row policy (as a literal, which runs unprepared, and as a {@code ?} parameter, which runs prepared as the
 * filtered query must: its attribute is bound, never spliced). 1M rows in ten tenants, once interleaved
 * ({@code big}) and once sorted by tenant ({@code sorted}, where DuckDB skips the row groups of other tenants
 * only if it pushes the filter into the scan). The cases run interleaved, in random order per round, after a
 * warm-up; the test prints the medians and the median per-round ratios and asserts only that every variant
 * answers the same. No timing assertion: the figures are for docs/performance.md.
 */
class DuckDbRowFilterCostTest {
    @TempDir
    static Path dir;
    static DuckDbEngine filtered;
    static DuckDbEngine unfiltered;
    /** The same file's data under the same catalog name, opened by a plain connection: DuckDB's own EXPLAIN ANALYZE. */
    static Connection copy;
    static final QueryService SERVICE = new QueryService(AuditSink.discarding());
    static final Map<String, String> TENANT = Map.of("tenant", "t3");
    static final int ROUNDS = Integer.getInteger("sqlguard.rowfilter.rounds", 41);
    static final int CALLS = 5;

    @BeforeAll
    static void open() throws Exception {
        Path db = TestDatabases.create(Files.createDirectory(dir.resolve("db")).resolve("tenants.duckdb"),
                "CREATE TABLE big AS SELECT i AS id, 't' || (i % 10) AS tenant, i % 1000 AS v FROM range(1000000) r(i)",
                "CREATE TABLE sorted AS SELECT * FROM big ORDER BY tenant, id");
        Path copyFile = Files.createDirectory(dir.resolve("copy")).resolve(db.getFileName());
        Files.copy(db, copyFile);
        copy = DriverManager.getConnection("jdbc:duckdb:" + copyFile);
        Path work = Files.createDirectory(dir.resolve("work"));
        RowPolicy rows = RowPolicy.of(Optional.empty(), Map.of("big", "tenant = :tenant", "sorted", "tenant = :tenant"), Map.of());
        filtered = TestDatabases.engine(db, work, GuardrailPolicy.defaults().withRows(rows));
        unfiltered = TestDatabases.engine(db, work, GuardrailPolicy.defaults());
    }

    @AfterAll
    static void close() throws SQLException {
        copy.close();
        filtered.close();
        unfiltered.close();
    }

    static ToolResult run(DuckDbEngine engine, Map<String, String> attributes, String sql, Object... params) {
        ToolResult result = SERVICE.query(engine.binding(), QueryRequest.of("claims", sql, params).withAttributes(attributes));
        assertThat(result.error()).as(sql).isEmpty();
        return result;
    }

    /**
     * DuckDB pushes the derived table's filter, its attribute bound as a parameter, into the scan: on the table
     * sorted by tenant, EXPLAIN ANALYZE of the text the engine runs shows the filter on the scan with the bound
     * value, and that it scanned only the row groups of that tenant.
     */
    @Test
    void theTenantFilterIsPushedIntoTheScanWithItsBoundValue() throws SQLException {
        QueryPlan plan = filtered.validator().validate(QueryRequest.of("claims", "SELECT count(*) AS n, sum(v) AS s FROM sorted"))
                .withAttributes(TENANT);
        assertThat(plan.bindings().attributes()).containsExactly("tenant");
        StringBuilder explained = new StringBuilder();
        try (PreparedStatement ps = copy.prepareStatement("EXPLAIN ANALYZE " + plan.executableSql())) {
            List<Object> values = plan.values();
            for (int i = 0; i < values.size(); i++) {
                ps.setObject(i + 1, values.get(i));
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    explained.append(rs.getString(2)).append('\n');
                }
            }
        }
        String text = explained.toString();
        assertThat(text).contains("Filters: tenant = 't3'");
        Matcher groups = Pattern.compile("Row Groups Scanned: (\\d+) / (\\d+)").matcher(text);
        assertThat(groups.find()).as(text).isTrue();
        int scanned = Integer.parseInt(groups.group(1));
        int total = Integer.parseInt(groups.group(2));
        System.out.printf(Locale.ROOT, "row filter pushdown (sorted, 1M rows): %d of %d row groups scanned%n", scanned, total);
        assertThat(scanned).isLessThan(total);
    }

    /** What rendering and re-checking the filtered text adds to a cold validation (distinct texts: no plan reuse). */
    @Test
    void coldValidationWithAndWithoutTheRowPolicy() {
        int texts = 200;
        for (int i = 0; i < 20; i++) {
            validate(filtered, -1 - i);
            validate(unfiltered, -1 - i);
        }
        List<Double> ratios = new ArrayList<>();
        List<Double> with = new ArrayList<>();
        List<Double> without = new ArrayList<>();
        for (int i = 0; i < texts; i++) {
            long a = System.nanoTime();
            QueryPlan plan = validate(filtered, i);
            long b = System.nanoTime();
            QueryPlan plain = validate(unfiltered, i);
            long c = System.nanoTime();
            assertThat(plan.bindings().attributes()).containsExactly("tenant");
            assertThat(plain.bindings().takesAttributes()).isFalse();
            with.add((b - a) / 1e6);
            without.add((c - b) / 1e6);
            ratios.add((double) (b - a) / (c - b));
        }
        System.out.printf(Locale.ROOT, "cold validation of a filtered aggregate (%d texts): median %.3f ms with the row policy, %.3f ms "
                + "without, median ratio %.2f%n", texts, median(with), median(without), median(ratios));
    }

    private static QueryPlan validate(DuckDbEngine engine, int i) {
        return engine.validator().validate(QueryRequest.of("claims",
                "SELECT count(*) AS n, sum(b.v) AS s FROM big b JOIN sorted s ON s.id = b.id WHERE b.id > " + i));
    }

    @Test
    void aTenantFilteredAggregateAgainstTheWhereWrittenByHand() {
        for (String table : List.of("big", "sorted")) {
            String aggregate = "SELECT count(*) AS n, sum(v) AS s, max(id) AS m FROM " + table;
            Map<String, Supplier<ToolResult>> cases = new LinkedHashMap<>();
            cases.put("tenant filter", () -> run(filtered, TENANT, aggregate));
            cases.put("WHERE literal", () -> run(unfiltered, Map.of(), aggregate + " WHERE tenant = 't3'"));
            cases.put("WHERE ? param", () -> run(unfiltered, Map.of(), aggregate + " WHERE tenant = ?", "t3"));
            List<Object> expected = null;
            for (Supplier<ToolResult> c : cases.values()) {
                List<Object> answer = c.get().rows().get(0);
                assertThat(answer.get(0)).isEqualTo(100_000L);
                if (expected == null) {
                    expected = answer;
                }
                assertThat(answer).isEqualTo(expected);
            }
            measure(table, cases);
        }
    }

    private static void measure(String table, Map<String, Supplier<ToolResult>> cases) {
        List<String> names = new ArrayList<>(cases.keySet());
        for (int i = 0; i < 5; i++) {
            cases.values().forEach(Supplier::get); // warm-up
        }
        Map<String, List<Double>> millis = new LinkedHashMap<>();
        names.forEach(n -> millis.put(n, new ArrayList<>()));
        Map<String, List<Double>> ratios = new LinkedHashMap<>();
        Random random = new Random(31);
        for (int round = 0; round < ROUNDS; round++) {
            List<String> order = new ArrayList<>(names);
            Collections.shuffle(order, random);
            Map<String, Double> thisRound = new LinkedHashMap<>();
            for (String name : order) {
                long start = System.nanoTime();
                for (int i = 0; i < CALLS; i++) {
                    cases.get(name).get();
                }
                thisRound.put(name, (System.nanoTime() - start) / 1e6 / CALLS);
            }
            thisRound.forEach((name, ms) -> millis.get(name).add(ms));
            for (String baseline : names.subList(1, names.size())) {
                ratios.computeIfAbsent(baseline, b -> new ArrayList<>()).add(thisRound.get(names.get(0)) / thisRound.get(baseline));
            }
        }
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "row filter cost, 1M rows (%s), %d rounds x %d calls:%n",
                table, ROUNDS, CALLS));
        millis.forEach((name, values) -> out.append(String.format(Locale.ROOT, "  %-14s median %.2f ms%n", name, median(values))));
        ratios.forEach((baseline, values) -> out.append(String.format(Locale.ROOT,
                "  tenant filter vs %s: ratio of medians %.3f, median per-round ratio %.3f%n", baseline,
                median(millis.get(names.get(0))) / median(millis.get(baseline)), median(values))));
        System.out.print(out);
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
