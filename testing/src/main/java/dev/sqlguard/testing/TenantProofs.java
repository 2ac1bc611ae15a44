package dev.sqlguard.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.RowPolicy;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineCapability;
import dev.sqlguard.testing.ContractDataset.Claim;

/**
 * The part of {@link EngineContractSuite} that proves row filters and column masks (multi-tenancy):
 * with the tenant being a region, {@code claims} and {@code regions} filtered by {@code region = :tenant}
 * and {@code regions.manager} masked as {@code upper(manager)}, every way a model's query could step
 * around the filter answers exactly what a copy of the data holding only the tenant's rows answers, or
 * is refused. An engine that does not claim {@link EngineCapability#ROW_POLICIES} must refuse to start
 * with a row policy at all (never run the queries unfiltered). The suite implements the hooks.
 */
public interface TenantProofs extends EngineLevelProofs {
    /** The tenant of most proofs: its claims are those with {@code id % 4 == 0}. */
    String TENANT = "north";

    /** Runs one call with the caller's attributes through the suite's query service; the answer is safe to show. */
    ToolResult tenantRun(Engine engine, QueryRequest request);

    /** The contract policy with the tenant's filters and the mask. */
    default GuardrailPolicy tenantPolicy() {
        return proofPolicy().withRows(RowPolicy.of(Optional.empty(),
                Map.of("claims", "region = :tenant", "regions", "region = :tenant"),
                Map.of("regions.manager", "upper(manager)")));
    }

    /** The tenant's engine, or empty when the engine (rightly) refuses row policies because it cannot enforce them. */
    private Optional<Engine> tenantEngine(GuardrailPolicy policy) {
        Engine probe = proofEngine(proofPolicy());
        if (!probe.capabilities().contains(EngineCapability.ROW_POLICIES)) {
            assertThatThrownBy(() -> proofEngine(policy)).as("an engine that cannot filter rows must not start with row filters")
                    .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR));
            return Optional.empty();
        }
        return Optional.of(proofEngine(policy));
    }

    private ToolResult call(Engine engine, String tenant, String sql, Object... params) {
        QueryRequest request = new QueryRequest("contract", sql, Arrays.asList(params), "tenant-" + System.nanoTime(),
                tenant == null ? Map.of() : Map.of("tenant", tenant));
        return tenantRun(engine, request);
    }

    private static List<Claim> claimsOf(String tenant) {
        return ContractDataset.claims().stream().filter(c -> c.region().equals(tenant)).toList();
    }

    private static BigDecimal number(Object cell) {
        assertThat(cell).as("a number").isInstanceOf(Number.class);
        return new BigDecimal(cell.toString());
    }

    /**
     * One vector: a query, and the single number it must answer for the tenant. One that {@code mayRefuse}
     * uses a construct some engines do not take, and may be refused instead; the others must be answered.
     */
    record Vector(String name, boolean mayRefuse, String sql, long expected, List<Object> params) {
    }

    private static List<Vector> vectors() {
        List<Claim> mine = claimsOf(TENANT);
        long n = mine.size();
        long below30 = mine.stream().filter(c -> c.id() <= 30).count();
        long between = mine.stream().filter(c -> c.id() > 10 && c.id() < 50).count();
        long above30 = mine.stream().filter(c -> c.id() > 30).count();
        List<Vector> v = new ArrayList<>();
        v.add(new Vector("plain count", false, "SELECT count(*) AS n FROM claims", n, List.of()));
        v.add(new Vector("another tenant's rows by name", false, "SELECT count(*) AS n FROM claims WHERE region = 'south'", 0, List.of()));
        v.add(new Vector("every region", false, "SELECT count(DISTINCT region) AS n FROM claims", 1, List.of()));
        v.add(new Vector("self-join", false, "SELECT count(*) AS n FROM claims c1 JOIN claims c2 ON c1.id = c2.id", n, List.of()));
        v.add(new Vector("self-join, other side unfiltered by name", false, "SELECT count(*) AS n FROM claims c1 JOIN claims c2 ON c2.region <> c1.region", 0, List.of()));
        v.add(new Vector("CTE named like the table", true, "WITH claims AS (SELECT id FROM claims) SELECT count(*) AS n FROM claims", n, List.of()));
        v.add(new Vector("CTE of the table", false, "WITH c AS (SELECT id, region FROM claims) SELECT count(*) AS n FROM c", n, List.of()));
        v.add(new Vector("UNION ALL with the table again", false, "SELECT count(*) AS n FROM (SELECT id FROM claims UNION ALL SELECT id FROM claims) x", 2 * n, List.of()));
        v.add(new Vector("UNION with the table again", false, "SELECT count(*) AS n FROM (SELECT id FROM claims UNION SELECT id FROM claims) x", n, List.of()));
        v.add(new Vector("INTERSECT", true, "SELECT count(*) AS n FROM (SELECT id FROM claims INTERSECT SELECT id FROM claims) x", n, List.of()));
        v.add(new Vector("EXCEPT", true, "SELECT count(*) AS n FROM (SELECT id FROM claims EXCEPT SELECT id FROM claims WHERE id > 30) x", below30, List.of()));
        v.add(new Vector("scalar subquery in the select list", false, "SELECT (SELECT count(*) FROM claims) AS n FROM users WHERE id = 1", n, List.of()));
        v.add(new Vector("scalar subquery over the other filtered table", false, "SELECT (SELECT count(*) FROM regions) AS n FROM users WHERE id = 1", 1, List.of()));
        v.add(new Vector("window over the whole table", false, "SELECT max(n) AS n FROM (SELECT count(*) OVER () AS n FROM claims) x", n, List.of()));
        v.add(new Vector("EXISTS probe for another tenant", false, "SELECT count(*) AS n FROM users WHERE EXISTS (SELECT 1 FROM claims WHERE region = 'south')", 0, List.of()));
        v.add(new Vector("correlated EXISTS", false, "SELECT count(*) AS n FROM regions r WHERE EXISTS (SELECT 1 FROM claims c WHERE c.region = r.region)", 1, List.of()));
        v.add(new Vector("correlated count", true, "SELECT max((SELECT count(*) FROM claims c WHERE c.region = u.name OR u.id > 0)) AS n FROM users u", n, List.of()));
        v.add(new Vector("aggregate oracle", false, "SELECT count(*) AS n FROM claims WHERE amount > 0", n, List.of()));
        v.add(new Vector("max id", false, "SELECT max(id) AS n FROM claims", mine.stream().mapToLong(Claim::id).max().orElseThrow(), List.of()));
        v.add(new Vector("min id", false, "SELECT min(id) AS n FROM claims", mine.stream().mapToLong(Claim::id).min().orElseThrow(), List.of()));
        v.add(new Vector("recursive CTE", true, "WITH RECURSIVE r (k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM r WHERE k < 60) "
                + "SELECT count(*) AS n FROM r WHERE k IN (SELECT id FROM claims)", n, List.of()));
        v.add(new Vector("derived tables at depth 3", false, "SELECT count(*) AS n FROM (SELECT id FROM (SELECT id FROM (SELECT id FROM claims) a) b) c", n, List.of()));
        v.add(new Vector("column qualified by the table", false, "SELECT count(claims.id) AS n FROM claims", n, List.of()));
        v.add(new Vector("NATURAL join", true, "SELECT count(*) AS n FROM claims NATURAL JOIN regions", n, List.of()));
        v.add(new Vector("USING join", true, "SELECT count(*) AS n FROM claims JOIN regions USING (region)", n, List.of()));
        v.add(new Vector("LEFT join from an unfiltered table", false, "SELECT count(c.id) AS n FROM users u LEFT JOIN claims c ON c.id > 0", 3 * n, List.of()));
        v.add(new Vector("IN subquery", false, "SELECT count(*) AS n FROM users WHERE id IN (SELECT id FROM claims)", 0, List.of()));
        v.add(new Vector("parameters around the filtered tables", false, "SELECT count(*) AS n FROM claims WHERE id > ? AND id IN (SELECT id FROM claims WHERE id < ?)",
                between, List.of(10L, 50L)));
        v.add(new Vector("parameter before the filtered table", true, "SELECT count(*) + ? AS n FROM claims WHERE id > ?", 100 + above30, List.of(100L, 30L)));
        return v;
    }

    @TestFactory
    default Stream<DynamicTest> aFilteredTableAnswersOnlyTheTenantsRowsWhicheverWayItIsRead() {
        Optional<Engine> maybe = tenantEngine(tenantPolicy());
        if (maybe.isEmpty()) {
            return Stream.of(DynamicTest.dynamicTest("refuses row policies at start", () -> { }));
        }
        Engine engine = maybe.get();
        return vectors().stream().map(v -> DynamicTest.dynamicTest(v.name(), () -> {
            ToolResult r = call(engine, TENANT, v.sql(), v.params().toArray());
            if (r.status() == ToolStatus.REJECTED && v.mayRefuse()) {
                // a construct this engine does not take is refused; never a refusal that tells anything about other tenants
                assertThat(r.error()).get().extracting(e -> e.code()).isNotIn(ErrorCode.MISSING_ATTRIBUTE, ErrorCode.INTERNAL_ERROR);
                return;
            }
            assertThat(r.status()).as(v.sql() + " -> " + r.error()).isIn(ToolStatus.OK, ToolStatus.NO_EVIDENCE);
            assertThat(r.rows()).as(v.sql()).hasSize(1);
            assertThat(number(r.rows().get(0).get(0))).as(v.sql()).isEqualByComparingTo(BigDecimal.valueOf(v.expected()));
        }));
    }

    /**
     * The vectors of each engine's own grammar: ways of naming a table or a row that only some engines have
     * (a pseudo-column of the row's place, a sample, an inheritance or partition clause, time travel, an index
     * hint, a lateral join, grouping sets, a frame over the whole table) and names that look like the filtered
     * table but are not (a CTE, a VALUES list or a derived table named {@code claims}, another table under that
     * alias). Each answers what a copy holding only the tenant's rows answers, or is refused before it runs;
     * never another tenant's rows, never the row count or the row places of the whole table.
     */
    private static Map<String, Long> grammarVectors() {
        List<Claim> mine = claimsOf(TENANT);
        long n = mine.size();
        long users = ContractDataset.users().size();
        Map<String, Long> v = new java.util.LinkedHashMap<>();
        v.put("SELECT count(*) AS n FROM CLAIMS", n);
        v.put("SELECT count(*) AS n FROM \"claims\"", n);
        v.put("SELECT count(*) AS n FROM `claims`", n);
        v.put("SELECT count(*) AS n FROM Claims c WHERE C.id > 0", n);
        v.put("SELECT count(rowid) AS n FROM claims", n);
        v.put("SELECT count(DISTINCT rowid) AS n FROM claims c", n);
        v.put("SELECT count(ctid) AS n FROM claims", n);
        v.put("SELECT count(xmin) AS n FROM claims", n);
        v.put("SELECT count(tableoid) AS n FROM claims", n);
        v.put("SELECT count(*) AS n FROM ONLY claims", n);
        v.put("SELECT count(*) AS n FROM ONLY (claims)", n);
        v.put("SELECT count(*) AS n FROM claims TABLESAMPLE BERNOULLI (100)", n);
        v.put("SELECT count(*) AS n FROM claims TABLESAMPLE SYSTEM (100)", n);
        v.put("SELECT count(*) AS n FROM claims USING SAMPLE 100 PERCENT (bernoulli)", n);
        v.put("SELECT count(*) AS n FROM claims FOR SYSTEM_TIME ALL", n);
        v.put("SELECT count(*) AS n FROM claims PARTITION (p0)", n);
        v.put("SELECT count(*) AS n FROM claims USE INDEX (PRIMARY)", n);
        v.put("SELECT count(*) AS n FROM claims FORCE INDEX (PRIMARY) WHERE id > 0", n);
        v.put("SELECT count(*) AS n FROM claims AT (VERSION => 1)", n);
        v.put("FROM claims SELECT count(*) AS n", n);
        v.put("SELECT count(*) AS n FROM users u, LATERAL (SELECT c.id FROM claims c WHERE c.id > u.id - 1000) x WHERE u.id = 1", n);
        v.put("SELECT count(*) AS n FROM users u CROSS JOIN LATERAL (SELECT count(*) AS k FROM claims c WHERE c.id > u.id - 1000) x WHERE x.k = " + n, users);
        v.put("SELECT max(k) AS n FROM (SELECT region, count(*) AS k FROM claims GROUP BY ROLLUP (region)) x", n);
        v.put("SELECT max(k) AS n FROM (SELECT count(*) AS k FROM claims GROUP BY GROUPING SETS ((region), ())) x", n);
        v.put("SELECT max(k) AS n FROM (SELECT count(*) AS k FROM claims GROUP BY CUBE (region)) x", n);
        v.put("SELECT max(k) AS n FROM (SELECT region, count(*) AS k FROM claims GROUP BY region WITH ROLLUP) x", n);
        v.put("SELECT max(k) AS n FROM (SELECT count(*) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS k FROM claims) x", n);
        v.put("SELECT count(*) AS n FROM (SELECT lag(id) OVER (ORDER BY id) AS p FROM claims) x WHERE p IS NULL", 1L);
        v.put("SELECT max(k) AS n FROM (SELECT row_number() OVER () AS k FROM claims) x", n);
        v.put("SELECT count(*) AS n FROM (SELECT id FROM claims ORDER BY id LIMIT 1000 OFFSET 0) x", n);
        v.put("SELECT count(*) AS n FROM (SELECT id FROM claims ORDER BY id OFFSET 0 ROWS FETCH FIRST 1000 ROWS ONLY) x", n);
        v.put("SELECT count(c.id) AS n FROM claims c RIGHT JOIN users u ON c.id > 0", users * n);
        v.put("SELECT count(*) AS n FROM claims c FULL JOIN regions r ON c.id < 0", n + 1);
        v.put("SELECT (WITH claims AS (SELECT 1 AS id) SELECT count(*) FROM claims) AS n", 1L);
        v.put("WITH RECURSIVE claims (id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM claims WHERE id < 3) SELECT count(*) AS n FROM claims", 3L);
        v.put("WITH x AS (SELECT 1 AS id) SELECT count(*) AS n FROM x, (WITH claims AS (SELECT id FROM claims) SELECT id FROM claims) y", n);
        v.put("SELECT count(*) AS n FROM (VALUES (1), (2)) AS claims (id)", 2L);
        v.put("SELECT count(*) AS n FROM (SELECT id FROM users) claims", users);
        v.put("SELECT count(claims.id) AS n FROM users claims", users);
        v.put("SELECT count(*) AS n FROM users claims WHERE EXISTS (SELECT 1 FROM claims c WHERE c.id = claims.id + 0 OR c.id > 0)", users);
        v.put("SELECT count(*) AS n FROM claims NATURAL JOIN (SELECT id FROM claims) x", n);
        v.put("SELECT count(*) AS n FROM (SELECT * FROM claims) x", n);
        v.put("SELECT count(*) AS n FROM (TABLE claims) x", n);
        v.put("SELECT count(*) AS n FROM (SELECT id FROM claims UNION ALL SELECT id FROM claims WHERE false) x", n);
        v.put("SELECT count(*) AS n FROM (SELECT id FROM claims INTERSECT ALL SELECT id FROM claims) x", n);
        v.put("SELECT count(*) AS n FROM (SELECT id FROM claims EXCEPT ALL SELECT id FROM claims WHERE id < 0) x", n);
        v.put("SELECT count(*) AS n FROM claims c WHERE c.id = ANY (SELECT id FROM claims)", n);
        v.put("SELECT count(*) AS n FROM claims c WHERE c.id >= ALL (SELECT id FROM claims WHERE id < 0)", n);
        v.put("SELECT count(*) AS n FROM unnest((SELECT array_agg(id) FROM claims)) AS t (id)", n);
        v.put("SELECT count(*) AS n FROM unnest((SELECT list(id) FROM claims)) AS t (id)", n);
        v.put("SELECT count(*) AS n FROM claims, (SELECT 1 AS one) o WHERE o.one = 1", n);
        return v;
    }

    /** {@link #grammarVectors()}: the tenant's answer, or a refusal before anything runs. */
    @TestFactory
    default Stream<DynamicTest> eachEnginesOwnWaysOfNamingATableOrARowAnswerOnlyTheTenantsRows() {
        Optional<Engine> maybe = tenantEngine(tenantPolicy());
        if (maybe.isEmpty()) {
            return Stream.of(DynamicTest.dynamicTest("refuses row policies at start", () -> { }));
        }
        return grammarVectors().entrySet().stream().map(v -> DynamicTest.dynamicTest(v.getKey(), () -> {
            ToolResult r = call(maybe.get(), TENANT, v.getKey());
            // refused before it runs, or a construct the engine itself cannot run whatever the data (H2 has no FULL
            // JOIN, PostgreSQL none on a condition it cannot merge or hash, DuckDB no Bernoulli sample of 100 rows)
            if (r.status() == ToolStatus.REJECTED || r.error().filter(e -> e.code() == ErrorCode.QUERY_FAILED).isPresent()) {
                assertThat(r.error()).get().extracting(e -> e.code()).isNotIn(ErrorCode.MISSING_ATTRIBUTE, ErrorCode.INTERNAL_ERROR);
                return;
            }
            assertThat(r.status()).as(v.getKey() + " -> " + r.error()).isIn(ToolStatus.OK, ToolStatus.NO_EVIDENCE);
            assertThat(r.rows()).as(v.getKey()).hasSize(1);
            assertThat(number(r.rows().get(0).get(0))).as(v.getKey()).isEqualByComparingTo(BigDecimal.valueOf(v.getValue()));
        }));
    }

    /**
     * Error oracles: a predicate of the model's that fails on another tenant's row (claim 1 is south's) must
     * never run on that row. Were the engine to evaluate it beside or before the tenant's filter (a merged
     * derived table, a condition pushed into the scan ahead of the filter), the call would fail where a copy
     * holding only the tenant's rows answers, and the failure would tell that the other row exists. Each
     * vector answers what that copy answers, or is refused before it runs (a construct this engine does not
     * take); an error while it runs is the oracle.
     */
    @TestFactory
    default Stream<DynamicTest> aPredicateThatFailsOnAnotherTenantsRowIsNoOracle() {
        Optional<Engine> maybe = tenantEngine(tenantPolicy());
        if (maybe.isEmpty()) {
            return Stream.of(DynamicTest.dynamicTest("refuses row policies at start", () -> { }));
        }
        long n = claimsOf(TENANT).size();
        Map<String, Long> vectors = new java.util.LinkedHashMap<>();
        vectors.put("SELECT count(*) AS n FROM claims WHERE CASE WHEN id = 1 THEN 1 / (id - id) ELSE 1 END = 1", n);
        vectors.put("SELECT count(*) AS n FROM claims WHERE CAST(CASE WHEN id = 1 THEN 'x' ELSE '1' END AS INTEGER) = 1", n);
        vectors.put("SELECT count(*) AS n FROM claims WHERE id > 0 AND CASE WHEN id = 1 THEN 1 / (id - id) ELSE 1 END = 1", n);
        vectors.put("SELECT count(*) AS n FROM claims c JOIN regions r ON r.region = c.region"
                + " AND CASE WHEN c.id = 1 THEN 1 / (c.id - c.id) ELSE 1 END = 1", n);
        vectors.put("SELECT count(*) AS n FROM (SELECT id FROM claims) x WHERE CASE WHEN id = 1 THEN 1 / (id - id) ELSE 1 END = 1", n);
        vectors.put("SELECT count(*) AS n FROM claims GROUP BY region HAVING max(CASE WHEN id = 1 THEN 1 / (id - id) ELSE 1 END) = 1", n);
        vectors.put("SELECT max(CASE WHEN id = 1 THEN 1 / (id - id) ELSE 0 END) AS n FROM claims", 0L);
        vectors.put("SELECT count(*) AS n FROM claims WHERE (SELECT r.region FROM regions r WHERE r.region <> 'zzz') = region", n);
        return vectors.entrySet().stream().map(v -> DynamicTest.dynamicTest(v.getKey(), () -> {
            ToolResult r = call(maybe.get(), TENANT, v.getKey());
            if (r.status() == ToolStatus.REJECTED) {
                assertThat(r.error()).get().extracting(e -> e.code()).isNotIn(ErrorCode.MISSING_ATTRIBUTE, ErrorCode.INTERNAL_ERROR);
                return;
            }
            assertThat(r.status()).as(v.getKey() + " -> " + r.error()).isEqualTo(ToolStatus.OK);
            assertThat(number(r.rows().get(0).get(0))).as(v.getKey()).isEqualByComparingTo(BigDecimal.valueOf(v.getValue()));
        }));
    }

    @Test
    default void theSameTextAnswersEachTenantItsOwnRows() {
        Optional<Engine> maybe = tenantEngine(tenantPolicy());
        if (maybe.isEmpty()) {
            return;
        }
        for (String tenant : ContractDataset.REGIONS) {
            ToolResult r = call(maybe.get(), tenant, "SELECT min(id) AS lo, sum(amount) AS total FROM claims");
            assertThat(r.status()).as(tenant + " " + r.error()).isEqualTo(ToolStatus.OK);
            List<Claim> mine = claimsOf(tenant);
            assertThat(number(r.rows().get(0).get(0))).isEqualByComparingTo(BigDecimal.valueOf(mine.stream().mapToLong(Claim::id).min().orElseThrow()));
            assertThat(number(r.rows().get(0).get(1))).isEqualByComparingTo(mine.stream().map(Claim::amount).reduce(BigDecimal.ZERO, BigDecimal::add));
        }
        assertThat(call(maybe.get(), "nobody", "SELECT count(*) AS n FROM claims").rows())
                .singleElement().satisfies(row -> assertThat(number(row.get(0))).isEqualByComparingTo(BigDecimal.ZERO));
    }

    @Test
    default void rowsComeBackAsTheTenantsRowsWithTheMaskComputedInTheEngine() {
        Optional<Engine> maybe = tenantEngine(tenantPolicy());
        if (maybe.isEmpty()) {
            return;
        }
        ToolResult claims = call(maybe.get(), TENANT, "SELECT id, region FROM claims ORDER BY id");
        assertThat(claims.status()).isEqualTo(ToolStatus.OK);
        List<Long> ids = claimsOf(TENANT).stream().map(Claim::id).toList();
        assertThat(claims.rows()).hasSize(ids.size());
        for (int i = 0; i < ids.size(); i++) {
            assertThat(number(claims.rows().get(i).get(0))).isEqualByComparingTo(BigDecimal.valueOf(ids.get(i)));
            assertThat(claims.rows().get(i).get(1)).isEqualTo(TENANT);
        }
        ToolResult regions = call(maybe.get(), TENANT, "SELECT region, manager FROM regions");
        assertThat(regions.rows()).containsExactly(List.of(TENANT, "NADIA"));
        // the clear value of a masked column does not steer a filter either: refused, or compared with the mask
        ToolResult probe = call(maybe.get(), TENANT, "SELECT count(*) AS n FROM regions WHERE manager = 'Nadia'");
        if (probe.status() != ToolStatus.REJECTED) {
            assertThat(number(probe.rows().get(0).get(0))).isEqualByComparingTo(BigDecimal.ZERO);
        }
    }

    @Test
    default void aCallWithoutTheTenantIsRefusedAndOneThatReadsNoFilteredTableRuns() {
        Optional<Engine> maybe = tenantEngine(tenantPolicy());
        if (maybe.isEmpty()) {
            return;
        }
        ToolResult refused = call(maybe.get(), null, "SELECT count(*) AS n FROM claims");
        assertThat(refused.status()).isEqualTo(ToolStatus.REJECTED);
        assertThat(refused.error()).get().extracting(e -> e.code()).isEqualTo(ErrorCode.MISSING_ATTRIBUTE);
        assertThat(refused.rows()).isEmpty();
        ToolResult free = call(maybe.get(), null, "SELECT count(*) AS n FROM users");
        assertThat(free.status()).isEqualTo(ToolStatus.OK);
        assertThat(number(free.rows().get(0).get(0))).isEqualByComparingTo(BigDecimal.valueOf(ContractDataset.users().size()));
    }

    @Test
    default void aFilterMayReadAColumnTheModelCannotName() {
        Map<String, List<String>> tables = new TreeMap<>();
        tables.put("claims", List.of("id", "amount"));
        tables.put("users", List.of("id", "name"));
        GuardrailPolicy policy = proofPolicy().withTables(TableAllowlist.of(tables))
                .withRows(RowPolicy.of(Optional.empty(), Map.of("claims", "region = :tenant"), Map.of()));
        Optional<Engine> maybe = tenantEngine(policy);
        if (maybe.isEmpty()) {
            return;
        }
        ToolResult r = call(maybe.get(), TENANT, "SELECT count(*) AS n FROM claims");
        assertThat(r.status()).as(String.valueOf(r.error())).isEqualTo(ToolStatus.OK);
        assertThat(number(r.rows().get(0).get(0))).isEqualByComparingTo(BigDecimal.valueOf(claimsOf(TENANT).size()));
        ToolResult hidden = call(maybe.get(), TENANT, "SELECT region FROM claims");
        assertThat(hidden.status()).isEqualTo(ToolStatus.REJECTED);
        assertThat(hidden.error()).get().extracting(e -> e.code()).isIn(ErrorCode.UNKNOWN_COLUMN, ErrorCode.COLUMN_NOT_ALLOWED);
    }

    @Test
    default void catalogViewsAndListingsTellNothingAboutOtherTenants() {
        Optional<Engine> maybe = tenantEngine(tenantPolicy());
        if (maybe.isEmpty()) {
            return;
        }
        for (String sql : List.of("SELECT count(*) AS n FROM information_schema.tables",
                "SELECT count(*) AS n FROM information_schema.columns", "SHOW TABLES", "DESCRIBE claims")) {
            ToolResult r = call(maybe.get(), TENANT, sql);
            assertThat(r.status()).as(sql).isNotEqualTo(ToolStatus.OK);
        }
    }

    @Test
    default void aFilterThatDoesNotBindAgainstTheCatalogStopsTheEngineFromStarting() {
        Engine probe = proofEngine(proofPolicy());
        if (!probe.capabilities().contains(EngineCapability.ROW_POLICIES)) {
            return; // covered: such an engine refuses every row policy (tenantEngine)
        }
        for (RowPolicy bad : List.of(
                RowPolicy.of(Optional.empty(), Map.of("claims", "no_such_column = :tenant"), Map.of()),
                RowPolicy.of(Optional.empty(), Map.of("no_such_table", "region = :tenant"), Map.of()),
                RowPolicy.of(Optional.empty(), Map.of(), Map.of("regions.manager", "no_such_function_xyz(manager)")))) {
            assertThatThrownBy(() -> proofEngine(proofPolicy().withRows(bad))).as(bad.toString())
                    .isInstanceOfSatisfying(GuardException.class, e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
                        assertThat(e.getMessage()).doesNotContainIgnoringCase("exception").doesNotContain("\n");
                    });
        }
    }
}
