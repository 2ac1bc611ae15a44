package dev.sqlguard.jdbc.ansi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.CostClass;

class FunctionRulesTest {
    @Test
    void classesTakeEachListsClassALaterListWinning() {
        Map<String, CostClass> classes = FunctionRules.classes(Set.of("upper", "max"), Set.of("abs", "max"), Set.of("lpad", "abs"));
        assertThat(classes).containsExactlyInAnyOrderEntriesOf(Map.of("upper", CostClass.TOTAL, "max", CostClass.PARTIAL,
                "abs", CostClass.AMPLIFYING, "lpad", CostClass.AMPLIFYING));
        assertThatThrownBy(() -> classes.put("x", CostClass.TOTAL)).isInstanceOf(UnsupportedOperationException.class);
    }

    /** The name is quoted once: SafeText.identifier quotes it already (the message once read ''ascii''). */
    @Test
    void aPolicyEntryIsNamedWithOnePairOfQuotes() {
        FunctionRules rules = new FunctionRules("Minimal", Map.of("count", CostClass.TOTAL), Set.of("sleep"),
                Set.of(), Set.of(), Set.of(), Set.of(), Set.of("count"), Set.of(), Map.of(), Map.of());
        assertThatThrownBy(() -> rules.checkPolicy("s", Set.of("ascii")))
                .hasMessage("Source 's': the function 'ascii' has no cost class on Minimal, so it cannot be allowlisted.");
        assertThatThrownBy(() -> rules.checkPolicy("s", Set.of("sleep"))).hasMessage("Source 's': the function 'sleep' is never allowed on Minimal.");
    }
}
