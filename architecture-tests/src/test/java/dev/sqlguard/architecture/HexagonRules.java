package dev.sqlguard.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.Slice;

/** The hexagon's rules, shared by the real check and by the proofs that each rule can fail. */
final class HexagonRules {
    static final String DOMAIN = "dev.sqlguard.domain..";
    static final String PORTS = "dev.sqlguard.ports..";
    static final String APP = "dev.sqlguard.app..";
    /** The adapter kit's test side (sqlguard-testing): the contract suite and the in-memory engine. */
    static final String TESTING = "dev.sqlguard.testing..";
    /** The JDBC support library (sqlguard-jdbc-support) every JDBC adapter may build on. */
    static final String JDBC_KIT = "dev.sqlguard.jdbc..";
    /** The kit's ANSI renderer, the one part of it that reads JSqlParser trees. */
    static final String JDBC_ANSI = "dev.sqlguard.jdbc.ansi..";
    /** Apache POI reads XLSX for trusted ingestion only (sqlguard-adapter-duckdb-ingest). */
    static final String INGESTION = "dev.sqlguard.duckdb.ingest..";

    /**
     * The app's layers, top to bottom: each may use only the layers below it (maven modules app/cli; app/mcp and
     * app/agent, neither of which sees the other; app/tools; app/api).
     */
    static final String[] CLI = {"dev.sqlguard.app.internal.cli..", "dev.sqlguard.app.internal.demo.."};
    static final String[] MCP = {"dev.sqlguard.app.internal.mcp.."};
    static final String[] AGENT = {"dev.sqlguard.app.agent.."};
    /** The data tools that the agent and the MCP server both serve (sqlguard-tools). */
    static final String[] TOOLS = {"dev.sqlguard.app.tools.."};
    static final String[] API = {"dev.sqlguard.app", "dev.sqlguard.app.internal.config..", "dev.sqlguard.app.internal.json..",
            "dev.sqlguard.app.internal.wiring.."};

    /** Every top-level package {@code dev.sqlguard.(*)} that is not one of these is an adapter. */
    static final Set<String> NOT_ADAPTERS = Set.of("domain", "ports", "testing", "jdbc", "app", "architecture", "benchmarks");
    static final String TOP_LEVEL_PACKAGES = "dev.sqlguard.(*)..";
    static final DescribedPredicate<Slice> ADAPTERS = DescribedPredicate.describe(
            "are adapters (every package but " + NOT_ADAPTERS + ")", slice -> !NOT_ADAPTERS.contains(slice.getNamePart(1)));

    /** Every package a rule names, for the check that none is empty. */
    static final List<String> RULE_PACKAGES = Stream.of(new String[] {DOMAIN, PORTS, TESTING, JDBC_KIT, JDBC_ANSI, APP, INGESTION}, CLI, MCP, AGENT, TOOLS, API)
            .flatMap(Stream::of).toList();

    /** Everything but these is the adapter side (the adapters and the JDBC kit), for the function-decision rule. */
    static final String[] NOT_ADAPTER_SIDE = {DOMAIN, PORTS, TESTING, APP, "dev.sqlguard.architecture..", "dev.sqlguard.benchmarks.."};

    /** The policy's accessors that compute or rewrite its function lists: the domain's alone. */
    static final Set<String> FUNCTION_LIST_METHODS = Set.of("functionsOr", "tableFunctionsOr", "withFunctions", "withTableFunctions");

    /** The policy's accessors of its configured function lists: the host asks the engine about them, the domain decides. */
    static final Set<String> CONFIGURED_FUNCTION_LISTS = Set.of("functions", "tableFunctions");

    private HexagonRules() {
    }

    private static DescribedPredicate<JavaMethodCall> callsOf(String owner, Set<String> names) {
        return DescribedPredicate.describe(owner + "." + names, call -> call.getTargetOwner().getName().equals(owner)
                && names.contains(call.getName()));
    }

    /** A call of {@code Engine.policy()} or {@code Engine.binding()}: the policy an engine hands back. */
    private static final DescribedPredicate<JavaMethodCall> ENGINES_OWN_POLICY = DescribedPredicate.describe(
            "Engine.policy() or Engine.binding() (the engine's own policy)",
            call -> call.getTargetOwner().isAssignableTo("dev.sqlguard.ports.Engine")
                    && (call.getName().equals("policy") || call.getName().equals("binding"))
                    && call.getTarget().getRawParameterTypes().isEmpty());

    private static String[] concat(String[]... packages) {
        return Stream.of(packages).flatMap(Stream::of).toArray(String[]::new);
    }

    static final ArchRule DOMAIN_USES_ONLY_THE_JDK = classes().that().resideInAPackage(DOMAIN)
            .should().onlyDependOnClassesThat().resideInAnyPackage(DOMAIN, "java..")
            .because("core-domain is pure Java");

    static final ArchRule DOMAIN_NEVER_TOUCHES_JDBC = noClasses().that().resideInAPackage(DOMAIN)
            .should().dependOnClassesThat().resideInAnyPackage("java.sql..", "javax.sql..", "com.mysql..", "org.duckdb..", "org.postgresql..", "io.trino..",
                    "org.h2..", "org.mariadb..", "com.zaxxer..", "com.fasterxml.jackson..", "com.google.inject..", "javax.inject..",
                    "jakarta.inject..")
            .because("the domain never touches JDBC, drivers, Jackson or Guice");

    static final ArchRule PORTS_DEPEND_ONLY_ON_THE_DOMAIN = classes().that().resideInAPackage(PORTS)
            .should().onlyDependOnClassesThat().resideInAnyPackage(PORTS, DOMAIN, "java..")
            .because("ports depends only on core-domain and the JDK");

    static final ArchRule TESTING_USES_ONLY_THE_KIT = classes().that().resideInAPackage(TESTING)
            .should().onlyDependOnClassesThat().resideInAnyPackage(TESTING, PORTS, DOMAIN, "java..", "org.junit..", "org.assertj..")
            .because("sqlguard-testing is what a third-party adapter builds on: ports, core-domain, JUnit and AssertJ, "
                    + "never an adapter or the app");

    static final ArchRule JDBC_KIT_USES_ONLY_PORTS_AND_JDBC = classes().that().resideInAPackage(JDBC_KIT)
            .and().resideOutsideOfPackage(JDBC_ANSI)
            .should().onlyDependOnClassesThat().resideInAnyPackage(JDBC_KIT, PORTS, DOMAIN, "java..", "javax.sql..", "org.slf4j..")
            .because("sqlguard-jdbc-support is shared by every JDBC adapter: it sees ports, core-domain, java.sql, javax.sql and "
                    + "the logging facade (SLF4J), never a driver, an adapter or the app");

    static final ArchRule JDBC_ANSI_USES_ONLY_THE_KIT_AND_THE_PARSER = classes().that().resideInAPackage(JDBC_ANSI)
            .should().onlyDependOnClassesThat().resideInAnyPackage(JDBC_KIT, PORTS, DOMAIN, "java..", "net.sf.jsqlparser..")
            .because("the ANSI renderer reads JSqlParser trees (an optional dependency of the kit) and knows no engine: "
                    + "what differs between engines comes from the adapter's dialect");

    static final ArchRule NO_PRODUCTION_CODE_USES_THE_TEST_KIT = noClasses().that().resideOutsideOfPackage(TESTING)
            .should().dependOnClassesThat().resideInAPackage(TESTING)
            .because("the contract suite and the in-memory engine are for tests; production code never ships them");

    static final ArchRule ADAPTERS_NEVER_SEE_EACH_OTHER = slices().matching(TOP_LEVEL_PACKAGES).that(ADAPTERS)
            .should().notDependOnEachOther()
            .because("an adapter depends on ports and its own libraries, never on another adapter");

    static final ArchRule NOTHING_DEPENDS_ON_APP = noClasses().that().resideOutsideOfPackage(APP)
            .should().dependOnClassesThat().resideInAPackage(APP)
            .because("app is the composition root and the front ends");

    static final ArchRule EVERY_APP_CLASS_IS_IN_A_LAYER = classes().that().resideInAPackage(APP)
            .should().resideInAnyPackage(concat(CLI, MCP, AGENT, TOOLS, API))
            .because("a package outside the layers would escape the layering rules");

    static final ArchRule API_USES_NO_HIGHER_LAYER = noClasses().that().resideInAnyPackage(API)
            .should().dependOnClassesThat().resideInAnyPackage(concat(TOOLS, AGENT, MCP, CLI))
            .because("the embedding API is the bottom layer of app");

    static final ArchRule TOOLS_USE_ONLY_THE_API = noClasses().that().resideInAnyPackage(TOOLS)
            .should().dependOnClassesThat().resideInAnyPackage(concat(AGENT, MCP, CLI))
            .because("the tools sit on the embedding API only: the agent and the MCP server both build on them");

    static final ArchRule MCP_DOES_NOT_USE_THE_AGENT = noClasses().that().resideInAnyPackage(MCP)
            .should().dependOnClassesThat().resideInAnyPackage(AGENT)
            .because("the MCP server serves the tools; the agent's planner, evaluation and model are not its business");

    static final ArchRule AGENT_USES_NEITHER_MCP_NOR_CLI = noClasses().that().resideInAnyPackage(AGENT)
            .should().dependOnClassesThat().resideInAnyPackage(concat(MCP, CLI))
            .because("the agent sits on the embedding API only");

    static final ArchRule MCP_DOES_NOT_USE_THE_CLI = noClasses().that().resideInAnyPackage(MCP)
            .should().dependOnClassesThat().resideInAnyPackage(CLI)
            .because("the MCP server sits on the tools; the CLI starts it");

    static final ArchRule GUICE_ONLY_IN_CLI = noClasses().that().resideOutsideOfPackages(CLI)
            .should().dependOnClassesThat().resideInAnyPackage("com.google.inject..", "javax.inject..", "jakarta.inject..")
            .because("only the CLI wires with Guice; the embedding API is plain construction");

    static final ArchRule POI_ONLY_IN_INGESTION = noClasses().that().resideOutsideOfPackage(INGESTION)
            .should().dependOnClassesThat().resideInAnyPackage("org.apache.poi..")
            .because("an embedding service gets the engines without Apache POI: only ingestion reads spreadsheets");

    static final ArchRule NO_ADAPTER_DECIDES_A_FUNCTION = noClasses().that().resideInAPackage("dev.sqlguard..")
            .and().resideOutsideOfPackages(NOT_ADAPTER_SIDE)
            .should().callMethodWhere(callsOf("dev.sqlguard.domain.GuardrailPolicy", FUNCTION_LIST_METHODS))
            .because("the domain decides on functions (GuardrailPolicy.requireFunction, from the configured list or the "
                    + "engine's reported FunctionClasses): an adapter reports the functions a query calls and never computes "
                    + "or rewrites a policy's function list");

    static final ArchRule NO_ADAPTER_READS_THE_CONFIGURED_FUNCTION_LISTS = noClasses().that().resideInAPackage("dev.sqlguard..")
            .and().resideOutsideOfPackages(NOT_ADAPTER_SIDE)
            .should().callMethodWhere(callsOf("dev.sqlguard.domain.GuardrailPolicy", CONFIGURED_FUNCTION_LISTS))
            .because("the host decides whether a configuration's function lists may start (EngineStart, "
                    + "FunctionConfiguration.require): it asks the engine about the names (Engine.functionFacts), and an "
                    + "adapter reports facts about the names it is asked about and never reads the configured lists");

    static final ArchRule THE_HOST_ENFORCES_THE_CONFIGURED_POLICY = noClasses().that().resideInAnyPackage(API)
            .should().callMethodWhere(ENGINES_OWN_POLICY)
            .because("the host binds the configured policy (Engine.binding(configured)), with only the engine's reported "
                    + "defaults filled in by the domain: an engine cannot widen it");

    static final ArchRule MODEL_OUTPUT_IS_NEVER_EXECUTED = noClasses()
            .should().dependOnClassesThat().resideInAPackage("javax.script..")
            .orShould().dependOnClassesThat().belongToAnyOf(ProcessBuilder.class)
            .orShould().callMethod(Runtime.class, "exec", String.class)
            .orShould().callMethod(Runtime.class, "exec", String[].class)
            .orShould().callMethod(Runtime.class, "exec", String.class, String[].class)
            .orShould().callMethod(Runtime.class, "exec", String[].class, String[].class)
            .orShould().callMethod(Runtime.class, "exec", String.class, String[].class, java.io.File.class)
            .orShould().callMethod(Runtime.class, "exec", String[].class, String[].class, java.io.File.class)
            .because("no code path may execute model output");
}
