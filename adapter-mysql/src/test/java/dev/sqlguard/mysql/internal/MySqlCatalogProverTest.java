package dev.sqlguard.mysql.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import dev.sqlguard.domain.CostClass;
import dev.sqlguard.mysql.TestServer;
import dev.sqlguard.testing.prover.CatalogProver;
import dev.sqlguard.testing.prover.Finding;
import dev.sqlguard.testing.prover.ProverReport;

/**
 * Proves {@link MySqlFunctions} against the server (MariaDB here), in the session sqlguard pins
 * (its sql_mode, read-only, a one-second statement time): every catalogued function at every arity
 * the server accepts, each argument over adversarial values, and the output's growth. A copy with
 * one entry flipped must fail.
 */
@Tag("mysql")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(240)
class MySqlCatalogProverTest {
    private Connection connection;
    private CatalogProver prover;

    @BeforeAll
    void connect() throws SQLException {
        assumeTrue(TestServer.available(), "no MySQL server");
        Properties p = new Properties();
        p.setProperty("user", TestServer.roUser());
        p.setProperty("password", TestServer.roPassword());
        connection = DriverManager.getConnection(TestServer.url() + "/", p);
        String mode;
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SELECT @@SESSION.sql_mode")) {
            rs.next();
            mode = ServerFlavor.pinnedMode(rs.getString(1));
        }
        try (Statement s = connection.createStatement()) {
            s.execute("SET SESSION sql_mode = '" + mode + "'");
            s.execute("SET SESSION max_statement_time = 1");
        }
        prover = new CatalogProver(new MySqlProverDialect(), connection);
    }

    @AfterAll
    void close() throws SQLException {
        if (connection != null) {
            connection.close();
        }
    }

    @Test
    void theCatalogMatchesTheEngine() throws SQLException {
        MySqlClasses catalog = MySqlClasses.catalog();
        ProverReport report = prover.prove(catalog);
        System.out.println("MySQL catalog prover: " + report.describe());
        report.skipped().forEach(s -> System.out.println("  skipped " + s));
        assertThat(report.findings()).as(report.describe()).isEmpty();
        assertThat(report.unproven()).as(report.describe()).isSubsetOf(UNPROVABLE.keySet());
    }

    /** Catalogued names the prover cannot call as {@code f(...)} on this server, each with why. */
    private static final Map<String, String> UNPROVABLE = Map.of(
            "any_value", "MariaDB has no such function (MySQL 8 has): a call fails as an unknown function",
            "div", "an operator, written a DIV b");

    @Test
    void aPartialFunctionMarkedTotalFailsTheProver() throws SQLException {
        MySqlClasses flipped = new MySqlClasses(Map.of("exp", CostClass.TOTAL), MySqlFunctions.PARAMETER_ARGUMENTS, Set.of("exp"));
        ProverReport report = prover.prove(flipped);
        System.out.println("MySQL, exp flipped to total: " + report.describe());
        assertThat(report.findings()).anySatisfy(f -> {
            assertThat(f.signature().function()).isEqualTo("exp");
            assertThat(f.kind()).isEqualTo(Finding.Kind.FAILS_ON_VALUE);
        });
    }

    @Test
    void aParameterArgumentMarkedTotalFailsTheProver() throws SQLException {
        MySqlClasses flipped = new MySqlClasses(Map.of(), without("nth_value"), Set.of("nth_value"));
        ProverReport report = prover.prove(flipped);
        System.out.println("MySQL, nth_value's position flipped to total: " + report.describe());
        assertThat(report.findings()).anySatisfy(f -> {
            assertThat(f.signature().function()).isEqualTo("nth_value");
            assertThat(f.position()).isEqualTo(1);
            assertThat(f.kind()).isEqualTo(Finding.Kind.FAILS_ON_VALUE);
        });
    }

    @Test
    void anAmplifyingFunctionMarkedBoundedFailsTheProver() throws SQLException {
        MySqlClasses flipped = new MySqlClasses(Map.of("repeat", CostClass.PARTIAL), MySqlFunctions.PARAMETER_ARGUMENTS,
                Set.of("repeat"));
        ProverReport report = prover.prove(flipped);
        System.out.println("MySQL, repeat flipped to bounded: " + report.describe());
        assertThat(report.findings()).anySatisfy(f -> {
            assertThat(f.signature().function()).isEqualTo("repeat");
            assertThat(f.position()).isEqualTo(1);
            assertThat(f.kind()).isEqualTo(Finding.Kind.GROWS_FASTER);
        });
    }

    static Map<String, Set<Integer>> without(String name) {
        Map<String, Set<Integer>> m = new HashMap<>(MySqlFunctions.PARAMETER_ARGUMENTS);
        m.remove(name);
        return m;
    }
}
