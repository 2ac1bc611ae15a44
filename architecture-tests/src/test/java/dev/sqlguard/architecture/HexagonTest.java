package dev.sqlguard.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/** Checks the production classes of every module against the hexagon's rules. */
class HexagonTest {
    private static JavaClasses production;

    @BeforeAll
    static void importProductionClasses() {
        production = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("/architecture-tests/"))
                .importPackages("dev.sqlguard");
    }

    /** A rule over an empty package checks nothing: every package a rule names must hold classes. */
    @ParameterizedTest
    @ValueSource(strings = {"dev.sqlguard.domain", "dev.sqlguard.ports", "dev.sqlguard.duckdb", "dev.sqlguard.mysql",
            "dev.sqlguard.llm", "dev.sqlguard.app"})
    void everyRulePackageHoldsClasses(String pkg) {
        assertThat(production.stream().filter(c -> c.getPackageName().startsWith(pkg)).count()).as(pkg).isPositive();
    }

    @Test
    void domainUsesOnlyTheJdk() {
        HexagonRules.DOMAIN_USES_ONLY_THE_JDK.check(production);
    }

    @Test
    void domainNeverTouchesJdbc() {
        HexagonRules.DOMAIN_NEVER_TOUCHES_JDBC.check(production);
    }

    @Test
    void portsDependOnlyOnTheDomain() {
        HexagonRules.PORTS_DEPEND_ONLY_ON_THE_DOMAIN.check(production);
    }

    @Test
    void adaptersNeverDependOnOneAnother() {
        HexagonRules.DUCKDB_IS_ALONE.check(production);
        HexagonRules.MYSQL_IS_ALONE.check(production);
        HexagonRules.LLM_IS_ALONE.check(production);
    }

    @Test
    void nothingDependsOnApp() {
        HexagonRules.NOTHING_DEPENDS_ON_APP.check(production);
    }

    @Test
    void guiceOnlyInApp() {
        HexagonRules.GUICE_ONLY_IN_APP.check(production);
    }

    @Test
    void modelOutputIsNeverExecuted() {
        HexagonRules.MODEL_OUTPUT_IS_NEVER_EXECUTED.check(production);
    }
}
