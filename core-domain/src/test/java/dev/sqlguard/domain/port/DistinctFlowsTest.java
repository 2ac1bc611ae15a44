package dev.sqlguard.domain.port;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

class DistinctFlowsTest {
    private record Flow(String column, String firstNonTotal, int id) {
        List<String> key() {
            return List.of(column, firstNonTotal);
        }
    }

    @Test
    void keepsTheFirstFlowOfEachKeyInOrder() {
        List<Flow> flows = List.of(new Flow("a", "", 1), new Flow("b", "cast", 2), new Flow("a", "", 3), new Flow("a", "cast", 4));
        assertThat(DistinctFlows.of(flows, Flow::key)).containsExactly(new Flow("a", "", 1), new Flow("b", "cast", 2), new Flow("a", "cast", 4));
        assertThat(DistinctFlows.of(List.of(), Flow::key)).isEmpty();
    }

    @Test
    void refusesMoreDistinctFlowsThanItKeeps() {
        List<Flow> atMost = IntStream.range(0, DistinctFlows.MAX_FLOWS).mapToObj(i -> new Flow("c" + i, "", i)).toList();
        assertThat(DistinctFlows.of(atMost, Flow::key)).hasSize(DistinctFlows.MAX_FLOWS);
        List<Flow> tooMany = IntStream.rangeClosed(0, DistinctFlows.MAX_FLOWS).mapToObj(i -> new Flow("c" + i, "", i)).toList();
        assertThatThrownBy(() -> DistinctFlows.of(tooMany, Flow::key)).isInstanceOfSatisfying(GuardException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.QUERY_TOO_COMPLEX);
            assertThat(e.safeMessage()).isEqualTo("The query combines too many columns to check.");
        });
    }
}
