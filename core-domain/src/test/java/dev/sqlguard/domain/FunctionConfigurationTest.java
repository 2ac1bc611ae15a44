package dev.sqlguard.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** The decision on a configuration's function lists ({@link FunctionConfiguration#require}) on an engine's {@link FunctionFacts}. */
class FunctionConfigurationTest {
    private static final FunctionClasses ENGINE = new FunctionClasses(Set.of("upper", "count"), Set.of("range"),
            Set.of("sleep"), Set.of("pg_"), Set.of("load_file"), Set.of("pg_read_"), FunctionClasses.NeverWording.NEVER_ALLOWED);

    private static GuardException refused(GuardrailPolicy configured, FunctionFacts facts) {
        Throwable t = catchThrowable(() -> FunctionConfiguration.require("s", configured, ENGINE, facts));
        assertThat(t).isInstanceOf(GuardException.class);
        GuardException e = (GuardException) t;
        assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
        return e;
    }

    private static FunctionFacts facts(Map<String, FunctionFacts.Fact> functions) {
        return new FunctionFacts("Engine", functions, Map.of());
    }

    @Test
    void anUnknownNameIsNamedWithTheNearestNamesTheEngineHas() {
        GuardrailPolicy configured = GuardrailPolicy.defaults().withFunctions(Set.of("count", "uper"));
        assertThat(refused(configured, facts(Map.of("count", FunctionFacts.Fact.known(),
                "uper", FunctionFacts.Fact.unknown(List.of("upper", "super"))))).safeMessage())
                .isEqualTo("Source 's': policy.functions lists the function 'uper', which Engine does not know. Did you mean 'super' or 'upper'?");
        // a name the engine did not answer for is unknown: it never passes unasked
        assertThat(refused(configured, facts(Map.of("count", FunctionFacts.Fact.known()))).safeMessage())
                .isEqualTo("Source 's': policy.functions lists the function 'uper', which Engine does not know.");
    }

    @Test
    void aNameWithoutCostClassOrNotANameIsRefusedSayingWhy() {
        assertThat(refused(GuardrailPolicy.defaults().withFunctions(Set.of("editdist3")),
                facts(Map.of("editdist3", FunctionFacts.Fact.noCostClass()))).safeMessage())
                .isEqualTo("Source 's': policy.functions lists the function 'editdist3', which sqlguard has no cost class for on Engine"
                        + " (it cannot tell whether the function can fail or build large values), so it cannot be allowlisted;"
                        + " remove it from policy.functions.");
        assertThat(refused(GuardrailPolicy.defaults().withFunctions(Set.of("a-b")),
                facts(Map.of("a-b", FunctionFacts.Fact.notAFunctionName()))).safeMessage())
                .isEqualTo("Source 's': policy.functions lists the function (name withheld), which is not a plain function name on Engine.");
    }

    @Test
    void theNeverListDecidesWhateverTheEngineSaysOfTheName() {
        // the engine says it knows them: the never-list it reported still refuses them, external ones saying so
        GuardrailPolicy configured = GuardrailPolicy.defaults().withFunctions(Set.of("sleep", "upper"));
        assertThat(refused(configured, FunctionFacts.allKnown("Engine", configured.functions(), Set.of())).safeMessage())
                .startsWith("Source 's': policy.functions lists the function 'sleep', which is never allowed on Engine whatever"
                        + " the policy says: it reads files, settings");
        GuardrailPolicy external = GuardrailPolicy.defaults().withFunctions(Set.of("pg_read_file"));
        assertThat(refused(external, FunctionFacts.allKnown("Engine", external.functions(), Set.of())).safeMessage())
                .endsWith("which is never allowed on Engine whatever the policy says: it reads files, the network or other databases.");
        GuardrailPolicy table = GuardrailPolicy.defaults().withTableFunctions(Set.of("load_file"));
        assertThat(refused(table, FunctionFacts.allKnown("Engine", Set.of(), table.tableFunctions())).safeMessage())
                .startsWith("Source 's': policy.tableFunctions lists the table function 'load_file', which is never allowed");
    }

    @Test
    void theFirstBadNameInNameOrderFunctionsFirstIsNamed() {
        GuardrailPolicy configured = GuardrailPolicy.defaults().withFunctions(Set.of("zeta", "alpha")).withTableFunctions(Set.of("aaa"));
        FunctionFacts facts = new FunctionFacts("Engine", Map.of("zeta", FunctionFacts.Fact.unknown(List.of()),
                "alpha", FunctionFacts.Fact.noCostClass()), Map.of("aaa", FunctionFacts.Fact.unknown(List.of())));
        assertThat(refused(configured, facts).safeMessage()).contains("'alpha'");
        FunctionFacts tableOnly = new FunctionFacts("Engine", Map.of("zeta", FunctionFacts.Fact.known(),
                "alpha", FunctionFacts.Fact.known()), Map.of("aaa", FunctionFacts.Fact.unknown(List.of("range"))));
        assertThat(refused(configured, tableOnly).safeMessage())
                .isEqualTo("Source 's': policy.tableFunctions lists the table function 'aaa', which Engine does not know.");
    }

    @Test
    void knownNamesAndAnEmptyListStart() {
        GuardrailPolicy configured = GuardrailPolicy.defaults().withFunctions(Set.of("upper", "count")).withTableFunctions(Set.of("range"));
        assertThatCode(() -> FunctionConfiguration.require("s", configured, ENGINE,
                FunctionFacts.allKnown("Engine", configured.functions(), configured.tableFunctions()))).doesNotThrowAnyException();
        assertThatCode(() -> FunctionConfiguration.require("s", GuardrailPolicy.defaults(), ENGINE,
                new FunctionFacts("Engine", Map.of(), Map.of()))).doesNotThrowAnyException();
    }
}
