package dev.sqlguard.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.lang.ArchRule;

/** The hexagon's rules, shared by the real check and by the proofs that each rule can fail. */
final class HexagonRules {
    static final String DOMAIN = "dev.sqlguard.domain..";
    static final String PORTS = "dev.sqlguard.ports..";
    static final String DUCKDB = "dev.sqlguard.duckdb..";
    static final String MYSQL = "dev.sqlguard.mysql..";
    static final String LLM = "dev.sqlguard.llm..";
    static final String APP = "dev.sqlguard.app..";

    private HexagonRules() {
    }

    static final ArchRule DOMAIN_USES_ONLY_THE_JDK = classes().that().resideInAPackage(DOMAIN)
            .should().onlyDependOnClassesThat().resideInAnyPackage(DOMAIN, "java..")
            .because("core-domain is pure Java");

    static final ArchRule DOMAIN_NEVER_TOUCHES_JDBC = noClasses().that().resideInAPackage(DOMAIN)
            .should().dependOnClassesThat().resideInAnyPackage("java.sql..", "javax.sql..", "com.mysql..", "org.duckdb..",
                    "org.mariadb..", "com.zaxxer..", "com.fasterxml.jackson..", "com.google.inject..", "javax.inject..",
                    "jakarta.inject..")
            .because("the domain never touches JDBC, drivers, Jackson or Guice");

    static final ArchRule PORTS_DEPEND_ONLY_ON_THE_DOMAIN = classes().that().resideInAPackage(PORTS)
            .should().onlyDependOnClassesThat().resideInAnyPackage(PORTS, DOMAIN, "java..")
            .because("ports depends only on core-domain and the JDK");

    static final ArchRule DUCKDB_IS_ALONE = noClasses().that().resideInAPackage(DUCKDB)
            .should().dependOnClassesThat().resideInAnyPackage(MYSQL, LLM, APP);

    static final ArchRule MYSQL_IS_ALONE = noClasses().that().resideInAPackage(MYSQL)
            .should().dependOnClassesThat().resideInAnyPackage(DUCKDB, LLM, APP);

    static final ArchRule LLM_IS_ALONE = noClasses().that().resideInAPackage(LLM)
            .should().dependOnClassesThat().resideInAnyPackage(DUCKDB, MYSQL, APP);

    static final ArchRule NOTHING_DEPENDS_ON_APP = noClasses().that().resideOutsideOfPackage(APP)
            .should().dependOnClassesThat().resideInAPackage(APP)
            .because("app is the composition root");

    static final ArchRule GUICE_ONLY_IN_APP = noClasses().that().resideOutsideOfPackage(APP)
            .should().dependOnClassesThat().resideInAnyPackage("com.google.inject..", "javax.inject..", "jakarta.inject..")
            .because("only app wires");

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
