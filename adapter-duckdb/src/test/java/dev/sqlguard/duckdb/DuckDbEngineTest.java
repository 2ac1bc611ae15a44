package dev.sqlguard.duckdb;

import static dev.sqlguard.duckdb.TestDatabases.query;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.LimitKind;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.ResultProjector;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.ports.EngineCapability;
import dev.sqlguard.ports.TableDescription;
import dev.sqlguard.duckdb.internal.DuckDbEngine;

/** Honest analytical SQL through QueryService and the whole engine, on a real DuckDB file. */
class DuckDbEngineTest {
    @TempDir
    static Path folder;
    @TempDir
    static Path work;

    static DuckDbEngine engine;

    @BeforeAll
    static void open() throws Exception {
        Path db = TestDatabases.contractDatabase(folder);
        engine = TestDatabases.engine(db, work, GuardrailPolicy.defaults().withLimits(Limits.defaults().withMaxRows(100)));
    }

    @AfterAll
    static void close() {
        engine.close();
    }

    private static ToolResult ok(String sql, Object... params) {
        ToolResult result = query(engine, sql, params);
        assertThat(result.error()).as(sql).isEmpty();
        assertThat(result.status()).isIn(ToolStatus.OK, ToolStatus.NO_EVIDENCE);
        return result;
    }

    @Test
    void groupByAggregateReturnsExactDecimalsAndTheExecutedSql() {
        ToolResult r = ok("SELECT region, count(*) AS n, sum(amount) AS total FROM claims GROUP BY region ORDER BY region");
        assertThat(r.rows()).hasSize(4);
        assertThat(r.rows().get(0).get(0)).isEqualTo("east");
        assertThat(r.rows().get(0).get(1)).isEqualTo(15L);
        assertThat(r.rows().get(0).get(2)).isInstanceOf(BigDecimal.class);
        assertThat(r.sql()).hasValueSatisfying(sql -> assertThat(sql).startsWith("SELECT * FROM (").endsWith(") AS sqlguard_result LIMIT 101"));
        assertThat(r.truncated()).isFalse();
    }

    @Test
    void joinsCtesSubqueriesSetOperationsAndWindowsRun() {
        ok("SELECT c.region, r.manager, avg(c.amount) FROM claims c JOIN regions r ON c.region = r.region GROUP BY ALL");
        ok("WITH big AS (SELECT * FROM claims WHERE amount > 30000) SELECT status, count(*) FROM big GROUP BY status");
        ok("SELECT id FROM claims WHERE region IN (SELECT region FROM regions WHERE manager LIKE 'S%')");
        ok("SELECT region FROM claims UNION SELECT region FROM regions ORDER BY 1");
        ok("SELECT id, rank() OVER (PARTITION BY region ORDER BY amount DESC) AS rk FROM claims QUALIFY rk <= 2");
        ok("SELECT * FROM claims c JOIN regions USING (region) LIMIT 3");
        ok("SELECT date_trunc('month', created) AS m, count(*) FILTER (WHERE status = 'DENIED') FROM claims GROUP BY 1 ORDER BY 1");
        ok("SELECT list_transform(pair, lambda x: x * 2) AS doubled, info.k FROM events WHERE id < 3");
        ok("SELECT g.generate_series AS n FROM generate_series(1, 5) g");
        ok("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT sum(n) FROM r");
        ok("SELECT EXTRACT(year FROM created) AS y, CAST(amount AS INTEGER) AS a FROM claims WHERE id BETWEEN 1 AND 3");
        ok("SELECT region, status, sum(amount), grouping(region) FROM claims GROUP BY ROLLUP (region, status)");
        ok("SELECT region FROM claims GROUP BY GROUPING SETS ((region), ()) ORDER BY region NULLS LAST");
        ok("SELECT id FROM claims WHERE region ILIKE 'N%' AND status NOT IN (SELECT 'DENIED') AND NOT EXISTS (SELECT 1 FROM users WHERE users.id = claims.id)");
        ok("SELECT CASE region WHEN 'north' THEN 1 WHEN 'south' THEN 2 ELSE 0 END AS r, created + INTERVAL 1 DAY AS next FROM claims LIMIT 2");
        ok("SELECT [x * 2 FOR x IN pair IF x > 0] AS l, pair[1] AS first, pair[1:1] AS head FROM events LIMIT 2");
        ok("SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY amount) AS med, count(DISTINCT region) FROM claims");
        ok("SELECT DISTINCT ON (region) region, amount FROM claims ORDER BY region, amount DESC");
        ok("SELECT region, amount FROM claims ORDER BY amount DESC LIMIT 5 OFFSET 2");
        ok("SELECT a.region, b.manager FROM claims a LEFT JOIN regions b ON a.region = b.region AND b.manager <> 'x' WHERE a.id < 5");
        ok("SELECT * FROM (VALUES (1, 'a'), (2, 'b')) v(n, s) WHERE n > ?", 1L);
        ok("FROM claims SELECT region, count(*) GROUP BY region");
        ok("SELECT region, count(*) FILTER (status = 'DENIED') AS denied FROM claims GROUP BY region HAVING count(*) > 1");
        ok("WITH unused AS (SELECT name FROM users) SELECT count(*) FROM claims");
        ok("SELECT r.range FROM range(3) r UNION BY NAME SELECT 7 AS range");
    }

    @Test
    void schemaInspectionIsAllowed() {
        assertThat(ok("DESCRIBE claims").rows()).hasSize(6);
        assertThat(ok("SHOW claims").rows()).hasSize(6);
        assertThat(ok("SHOW TABLES").rows()).hasSize(4);
        assertThat(ok("FROM regions").rows()).hasSize(4);
        ToolResult summary = ok("SUMMARIZE users");
        assertThat(summary.rows()).hasSize(4);
        int min = summary.columns().stream().map(c -> c.name()).toList().indexOf("min");
        for (List<Object> row : summary.rows()) {
            assertThat(row.get(min)).isEqualTo(ResultProjector.REDACTED); // lineage covers every column of users
        }
    }

    @Test
    void parametersBindWithQuestionMarksAndNumbers() {
        assertThat(ok("SELECT count(*) FROM claims WHERE region = ? AND amount > ?", "north", 0L).rows().get(0).get(0)).isEqualTo(15L);
        assertThat(ok("SELECT count(*) FROM claims WHERE region = $1 OR status = $1", "north").rows()).hasSize(1);
        ToolResult mismatch = query(engine, "SELECT count(*) FROM claims WHERE region = ?");
        assertThat(mismatch.error()).hasValueSatisfying(e -> assertThat(e.code()).isEqualTo(ErrorCode.PARAMETER_COUNT_MISMATCH));
        ok("SELECT id FROM claims WHERE created >= ?", java.time.LocalDate.of(2024, 6, 1));
    }

    @Test
    void trailingSemicolonAndCommentsAreTolerated() {
        assertThat(ok("SELECT count(*) FROM claims;").rows()).hasSize(1);
        assertThat(ok("SELECT count(*) FROM claims -- trailing").rows()).hasSize(1);
        assertThat(ok("SELECT count(*) FROM claims /* trailing */").rows()).hasSize(1);
        assertThat(ok("/* lead */ SELECT count(*) FROM claims; -- x").rows()).hasSize(1);
    }

    @Test
    void rowLimitCutsExactlyAndKeepsOrder() {
        ToolResult r = ok("SELECT id FROM events ORDER BY id DESC");
        assertThat(r.rows()).hasSize(100);
        assertThat(r.truncated()).isTrue();
        assertThat(r.limitsHit()).contains(LimitKind.ROWS);
        assertThat(r.rows().get(0).get(0)).isEqualTo(4999L);
        assertThat(r.rows().get(99).get(0)).isEqualTo(4900L);
        ToolResult exact = ok("SELECT id FROM events ORDER BY id LIMIT 100");
        assertThat(exact.rows()).hasSize(100);
        assertThat(exact.truncated()).isFalse();
    }

    @Test
    void duplicateAndUnnamedColumnsKeepTheirPositions() {
        ToolResult r = ok("SELECT id, id, id + 1, 42 FROM claims WHERE id = 1");
        assertThat(r.columns()).hasSize(4);
        assertThat(r.rows().get(0)).containsExactly(1L, 1L, 2L, 42L);
    }

    @Test
    void temporalNestedAndBinaryValuesReachTheDomainAsJavaTime() {
        ToolResult r = ok("SELECT ts, CAST(ts AS DATE) AS d, CAST(ts AS TIME) AS t, pair, info, 'ab'::BLOB AS b FROM events WHERE id = 1");
        assertThat(r.rows().get(0).get(0)).isEqualTo("2024-01-01T00:01:00");
        assertThat(r.rows().get(0).get(1)).isEqualTo("2024-01-01");
        assertThat(r.rows().get(0).get(2)).isEqualTo("00:01:00");
        assertThat(r.rows().get(0).get(3)).isEqualTo(List.of(1L, 2L));
        assertThat(r.rows().get(0).get(4)).isEqualTo(Map.of("k", 1L));
        assertThat(r.rows().get(0).get(5)).isEqualTo("YWI=");
    }

    @Test
    void lineageRedactsThroughAliasesAggregatesCtesSubqueriesAndUnions() {
        for (String sql : List.of(
                "SELECT max(password) AS x FROM users",
                "SELECT upper(password) || '' AS shout FROM users",
                "WITH u AS (SELECT password AS p FROM users) SELECT p AS harmless FROM u",
                "SELECT q.v FROM (SELECT api_key AS v FROM users) q",
                "SELECT name FROM users WHERE id = 0 UNION ALL SELECT password FROM users",
                "SELECT (SELECT max(password) FROM users) AS y",
                "SELECT CASE WHEN id > 0 THEN password ELSE 'none' END AS flag FROM users",
                "SELECT * FROM (SELECT password AS nothing_here FROM users)",
                "SELECT ssn AS code FROM claims WHERE id = 1",
                "SELECT #3 FROM users",
                "SELECT coalesce(api_key, name) AS k FROM users",
                "SELECT md5(password) AS h FROM users",
                "SELECT string_agg(name || api_key, ',') AS s FROM users",
                "SELECT list(password)::VARCHAR AS p FROM users")) {
            ToolResult r = ok(sql);
            assertThat(r.rows()).as(sql).isNotEmpty();
            for (List<Object> row : r.rows()) {
                assertThat(row).as(sql).containsOnly(ResultProjector.REDACTED);
            }
        }
        ToolResult mixed = ok("SELECT name, password FROM users ORDER BY id");
        assertThat(mixed.rows().get(0)).containsExactly("alice", ResultProjector.REDACTED);
        ToolResult excluded = ok("SELECT * EXCLUDE (password, api_key) FROM users ORDER BY id");
        assertThat(excluded.rows().get(0)).containsExactly(1L, "alice");
        // DuckDB reads a bare table alias as the whole row (a struct holding every column): refused
        assertThat(code(query(engine, "SELECT u FROM users u"))).isEqualTo(ErrorCode.UNKNOWN_COLUMN);
        assertThat(code(query(engine, "SELECT users FROM users"))).isEqualTo(ErrorCode.UNKNOWN_COLUMN);
    }

    @Test
    void starExpansionMatchesDuckDbSoOnlySensitiveColumnsAreRedacted() {
        for (String sql : List.of(
                "SELECT * FROM claims c JOIN regions USING (region) WHERE id = 1",
                "SELECT * FROM claims NATURAL JOIN regions WHERE id = 1",
                "SELECT c.*, r.* FROM claims c JOIN regions r ON c.region = r.region WHERE id = 1",
                "SELECT * FROM (SELECT * FROM claims WHERE id = 1) x, LATERAL (SELECT manager FROM regions r WHERE r.region = x.region) y")) {
            ToolResult r = ok(sql);
            List<String> names = r.columns().stream().map(c -> c.name()).toList();
            List<Object> row = r.rows().get(0);
            for (int i = 0; i < names.size(); i++) {
                if (names.get(i).startsWith("ssn")) {
                    assertThat(row.get(i)).as(sql + " " + names.get(i)).isEqualTo(ResultProjector.REDACTED);
                } else {
                    assertThat(row.get(i)).as(sql + " " + names.get(i)).isNotEqualTo(ResultProjector.REDACTED);
                }
            }
        }
    }

    @Test
    @org.junit.jupiter.api.Timeout(60)
    void concurrentCallsShareTheInstanceSafely() throws Exception {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            List<java.util.concurrent.Future<ToolResult>> futures = new java.util.ArrayList<>();
            for (int i = 0; i < 40; i++) {
                String sql = i % 2 == 0 ? "SELECT region, count(*) FROM claims WHERE id > " + i + " GROUP BY region"
                        : "SELECT max(password) AS x FROM users WHERE id > ?";
                Object[] params = i % 2 == 0 ? new Object[0] : new Object[] {0L};
                futures.add(pool.submit(() -> query(engine, sql, params)));
            }
            for (java.util.concurrent.Future<ToolResult> f : futures) {
                ToolResult r = f.get();
                assertThat(r.error()).isEmpty();
                assertThat(r.rows()).isNotEmpty();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void planReuseSkipsValidation() {
        int before = engine.cachedPlans();
        ok("SELECT count(*) FROM claims WHERE id > ?", 10L);
        int after = engine.cachedPlans();
        ok("SELECT count(*) FROM claims WHERE id > ?", 20L);
        assertThat(engine.cachedPlans()).isEqualTo(after).isGreaterThan(before);
    }

    @Test
    void catalogShowsTablesColumnsTypesRowCountsAndRedaction() {
        List<TableDescription> tables = engine.catalog().tables();
        assertThat(tables).extracting(t -> t.table().qualifiedName()).containsExactly("claims", "events", "regions", "users");
        TableDescription users = tables.get(3);
        assertThat(users.rowCount().getAsLong()).isEqualTo(3);
        assertThat(users.columns()).extracting(TableDescription.ColumnDescription::name).containsExactly("id", "name", "password", "api_key");
        assertThat(users.columns()).filteredOn(TableDescription.ColumnDescription::redacted)
                .extracting(TableDescription.ColumnDescription::name).containsExactly("password", "api_key");
        assertThat(engine.capabilities()).containsExactlyInAnyOrder(EngineCapability.values());
    }

    @Test
    void catalogListingsAreNotRedactedByLabelButDataStillIs() {
        // issue 30 item 6: a policy that redacts a column called "name" must not redact the listing's names
        GuardrailPolicy policy = GuardrailPolicy.defaults().withRedact(Set.of("name", "column_name"));
        try (DuckDbEngine redacting = TestDatabases.engine(engineDb(), work, policy)) {
            ToolResult tables = query(redacting, "SHOW TABLES");
            assertThat(tables.error()).isEmpty();
            assertThat(tables.rows()).extracting(row -> row.get(0)).contains("claims", "users")
                    .doesNotContain(ResultProjector.REDACTED);
            assertThat(tables.sql().orElseThrow()).doesNotContain("CASE WHEN 1 = 0");
            ToolResult described = query(redacting, "DESCRIBE claims");
            assertThat(described.rows()).extracting(row -> row.get(0)).contains("region", "amount");
            // anything beyond a bare listing is a query like any other: the label still redacts
            ToolResult filtered = query(redacting, "SELECT name FROM (SHOW TABLES) WHERE name LIKE 'c%'");
            assertThat(filtered.rows()).isNotEmpty().allSatisfy(row -> assertThat(row.get(0)).isEqualTo(ResultProjector.REDACTED));
            ToolResult data = query(redacting, "SELECT name FROM users ORDER BY id LIMIT 1");
            assertThat(data.rows()).singleElement().satisfies(row -> assertThat(row.get(0)).isEqualTo(ResultProjector.REDACTED));
            ToolResult relabelled = query(redacting, "SELECT region AS name FROM claims LIMIT 1");
            assertThat(relabelled.rows()).singleElement().satisfies(row -> assertThat(row.get(0)).isEqualTo(ResultProjector.REDACTED));
        }
    }

    @Test
    void restrictedAllowlistResolvesAliasesAndRefusesOtherColumns() {
        GuardrailPolicy policy = GuardrailPolicy.defaults().withTables(TableAllowlist.of(Map.of(
                "claims", Set.of("id", "region", "amount"), "regions", Set.of("*"))));
        try (DuckDbEngine restricted = TestDatabases.engine(engineDb(), work, policy)) {
            assertThat(query(restricted, "SELECT c.region, sum(c.amount) FROM claims AS c JOIN regions r USING (region) GROUP BY 1").error()).isEmpty();
            assertThat(code(query(restricted, "SELECT status FROM claims"))).isEqualTo(ErrorCode.UNKNOWN_COLUMN);
            assertThat(code(query(restricted, "SELECT x.s FROM (SELECT status AS s FROM claims) x"))).isEqualTo(ErrorCode.UNKNOWN_COLUMN);
            assertThat(code(query(restricted, "SELECT count(*) FROM claims WHERE ssn LIKE '1%'"))).isEqualTo(ErrorCode.UNKNOWN_COLUMN);
            assertThat(code(query(restricted, "SHOW TABLES"))).isEqualTo(ErrorCode.CONSTRUCT_NOT_ALLOWED);
            // a hidden name is refused exactly like a missing one: same code, same message but for the name
            assertThat(message(query(restricted, "SELECT status FROM claims")).replace("status", "NAME"))
                    .isEqualTo(message(query(restricted, "SELECT nosuch FROM claims")).replace("nosuch", "NAME"));
            assertThat(message(query(restricted, "SELECT c.status FROM claims c")).replace("status", "NAME"))
                    .isEqualTo(message(query(restricted, "SELECT c.nosuch FROM claims c")).replace("nosuch", "NAME"));
            ToolResult hiddenTable = query(restricted, "SELECT name FROM users");
            ToolResult missingTable = query(restricted, "SELECT name FROM nosuch");
            assertThat(code(hiddenTable)).isEqualTo(code(missingTable)).isEqualTo(ErrorCode.TABLE_NOT_ALLOWED);
            assertThat(message(hiddenTable).replace("users", "NAME")).isEqualTo(message(missingTable).replace("nosuch", "NAME"));
            // reads the query does not name: refused without naming what is hidden
            // a * over a table with hidden columns is the visible columns, named: whether hidden ones exist does not show
            for (String sql : List.of("SELECT * FROM claims ORDER BY id", "SELECT c.* FROM claims c ORDER BY id")) {
                ToolResult r = query(restricted, sql);
                assertThat(r.error()).as(sql).isEmpty();
                assertThat(r.columns()).extracting(c -> c.name()).as(sql).containsExactly("id", "region", "amount");
            }
            assertThat(query(restricted, "DESCRIBE claims").rows()).extracting(row -> row.get(0)).containsExactly("id", "region", "amount");
            assertThat(restricted.catalog().tables()).extracting(t -> t.table().qualifiedName()).containsExactly("claims", "regions");
        }
    }

    private static Path engineDb() {
        return folder.resolve("data.duckdb");
    }

    static String message(ToolResult result) {
        assertThat(result.error()).as("expected an error").isPresent();
        return result.error().get().message();
    }

    static ErrorCode code(ToolResult result) {
        assertThat(result.error()).as("expected an error").isPresent();
        return result.error().get().code();
    }
}
