package dev.sqlguard.architecture;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;

import dev.sqlguard.app.agent.archfixture.AgentClassUsingMcp;
import dev.sqlguard.app.agent.archfixture.AgentThing;
import dev.sqlguard.app.archfixture.AppThing;
import dev.sqlguard.app.internal.cli.archfixture.CliThing;
import dev.sqlguard.app.internal.mcp.archfixture.McpClassUsingCli;
import dev.sqlguard.app.internal.mcp.archfixture.McpClassUsingTheAgent;
import dev.sqlguard.app.internal.mcp.archfixture.McpClassUsingTheTools;
import dev.sqlguard.app.internal.mcp.archfixture.McpThing;
import dev.sqlguard.app.internal.wiring.archfixture.ApiClassBindingTheConfiguredPolicy;
import dev.sqlguard.app.internal.wiring.archfixture.ApiClassTakingTheEnginesPolicy;
import dev.sqlguard.app.internal.wiring.archfixture.ApiClassUsingGuice;
import dev.sqlguard.app.internal.wiring.archfixture.ApiClassUsingTheAgent;
import dev.sqlguard.app.tools.archfixture.ToolsClassUsingTheAgent;
import dev.sqlguard.app.tools.archfixture.ToolsThing;
import dev.sqlguard.domain.archfixture.DomainClassUsingJackson;
import dev.sqlguard.domain.archfixture.DomainClassUsingJdbc;
import dev.sqlguard.domain.archfixture.DomainClassUsingRegexOnly;
import dev.sqlguard.duckdb.archfixture.DuckDbClassAnsweringAboutFunctionNames;
import dev.sqlguard.duckdb.archfixture.DuckDbClassComputingTheFunctionList;
import dev.sqlguard.duckdb.archfixture.DuckDbClassReadingTheConfiguredFunctions;
import dev.sqlguard.duckdb.archfixture.DuckDbClassUsingMySql;
import dev.sqlguard.duckdb.archfixture.DuckDbClassWideningTheFunctionList;
import dev.sqlguard.duckdb.archfixture.DuckDbClassUsingApp;
import dev.sqlguard.duckdb.archfixture.DuckDbClassUsingGuice;
import dev.sqlguard.duckdb.archfixture.DuckDbClassUsingPoi;
import dev.sqlguard.duckdb.archfixture.DuckDbClassUsingTheTestKit;
import dev.sqlguard.jdbc.ansi.archfixture.AnsiClassUsingAnAdapter;
import dev.sqlguard.jdbc.ansi.archfixture.AnsiThing;
import dev.sqlguard.jdbc.archfixture.JdbcKitClassComputingTheFunctionList;
import dev.sqlguard.jdbc.archfixture.JdbcKitClassReadingTheConfiguredTableFunctions;
import dev.sqlguard.jdbc.archfixture.JdbcKitClassUsingADriver;
import dev.sqlguard.jdbc.archfixture.JdbcKitClassUsingAnAdapter;
import dev.sqlguard.jdbc.archfixture.JdbcKitClassUsingTheParser;
import dev.sqlguard.jdbc.archfixture.JdbcKitThing;
import dev.sqlguard.llm.archfixture.LlmClassRunningAProcess;
import dev.sqlguard.llm.archfixture.LlmClassUsingRuntimeExec;
import dev.sqlguard.llm.archfixture.LlmClassUsingScriptEngine;
import dev.sqlguard.mysql.archfixture.MySqlThing;
import dev.sqlguard.ports.archfixture.PortClassUsingJackson;
import dev.sqlguard.testing.archfixture.KitClassUsingAnAdapter;
import dev.sqlguard.testing.archfixture.KitClassUsingApp;
import dev.sqlguard.testing.archfixture.KitThing;

/** Every rule must fail on a deliberately bad class; otherwise it proves nothing. */
class RulesCanFailTest {
    private static void assertViolated(ArchRule rule, Class<?>... bad) {
        JavaClasses classes = new ClassFileImporter().importClasses(bad);
        assertThatThrownBy(() -> rule.check(classes)).isInstanceOf(AssertionError.class);
    }

    @Test
    void domainRulesFailOnJdbc() {
        assertViolated(HexagonRules.DOMAIN_NEVER_TOUCHES_JDBC, DomainClassUsingJdbc.class);
        assertViolated(HexagonRules.DOMAIN_NEVER_TOUCHES_JDBC, DomainClassUsingJackson.class);
        assertViolated(HexagonRules.DOMAIN_USES_ONLY_THE_JDK, DomainClassUsingJackson.class);
    }

    @Test
    void domainRuleAllowsPlainJdk() {
        HexagonRules.DOMAIN_USES_ONLY_THE_JDK.check(new ClassFileImporter().importClasses(DomainClassUsingRegexOnly.class));
    }

    @Test
    void portsRuleFailsOnJackson() {
        assertViolated(HexagonRules.PORTS_DEPEND_ONLY_ON_THE_DOMAIN, PortClassUsingJackson.class);
    }

    @Test
    void theTestingKitRuleFailsOnAnAdapterOrTheApp() {
        assertViolated(HexagonRules.TESTING_USES_ONLY_THE_KIT, KitClassUsingAnAdapter.class);
        assertViolated(HexagonRules.TESTING_USES_ONLY_THE_KIT, KitClassUsingApp.class);
    }

    @Test
    void theTestingKitRuleAllowsPortsTheDomainJUnitAndAssertJ() {
        HexagonRules.TESTING_USES_ONLY_THE_KIT.check(new ClassFileImporter().importClasses(KitThing.class));
    }

    @Test
    void theJdbcKitRuleFailsOnADriverOrAnAdapter() {
        assertViolated(HexagonRules.JDBC_KIT_USES_ONLY_PORTS_AND_JDBC, JdbcKitClassUsingADriver.class);
        assertViolated(HexagonRules.JDBC_KIT_USES_ONLY_PORTS_AND_JDBC, JdbcKitClassUsingAnAdapter.class);
    }

    @Test
    void theJdbcKitRuleFailsOnTheParserOutsideTheAnsiRenderer() {
        assertViolated(HexagonRules.JDBC_KIT_USES_ONLY_PORTS_AND_JDBC, JdbcKitClassUsingTheParser.class);
    }

    @Test
    void theAnsiRendererRuleFailsOnAnAdapter() {
        assertViolated(HexagonRules.JDBC_ANSI_USES_ONLY_THE_KIT_AND_THE_PARSER, AnsiClassUsingAnAdapter.class);
    }

    @Test
    void theAnsiRendererRuleAllowsTheParserAndTheKit() {
        HexagonRules.JDBC_ANSI_USES_ONLY_THE_KIT_AND_THE_PARSER.check(new ClassFileImporter().importClasses(AnsiThing.class));
    }

    @Test
    void theJdbcKitRuleAllowsJavaSqlPortsAndTheDomain() {
        HexagonRules.JDBC_KIT_USES_ONLY_PORTS_AND_JDBC.check(new ClassFileImporter().importClasses(JdbcKitThing.class));
    }

    @Test
    void productionCodeUsingTheTestKitFails() {
        assertViolated(HexagonRules.NO_PRODUCTION_CODE_USES_THE_TEST_KIT, DuckDbClassUsingTheTestKit.class);
    }

    @Test
    void adapterIsolationFails() {
        // a slice rule sees only the classes it is given: the adapter used must be imported too
        assertViolated(HexagonRules.ADAPTERS_NEVER_SEE_EACH_OTHER, DuckDbClassUsingMySql.class, MySqlThing.class);
    }

    @Test
    void adapterIsolationLeavesTheCoreAlone() {
        HexagonRules.ADAPTERS_NEVER_SEE_EACH_OTHER.check(new ClassFileImporter()
                .importClasses(DuckDbClassUsingApp.class, AppThing.class, DomainClassUsingRegexOnly.class));
    }

    @Test
    void appDependencyFails() {
        assertViolated(HexagonRules.NOTHING_DEPENDS_ON_APP, DuckDbClassUsingApp.class);
    }

    @Test
    void appLayeringFails() {
        assertViolated(HexagonRules.API_USES_NO_HIGHER_LAYER, ApiClassUsingTheAgent.class);
        assertViolated(HexagonRules.AGENT_USES_NEITHER_MCP_NOR_CLI, AgentClassUsingMcp.class);
        assertViolated(HexagonRules.MCP_DOES_NOT_USE_THE_CLI, McpClassUsingCli.class);
        assertViolated(HexagonRules.TOOLS_USE_ONLY_THE_API, ToolsClassUsingTheAgent.class);
        assertViolated(HexagonRules.EVERY_APP_CLASS_IS_IN_A_LAYER, AppThing.class);
    }

    @Test
    void appLayeringAllowsEachLayerItsOwnPackages() {
        JavaClasses layered = new ClassFileImporter()
                .importClasses(AgentThing.class, McpThing.class, CliThing.class, ToolsThing.class, ApiClassUsingGuice.class);
        HexagonRules.EVERY_APP_CLASS_IS_IN_A_LAYER.check(layered);
        HexagonRules.API_USES_NO_HIGHER_LAYER.check(layered);
    }

    @Test
    void mcpUsingTheAgentFails() {
        assertViolated(HexagonRules.MCP_DOES_NOT_USE_THE_AGENT, McpClassUsingTheAgent.class);
    }

    @Test
    void mcpUsingTheToolsPasses() {
        HexagonRules.MCP_DOES_NOT_USE_THE_AGENT.check(new ClassFileImporter().importClasses(McpClassUsingTheTools.class, ToolsThing.class));
    }

    @Test
    void guiceOutsideTheCliFails() {
        assertViolated(HexagonRules.GUICE_ONLY_IN_CLI, DuckDbClassUsingGuice.class);
        assertViolated(HexagonRules.GUICE_ONLY_IN_CLI, ApiClassUsingGuice.class);
    }

    @Test
    void poiOutsideIngestionFails() {
        assertViolated(HexagonRules.POI_ONLY_IN_INGESTION, DuckDbClassUsingPoi.class);
    }

    @Test
    void anAdapterComputingOrRewritingTheFunctionListFails() {
        assertViolated(HexagonRules.NO_ADAPTER_DECIDES_A_FUNCTION, DuckDbClassComputingTheFunctionList.class);
        assertViolated(HexagonRules.NO_ADAPTER_DECIDES_A_FUNCTION, DuckDbClassWideningTheFunctionList.class);
        assertViolated(HexagonRules.NO_ADAPTER_DECIDES_A_FUNCTION, JdbcKitClassComputingTheFunctionList.class);
    }

    @Test
    void anAdapterReadingTheConfiguredFunctionListsFails() {
        assertViolated(HexagonRules.NO_ADAPTER_READS_THE_CONFIGURED_FUNCTION_LISTS, DuckDbClassReadingTheConfiguredFunctions.class);
        assertViolated(HexagonRules.NO_ADAPTER_READS_THE_CONFIGURED_FUNCTION_LISTS, JdbcKitClassReadingTheConfiguredTableFunctions.class);
    }

    @Test
    void anAdapterAnsweringTheHostsQuestionPasses() {
        HexagonRules.NO_ADAPTER_READS_THE_CONFIGURED_FUNCTION_LISTS.check(
                new ClassFileImporter().importClasses(DuckDbClassAnsweringAboutFunctionNames.class));
    }

    @Test
    void theHostTakingTheEnginesPolicyFails() {
        assertViolated(HexagonRules.THE_HOST_ENFORCES_THE_CONFIGURED_POLICY, ApiClassTakingTheEnginesPolicy.class);
    }

    @Test
    void theHostBindingTheConfiguredPolicyPasses() {
        HexagonRules.THE_HOST_ENFORCES_THE_CONFIGURED_POLICY.check(
                new ClassFileImporter().importClasses(ApiClassBindingTheConfiguredPolicy.class));
    }

    @Test
    void executingThingsFails() {
        assertViolated(HexagonRules.MODEL_OUTPUT_IS_NEVER_EXECUTED, LlmClassRunningAProcess.class);
        assertViolated(HexagonRules.MODEL_OUTPUT_IS_NEVER_EXECUTED, LlmClassUsingRuntimeExec.class);
        assertViolated(HexagonRules.MODEL_OUTPUT_IS_NEVER_EXECUTED, LlmClassUsingScriptEngine.class);
    }
}
