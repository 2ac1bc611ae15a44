package dev.sqlguard.architecture;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;

import dev.sqlguard.domain.archfixture.DomainClassUsingJackson;
import dev.sqlguard.domain.archfixture.DomainClassUsingJdbc;
import dev.sqlguard.domain.archfixture.DomainClassUsingRegexOnly;
import dev.sqlguard.duckdb.archfixture.DuckDbClassUsingMySql;
import dev.sqlguard.duckdb.archfixture.DuckDbClassUsingApp;
import dev.sqlguard.duckdb.archfixture.DuckDbClassUsingGuice;
import dev.sqlguard.llm.archfixture.LlmClassRunningAProcess;
import dev.sqlguard.llm.archfixture.LlmClassUsingRuntimeExec;
import dev.sqlguard.llm.archfixture.LlmClassUsingScriptEngine;
import dev.sqlguard.ports.archfixture.PortClassUsingJackson;

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
    void adapterIsolationFails() {
        assertViolated(HexagonRules.DUCKDB_IS_ALONE, DuckDbClassUsingMySql.class);
    }

    @Test
    void appDependencyFails() {
        assertViolated(HexagonRules.NOTHING_DEPENDS_ON_APP, DuckDbClassUsingApp.class);
        assertViolated(HexagonRules.DUCKDB_IS_ALONE, DuckDbClassUsingApp.class);
    }

    @Test
    void guiceOutsideAppFails() {
        assertViolated(HexagonRules.GUICE_ONLY_IN_APP, DuckDbClassUsingGuice.class);
    }

    @Test
    void executingThingsFails() {
        assertViolated(HexagonRules.MODEL_OUTPUT_IS_NEVER_EXECUTED, LlmClassRunningAProcess.class);
        assertViolated(HexagonRules.MODEL_OUTPUT_IS_NEVER_EXECUTED, LlmClassUsingRuntimeExec.class);
        assertViolated(HexagonRules.MODEL_OUTPUT_IS_NEVER_EXECUTED, LlmClassUsingScriptEngine.class);
    }
}
