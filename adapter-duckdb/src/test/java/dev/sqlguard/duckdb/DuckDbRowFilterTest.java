package dev.sqlguard.duckdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.RowPolicy;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.duckdb.internal.DuckDbEngine;
import dev.sqlguard.ports.TableDescription;
import dev.sqlguard.testing.ContractDataset;
import dev.sqlguard.testing.EngineContractSuite;

/**
 * Row filters and column masks (issue 31) on a real DuckDB file holding the contract dataset. Tenant =
 * region: with {@code tenant=north} every hostile vector either answers exactly what raw DuckDB answers
 * on a copy of the data that holds only north's rows (and north's manager masked as {@code upper}), or
 * is refused. Also: the start-time check of filters and masks, the refusals a row policy adds, and the
 * binding of attributes after the caller's parameters.
 */
class DuckDbRowFilterTest {
    @TempDir
    static Path folder;
    @TempDir
    static Path copyFolder;
    @TempDir
    static Path work;

    static Path db;
    static DuckDbEngine engine;
    static DuckDbEngine statusEngine;
    /** The tenant filters on a source with no allowlist and DuckDB's default functions: more constructs are allowed. */
    static DuckDbEngine openEngine;
    /** A plain connection to the copy that holds only north's rows (a file of the same name, so the same catalog name): the oracle. */
    static Connection northCopy;

    static final QueryService SERVICE = new QueryService(AuditSink.discarding());
    static final Map<String, String> NORTH = Map.of("tenant", "north");

    @BeforeAll
    static void open() throws Exception {
        db = TestDatabases.contractDatabase(folder);
        engine = TestDatabases.engine(db, work, tenantPolicy());
        statusEngine = TestDatabases.engine(db, work, statusPolicy());
        openEngine = TestDatabases.engine(db, work, GuardrailPolicy.defaults().withRows(tenantPolicy().rows()));
        List<String> statements = new ArrayList<>(ContractDataset.ddl());
        statements.addAll(ContractDataset.inserts());
        statements.add("DELETE FROM claims WHERE region <> 'north'");
        statements.add("DELETE FROM regions WHERE region <> 'north'");
        statements.add("UPDATE regions SET manager = upper(manager)");
        Path copy = TestDatabases.create(copyFolder.resolve("data.duckdb"), statements.toArray(String[]::new));
        northCopy = DriverManager.getConnection("jdbc:duckdb:" + copy);
    }

    @AfterAll
    static void close() throws SQLException {
        engine.close();
        statusEngine.close();
        openEngine.close();
        northCopy.close();
    }

    /** The contract policy with the spec's tenant filters on claims and regions and regions.manager masked. */
    static GuardrailPolicy tenantPolicy() {
        return contractPolicy().withRows(RowPolicy.of(Optional.empty(),
                Map.of("claims", "region = :tenant", "regions", "region = :tenant"), Map.of("regions.manager", "upper(manager)")));
    }

    /** Claims filtered on {@code status}, a column the allowlist does not show the model. */
    static GuardrailPolicy statusPolicy() {
        Map<String, List<String>> tables = new TreeMap<>();
        tables.put("claims", List.of("id", "region", "amount", "created"));
        return new GuardrailPolicy(TableAllowlist.of(tables), EngineContractSuite.POLICY_FUNCTIONS, Set.of(), Set.of(),
                Limits.defaults(), RowPolicy.of(Optional.empty(), Map.of("claims", "status = :status"), Map.of()));
    }

    static GuardrailPolicy contractPolicy() {
        Map<String, List<String>> tables = new TreeMap<>();
        tables.put("claims", List.of("id", "region", "amount", "status", "created", "ssn"));
        tables.put("regions", List.of("region", "manager"));
        tables.put("users", List.of("id", "name", "password", "api_key"));
        return new GuardrailPolicy(TableAllowlist.of(tables), EngineContractSuite.POLICY_FUNCTIONS, Set.of(), Set.of(), Limits.defaults());
    }

    static ToolResult query(DuckDbEngine on, Map<String, String> attributes, String sql, Object... params) {
        return SERVICE.query(on.binding(), QueryRequest.of("claims", sql, params).withAttributes(attributes));
    }

    static ToolResult north(String sql, Object... params) {
        return query(engine, NORTH, sql, params);
    }

    /** The rows of a result as text, sorted (a multiset: the vectors' answers do not depend on an order). */
    static List<String> rows(ToolResult result) {
        assertThat(result.error()).as("error of %s", result.sql()).isEmpty();
        List<String> out = new ArrayList<>();
        for (List<Object> row : result.rows()) {
            List<String> cells = new ArrayList<>();
            row.forEach(cell -> cells.add(String.valueOf(cell)));
            out.add(String.join("|", cells));
        }
        out.sort(null);
        return out;
    }

    /** Raw DuckDB's answer on the copy that holds only north's rows, as {@link #rows(ToolResult)}. */
    static List<String> copyRows(String sql, Object... params) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = northCopy.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                int n = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    List<String> cells = new ArrayList<>();
                    for (int i = 1; i <= n; i++) {
                        cells.add(String.valueOf(rs.getObject(i)));
                    }
                    out.add(String.join("|", cells));
                }
            }
        }
        out.sort(null);
        return out;
    }

    static ErrorCode refusal(ToolResult result) {
        assertThat(result.rows()).isEmpty();
        assertThat(result.error()).as("refusal of %s", result.sql()).isPresent();
        return result.error().get().code();
    }

    // ---------------------------------------------------------------- answered as on north's copy

    static List<String> answeredVectors() {
        return List.of(
                "SELECT count(*) AS n FROM claims",
                "SELECT id, region, amount, status, created FROM claims",
                "SELECT count(*) AS n FROM claims WHERE region = 'south'",
                "SELECT count(*) AS n FROM claims WHERE region <> 'north' OR 1 = 1",
                "SELECT region, count(*) AS n, sum(amount) AS total, min(id) AS lo, max(id) AS hi FROM claims GROUP BY region",
                "SELECT status, count(*) AS n FROM claims GROUP BY status HAVING count(*) > 0",
                // self-joins
                "SELECT count(*) AS n FROM claims a JOIN claims b ON a.id = b.id",
                "SELECT count(*) AS n FROM claims a, claims b",
                "SELECT a.id, b.id AS other FROM claims a LEFT JOIN claims b ON b.id = a.id + 1",
                "SELECT count(*) AS n FROM claims a FULL OUTER JOIN claims b ON a.id = b.id - 1",
                // set operations with the table again
                "SELECT id FROM claims WHERE id < 10 UNION SELECT id FROM claims",
                "SELECT id FROM claims UNION ALL SELECT id FROM claims",
                "SELECT id FROM claims INTERSECT SELECT id FROM claims WHERE id > 30",
                "SELECT id FROM claims EXCEPT SELECT id FROM claims WHERE id > 30",
                "SELECT region FROM regions UNION SELECT region FROM claims",
                // scalar subqueries in the select list
                "SELECT (SELECT count(*) FROM claims) AS n, (SELECT max(id) FROM claims) AS m, (SELECT count(*) FROM regions) AS r",
                "SELECT id, (SELECT count(*) FROM claims c2 WHERE c2.id < c.id) AS before FROM claims c",
                // windows over the whole table
                "SELECT id, count(*) OVER () AS n FROM claims",
                "SELECT id, sum(amount) OVER (PARTITION BY status) AS s, max(id) OVER (ORDER BY id) AS m FROM claims",
                // EXISTS probes and correlated subqueries
                "SELECT 1 AS x WHERE EXISTS (SELECT 1 FROM claims WHERE id = 1)",
                "SELECT 1 AS x WHERE EXISTS (SELECT 1 FROM claims WHERE region = 'south')",
                "SELECT count(*) AS n FROM claims c WHERE NOT EXISTS (SELECT 1 FROM regions r WHERE r.region = c.region)",
                "SELECT r.region, (SELECT count(*) FROM claims c WHERE c.region = r.region) AS n FROM regions r",
                "SELECT count(*) AS n FROM claims WHERE id IN (SELECT id + 1 FROM claims)",
                // lateral
                "SELECT r.region, x.n FROM regions r, LATERAL (SELECT count(*) AS n FROM claims c WHERE c.region = r.region) x",
                "SELECT c.id, x.m FROM claims c, LATERAL (SELECT max(d.id) AS m FROM claims d WHERE d.id < c.id) x",
                // recursive CTEs
                "WITH RECURSIVE t(n) AS (SELECT min(id) FROM claims UNION ALL SELECT n + 1 FROM t WHERE n < 10) SELECT count(*) AS n FROM t",
                "WITH RECURSIVE t(i) AS (SELECT 0 UNION ALL SELECT t.i + 1 FROM t WHERE EXISTS (SELECT 1 FROM claims c WHERE c.id = t.i + 1)) "
                        + "SELECT max(i) AS m FROM t",
                "WITH RECURSIVE t(i) AS (SELECT id FROM claims WHERE id = 4 UNION ALL SELECT c.id FROM t JOIN claims c ON c.id = t.i + 4) "
                        + "SELECT count(*) AS n FROM t",
                // CTE bodies and derived tables at depth 3
                "WITH a AS (SELECT id, region FROM claims), b AS (SELECT * FROM a WHERE id > 20) SELECT count(*) AS n FROM b",
                "SELECT count(*) AS n FROM (SELECT * FROM (SELECT id FROM (SELECT id, region FROM claims) a) b) c",
                "SELECT x.n FROM (SELECT (SELECT count(*) FROM (SELECT id FROM (SELECT id FROM claims) d) e) AS n) x",
                "WITH unused AS (SELECT id FROM claims) SELECT count(*) AS n FROM regions",
                // qualified names and star expansion
                "SELECT main.claims.id FROM main.claims",
                "SELECT data.main.claims.id, main.claims.amount FROM data.main.claims WHERE main.claims.id > 30",
                "SELECT claims.id FROM main.claims ORDER BY claims.id",
                "SELECT * FROM regions",
                "SELECT * EXCLUDE (ssn) FROM claims",
                "SELECT r.*, c.id FROM regions r JOIN claims c ON c.region = r.region",
                // USING joins, masks through joins and expressions
                "SELECT count(*) AS n FROM claims JOIN regions USING (region)",
                "SELECT region, manager FROM regions",
                "SELECT c.id, r.manager FROM claims c JOIN regions r ON r.region = c.region",
                "SELECT lower(manager) AS m, length(manager) AS l FROM regions",
                // error oracles: a predicate that fails on another tenant's values runs only on the tenant's rows
                // (DuckDB 2.0 applies the derived table's filter in the scan, below any predicate that can fail)
                "SELECT count(*) AS n FROM claims WHERE CAST(CASE WHEN id = 1 THEN 'x' ELSE '1' END AS INTEGER) = 1",
                "SELECT count(*) AS n FROM claims WHERE CAST(CASE WHEN region = 'south' THEN status ELSE '1' END AS INTEGER) = 1",
                "SELECT sum(CAST(CASE WHEN region <> 'north' THEN status ELSE '1' END AS INTEGER)) AS s FROM claims",
                "SELECT count(*) AS n FROM claims a JOIN claims b ON a.id = b.id AND CAST(CASE WHEN b.id = 2 THEN 'x' ELSE '1' END AS INTEGER) = 1",
                // tables the policy does not govern are read as they are
                "SELECT id, name FROM users");
    }

    @ParameterizedTest
    @MethodSource("answeredVectors")
    void aVectorAnswersWhatNorthsCopyAnswers(String sql) throws SQLException {
        ToolResult guarded = north(sql);
        assertThat(rows(guarded)).as(sql).isEqualTo(copyRows(sql));
    }

    /** Constructs an unrestricted source allows (no allowlist, DuckDB's default functions). */
    static List<String> unrestrictedVectors() {
        return List.of(
                "SELECT count(*) AS n FROM claims NATURAL JOIN regions",
                "SELECT count(*) AS n, max(manager) AS m FROM regions NATURAL JOIN claims",
                "SELECT #1, #2 FROM claims",
                "SELECT c.a, c.b FROM claims AS c(a, b)",
                "SELECT a FROM claims c(a) WHERE a > 20",
                "SELECT id FROM claims QUALIFY row_number() OVER (ORDER BY id DESC) <= 3",
                "SELECT string_agg(region, ',') AS s, string_agg(manager, ',') AS m FROM regions",
                "SELECT list(id ORDER BY id) AS l FROM claims",
                "SELECT region, count(*) FROM claims GROUP BY ALL ORDER BY ALL",
                "SELECT DISTINCT ON (status) status, id FROM claims ORDER BY status, id",
                "SELECT id FROM claims UNION ALL BY NAME SELECT id FROM claims",
                "FROM claims SELECT count(*) AS n",
                "SELECT count(*) AS n FROM claims USING SAMPLE 100 PERCENT (bernoulli)",
                "SELECT count(*) AS n FROM claims c1 SEMI JOIN claims c2 ON c1.id = c2.id + 4",
                "SELECT count(*) AS n FROM claims c ANTI JOIN regions r ON c.region = r.region",
                "SELECT count(*) AS n FROM claims a ASOF JOIN claims b ON a.id >= b.id",
                "SELECT id FROM claims ORDER BY id LIMIT (SELECT count(*) FROM claims) - 10",
                "SELECT list_transform([1, 2], lambda x: x + 1) AS l, (SELECT count(*) FROM claims) AS n",
                "SELECT count(*) AS n FROM claims WHERE claims.region = 'south'",
                "SELECT (SELECT count(*) FROM main.claims) AS n, (SELECT count(*) FROM data.main.regions) AS r",
                "SELECT * FROM claims PIVOT (count(*) FOR status IN ('APPROVED', 'DENIED', 'PENDING') GROUP BY region)");
    }

    @ParameterizedTest
    @MethodSource("unrestrictedVectors")
    void onAnUnrestrictedSourceAVectorAnswersWhatNorthsCopyAnswers(String sql) throws SQLException {
        ToolResult guarded = query(openEngine, NORTH, sql);
        assertThat(rows(guarded)).as(sql).isEqualTo(copyRows(sql));
    }

    static List<Arguments> parameterVectors() {
        return List.of(
                Arguments.of("SELECT id FROM claims WHERE id > ?", new Object[] {40}),
                Arguments.of("SELECT ? AS p, id FROM claims WHERE id > ?", new Object[] {"x", 30}),
                Arguments.of("SELECT id FROM claims WHERE id > $2 AND id < $1", new Object[] {50, 10}),
                Arguments.of("SELECT (SELECT count(*) FROM claims WHERE id > ?) AS a, (SELECT count(*) FROM regions WHERE region <> ?) AS b, "
                        + "? AS c", new Object[] {20, "north", "after"}),
                Arguments.of("SELECT $1 AS p, r.region FROM regions r WHERE EXISTS (SELECT 1 FROM claims c WHERE c.id > $1)", new Object[] {50}),
                Arguments.of("SELECT $3 AS c, $1 AS a FROM claims WHERE id = $2", new Object[] {"first", 8, "third"}));
    }

    /** Parameters before and after the filtered table, as ? and $n: the tenant attribute takes the numbers after them. */
    @ParameterizedTest
    @MethodSource("parameterVectors")
    void parametersBeforeAndAfterAFilteredTable(String sql, Object[] params) throws SQLException {
        ToolResult guarded = north(sql, params);
        assertThat(rows(guarded)).as(sql).isEqualTo(copyRows(sql, params)).isNotEmpty();
    }

    /** A sensitive output is still replaced inside the engine (the row-bound wrapper's mask), over the filtered rows. */
    @Test
    void aSensitiveOutputIsMaskedOverTheFilteredRows() {
        ToolResult result = north("SELECT id, ssn FROM claims ORDER BY id");
        assertThat(result.error()).isEmpty();
        assertThat(result.rows()).hasSize(15);
        assertThat(result.rows()).allSatisfy(row -> assertThat(((Long) row.get(0)) % 4).isZero());
        assertThat(result.rows()).allSatisfy(row -> assertThat(String.valueOf(row.get(1))).doesNotContain("900-00"));
        var plan = engine.validator().validate(QueryRequest.of("claims", "SELECT id, ssn FROM claims ORDER BY id"));
        assertThat(plan.maskedOutputs()).containsExactly(1);
        assertThat(plan.executableSql()).startsWith("SELECT * REPLACE (").contains("WHERE (region = $1)");
    }

    @Test
    void anotherTenantSeesItsOwnRows() {
        ToolResult south = query(engine, Map.of("tenant", "south"), "SELECT count(*) AS n, min(id) AS lo FROM claims");
        assertThat(south.rows()).containsExactly(List.of(15L, 1L));
        ToolResult manager = query(engine, Map.of("tenant", "south"), "SELECT manager FROM regions");
        assertThat(manager.rows()).containsExactly(List.of("SAM"));
        ToolResult nobody = query(engine, Map.of("tenant", "nowhere"), "SELECT count(*) AS n FROM claims");
        assertThat(nobody.rows()).containsExactly(List.of(0L));
    }

    @Test
    void theFilterValueIsBoundNeverSpliced() {
        ToolResult injected = query(engine, Map.of("tenant", "north' OR '1' = '1"), "SELECT count(*) AS n FROM claims");
        assertThat(injected.rows()).containsExactly(List.of(0L));
    }

    @Test
    void aMissingAttributeIsRefusedWithNoRows() {
        ToolResult result = query(engine, Map.of(), "SELECT count(*) AS n FROM claims");
        assertThat(refusal(result)).isEqualTo(ErrorCode.MISSING_ATTRIBUTE);
        ToolResult other = query(engine, Map.of("region", "north"), "SELECT manager FROM regions");
        assertThat(refusal(other)).isEqualTo(ErrorCode.MISSING_ATTRIBUTE);
    }

    @Test
    void aQueryOfNoGovernedTableNeedsNoAttribute() {
        ToolResult result = query(engine, Map.of(), "SELECT count(*) AS n FROM users");
        assertThat(result.rows()).containsExactly(List.of(3L));
    }

    static List<String> cteNamedLikeAGovernedTable() {
        return List.of(
                "WITH claims AS (SELECT 1 AS id) SELECT id FROM claims",
                "WITH Claims AS (SELECT * FROM main.claims) SELECT count(*) AS n FROM claims",
                "SELECT (WITH regions AS (SELECT 1 AS region) SELECT count(*) FROM regions) AS n",
                "WITH RECURSIVE claims(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM claims WHERE id < 3) SELECT count(*) AS n FROM claims",
                "SELECT count(*) AS n FROM (WITH x AS (WITH claims AS (SELECT 1 AS id) SELECT * FROM claims) SELECT * FROM x) y");
    }

    @ParameterizedTest
    @MethodSource("cteNamedLikeAGovernedTable")
    void aWithQueryNamedLikeAGovernedTableIsRefused(String sql) {
        ToolResult result = north(sql);
        assertThat(refusal(result)).isEqualTo(ErrorCode.CONSTRUCT_NOT_ALLOWED);
        assertThat(result.error().get().message()).contains("named like the table").contains("give it another name");
    }

    static List<Arguments> refusedVectors() {
        return List.of(
                Arguments.of("SELECT * FROM read_csv('" + "/etc/passwd" + "')", ErrorCode.TABLE_FUNCTION_NOT_ALLOWED),
                Arguments.of("SELECT * FROM read_blob('DB')", ErrorCode.TABLE_FUNCTION_NOT_ALLOWED),
                Arguments.of("SELECT content FROM read_text('DB')", ErrorCode.TABLE_FUNCTION_NOT_ALLOWED),
                Arguments.of("SELECT * FROM range(3)", ErrorCode.TABLE_FUNCTION_NOT_ALLOWED),
                Arguments.of("SELECT * FROM query_table('claims')", ErrorCode.TABLE_FUNCTION_NOT_ALLOWED),
                Arguments.of("SELECT * FROM query('SELECT * FROM claims')", ErrorCode.TABLE_FUNCTION_NOT_ALLOWED),
                Arguments.of("SELECT * FROM duckdb_tables()", ErrorCode.TABLE_FUNCTION_NOT_ALLOWED),
                Arguments.of("SELECT estimated_size FROM duckdb_tables()", ErrorCode.TABLE_FUNCTION_NOT_ALLOWED),
                Arguments.of("SELECT * FROM duckdb_columns()", ErrorCode.TABLE_FUNCTION_NOT_ALLOWED),
                Arguments.of("SELECT count(*) FROM claims, (SELECT * FROM pragma_storage_info('claims')) s", ErrorCode.TABLE_FUNCTION_NOT_ALLOWED),
                Arguments.of("FROM 'DB'", ErrorCode.TABLE_NOT_ALLOWED),
                Arguments.of("SELECT * FROM information_schema.tables", ErrorCode.TABLE_NOT_ALLOWED),
                Arguments.of("SELECT * FROM information_schema.columns", ErrorCode.TABLE_NOT_ALLOWED),
                Arguments.of("SELECT * FROM pg_catalog.pg_class", ErrorCode.TABLE_NOT_ALLOWED),
                Arguments.of("SELECT * FROM duckdb_tables", ErrorCode.TABLE_NOT_ALLOWED),
                Arguments.of("SUMMARIZE claims", ErrorCode.STATEMENT_NOT_ALLOWED),
                Arguments.of("SUMMARIZE SELECT amount FROM claims", ErrorCode.STATEMENT_NOT_ALLOWED),
                Arguments.of("SELECT * FROM (SUMMARIZE regions)", ErrorCode.STATEMENT_NOT_ALLOWED),
                Arguments.of("DESCRIBE claims", ErrorCode.STATEMENT_NOT_ALLOWED),
                Arguments.of("DESCRIBE SELECT * FROM regions", ErrorCode.STATEMENT_NOT_ALLOWED),
                Arguments.of("SHOW claims", ErrorCode.STATEMENT_NOT_ALLOWED),
                Arguments.of("SHOW TABLES", ErrorCode.STATEMENT_NOT_ALLOWED),
                Arguments.of("PRAGMA storage_info('claims')", ErrorCode.STATEMENT_NOT_ALLOWED),
                Arguments.of("PRAGMA table_info('claims')", ErrorCode.STATEMENT_NOT_ALLOWED),
                Arguments.of("SELECT #1 FROM claims", ErrorCode.CONSTRUCT_NOT_ALLOWED));
    }

    /** File readers, table functions, catalog views and listings: refused with the code DuckDB's checker already uses. */
    @ParameterizedTest
    @MethodSource("refusedVectors")
    void aFileReaderCatalogViewOrListingIsRefused(String sql, ErrorCode code) {
        ToolResult result = north(sql.replace("DB", db.toString()));
        assertThat(refusal(result)).as(sql).isEqualTo(code);
        assertThat(result.error().get().message()).doesNotContain(db.toString()).doesNotContain("north");
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT region FROM regions WHERE manager = 'Nadia'",
            "SELECT region FROM regions ORDER BY manager",
            "SELECT count(*) AS n FROM regions GROUP BY manager",
            "SELECT max(c.id) AS m FROM claims c, regions r WHERE c.region = r.region AND r.manager = 'NADIA'",
            "SELECT * FROM regions UNPIVOT (v FOR k IN (manager))"})
    void aMaskedColumnIsSensitiveForFiltersAndOrdering(String sql) {
        ToolResult result = north(sql);
        assertThat(result.error()).as(sql).isPresent();
        assertThat(result.rows()).isEmpty();
    }

    @Test
    void aNaturalJoinOnThisRestrictedSourceIsRefused() {
        ToolResult result = north("SELECT count(*) AS n FROM claims NATURAL JOIN regions");
        assertThat(refusal(result)).isEqualTo(ErrorCode.JOIN_NOT_ALLOWED);
    }

    /** The spec's filter on a column the model may not see: the filter applies, the column stays hidden. */
    @Test
    void aFilterOnAColumnTheModelMayNotSee() {
        Map<String, String> approved = Map.of("status", "APPROVED");
        long expected = ContractDataset.claims().stream().filter(c -> c.status().equals("APPROVED")).count();
        assertThat(query(statusEngine, approved, "SELECT count(*) AS n FROM claims").rows()).containsExactly(List.of(expected));
        List<Object> ids = new ArrayList<>();
        query(statusEngine, approved, "SELECT * FROM claims ORDER BY id").rows().forEach(row -> ids.add(row.get(0)));
        assertThat(ids).containsExactlyElementsOf(ContractDataset.claims().stream()
                .filter(c -> c.status().equals("APPROVED")).map(c -> (Object) c.id()).toList());
        ToolResult star = query(statusEngine, approved, "SELECT * FROM claims");
        assertThat(star.columns()).extracting(c -> c.name()).containsExactly("id", "region", "amount", "created");
        ToolResult hidden = query(statusEngine, approved, "SELECT status FROM claims");
        assertThat(refusal(hidden)).isEqualTo(ErrorCode.UNKNOWN_COLUMN);
    }

    /** Policy keys written with the schema govern the same tables. */
    @Test
    void schemaQualifiedPolicyKeysGovernTheSameTables() {
        GuardrailPolicy policy = contractPolicy().withRows(RowPolicy.of(Optional.empty(),
                Map.of("main.claims", "region = :tenant"), Map.of("main.regions.manager", "upper(manager)")));
        DuckDbEngine qualified = TestDatabases.engine(db, work, policy);
        try {
            assertThat(query(qualified, NORTH, "SELECT count(*) AS n FROM claims").rows()).containsExactly(List.of(15L));
            assertThat(query(qualified, NORTH, "SELECT count(*) AS n FROM data.main.claims c").rows()).containsExactly(List.of(15L));
            assertThat(query(qualified, Map.of(), "SELECT manager FROM regions WHERE region = 'north'").rows())
                    .containsExactly(List.of("NADIA"));
            assertThat(refusal(query(qualified, NORTH, "WITH claims AS (SELECT 1 AS id) SELECT id FROM claims")))
                    .isEqualTo(ErrorCode.CONSTRUCT_NOT_ALLOWED);
        } finally {
            qualified.close();
        }
    }

    @Test
    void theCatalogDoesNotCountEveryTenantsRows() {
        Map<String, TableDescription> tables = new TreeMap<>();
        engine.catalog().tables().forEach(t -> tables.put(t.table().qualifiedName(), t));
        assertThat(tables.get("claims").rowCount()).isEmpty();
        assertThat(tables.get("regions").rowCount()).isEmpty();
        assertThat(tables.get("users").rowCount()).hasValue(3L);
    }

    // ---------------------------------------------------------------- start-time check

    static List<Arguments> brokenPolicies() {
        return List.of(
                Arguments.of(Map.of("claims", "no_such_column = :tenant"), Map.of(), "claims"),
                Arguments.of(Map.of("claims", "no_such_function(region) = :tenant"), Map.of(), "claims"),
                Arguments.of(Map.of("claims", "region"), Map.of(), "claims"),
                Arguments.of(Map.of("claims", "id + length(:tenant)"), Map.of(), "claims"),
                Arguments.of(Map.of("claims", "region = :tenant) AS claims, users AS x WHERE (1 = 1"), Map.of(), "claims"),
                Arguments.of(Map.of("no_such_table", "region = :tenant"), Map.of(), "no_such_table"),
                Arguments.of(Map.of(), Map.of("regions.no_such_column", "upper(manager)"), "regions"),
                Arguments.of(Map.of(), Map.of("regions.manager", "upper(no_such_column)"), "regions"),
                Arguments.of(Map.of(), Map.of("regions.manager", "manager + 1"), "regions"),
                Arguments.of(Map.of("regions", "region = :tenant"), Map.of("users.password", "'***' || (password"), "users"));
    }

    @ParameterizedTest
    @MethodSource("brokenPolicies")
    void aBrokenFilterOrMaskStopsTheEngineNamingTheTable(Map<String, String> rows, Map<String, String> masks, String table) {
        GuardrailPolicy policy = GuardrailPolicy.defaults().withRows(RowPolicy.of(Optional.empty(), rows, masks));
        assertThatThrownBy(() -> TestDatabases.engine(db, work, policy).close())
                .isInstanceOfSatisfying(GuardException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
                    assertThat(e.safeMessage()).contains("'" + table + "'").doesNotContain("Binder").doesNotContain("Parser")
                            .doesNotContain(db.toString());
                });
        // the instance is still usable afterwards
        assertThat(north("SELECT count(*) AS n FROM claims").rows()).containsExactly(List.of(15L));
    }

    @Test
    void theExecutedTextReadsEachGovernedTableThroughItsFilter() {
        var plan = engine.validator().validate(QueryRequest.of("claims",
                "SELECT count(*) AS n FROM claims a JOIN main.claims ON a.id = main.claims.id WHERE main.claims.id > ?", 3));
        assertThat(plan.executableSql()).contains("WHERE (region = $2)").doesNotContain("main.claims.id");
        assertThat(plan.bindings().parameterCount()).isEqualTo(1);
        assertThat(plan.bindings().attributes()).containsExactly("tenant");
        assertThat(plan.bindings().size()).isEqualTo(2);
        assertThat(plan.tables()).extracting(Object::toString).containsExactly("claims");
        assertThat(plan.columns()).extracting(Object::toString).containsExactlyInAnyOrder("claims.id");
        assertThat(Arrays.asList(plan.withAttributes(NORTH).values().toArray())).containsExactly(3L, "north");
    }
}
