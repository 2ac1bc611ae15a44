package dev.sqlguard.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.LimitKind;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.SourceBinding;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.ResultColumn;
import dev.sqlguard.domain.ResultProjector;
import dev.sqlguard.domain.SensitiveNames;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.domain.ToolError;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.AuditEvent;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.domain.port.LifecycleRecord;
import dev.sqlguard.domain.port.ResultCursor;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineCapability;
import dev.sqlguard.ports.EngineDialect;
import dev.sqlguard.ports.EngineFactory;
import dev.sqlguard.ports.PropertySpec;
import dev.sqlguard.testing.ContractDataset.Claim;

/**
 * The engine contract: every engine adapter extends this class once, in a test of its own module
 * (with {@code sqlguard-testing} in test scope), and provides an {@link EngineFixture}. It is
 * capability-driven: where an engine lacks an {@link EngineCapability}, the suite asserts the
 * documented refusal code instead of skipping.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
public abstract class EngineContractSuite implements TenantProofs {
    /** Functions the contract policy allows; fixtures' runaway queries use only these. */
    public static final Set<String> POLICY_FUNCTIONS =
            Set.of("count", "sum", "avg", "min", "max", "round", "upper", "lower", "concat", "coalesce", "length");

    /** Codes an engine may use to refuse a statement that is not a single read-only SELECT. */
    private static final Set<ErrorCode> REFUSAL_CODES = Set.of(
            ErrorCode.STATEMENT_NOT_ALLOWED, ErrorCode.MULTIPLE_STATEMENTS, ErrorCode.SYNTAX_ERROR,
            ErrorCode.UNSAFE_SYNTAX, ErrorCode.CONSTRUCT_NOT_ALLOWED, ErrorCode.TABLE_NOT_ALLOWED,
            ErrorCode.TABLE_FUNCTION_NOT_ALLOWED, ErrorCode.FUNCTION_NOT_ALLOWED, ErrorCode.VARIABLE_NOT_ALLOWED,
            ErrorCode.EXTERNAL_ACCESS_DENIED, ErrorCode.PERMISSION_DENIED, ErrorCode.COLUMN_NOT_ALLOWED,
            ErrorCode.WILDCARD_NOT_ALLOWED, ErrorCode.JOIN_NOT_ALLOWED);

    private EngineFixture fixture;
    private String initialFingerprint;
    private final List<Engine> openEngines = new ArrayList<>();
    /** The policy each engine of {@link #engine} was configured with: calls bind it, as the host does. */
    private final Map<Engine, GuardrailPolicy> configured = new java.util.IdentityHashMap<>();
    private final List<AuditEvent> audits = new CopyOnWriteArrayList<>();
    private final List<LifecycleRecord> lifecycle = new CopyOnWriteArrayList<>();
    private final QueryService service = new QueryService(new AuditSink() {
        @Override
        public void audit(AuditEvent event) {
            audits.add(event);
        }

        @Override
        public void lifecycle(LifecycleRecord record) {
            lifecycle.add(record);
        }
    });

    /** Creates a private database holding {@link ContractDataset}. Called once per test class. */
    protected abstract EngineFixture createFixture() throws Exception;

    @BeforeAll
    final void startFixture() throws Exception {
        fixture = createFixture();
        initialFingerprint = fixture.fingerprint();
    }

    @AfterEach
    final void closeEngines() {
        openEngines.forEach(Engine::close);
        openEngines.clear();
        configured.clear();
    }

    @AfterAll
    final void databaseIsUnchangedAfterEverything() {
        if (fixture != null) {
            try {
                assertThat(fixture.fingerprint()).as("database fingerprint after the whole suite").isEqualTo(initialFingerprint);
            } finally {
                fixture.close();
            }
        }
    }

    /** The contract policy: all three tables, the contract functions, default limits. */
    protected GuardrailPolicy contractPolicy() {
        Map<String, List<String>> tables = new TreeMap<>();
        tables.put("claims", List.of("id", "region", "amount", "status", "created", "ssn"));
        tables.put("regions", List.of("region", "manager"));
        tables.put("users", List.of("id", "name", "password", "api_key"));
        return new GuardrailPolicy(TableAllowlist.of(tables), POLICY_FUNCTIONS, Set.of(), Set.of(), Limits.defaults());
    }

    protected final Engine engine(GuardrailPolicy policy) {
        Engine engine = fixture.engine("contract", policy);
        openEngines.add(engine);
        configured.put(engine, policy);
        return engine;
    }

    /**
     * What the host binds for {@code engine}: the policy it was configured with, with only the engine's reported
     * defaults filled in ({@link Engine#binding(GuardrailPolicy)}), never the engine's own {@link Engine#policy()}.
     */
    protected final SourceBinding binding(Engine engine) {
        GuardrailPolicy policy = configured.get(engine);
        if (policy == null) {
            throw new IllegalArgumentException("not an engine of this suite's engine(policy)");
        }
        return engine.binding(policy);
    }

    // ---------------------------------------------------------------- hooks of EngineLevelProofs

    @Override
    public final EngineFixture proofFixture() {
        return fixture;
    }

    @Override
    public final Engine proofEngine(GuardrailPolicy policy) {
        return engine(policy);
    }

    @Override
    public final GuardrailPolicy proofPolicy() {
        return contractPolicy();
    }

    @Override
    public final String proofFingerprint() {
        return initialFingerprint;
    }

    @Override
    public final ToolResult tenantRun(Engine engine, QueryRequest request) {
        ToolResult result = service.query(binding(engine), request);
        assertSafe(result);
        return result;
    }

    protected final ToolResult run(Engine engine, String sql, Object... params) {
        ToolResult result = service.query(binding(engine), new QueryRequest("contract", sql, Arrays.asList(params),
                "req-" + audits.size() + "-" + System.nanoTime()));
        assertSafe(result);
        return result;
    }

    protected final ToolResult run(String sql, Object... params) {
        return run(engine(contractPolicy()), sql, params);
    }

    private boolean has(Engine engine, EngineCapability capability) {
        return engine.capabilities().contains(capability);
    }

    // ---------------------------------------------------------------- honest SQL is answered

    @Test
    void answersAnHonestAggregate() {
        Engine engine = engine(contractPolicy());
        ToolResult result = run(engine, "SELECT region, count(*) AS n, sum(amount) AS total FROM claims GROUP BY region ORDER BY region");
        if (!has(engine, EngineCapability.GROUP_BY)) {
            assertRefused(result, ErrorCode.CONSTRUCT_NOT_ALLOWED);
            return;
        }
        assertThat(result.status()).isEqualTo(ToolStatus.OK);
        Map<String, List<Claim>> byRegion = ContractDataset.claims().stream()
                .collect(Collectors.groupingBy(Claim::region, TreeMap::new, Collectors.toList()));
        assertThat(result.rows()).hasSize(byRegion.size());
        int i = 0;
        for (Map.Entry<String, List<Claim>> e : byRegion.entrySet()) {
            List<Object> row = result.rows().get(i++);
            assertThat(row.get(0)).isEqualTo(e.getKey());
            assertThat(decimal(row.get(1))).isEqualByComparingTo(BigDecimal.valueOf(e.getValue().size()));
            assertThat(decimal(row.get(2))).isEqualByComparingTo(
                    e.getValue().stream().map(Claim::amount).reduce(BigDecimal.ZERO, BigDecimal::add));
        }
        assertThat(result.truncated()).isFalse();
        assertThat(result.limitsHit()).isEmpty();
        assertThat(result.sql()).isPresent();
    }

    @Test
    void answersAFilterWithABoundParameter() {
        ToolResult result = run("SELECT id, amount FROM claims WHERE status = ? ORDER BY id", "DENIED");
        assertThat(result.status()).isEqualTo(ToolStatus.OK);
        List<Claim> denied = ContractDataset.claims().stream().filter(c -> c.status().equals("DENIED")).toList();
        assertThat(result.rows()).hasSize(denied.size());
        for (int i = 0; i < denied.size(); i++) {
            assertThat(decimal(result.rows().get(i).get(0))).isEqualByComparingTo(BigDecimal.valueOf(denied.get(i).id()));
            assertThat(decimal(result.rows().get(i).get(1))).isEqualByComparingTo(denied.get(i).amount());
        }
    }

    @Test
    void answersAJoin() {
        Engine engine = engine(contractPolicy());
        ToolResult result = run(engine,
                "SELECT c.id, r.manager FROM claims c JOIN regions r ON c.region = r.region WHERE c.id <= ? ORDER BY c.id", 4L);
        if (!has(engine, EngineCapability.JOINS)) {
            assertRefused(result, ErrorCode.JOIN_NOT_ALLOWED);
            return;
        }
        assertThat(result.status()).isEqualTo(ToolStatus.OK);
        Map<String, String> managers = ContractDataset.regions().stream()
                .collect(Collectors.toMap(ContractDataset.Region::region, ContractDataset.Region::manager));
        List<List<Object>> expected = ContractDataset.claims().stream().filter(c -> c.id() <= 4)
                .map(c -> List.<Object>of(c.id(), managers.get(c.region()))).toList();
        assertThat(normalize(result.rows())).isEqualTo(normalize(expected));
    }

    @Test
    void subqueriesFollowTheCapability() {
        Engine engine = engine(contractPolicy());
        ToolResult result = run(engine, "SELECT id FROM claims WHERE amount > (SELECT avg(amount) FROM claims) ORDER BY id");
        if (!has(engine, EngineCapability.SUBQUERIES)) {
            assertRefused(result, ErrorCode.CONSTRUCT_NOT_ALLOWED);
            return;
        }
        BigDecimal avg = ContractDataset.claims().stream().map(Claim::amount).reduce(BigDecimal.ZERO, BigDecimal::add)
                .divide(BigDecimal.valueOf(ContractDataset.claims().size()), 10, java.math.RoundingMode.HALF_UP);
        long expected = ContractDataset.claims().stream().filter(c -> c.amount().compareTo(avg) > 0).count();
        assertThat(result.status()).isEqualTo(ToolStatus.OK);
        assertThat(result.rows()).hasSize((int) expected);
    }

    @Test
    void ctesFollowTheCapability() {
        Engine engine = engine(contractPolicy());
        ToolResult result = run(engine, "WITH big AS (SELECT id, amount FROM claims WHERE amount > 30000) SELECT count(*) AS n FROM big");
        if (!has(engine, EngineCapability.CTES)) {
            assertRefused(result, ErrorCode.CONSTRUCT_NOT_ALLOWED);
            return;
        }
        long expected = ContractDataset.claims().stream().filter(c -> c.amount().compareTo(BigDecimal.valueOf(30000)) > 0).count();
        assertThat(result.status()).isEqualTo(ToolStatus.OK);
        assertThat(decimal(result.rows().get(0).get(0))).isEqualByComparingTo(BigDecimal.valueOf(expected));
    }

    @Test
    void setOperationsFollowTheCapability() {
        Engine engine = engine(contractPolicy());
        ToolResult result = run(engine, "SELECT region FROM claims WHERE id = 1 UNION SELECT region FROM regions WHERE region = 'west'");
        if (!has(engine, EngineCapability.SET_OPERATIONS)) {
            assertRefused(result, ErrorCode.CONSTRUCT_NOT_ALLOWED);
            return;
        }
        assertThat(result.status()).isEqualTo(ToolStatus.OK);
        assertThat(result.rows().stream().map(r -> r.get(0)).collect(Collectors.toSet()))
                .containsExactlyInAnyOrder(ContractDataset.claims().get(0).region(), "west");
    }

    @Test
    void wildcardsFollowTheCapabilityAndStillRedact() {
        Engine engine = engine(contractPolicy());
        ToolResult result = run(engine, "SELECT * FROM claims WHERE id = 1");
        if (!has(engine, EngineCapability.WILDCARD)) {
            assertRefused(result, ErrorCode.WILDCARD_NOT_ALLOWED);
            return;
        }
        assertThat(result.status()).isEqualTo(ToolStatus.OK);
        int ssn = columnIndex(result, "ssn");
        assertThat(result.rows().get(0).get(ssn)).isEqualTo(ResultProjector.REDACTED);
    }

    // ---------------------------------------------------------------- hostile carriers

    /**
     * Subqueries, CTEs and set operations carrying a sensitive value (password, ssn) into a position
     * that decides which rows come back: a subquery predicate, IN (SELECT ...), a CTE used as a filter,
     * a set operation that compares with a guess. Each query names the capability it needs.
     */
    Stream<Arguments> hostileCarriers() {
        return Stream.of(
                Arguments.of(EngineCapability.SUBQUERIES,
                        "SELECT count(*) AS n FROM claims WHERE id IN (SELECT id FROM users WHERE password LIKE 'h%')"),
                Arguments.of(EngineCapability.SUBQUERIES,
                        "SELECT count(*) AS n FROM claims c WHERE EXISTS (SELECT 1 FROM users u WHERE u.password = 'hunter2-alice-pw')"),
                Arguments.of(EngineCapability.SUBQUERIES, "SELECT count(*) AS n FROM regions WHERE region IN (SELECT password FROM users)"),
                Arguments.of(EngineCapability.SUBQUERIES, "SELECT count(*) AS n FROM claims WHERE ssn IN (SELECT '123-45-6789')"),
                Arguments.of(EngineCapability.SUBQUERIES,
                        "SELECT id FROM claims WHERE amount > (SELECT max(length(ssn)) FROM claims c2 WHERE c2.id = claims.id)"),
                Arguments.of(EngineCapability.CTES,
                        "WITH p AS (SELECT id, password FROM users) SELECT count(*) AS n FROM p WHERE password LIKE 'h%'"),
                Arguments.of(EngineCapability.CTES,
                        "WITH s AS (SELECT id, ssn AS x FROM claims) SELECT id FROM s WHERE x = '123-45-6789'"),
                Arguments.of(EngineCapability.SET_OPERATIONS, "SELECT password FROM users INTERSECT SELECT 'hunter2-alice-pw'"),
                Arguments.of(EngineCapability.SET_OPERATIONS, "SELECT ssn FROM claims EXCEPT SELECT '123-45-6789'"),
                Arguments.of(EngineCapability.SET_OPERATIONS, "SELECT 'hunter2-alice-pw' AS p INTERSECT SELECT password FROM users"));
    }

    /**
     * A source whose configuration lists no functions gets the engine's documented default list, which the
     * engine reports ({@link Engine#defaults()}) and the host fills in: an engine that reports none leaves such
     * a source unable to call even {@code count}. Calls bind the configured policy, as the host does.
     */
    @Test
    void anEmptyFunctionListAllowsTheDefaultsTheEngineReports() {
        Engine engine = engine(contractPolicy().withFunctions(Set.of()));
        assertThat(engine.defaults().functions().defaults()).as("the engine's reported default functions").contains("count");
        ToolResult result = run(engine, "SELECT count(*) AS n FROM claims");
        assertThat(result.status()).as("%s", result.error()).isEqualTo(ToolStatus.OK);
    }

    /**
     * A configuration listing a function the engine reports as never allowed does not start: the fixture starts
     * engines as the host does ({@link dev.sqlguard.ports.EngineStart}), which asks the engine about the listed
     * names and lets the domain decide on its reported never-list, whatever the engine checks itself.
     */
    @Test
    void aFunctionListNamingANeverAllowedFunctionDoesNotStart() {
        String never = engine(contractPolicy()).defaults().functions().never().stream().sorted().findFirst().orElse(null);
        org.junit.jupiter.api.Assumptions.assumeTrue(never != null, "the engine reports no never-allowed function");
        Throwable refused = org.assertj.core.api.Assertions.catchThrowable(() -> engine(contractPolicy().withFunctions(Set.of("count", never))));
        assertThat(refused).as("a function list naming '%s'", never).isInstanceOf(GuardException.class);
        assertThat(((GuardException) refused).code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
        assertThat(((GuardException) refused).safeMessage()).contains("'" + never + "'").contains("never allowed");
    }

    @ParameterizedTest
    @MethodSource("hostileCarriers")
    void sensitiveValuesCarriedBySubqueriesCtesAndSetOperationsAreRefused(EngineCapability needs, String sql) {
        Engine engine = engine(contractPolicy());
        ToolResult result = run(engine, sql);
        assertThat(result.status()).as(sql).isEqualTo(ToolStatus.REJECTED);
        if (has(engine, needs)) {
            assertThat(result.error().orElseThrow().code()).as(sql).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
        } else {
            // without the capability the construct itself is refused, unless the sensitive use is refused first
            assertThat(result.error().orElseThrow().code()).as(sql).isIn(ErrorCode.CONSTRUCT_NOT_ALLOWED, ErrorCode.COLUMN_NOT_ALLOWED);
        }
        assertNoLifecycleFor(result);
    }

    /**
     * The error oracle of partial functions: pow(ascii(substring(password, 8, 1)), 154) succeeds
     * where 155 overflows, so whether the query fails would spell the password out. Refused on every
     * engine, whether or not the function list allows the functions.
     */
    @ParameterizedTest
    @ValueSource(ints = {154, 155})
    void aPartialFunctionIsNoErrorOracleOnASensitiveValue(int exponent) {
        Set<String> functions = new java.util.HashSet<>(POLICY_FUNCTIONS);
        functions.addAll(Set.of("pow", "ascii", "substring"));
        Engine engine = engine(contractPolicy().withFunctions(functions));
        ToolResult result = run(engine, "SELECT pow(ascii(substring(password, 8, 1)), " + exponent + ") AS x FROM users WHERE id = 1");
        assertThat(result.status()).isEqualTo(ToolStatus.REJECTED);
        assertThat(result.error().orElseThrow().code()).isIn(ErrorCode.COLUMN_NOT_ALLOWED, ErrorCode.FUNCTION_NOT_ALLOWED);
        assertNoLifecycleFor(result);
    }

    /** Ways to name a sensitive value that differ by user in whether they look like a number ({@code c p 9}, {@code u 3 a}). */
    private static final List<String> SENSITIVE_OPERANDS = List.of(
            "password", "substring(password, 12, 1)", "substring(password, 2, 1)", "concat(substring(password, 12, 1), '0')");

    /** Every context in which an engine may convert a value to another type on its own ({@code $} is the operand, {@code K} the user). */
    private static final List<String> IMPLICIT_CONVERSIONS = List.of(
            "SELECT $ + 1 AS v FROM users WHERE id = K",
            "SELECT -$ AS v FROM users WHERE id = K",
            "SELECT $ * 1.5 AS v FROM users WHERE id = K",
            "SELECT $ = 1 AS v FROM users WHERE id = K",
            "SELECT $ = 1.5e0 AS v FROM users WHERE id = K",
            "SELECT $ = TRUE AS v FROM users WHERE id = K",
            "SELECT $ < DATE '2024-01-01' AS v FROM users WHERE id = K",
            "SELECT $ > TIMESTAMP '2024-01-01 00:00:00' AS v FROM users WHERE id = K",
            "SELECT $ IN (1, 2) AS v FROM users WHERE id = K",
            "SELECT $ BETWEEN 1 AND 3 AS v FROM users WHERE id = K",
            "SELECT CASE WHEN id > 0 THEN $ ELSE 1 END AS v FROM users WHERE id = K",
            "SELECT coalesce($, 0) AS v FROM users WHERE id = K",
            "SELECT concat($, 1) AS v FROM users WHERE id = K",
            "SELECT sum($) AS v FROM users WHERE id = K",
            "SELECT max($ + 0) AS v FROM users WHERE id = K",
            "SELECT $ AS v FROM users WHERE id = K UNION ALL SELECT 1 AS v",
            "SELECT $ AS v FROM users WHERE id = K UNION ALL SELECT DATE '2024-01-01' AS v",
            "SELECT count(*) AS n FROM users WHERE id = K AND $ = 1");

    static Stream<Arguments> implicitConversions() {
        return SENSITIVE_OPERANDS.stream().flatMap(operand -> IMPLICIT_CONVERSIONS.stream()
                .map(context -> Arguments.of(context.replace("$", operand))));
    }

    /**
     * Implicit conversions are partial steps too: where an engine converts a sensitive value to a
     * number, date or boolean on its own, the conversion fails for some secrets and not for others.
     * For every context in which an engine may convert (arithmetic, comparison with each type, IN,
     * BETWEEN, CASE and COALESCE branches, aggregates, set operations) and operands that look like a
     * number for one user only, the guarded answer (status, code, message, rows) is the same for
     * each user: whatever the engine does with the value, no outcome depends on it.
     */
    @ParameterizedTest
    @MethodSource("implicitConversions")
    void anImplicitConversionOfASensitiveValueIsNoOracle(String template) {
        Set<String> functions = new java.util.HashSet<>(POLICY_FUNCTIONS);
        functions.add("substring");
        Engine engine = engine(contractPolicy().withFunctions(functions));
        List<String> outcomes = new java.util.ArrayList<>();
        for (ContractDataset.User user : ContractDataset.users()) {
            ToolResult result = run(engine, template.replace("K", Long.toString(user.id())));
            outcomes.add(result.status() + " " + result.error().map(e -> e.code() + ": " + e.message()).orElse("") + " " + result.rows());
        }
        assertThat(outcomes).as(template).containsOnly(outcomes.get(0));
    }

    // ---------------------------------------------------------------- what the factory declares

    /**
     * The factory declares its settings (so the host refuses a misspelt key and masks secrets) and
     * its dialect (so the host's own SQL and the agent's prompt fit the engine), and the engine reads
     * identifiers quoted the way the dialect says.
     */
    @Test
    void theFactoryDeclaresItsSettingsAndADialectItsEngineReads() {
        EngineFactory factory = fixture.factory();
        assertThat(factory.properties()).as("EngineFactory.properties(): declare every setting").isNotEmpty();
        for (PropertySpec spec : factory.properties()) {
            if (SensitiveNames.isSensitive(spec.name(), Set.of())) {
                assertThat(spec.sensitive()).as("setting '%s' looks like a secret: declare it sensitive", spec.name()).isTrue();
            }
        }
        EngineDialect dialect = factory.dialect();
        assertThat(dialect).as("EngineFactory.dialect(): declare the dialect").isNotEqualTo(EngineDialect.PLAIN);

        String id = dialect.quote("id").orElseThrow();
        String sql = "SELECT " + id + " FROM " + dialect.table(TableRef.of("claims")).orElseThrow() + " WHERE " + id + " = 1";
        ToolResult result = run(sql);
        assertThat(result.status()).as(sql).isEqualTo(ToolStatus.OK);
        assertThat(ids(result)).as(sql).containsExactly(1L);
    }

    // ---------------------------------------------------------------- statements that are not one SELECT

    Stream<String> forbiddenStatements() {
        List<String> generic = List.of(
                "SELECT id FROM claims; DROP TABLE claims",
                "SELECT id FROM claims; DELETE FROM claims",
                "DROP TABLE claims",
                "DELETE FROM claims",
                "UPDATE claims SET amount = 0",
                "INSERT INTO claims (id) VALUES (999)",
                "REPLACE INTO claims (id) VALUES (1)",
                "CREATE TABLE evil (a INT)",
                "CREATE TEMPORARY TABLE evil AS SELECT id FROM claims",
                "CREATE VIEW evil AS SELECT id FROM claims",
                "ALTER TABLE claims ADD COLUMN z INT",
                "TRUNCATE TABLE claims",
                "GRANT SELECT ON claims TO PUBLIC",
                "BEGIN",
                "COMMIT",
                "SET autocommit = 0",
                "PRAGMA table_info('claims')",
                "CALL some_procedure()",
                "COPY claims TO 'claims-out.csv'",
                "ATTACH 'other.db' AS other",
                "INSTALL httpfs",
                "LOAD httpfs",
                "EXPLAIN SELECT id FROM claims",
                "CHECKPOINT",
                "VACUUM");
        return Stream.concat(generic.stream(), fixture.dialectForbiddenStatements().stream());
    }

    @ParameterizedTest
    @MethodSource("forbiddenStatements")
    void refusesEveryStatementThatIsNotASingleSelect(String sql) {
        ToolResult result = run(sql);
        assertThat(result.status()).as(sql).isEqualTo(ToolStatus.REJECTED);
        assertThat(result.error().orElseThrow().code()).as(sql).isIn(REFUSAL_CODES);
        assertNoLifecycleFor(result);
        assertThat(fixture.fingerprint()).as("database after " + sql).isEqualTo(initialFingerprint);
    }

    Stream<String> externalAccess() {
        List<String> generic = List.of(
                "SELECT * FROM read_csv('/etc/passwd')",
                "SELECT * FROM read_text('/etc/hostname')",
                "SELECT * FROM '/etc/passwd'",
                "SELECT load_file('/etc/passwd') AS f",
                "SELECT * FROM read_parquet('http://127.0.0.1:9/x.parquet')",
                "SELECT id FROM claims INTO OUTFILE '/tmp/sqlguard-contract-outfile'",
                "SELECT id FROM claims INTO DUMPFILE '/tmp/sqlguard-contract-dumpfile'");
        return Stream.concat(generic.stream(), fixture.dialectExternalAccess().stream());
    }

    @ParameterizedTest
    @MethodSource("externalAccess")
    void refusesFileAndNetworkAccess(String sql) {
        ToolResult result = run(sql);
        assertThat(result.status()).as(sql).isIn(ToolStatus.REJECTED, ToolStatus.ERROR);
        assertThat(result.rows()).isEmpty();
        assertThat(java.nio.file.Files.exists(java.nio.file.Path.of("/tmp/sqlguard-contract-outfile"))).isFalse();
        assertThat(java.nio.file.Files.exists(java.nio.file.Path.of("/tmp/sqlguard-contract-dumpfile"))).isFalse();
        assertThat(fixture.fingerprint()).as("database after " + sql).isEqualTo(initialFingerprint);
    }

    // ---------------------------------------------------------------- bounds

    @Test
    void stopsARunawayQueryAtTheTimeout() {
        Engine engine = engine(contractPolicy().withLimits(Limits.defaults().withTimeout(Duration.ofSeconds(1))));
        ToolResult result = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(DEADLINE_WATCHDOG,
                () -> run(engine, fixture.runawayQuery()), () -> "a runaway query with a 1 s limit was not stopped within "
                        + DEADLINE_WATCHDOG.toSeconds() + " s: the adapter sets no deadline that stops it");
        assertThat(result.status()).isEqualTo(ToolStatus.ERROR);
        assertThat(result.error().orElseThrow().code()).isEqualTo(ErrorCode.EXCEEDED_TIME_LIMIT);
        assertThat(result.error().orElseThrow().retryable()).isTrue();
        assertThat(result.limitsHit()).contains(LimitKind.TIMEOUT);
        // the engine still answers afterwards
        assertThat(run(engine, "SELECT count(*) AS n FROM claims").status()).isEqualTo(ToolStatus.OK);
    }

    @Test
    void boundsRowsWithAnExactTruncationFlag() {
        Engine engine = engine(contractPolicy().withLimits(Limits.defaults().withMaxRows(5)));
        ToolResult cut = run(engine, "SELECT id FROM claims ORDER BY id");
        assertThat(cut.status()).isEqualTo(ToolStatus.OK);
        assertThat(ids(cut)).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(cut.truncated()).isTrue();
        assertThat(cut.limitsHit()).containsExactly(LimitKind.ROWS);

        ToolResult exact = run(engine, "SELECT id FROM claims WHERE id <= 5 ORDER BY id");
        assertThat(ids(exact)).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(exact.truncated()).isFalse();
        assertThat(exact.limitsHit()).isEmpty();

        ToolResult oneMore = run(engine, "SELECT id FROM claims WHERE id <= 6 ORDER BY id");
        assertThat(oneMore.returnedCount()).isEqualTo(5);
        assertThat(oneMore.truncated()).isTrue();

        ToolResult none = run(engine, "SELECT id FROM claims WHERE id < 0");
        assertThat(none.status()).isEqualTo(ToolStatus.NO_EVIDENCE);
        assertThat(none.returnedCount()).isZero();
    }

    /**
     * The same bound on a grouped aggregate, the shape whose row cap an engine may leave out of the
     * executed SQL (Trino does: a LIMIT there is one more stage): the cut is still exact.
     */
    @Test
    void boundsAGroupedAggregateWithAnExactTruncationFlag() {
        Engine engine = engine(contractPolicy().withLimits(Limits.defaults().withMaxRows(5)));
        ToolResult cut = run(engine, "SELECT id, count(*) AS n FROM claims GROUP BY id");
        if (!has(engine, EngineCapability.GROUP_BY)) {
            assertRefused(cut, ErrorCode.CONSTRUCT_NOT_ALLOWED);
            return;
        }
        assertThat(cut.status()).isEqualTo(ToolStatus.OK);
        assertThat(cut.returnedCount()).isEqualTo(5);
        assertThat(cut.truncated()).isTrue();
        assertThat(cut.limitsHit()).containsExactly(LimitKind.ROWS);

        ToolResult exact = run(engine, "SELECT id, count(*) AS n FROM claims WHERE id <= 5 GROUP BY id");
        assertThat(exact.returnedCount()).isEqualTo(5);
        assertThat(exact.truncated()).isFalse();
        assertThat(exact.limitsHit()).isEmpty();

        ToolResult oneMore = run(engine, "SELECT id, count(*) AS n FROM claims WHERE id <= 6 GROUP BY id");
        assertThat(oneMore.returnedCount()).isEqualTo(5);
        assertThat(oneMore.truncated()).isTrue();
    }

    @Test
    void boundsCellsAndBytes() {
        Engine cells = engine(contractPolicy().withLimits(Limits.defaults().withMaxCellChars(3)));
        ToolResult cut = run(cells, "SELECT name FROM users ORDER BY id");
        assertThat(cut.rows()).containsExactly(List.of("ali"), List.of("bob"), List.of("car"));
        assertThat(cut.truncated()).isTrue();
        assertThat(cut.limitsHit()).containsExactly(LimitKind.CELLS);

        Engine bytes = engine(contractPolicy().withLimits(Limits.defaults().withMaxBytes(60)));
        ToolResult small = run(bytes, "SELECT id, region FROM claims ORDER BY id");
        assertThat(small.status()).isEqualTo(ToolStatus.OK);
        assertThat(small.returnedCount()).isBetween(1, 10);
        assertThat(small.truncated()).isTrue();
        assertThat(small.limitsHit()).containsExactly(LimitKind.BYTES);
    }

    // ---------------------------------------------------------------- redaction by lineage

    Stream<String> sensitiveProjections() {
        return Stream.of(
                "SELECT password FROM users ORDER BY id",
                "SELECT password AS x FROM users ORDER BY id",
                "SELECT max(password) AS x FROM users",
                "SELECT min(api_key) AS first_key FROM users",
                "SELECT upper(password) AS shout FROM users ORDER BY id",
                "SELECT concat(name, password) AS y FROM users ORDER BY id",
                "SELECT lower(u.api_key) AS k FROM users u WHERE u.id = 2",
                "SELECT coalesce(ssn, region) AS s FROM claims WHERE id = 1",
                "SELECT length(password) AS n FROM users ORDER BY id");
    }

    @ParameterizedTest
    @MethodSource("sensitiveProjections")
    void redactsThroughAliasesExpressionsAndAggregates(String sql) {
        ToolResult result = run(sql);
        assertThat(result.status()).as(sql).isEqualTo(ToolStatus.OK);
        for (List<Object> row : result.rows()) {
            assertThat(row).as(sql).containsOnly(ResultProjector.REDACTED);
        }
    }

    /** Queries that would use a redacted column as an oracle: the value never shows, but a filter, order or group reveals it. */
    Stream<String> sensitiveOracles() {
        return Stream.of(
                "SELECT count(*) AS n FROM users WHERE password = 'hunter2-alice-pw'",
                "SELECT count(*) AS n FROM users WHERE password > 'm'",
                "SELECT id FROM users WHERE api_key = 'ak_live_bob_0002'",
                "SELECT id FROM claims WHERE ssn = '123-45-6789'",
                "SELECT name FROM users ORDER BY password",
                "SELECT id FROM users WHERE password = ?");
    }

    @ParameterizedTest
    @MethodSource("sensitiveOracles")
    void refusesSensitiveColumnsOutsideTheOutput(String sql) {
        Object[] params = sql.contains("?") ? new Object[] {"hunter2-alice-pw"} : new Object[0];
        assertRefused(run(sql, params), ErrorCode.COLUMN_NOT_ALLOWED);
    }

    /**
     * A bare table name or alias that some engines read as the whole row (DuckDB binds it to a struct
     * of every column, before aliases, outer columns and SQL value names): never a whole row in clear,
     * and never a filter on one.
     */
    Stream<String> wholeRowReferences() {
        return Stream.of(
                "SELECT id AS c, c FROM claims c",
                "SELECT c FROM claims c WHERE c.id = 1",
                "SELECT claims FROM claims WHERE id = 1",
                "SELECT id AS u, u FROM users u",
                "SELECT x FROM (SELECT * FROM users) x",
                "WITH x AS (SELECT * FROM users) SELECT x FROM x",
                "SELECT current_date FROM users AS \"current_date\"",
                "SELECT (SELECT u FROM users u WHERE u.id = x.u) AS v FROM (SELECT 1 AS u) x",
                "SELECT id FROM claims c WHERE CAST(c AS VARCHAR) LIKE '%123-45%'",
                "SELECT id FROM users u WHERE CAST(u AS VARCHAR) LIKE '%hunter2%'");
    }

    @ParameterizedTest
    @MethodSource("wholeRowReferences")
    void aWholeRowReferenceNeverReturnsOrFiltersARow(String sql) {
        ToolResult result = run(sql);
        if (result.status() == ToolStatus.OK || result.status() == ToolStatus.NO_EVIDENCE) {
            for (List<Object> row : result.rows()) {
                for (Object cell : row) {
                    // a whole row comes back as a struct or map: only a redacted one is acceptable
                    assertThat(cell).as(sql).isNotInstanceOf(Map.class).isNotInstanceOf(List.class);
                }
            }
            // a filter on the row's text would single out the row holding the secret
            assertThat(result.rows()).as(sql).isNotEqualTo(List.of(List.of(1L)));
        }
    }

    /**
     * An output alias that shadows a column: DuckDB and MySQL read ORDER BY and HAVING names as the
     * alias first. Either the guard refuses, or the result is the one the column would give.
     */
    @Test
    void anAliasShadowingAColumnNeverOrdersOrFiltersByASensitiveValue() {
        ToolResult ordered = run("SELECT id, ssn AS region FROM claims ORDER BY region");
        if (ordered.status() == ToolStatus.OK) {
            Map<Long, String> regions = new java.util.HashMap<>();
            ContractDataset.claims().forEach(c -> regions.put(c.id(), c.region()));
            List<String> seen = ordered.rows().stream().map(r -> regions.get(((Number) r.get(0)).longValue())).toList();
            assertThat(seen).as("ordered by the real region column, not by ssn").isSorted();
        } else {
            // refused: as a sensitive order, or as a name that is both an alias and a column
            assertThat(ordered.status()).isEqualTo(ToolStatus.REJECTED);
            assertThat(ordered.error().orElseThrow().code()).isIn(ErrorCode.COLUMN_NOT_ALLOWED, ErrorCode.AMBIGUOUS_COLUMN);
        }
        ToolResult having = run("SELECT region AS r, max(ssn) AS region FROM claims GROUP BY region HAVING region >= '900-00-0060'");
        if (having.status() == ToolStatus.OK) {
            // read as the region column, every group passes; read as max(ssn), only the group holding 0060 would
            assertThat(having.rows()).as("filtered by the real region column, not by max(ssn)").hasSize(4);
        } else {
            assertThat(having.status()).isIn(ToolStatus.REJECTED, ToolStatus.ERROR);
        }
    }

    /**
     * Hidden names are absent, also where one table hides a name that another table shows. With {@code claims.region}
     * hidden and {@code regions.region} shown, a bare {@code region} next to or inside a query over {@code claims}
     * must be answered as {@code manager} is, a name {@code claims} does not have and {@code regions} shows: read
     * as {@code regions}' column (the same rows as the qualified name), or refused with the same code. An answer
     * that differs tells that {@code claims} has a column of that name.
     */
    @Test
    void aNameOneTableHidesAndAnotherShowsIsReadAsIfTheHiddenOneWereAbsent() {
        Map<String, List<String>> tables = new TreeMap<>();
        tables.put("claims", List.of("id", "amount", "status", "created"));
        tables.put("regions", List.of("region", "manager"));
        tables.put("users", List.of("id", "name"));
        Engine engine = engine(new GuardrailPolicy(TableAllowlist.of(tables), POLICY_FUNCTIONS, Set.of(), Set.of(), Limits.defaults()));
        List<String> templates = new ArrayList<>(List.of(
                "SELECT count(*) AS n FROM regions r JOIN claims c ON c.id > 0 AND %s <> 'zz'",
                "SELECT %s AS g, count(*) AS n FROM regions r JOIN claims c ON c.id > 0 GROUP BY %s ORDER BY 1",
                "SELECT count(*) AS n FROM regions r JOIN claims c USING (%s)"));
        if (has(engine, EngineCapability.SUBQUERIES)) {
            templates.addAll(List.of(
                    "SELECT count(*) AS n FROM regions r WHERE EXISTS (SELECT 1 FROM claims c WHERE c.id > 0 AND %s <> 'zz')",
                    "SELECT r.region AS g, (SELECT count(*) FROM claims c WHERE c.status <> %s) AS k FROM regions r ORDER BY 1",
                    "SELECT r.region AS g FROM regions r WHERE r.region IN (SELECT %s FROM claims c WHERE c.id < 3) ORDER BY 1"));
        }
        for (String template : templates) {
            ToolResult hidden = run(engine, template.replace("%s", "region"));
            ToolResult absent = run(engine, template.replace("%s", "manager"));
            if (absent.error().isEmpty()) {
                assertThat(hidden.error()).as("%s, read as claims.region", template).isEmpty();
                ToolResult qualified = run(engine, template.replace("%s", "r.region"));
                assertThat(hidden.rows()).as(template).isEqualTo(qualified.rows());
            } else {
                assertThat(hidden.status()).as(template).isEqualTo(absent.status());
                assertThat(hidden.error().orElseThrow().code()).as(template).isEqualTo(absent.error().orElseThrow().code());
                assertThat(hidden.error().orElseThrow().message().replace("region", "<name>")).as(template)
                        .isEqualTo(absent.error().orElseThrow().message().replace("manager", "<name>"));
            }
        }
        // a NATURAL join over the hiding table has no common column, as over users, which has none of regions' names
        ToolResult natural = run(engine, "SELECT count(*) AS n FROM regions NATURAL JOIN claims");
        ToolResult none = run(engine, "SELECT count(*) AS n FROM regions NATURAL JOIN users");
        assertThat(natural.error().map(ToolError::code)).as("NATURAL JOIN").isEqualTo(none.error().map(ToolError::code));
        if (natural.error().isEmpty()) {
            assertThat(natural.rows()).isEqualTo(run(engine, "SELECT count(*) AS n FROM regions CROSS JOIN claims").rows());
        }
    }

    @Test
    void redactsConfiguredColumnsAndLeavesOthersAlone() {
        ToolResult plain = run("SELECT name FROM users ORDER BY id");
        assertThat(plain.rows()).containsExactly(List.of("alice"), List.of("bob"), List.of("carol"));

        Engine engine = engine(contractPolicy().withRedact(Set.of("name")));
        ToolResult redacted = run(engine, "SELECT name AS who FROM users ORDER BY id");
        assertThat(redacted.rows()).allSatisfy(row -> assertThat(row).containsOnly(ResultProjector.REDACTED));
    }

    // ---------------------------------------------------------------- sensitive values stay in the engine

    /**
     * Every output that must be redacted is replaced by a constant in the SQL the engine runs, so its
     * bytes never reach the JVM: read straight from the engine's cursor (before the projector), the
     * masked outputs are NULL in every row while the others carry their values, under the labels the
     * caller always saw. The domain refuses the same plan without its masks, and the answer reads as
     * before. A query without a sensitive output masks nothing.
     */
    @Test
    void aSensitiveOutputIsMaskedInsideTheEngine() {
        Engine engine = engine(contractPolicy());
        String sql = "SELECT id, password, upper(api_key) AS k, name FROM users ORDER BY id";
        QueryPlan plan = binding(engine).validator().validate(new QueryRequest("contract", sql, List.of(), "mask-1"));
        assertThat(plan.maskedOutputs()).as(plan.executableSql()).containsExactly(1, 2);
        binding(engine).policy().authorize(plan);
        List<List<Object>> raw = new ArrayList<>();
        try (ResultCursor cursor = binding(engine).execution().execute(plan)) {
            assertThat(cursor.columns()).extracting(ResultColumn::name)
                    .usingElementComparator(String.CASE_INSENSITIVE_ORDER).containsExactly("id", "password", "k", "name");
            while (cursor.next()) {
                raw.add(Arrays.asList(cursor.get(0), cursor.get(1), cursor.get(2), cursor.get(3)));
            }
        }
        assertThat(raw).hasSize(3);
        for (int i = 0; i < raw.size(); i++) {
            assertThat(decimal(raw.get(i).get(0))).isEqualByComparingTo(BigDecimal.valueOf(i + 1));
            assertThat(raw.get(i).get(1)).as("the password as the engine returned it").isNull();
            assertThat(raw.get(i).get(2)).as("upper(api_key) as the engine returned it").isNull();
            assertThat(raw.get(i).get(3)).isEqualTo(ContractDataset.users().get(i).name());
        }

        QueryPlan unmasked = new QueryPlan(plan.sourceId(), plan.originalSql(), plan.executableSql(), plan.parameters(), plan.tables(),
                plan.uses(), plan.functions(), plan.outputs(), plan.amplifications(), plan.limits());
        Throwable refused = org.assertj.core.api.Assertions.catchThrowable(() -> binding(engine).policy().authorize(unmasked));
        assertThat(refused).isInstanceOfSatisfying(GuardException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.SENSITIVE_OUTPUT_NOT_MASKED));

        ToolResult answer = run(engine, sql);
        assertThat(answer.status()).isEqualTo(ToolStatus.OK);
        assertThat(answer.rows()).hasSize(3).allSatisfy(row -> {
            assertThat(row.get(1)).isEqualTo(ResultProjector.REDACTED);
            assertThat(row.get(2)).isEqualTo(ResultProjector.REDACTED);
        });
        assertThat(answer.rows().stream().map(r -> r.get(3)).toList()).containsExactly("alice", "bob", "carol");

        QueryPlan honest = binding(engine).validator().validate(new QueryRequest("contract", "SELECT id, name FROM users ORDER BY id",
                List.of(), "mask-2"));
        assertThat(honest.maskedOutputs()).isEmpty();
    }

    /**
     * The mask comes after the query's own grouping, ordering and set operations: the rows and their
     * order are those the query gives without it. Where an engine lacks the construct, its refusal.
     */
    @Test
    void maskingKeepsTheRowsAndTheOrderOfGroupsAndSetOperations() {
        Engine engine = engine(contractPolicy());
        ToolResult grouped = run(engine, "SELECT region, max(ssn) AS s, count(*) AS n FROM claims GROUP BY region ORDER BY region DESC");
        if (!has(engine, EngineCapability.GROUP_BY)) {
            assertThat(grouped.status()).isEqualTo(ToolStatus.REJECTED);
        } else {
            assertThat(grouped.status()).isEqualTo(ToolStatus.OK);
            assertThat(grouped.rows().stream().map(r -> r.get(0)).toList()).containsExactly("west", "south", "north", "east");
            assertThat(grouped.rows()).allSatisfy(r -> assertThat(r.get(1)).isEqualTo(ResultProjector.REDACTED));
            assertThat(grouped.rows().stream().map(r -> decimal(r.get(2)).intValueExact()).toList()).containsExactly(15, 15, 15, 15);
        }
        ToolResult union = run(engine, "SELECT name AS who, password AS p FROM users UNION ALL "
                + "SELECT region, ssn FROM claims WHERE id <= 2 ORDER BY 1 DESC");
        if (!has(engine, EngineCapability.SET_OPERATIONS)) {
            assertThat(union.status()).isEqualTo(ToolStatus.REJECTED);
        } else {
            assertThat(union.status()).isEqualTo(ToolStatus.OK);
            assertThat(union.rows().stream().map(r -> r.get(0)).toList()).containsExactly("south", "east", "carol", "bob", "alice");
            assertThat(union.rows()).allSatisfy(r -> assertThat(r.get(1)).isEqualTo(ResultProjector.REDACTED));
        }
    }

    // ---------------------------------------------------------------- errors and parameters

    Stream<String> failingQueries() {
        return Stream.of(
                "SELEC id FRM claims",
                "SELECT nope FROM claims",
                "SELECT id FROM nope",
                "SELECT id FROM claims WHERE ssn = 'hunter2-alice-pw' AND nope = 1",
                "SELECT id FROM claims WHERE password_x = 's3cr3t-bob-pw'",
                "SELECT id FROM claims WHERE id = 'ak_live_bob_0002' +",
                "");
    }

    @ParameterizedTest
    @MethodSource("failingQueries")
    void errorTextIsSafe(String sql) {
        ToolResult result = run(sql);
        assertThat(result.status()).as(sql).isIn(ToolStatus.REJECTED, ToolStatus.ERROR);
        assertThat(result.error()).isPresent();
    }

    @Test
    void bindsParametersAndChecksTheirCount() {
        assertRefused(run("SELECT id FROM claims WHERE status = ?"), ErrorCode.PARAMETER_COUNT_MISMATCH);
        assertRefused(run("SELECT id FROM claims WHERE status = ?", "DENIED", "extra"), ErrorCode.PARAMETER_COUNT_MISMATCH);
        assertRefused(run("SELECT id FROM claims WHERE status = 'DENIED'", "unused"), ErrorCode.PARAMETER_COUNT_MISMATCH);

        ToolResult injected = run("SELECT id FROM claims WHERE status = ?", "x' OR '1'='1");
        assertThat(injected.status()).isEqualTo(ToolStatus.NO_EVIDENCE);

        ToolResult two = run("SELECT id FROM claims WHERE status = ? AND region = ? ORDER BY id", "DENIED", "north");
        List<Long> expected = ContractDataset.claims().stream()
                .filter(c -> c.status().equals("DENIED") && c.region().equals("north")).map(Claim::id).toList();
        assertThat(ids(two)).containsExactlyElementsOf(expected);
    }

    @Test
    void everyCallIsAuditedAndOnlyAuthorizedCallsHaveLifecycleRecords() {
        int before = audits.size();
        ToolResult ok = run("SELECT count(*) AS n FROM claims");
        ToolResult refused = run("DELETE FROM claims");
        assertThat(audits.size() - before).isEqualTo(2);
        assertThat(lifecycle).anySatisfy(r -> assertThat(r.requestId()).isEqualTo(ok.id()));
        assertNoLifecycleFor(refused);
        AuditEvent last = audits.get(audits.size() - 1);
        assertThat(last.verdict()).isEqualTo(ToolStatus.REJECTED);
        assertThat(last.sqlSha256()).isEqualTo(QueryService.sha256("DELETE FROM claims"));
    }

    // ---------------------------------------------------------------- parameters: one cause, one code; every common Java type

    /**
     * A wrong number of values is PARAMETER_COUNT_MISMATCH on every engine, with the same message,
     * whatever else the query would need to be bound ({@code ? + ?} has no type until its values do):
     * the count is checked before the engine is asked to read the statement.
     */
    @Test
    void aWrongParameterCountIsOneCodeOnEveryEngine() {
        record Case(String sql, List<Object> values, int placeholders) {
        }
        for (Case c : List.of(
                new Case("SELECT ? + ? AS x FROM claims WHERE id = 1", List.of(1L), 2),
                new Case("SELECT count(*) AS n FROM claims WHERE amount > ? + ?", List.of(1L), 2),
                new Case("SELECT count(*) AS n FROM claims WHERE id = ?", List.of(1L, 2L), 1),
                new Case("SELECT count(*) AS n FROM claims WHERE id = ? OR id = ?", List.of(), 2))) {
            ToolResult result = run(c.sql(), c.values().toArray());
            assertRefused(result, ErrorCode.PARAMETER_COUNT_MISMATCH);
            assertThat(result.error().orElseThrow().message()).as(c.sql()).isEqualTo("The SQL has " + c.placeholders()
                    + " parameter placeholder(s) but " + c.values().size() + " value(s) were supplied.");
            assertNoLifecycleFor(result);
        }
    }

    /** Each common Java type, a query whose answer depends on its value, and that answer from the dataset. */
    Stream<Arguments> commonJavaTypes() {
        java.time.LocalDate day = ContractDataset.claims().get(9).created();
        long fromDay = ContractDataset.claims().stream().filter(c -> !c.created().isBefore(day)).count();
        long afterDay = ContractDataset.claims().stream().filter(c -> c.created().isAfter(day)).count();
        java.time.OffsetDateTime noon = day.atTime(12, 0).atOffset(java.time.ZoneOffset.UTC);
        long north = ContractDataset.claims().stream().filter(c -> c.region().equals("north")).count();
        long above = ContractDataset.claims().stream().filter(c -> c.amount().compareTo(new BigDecimal("20000.50")) > 0).count();
        String byId = "SELECT count(*) AS n FROM claims WHERE id <= ?";
        String present = "SELECT count(*) AS n FROM claims WHERE id <= 3 AND ? IS NOT NULL";
        return Stream.of(
                Arguments.of("Integer", byId, 7, 7L), Arguments.of("Long", byId, 7L, 7L),
                Arguments.of("Short", byId, (short) 7, 7L), Arguments.of("Byte", byId, (byte) 7, 7L),
                Arguments.of("BigInteger", byId, java.math.BigInteger.valueOf(7), 7L),
                Arguments.of("BigDecimal", byId, new BigDecimal("7.5"), 7L),
                Arguments.of("Double", byId, 7.5d, 7L), Arguments.of("Float", byId, 7.5f, 7L),
                Arguments.of("BigDecimal money", "SELECT count(*) AS n FROM claims WHERE amount > ?", new BigDecimal("20000.50"), above),
                Arguments.of("String", "SELECT count(*) AS n FROM claims WHERE region = ?", "north", north),
                Arguments.of("Boolean", "SELECT count(*) AS n FROM claims WHERE id <= 7 AND ?", Boolean.TRUE, 7L),
                Arguments.of("LocalDate", "SELECT count(*) AS n FROM claims WHERE created >= ?", day, fromDay),
                Arguments.of("LocalDateTime", "SELECT count(*) AS n FROM claims WHERE created >= ?", day.atTime(12, 0), afterDay),
                Arguments.of("OffsetDateTime", "SELECT count(*) AS n FROM claims WHERE created >= ?", noon, afterDay),
                Arguments.of("ZonedDateTime", "SELECT count(*) AS n FROM claims WHERE created >= ?", noon.toZonedDateTime(), afterDay),
                Arguments.of("Instant", "SELECT count(*) AS n FROM claims WHERE created >= ?", noon.toInstant(), afterDay),
                Arguments.of("UUID", "SELECT count(*) AS n FROM claims WHERE id <= 3 AND ? = '7f1c2b1e-3d4a-4b5c-8d6e-9f0a1b2c3d4e'",
                        java.util.UUID.fromString("7f1c2b1e-3d4a-4b5c-8d6e-9f0a1b2c3d4e"), 3L),
                Arguments.of("UUID (other)", "SELECT count(*) AS n FROM claims WHERE id <= 3 AND ? = '00000000-3d4a-4b5c-8d6e-9f0a1b2c3d4e'",
                        java.util.UUID.fromString("7f1c2b1e-3d4a-4b5c-8d6e-9f0a1b2c3d4e"), 0L),
                Arguments.of("LocalTime", present, java.time.LocalTime.of(12, 30), 3L),
                Arguments.of("byte[]", present, new byte[] {1, 2, 3}, 3L));
    }

    /**
     * Every common Java type is accepted and binds as the engine's own type, comparing by value. A
     * parameter whose type nothing around it gives ({@code ? IS NOT NULL}) is a capability: an engine
     * that types parameters when it checks a statement (DuckDB) refuses it with QUERY_FAILED, never with
     * UNSUPPORTED_PARAMETER, and answers once the SQL gives the type ({@code CAST(? AS TIME)}); Trino
     * takes a LocalTime that way but fails to run it (QUERY_FAILED, an ERROR). An
     * engine without GROUP BY (the kit's tiny in-memory dialect) may not parse a parameter outside
     * {@code column op ?} at all: SYNTAX_ERROR, again never UNSUPPORTED_PARAMETER.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("commonJavaTypes")
    void everyCommonJavaTypeBindsAndComparesByValue(String type, String sql, Object value, long expected) {
        Engine engine = engine(contractPolicy());
        ToolResult result = run(engine, sql, value);
        boolean bare = !sql.matches("(?s).*\\w+ (<=|>=|=|>) \\?.*");
        if (bare && result.status() != ToolStatus.OK) {
            ErrorCode code = result.error().orElseThrow().code();
            if (code == ErrorCode.SYNTAX_ERROR && !has(engine, EngineCapability.GROUP_BY)) {
                return;
            }
            if (sql.contains("? IS NOT NULL")) {
                assertThat(code).as(type).isEqualTo(ErrorCode.QUERY_FAILED);
                return;
            }
        }
        assertThat(result.status()).as(type + ": " + result.error()).isEqualTo(ToolStatus.OK);
        assertThat(decimal(result.rows().get(0).get(0))).as(type).isEqualByComparingTo(BigDecimal.valueOf(expected));
    }

    // ---------------------------------------------------------------- issue 26: cut results, then honest calls (reliability)

    /**
     * Results cut at the row cap, then honest aggregates, back to back: a cut must free everything it
     * held on the engine at once (MySQL once kept a query slot per cut result until its unwind cap,
     * and refused every call after the fourth cut with ENGINE_UNAVAILABLE).
     */
    @Test
    void cutResultsThenHonestCallsBackToBackAllAnswer() {
        Engine engine = engine(contractPolicy().withLimits(Limits.defaults().withMaxRows(5)));
        boolean joins = has(engine, EngineCapability.JOINS);
        String wide = joins ? "SELECT a.id, b.id AS other FROM claims a JOIN claims b ON a.region = b.region"
                : "SELECT id, region FROM claims";
        for (int i = 0; i < 8; i++) {
            ToolResult cut = run(engine, wide);
            assertThat(cut.status()).as("cut result %d: %s", i, cut.error()).isEqualTo(ToolStatus.OK);
            assertThat(cut.truncated()).isTrue();
            assertThat(cut.returnedCount()).isEqualTo(5);
        }
        long expected = ContractDataset.claims().stream().filter(c -> c.region().equals("north")).count();
        for (int i = 0; i < 12; i++) {
            ToolResult honest = run(engine, "SELECT count(*) AS n FROM claims WHERE region = ?", "north");
            assertThat(honest.status()).as("honest call %d: %s", i, honest.error()).isEqualTo(ToolStatus.OK);
            assertThat(decimal(honest.rows().get(0).get(0)).longValueExact()).isEqualTo(expected);
        }
    }

    // ---------------------------------------------------------------- issue 26: one deadline per call, whatever phase freezes

    /** The time limit of the calls that meet a frozen server, and how far past it an answer may come. */
    private static final Duration CALL_LIMIT = Duration.ofSeconds(2);
    private static final long ANSWER_SLACK_MS = 1_000;

    /**
     * The call's time limit bounds the whole call: a server frozen (a proxy that holds back every
     * byte) at the checkout, at validation, during execution or while rows stream is answered within
     * the limit plus one second, with a retryable ERROR (never REJECTED, never OK), and the reported
     * {@code elapsed_ms} covers the call. Without a server (DuckDB, in memory) the engine's own
     * execution phase is held to the same bound. The start phase is the host's
     * ({@code SqlGuardDeadlineTest} in app/api).
     */
    @Test
    @Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    protected void everyCallAnswersWithinItsLimitWhicheverPhaseTheServerFreezesIn() throws Exception {
        GuardrailPolicy policy = contractPolicy().withLimits(Limits.defaults().withTimeout(CALL_LIMIT).withMaxRows(1_000_000));
        java.util.Optional<java.net.InetSocketAddress> server = fixture.serverAddress();
        if (server.isEmpty()) {
            Engine engine = engine(policy);
            ToolResult r = timedCall("execution", () -> run(engine, fixture.runawayQuery()));
            assertThat(r.error().orElseThrow().code()).isEqualTo(ErrorCode.EXCEEDED_TIME_LIMIT);
            return;
        }
        try (FaultProxy proxy = FaultProxy.to(server.get().getHostString(), server.get().getPort())) {
            Engine engine = fixture.engineThrough(proxy.port(), "contract", policy);
            openEngines.add(engine);
            configured.put(engine, policy);
            String known = "SELECT count(*) AS n FROM claims WHERE id > ?";
            awaitHealthy(engine, known);
            // checkout: the plan is known (no validation round trip), the server is frozen before the call takes a connection
            proxy.pause();
            Thread.sleep(600); // past the pool's window in which an idle connection is handed out unchecked
            frozenCall("checkout", () -> run(engine, known, 0L));
            proxy.resume();
            awaitHealthy(engine, known);
            // validation: a text the engine has not read, so an engine that asks its server (EXPLAIN) does so first
            proxy.pause();
            frozenCall("validation", () -> run(engine, "SELECT count(*) AS n FROM claims WHERE id > ? AND amount > ?", 0L, 0L));
            proxy.resume();
            awaitHealthy(engine, known);
            // execution: the server freezes while the query runs (its kill or cancel cannot get through either)
            java.util.concurrent.ScheduledExecutorService pauser = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
            try {
                pauser.schedule(proxy::pause, 300, java.util.concurrent.TimeUnit.MILLISECONDS);
                frozenCall("execution", () -> run(engine, fixture.runawayQuery()));
            } finally {
                pauser.shutdownNow();
            }
            proxy.resume();
            awaitHealthy(engine, known);
            // fetch: rows stream, then the server freezes
            if (has(engine, EngineCapability.JOINS)) {
                String wide = "SELECT a.id, b.id AS b_id, c.id AS c_id, d.id AS d_id FROM claims a JOIN claims b ON a.id > 0"
                        + " JOIN claims c ON c.id > 0 JOIN claims d ON d.id > 0";
                long started = System.nanoTime();
                dev.sqlguard.domain.CallDeadline call = dev.sqlguard.domain.CallDeadline.of(started, CALL_LIMIT);
                try (dev.sqlguard.domain.CallDeadline.Scope scope = call.enter()) {
                    QueryPlan plan = engine.validator().validate(QueryRequest.of("contract", wide));
                    try (ResultCursor cursor = engine.execution().execute(plan)) {
                        assertThat(cursor.next()).isTrue();
                        proxy.pause();
                        org.assertj.core.api.Assertions.assertThatThrownBy(() -> {
                            while (cursor.next()) {
                                cursor.get(0);
                            }
                        }).isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).as("fetch")
                                .isIn(ErrorCode.EXCEEDED_TIME_LIMIT, ErrorCode.ENGINE_UNAVAILABLE));
                    }
                }
                long tookMs = (System.nanoTime() - started) / 1_000_000;
                assertThat(tookMs).as("fetch: answered after %d ms", tookMs).isLessThanOrEqualTo(CALL_LIMIT.toMillis() + ANSWER_SLACK_MS);
                proxy.resume();
                awaitHealthy(engine, known);
            }
        }
    }

    /** Runs {@code call} and checks that it answered within the limit plus the slack, covering its time in elapsed_ms. */
    private ToolResult timedCall(String phase, java.util.function.Supplier<ToolResult> call) {
        long started = System.nanoTime();
        int auditsBefore = audits.size();
        ToolResult r = call.get();
        long tookMs = (System.nanoTime() - started) / 1_000_000;
        assertThat(tookMs).as("%s: answered after %d ms (%s)", phase, tookMs, r.error()).isLessThanOrEqualTo(CALL_LIMIT.toMillis() + ANSWER_SLACK_MS);
        assertThat(r.elapsedMs()).as("%s: elapsed_ms", phase).isLessThanOrEqualTo(tookMs);
        assertThat(audits.size()).as("%s: one audit record", phase).isEqualTo(auditsBefore + 1);
        return r;
    }

    /** A call that meets the frozen server: a retryable ERROR within the bound. */
    private void frozenCall(String phase, java.util.function.Supplier<ToolResult> call) {
        ToolResult r = timedCall(phase, call);
        assertThat(r.status()).as("%s: %s", phase, r.error()).isEqualTo(ToolStatus.ERROR);
        assertThat(r.error().orElseThrow().code()).as(phase).isIn(ErrorCode.EXCEEDED_TIME_LIMIT, ErrorCode.ENGINE_UNAVAILABLE);
        assertThat(r.error().orElseThrow().retryable()).isTrue();
    }

    /** Waits until the engine answers again after the server came back (frozen connections are evicted, not reused). */
    private void awaitHealthy(Engine engine, String known) throws InterruptedException {
        ToolResult r = run(engine, known, 0L);
        for (int attempt = 1; attempt < 20 && r.status() != ToolStatus.OK; attempt++) {
            Thread.sleep(250);
            r = run(engine, known, 0L);
        }
        assertThat(r.status()).as("the engine serves again: %s", r.error()).isEqualTo(ToolStatus.OK);
    }

    // ---------------------------------------------------------------- helpers

    /** Every message is safe: no stack trace, driver text, path, credential or refused data. */
    protected static void assertSafe(ToolResult result) {
        result.error().ifPresent(error -> {
            String m = error.message();
            assertThat(m).isNotBlank().hasSizeLessThanOrEqualTo(300);
            assertThat(m).doesNotContainIgnoringCase("exception").doesNotContainIgnoringCase("sqlstate")
                    .doesNotContain("\tat ").doesNotContain("jdbc:").doesNotContain("/").doesNotContain("\\")
                    .doesNotContain("\n").doesNotContainIgnoringCase("caused by");
            for (String secret : ContractDataset.SECRETS) {
                assertThat(m).doesNotContain(secret);
            }
        });
        for (List<Object> row : result.rows()) {
            for (Object cell : row) {
                if (cell instanceof String s) {
                    for (String secret : ContractDataset.SECRETS) {
                        assertThat(s).as("a secret leaked in a cell").doesNotContain(secret);
                    }
                    assertThat(s).doesNotContain("root:x:0:0");
                }
            }
        }
    }

    protected static void assertRefused(ToolResult result, ErrorCode code) {
        assertThat(result.status()).isEqualTo(ToolStatus.REJECTED);
        assertThat(result.error().orElseThrow().code()).isEqualTo(code);
        assertThat(result.rows()).isEmpty();
    }

    private void assertNoLifecycleFor(ToolResult result) {
        assertThat(lifecycle).noneSatisfy(r -> assertThat(r.requestId()).isEqualTo(result.id()));
    }

    private static int columnIndex(ToolResult result, String name) {
        for (int i = 0; i < result.columns().size(); i++) {
            if (result.columns().get(i).name().equalsIgnoreCase(name)) {
                return i;
            }
        }
        throw new AssertionError("no column " + name + " in " + result.columns());
    }

    private static List<Long> ids(ToolResult result) {
        return result.rows().stream().map(r -> decimal(r.get(0)).longValueExact()).toList();
    }

    private static BigDecimal decimal(Object value) {
        return new BigDecimal(String.valueOf(value));
    }

    private static List<List<String>> normalize(List<List<Object>> rows) {
        return rows.stream().map(r -> r.stream().map(v -> v instanceof Number n ? decimal(n).stripTrailingZeros().toPlainString()
                : String.valueOf(v)).toList()).toList();
    }
}
