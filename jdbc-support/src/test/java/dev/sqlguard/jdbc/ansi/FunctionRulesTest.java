package dev.sqlguard.jdbc.ansi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.CostClass;
import dev.sqlguard.domain.FunctionConfiguration;
import dev.sqlguard.domain.FunctionFacts;
import dev.sqlguard.domain.GuardrailPolicy;

class FunctionRulesTest {
    @Test
    void classesTakeEachListsClassALaterListWinning() {
        Map<String, CostClass> classes = FunctionRules.classes(Set.of("upper", "max"), Set.of("abs", "max"), Set.of("lpad", "abs"));
        assertThat(classes).containsExactlyInAnyOrderEntriesOf(Map.of("upper", CostClass.TOTAL, "max", CostClass.PARTIAL,
                "abs", CostClass.AMPLIFYING, "lpad", CostClass.AMPLIFYING));
        assertThatThrownBy(() -> classes.put("x", CostClass.TOTAL)).isInstanceOf(UnsupportedOperationException.class);
    }

    /**
     * The rules report facts and the domain decides; the name is quoted once (SafeText.identifier quotes it
     * already: the message once read ''ascii'').
     */
    @Test
    void aPolicyEntryIsNamedWithOnePairOfQuotes() {
        FunctionRules rules = new FunctionRules("Minimal", Map.of("count", CostClass.TOTAL), Set.of("sleep"),
                Set.of(), Set.of(), Set.of(), Set.of(), Set.of("count"), Set.of(), Map.of(), Map.of("nvl", "coalesce"));
        assertThatThrownBy(() -> check(rules, Set.of("ascii"))).hasMessage("Source 's': policy.functions lists the function 'ascii',"
                + " which sqlguard has no cost class for on Minimal (it cannot tell whether the function can fail or build large"
                + " values), so it cannot be allowlisted; remove it from policy.functions.");
        assertThatThrownBy(() -> check(rules, Set.of("sleep"))).hasMessageStartingWith(
                "Source 's': policy.functions lists the function 'sleep', which is never allowed on Minimal");
        check(rules, Set.of("count", "nvl"));
        assertThat(rules.facts(Set.of("count", "nvl", "ascii"), Set.of("generate_series")))
                .isEqualTo(new FunctionFacts("Minimal", Map.of("count", FunctionFacts.Fact.known(), "nvl", FunctionFacts.Fact.known(),
                        "ascii", FunctionFacts.Fact.noCostClass()), Map.of("generate_series", FunctionFacts.Fact.known())));
    }

    private static void check(FunctionRules rules, Set<String> functions) {
        GuardrailPolicy configured = GuardrailPolicy.defaults().withFunctions(functions);
        FunctionConfiguration.require("s", configured, rules.functionClasses(), rules.facts(functions, Set.of()));
    }
}
