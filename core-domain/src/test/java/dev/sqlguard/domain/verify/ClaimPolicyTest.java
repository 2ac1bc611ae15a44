package dev.sqlguard.domain.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

class ClaimPolicyTest {
    private static final String ANSWER = "Revenue for Q3 was 542,000, about 12% more than Q2.";
    private static final VerificationReport REPORT = new ClaimVerifier()
            .verify(ANSWER, List.of(List.<Object>of(452100L)), VerificationContext.none());

    @Test
    void flagIsTheDefaultAndKeepsTheAnswer() {
        PolicyOutcome outcome = ClaimPolicy.defaultPolicy().apply(ANSWER, REPORT);

        assertThat(ClaimPolicy.defaultPolicy()).isEqualTo(ClaimPolicy.FLAG);
        assertThat(outcome.blocked()).isFalse();
        assertThat(outcome.text()).isEqualTo(ANSWER);
        assertThat(outcome.unsupported()).containsExactly("542,000", "12%");
    }

    @Test
    void blockReplacesTheAnswerWithARefusalListingTheNumbers() {
        PolicyOutcome outcome = ClaimPolicy.BLOCK.apply(ANSWER, REPORT);

        assertThat(outcome.blocked()).isTrue();
        assertThat(outcome.text()).doesNotContain("Revenue for Q3").contains("542,000; 12%").startsWith("The answer was withheld");
        assertThat(outcome.unsupported()).containsExactly("542,000", "12%");
    }

    @Test
    void blockKeepsAFullySupportedAnswer() {
        String answer = "Revenue for Q3 was 452,100.";
        VerificationReport report = new ClaimVerifier().verify(answer, List.of(List.<Object>of(452100L)), VerificationContext.none());

        PolicyOutcome outcome = ClaimPolicy.BLOCK.apply(answer, report);

        assertThat(outcome.blocked()).isFalse();
        assertThat(outcome.text()).isEqualTo(answer);
        assertThat(outcome.unsupported()).isEmpty();
    }

    @Test
    void parsesConfigurationValues() {
        assertThat(ClaimPolicy.parse("flag")).isEqualTo(ClaimPolicy.FLAG);
        assertThat(ClaimPolicy.parse(" BLOCK ")).isEqualTo(ClaimPolicy.BLOCK);
        assertThatThrownBy(() -> ClaimPolicy.parse("warn")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[flag, block]");
    }

    @Test
    void theReportChecksItself() {
        assertThatThrownBy(() -> new VerificationReport(List.of(), List.of(), false)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PolicyOutcome("x", true, List.of())).isInstanceOf(IllegalArgumentException.class);
    }
}
