package dev.sqlguard.trino.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import dev.sqlguard.domain.CostClass;
import dev.sqlguard.jdbc.ansi.FunctionRules;
import dev.sqlguard.testing.prover.CatalogProver;
import dev.sqlguard.testing.prover.Finding;
import dev.sqlguard.testing.prover.ProverReport;
import dev.sqlguard.trino.TestCluster;

/**
 * Proves {@link FunctionCatalog} against the test cluster: every classified function's signatures
 * from {@code SHOW FUNCTIONS}, each total argument over adversarial values, every argument's growth,
 * and the casts the renderer calls total. A copy of the catalog with one entry flipped must fail.
 * Run it under the machine-wide Trino lock.
 */
@Tag("trino")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(600)
class TrinoCatalogProverTest {
    /** The casts the renderer writes to text on Trino ({@code text} is rendered {@code varchar}). */
    private static final Set<String> CASTS = Set.of("cast:varchar", "cast:varchar(3)", "cast:char(3)");

    private Connection connection;
    private CatalogProver prover;

    @BeforeAll
    void connect() throws SQLException {
        TestCluster.require();
        connection = TestCluster.connect(TestCluster.ADMIN, "default");
        try (Statement s = connection.createStatement()) {
            s.execute("SET SESSION query_max_run_time = '60s'");
        }
        prover = new CatalogProver(new TrinoProverDialect(), connection);
    }

    @AfterAll
    void close() throws SQLException {
        if (connection != null) {
            connection.close();
        }
    }

    @Test
    void theCatalogMatchesTheEngine() throws SQLException {
        ProverReport report = prover.prove(new RulesClasses(FunctionCatalog.RULES, CASTS));
        System.out.println("Trino catalog prover: " + report.describe());
        report.skipped().forEach(s -> System.out.println("  skipped " + s));
        assertThat(report.findings()).as(report.describe()).isEmpty();
        assertThat(report.unproven()).as(report.describe()).isSubsetOf("extract", "position");
    }

    @Test
    void aPartialArgumentMarkedTotalFailsTheProver() throws SQLException {
        Map<String, Set<Integer>> parameters = new HashMap<>(FunctionCatalog.RULES.parameterArguments());
        parameters.remove("date_trunc");
        FunctionRules r = FunctionCatalog.RULES;
        FunctionRules flipped = new FunctionRules(r.engine(), r.classes(), r.never(), r.neverPrefixes(), r.external(),
                r.externalPrefixes(), r.syntax(), r.aggregates(), r.window(), parameters, r.absent(), r.sizeArguments(), r.totalCasts());
        ProverReport report = prover.prove(new RulesClasses(flipped, Set.of()), Set.of("date_trunc"));
        System.out.println("Trino, date_trunc's unit flipped to total: " + report.describe());
        assertThat(report.findings()).anySatisfy(f -> {
            assertThat(f.signature().function()).isEqualTo("date_trunc");
            assertThat(f.position()).isZero();
            assertThat(f.kind()).isEqualTo(Finding.Kind.FAILS_ON_VALUE);
        });
    }

    @Test
    void anAmplifyingFunctionMarkedBoundedFailsTheProver() throws SQLException {
        FunctionRules r = FunctionCatalog.RULES;
        Map<String, CostClass> classes = new HashMap<>(r.classes());
        classes.put("lpad", CostClass.PARTIAL);
        FunctionRules flipped = new FunctionRules(r.engine(), classes, r.never(), r.neverPrefixes(), r.external(),
                r.externalPrefixes(), r.syntax(), r.aggregates(), r.window(), r.parameterArguments(), r.absent(), r.sizeArguments(),
                r.totalCasts());
        ProverReport report = prover.prove(new RulesClasses(flipped, Set.of()), Set.of("lpad"));
        System.out.println("Trino, lpad flipped to bounded: " + report.describe());
        assertThat(report.findings()).anySatisfy(f -> {
            assertThat(f.signature().function()).isEqualTo("lpad");
            assertThat(f.position()).isEqualTo(1);
            assertThat(f.kind()).isEqualTo(Finding.Kind.GROWS_FASTER);
        });
    }

    @Test
    void aFailingCastMarkedTotalFailsTheProver() throws SQLException {
        FunctionRules r = FunctionCatalog.RULES;
        FunctionRules flipped = new FunctionRules(r.engine(), r.classes(), r.never(), r.neverPrefixes(), r.external(),
                r.externalPrefixes(), r.syntax(), r.aggregates(), r.window(), r.parameterArguments(), r.absent(), r.sizeArguments(),
                FunctionRules.TEXT_CASTS);
        ProverReport report = prover.prove(new RulesClasses(flipped, Set.of("cast:varchar(3)")), Set.of("cast:varchar(3)"));
        System.out.println("Trino, a cast to varchar(3) marked total: " + report.describe());
        assertThat(report.findings()).anySatisfy(f -> assertThat(f.kind()).isEqualTo(Finding.Kind.FAILS_ON_VALUE));
    }
}
