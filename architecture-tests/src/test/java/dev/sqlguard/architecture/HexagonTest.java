package dev.sqlguard.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.PackageMatcher;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.Slice;
import com.tngtech.archunit.library.dependencies.Slices;

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

    static Stream<String> rulePackages() {
        return HexagonRules.RULE_PACKAGES.stream();
    }

    /** A rule over an empty package checks nothing: every package a rule names must hold classes. */
    @ParameterizedTest
    @MethodSource("rulePackages")
    void everyRulePackageHoldsClasses(String pkg) {
        PackageMatcher matcher = PackageMatcher.of(pkg);
        assertThat(production.stream().filter(c -> matcher.matches(c.getPackageName())).count()).as(pkg).isPositive();
    }

    /** The adapter rule names no package: it must still find the adapters that exist. */
    @Test
    void theAdapterRuleFindsEveryAdapter() {
        List<Slice> adapters = Slices.matching(HexagonRules.TOP_LEVEL_PACKAGES).transform(production).stream()
                .filter(HexagonRules.ADAPTERS).toList();
        assertThat(adapters).extracting(s -> s.getNamePart(1)).contains("duckdb", "mysql", "postgresql", "trino", "h2", "llm").doesNotContain("testing");
        assertThat(adapters).allSatisfy(slice -> assertThat(slice).isNotEmpty());
    }

    @Test
    void noAdapterDecidesAFunction() {
        HexagonRules.NO_ADAPTER_DECIDES_A_FUNCTION.check(production);
    }

    @Test
    void noAdapterReadsTheConfiguredFunctionLists() {
        HexagonRules.NO_ADAPTER_READS_THE_CONFIGURED_FUNCTION_LISTS.check(production);
    }

    @Test
    void theHostEnforcesTheConfiguredPolicy() {
        HexagonRules.THE_HOST_ENFORCES_THE_CONFIGURED_POLICY.check(production);
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
    void theTestingKitUsesOnlyPortsAndTheDomain() {
        HexagonRules.TESTING_USES_ONLY_THE_KIT.check(production);
    }

    @Test
    void theJdbcKitUsesOnlyPortsTheDomainAndJavaSql() {
        HexagonRules.JDBC_KIT_USES_ONLY_PORTS_AND_JDBC.check(production);
    }

    @Test
    void theAnsiRendererUsesOnlyTheKitAndTheParser() {
        HexagonRules.JDBC_ANSI_USES_ONLY_THE_KIT_AND_THE_PARSER.check(production);
    }

    @Test
    void noProductionCodeUsesTheTestKit() {
        HexagonRules.NO_PRODUCTION_CODE_USES_THE_TEST_KIT.check(production);
    }

    @Test
    void adaptersNeverSeeEachOther() {
        HexagonRules.ADAPTERS_NEVER_SEE_EACH_OTHER.check(production);
    }

    @Test
    void nothingDependsOnApp() {
        HexagonRules.NOTHING_DEPENDS_ON_APP.check(production);
    }

    @Test
    void appIsLayeredCliMcpAgentToolsApi() {
        HexagonRules.EVERY_APP_CLASS_IS_IN_A_LAYER.check(production);
        HexagonRules.API_USES_NO_HIGHER_LAYER.check(production);
        HexagonRules.TOOLS_USE_ONLY_THE_API.check(production);
        HexagonRules.AGENT_USES_NEITHER_MCP_NOR_CLI.check(production);
        HexagonRules.MCP_DOES_NOT_USE_THE_CLI.check(production);
    }

    @Test
    void mcpDoesNotDependOnTheAgent() {
        HexagonRules.MCP_DOES_NOT_USE_THE_AGENT.check(production);
    }

    @Test
    void guiceOnlyInCli() {
        HexagonRules.GUICE_ONLY_IN_CLI.check(production);
    }

    @Test
    void poiIsOnlyInIngestion() {
        HexagonRules.POI_ONLY_IN_INGESTION.check(production);
    }

    @Test
    void modelOutputIsNeverExecuted() {
        HexagonRules.MODEL_OUTPUT_IS_NEVER_EXECUTED.check(production);
    }
}
