package dev.sqlguard.postgresql.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.DriverManager;
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

import dev.sqlguard.jdbc.ansi.FunctionRules;
import dev.sqlguard.postgresql.TestServer;
import dev.sqlguard.testing.prover.CatalogProver;
import dev.sqlguard.testing.prover.Finding;
import dev.sqlguard.testing.prover.ProverReport;

/**
 * Proves {@link FunctionCatalog} against the local PostgreSQL: every classified function and cast,
 * each argument over adversarial values, and the output's growth. A copy of the catalog with one
 * entry flipped must fail.
 */
@Tag("postgresql")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(240)
class PostgresCatalogProverTest {
    private Connection connection;
    private CatalogProver prover;

    @BeforeAll
    void connect() throws SQLException {
        assumeTrue(TestServer.available(), "no PostgreSQL server");
        TestServer.Coordinates server = TestServer.defaults();
        connection = DriverManager.getConnection(server.url(), server.roUser(), server.roPassword());
        try (Statement s = connection.createStatement()) {
            s.execute("SET statement_timeout = '1s'");
            s.execute("SET TIME ZONE 'UTC'");
        }
        prover = new CatalogProver(new PostgresProverDialect(), connection);
    }

    @AfterAll
    void close() throws SQLException {
        if (connection != null) {
            connection.close();
        }
    }

    @Test
    void theCatalogMatchesTheEngine() throws SQLException {
        ProverReport report = prover.prove(new RulesClasses(FunctionCatalog.RULES, RulesClasses.TEXT_CASTS));
        System.out.println("PostgreSQL catalog prover: " + report.describe());
        report.skipped().forEach(s -> System.out.println("  skipped " + s));
        assertThat(report.findings()).as(report.describe()).isEmpty();
        assertThat(report.unproven()).as(report.describe()).isEmpty();
        assertThat(report.proven()).containsAll(FunctionCatalog.RULES.classes().keySet());
    }

    @Test
    void aPartialArgumentMarkedTotalFailsTheProver() throws SQLException {
        Map<String, Set<Integer>> parameters = new HashMap<>(FunctionCatalog.RULES.parameterArguments());
        parameters.remove("date_trunc");
        ProverReport report = prover.prove(new RulesClasses(with(FunctionCatalog.RULES, parameters,
                FunctionCatalog.RULES.sizeArguments()), Set.of()), Set.of("date_trunc"));
        System.out.println("PostgreSQL, date_trunc's unit and zone flipped to total: " + report.describe());
        assertThat(report.findings()).anySatisfy(f -> {
            assertThat(f.signature().function()).isEqualTo("date_trunc");
            assertThat(f.position()).isZero();
            assertThat(f.kind()).isEqualTo(Finding.Kind.FAILS_ON_VALUE);
        });
    }

    @Test
    void anAmplifyingArgumentMarkedBoundedFailsTheProver() throws SQLException {
        Map<String, Set<Integer>> sizes = new HashMap<>(FunctionCatalog.RULES.sizeArguments());
        sizes.remove("round");
        sizes.remove("exp");
        ProverReport report = prover.prove(new RulesClasses(with(FunctionCatalog.RULES, FunctionCatalog.RULES.parameterArguments(),
                sizes), Set.of()), Set.of("round", "exp"));
        System.out.println("PostgreSQL, round's scale and exp's argument flipped to bounded: " + report.describe());
        assertThat(report.findings()).anySatisfy(f -> {
            assertThat(f.signature().function()).isEqualTo("round");
            assertThat(f.position()).isEqualTo(1);
            assertThat(f.kind()).isEqualTo(Finding.Kind.GROWS_FASTER);
        });
        assertThat(report.findings()).anySatisfy(f -> {
            assertThat(f.signature().function()).isEqualTo("exp");
            assertThat(f.kind()).isEqualTo(Finding.Kind.GROWS_FASTER);
        });
    }

    @Test
    void aFailingCastMarkedTotalFailsTheProver() throws SQLException {
        FunctionRules r = FunctionCatalog.RULES;
        FunctionRules flipped = new FunctionRules(r.engine(), r.classes(), r.never(), r.neverPrefixes(), r.external(),
                r.externalPrefixes(), r.syntax(), r.aggregates(), r.window(), r.parameterArguments(), r.absent(), r.sizeArguments(),
                Set.of("text", "varchar*", "char*", "numeric*"));
        ProverReport report = prover.prove(new RulesClasses(flipped, Set.of("cast:numeric(5,2)")), Set.of("cast:numeric(5,2)"));
        System.out.println("PostgreSQL, a cast to numeric(5,2) flipped to total: " + report.describe());
        assertThat(report.findings()).anySatisfy(f -> assertThat(f.kind()).isEqualTo(Finding.Kind.FAILS_ON_VALUE));
    }

    private static FunctionRules with(FunctionRules r, Map<String, Set<Integer>> parameters, Map<String, Set<Integer>> sizes) {
        return new FunctionRules(r.engine(), r.classes(), r.never(), r.neverPrefixes(), r.external(), r.externalPrefixes(),
                r.syntax(), r.aggregates(), r.window(), parameters, r.absent(), sizes, r.totalCasts());
    }
}
