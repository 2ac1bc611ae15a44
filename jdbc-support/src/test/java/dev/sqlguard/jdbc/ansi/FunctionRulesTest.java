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
}
