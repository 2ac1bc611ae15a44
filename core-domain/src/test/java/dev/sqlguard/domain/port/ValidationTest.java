package dev.sqlguard.domain.port;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.TableAllowlist;

class ValidationTest {
    private static final QueryPlan PLAN = new QueryPlan("s", "SELECT 1", "SELECT 1", List.of(), Set.of(), Set.of(), Set.of(),
            List.of(), List.of(), Limits.defaults());

    @Test
    void aSourceWithoutATableAllowlistDoesNotStart() {
        GuardrailPolicy open = new GuardrailPolicy(TableAllowlist.unrestricted(), Set.of(), Set.of(), Set.of(), Limits.defaults());
        assertThatThrownBy(() -> Validation.requireTableAllowlist("warehouse", open)).isInstanceOfSatisfying(GuardException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
            assertThat(e.safeMessage()).isEqualTo("Source 'warehouse' needs a table allowlist.");
        });
        GuardrailPolicy listed = new GuardrailPolicy(TableAllowlist.of(Map.of("claims", List.of("id"))), Set.of(), Set.of(), Set.of(),
                Limits.defaults());
        Validation.requireTableAllowlist("warehouse", listed);
    }

    @Test
    void aPlanAndARefusalPassUnchanged() {
        assertThat(Validation.checked("SELECT 1", sql -> PLAN)).isSameAs(PLAN);
        GuardException refusal = new GuardException(ErrorCode.STATEMENT_NOT_ALLOWED);
        assertThatThrownBy(() -> Validation.checked("DROP TABLE t", sql -> {
            throw refusal;
        })).isSameAs(refusal);
    }

    @Test
    void aStackOverflowIsTooComplexAndAnyOtherFailureASyntaxErrorWithoutItsText() {
        assertThatThrownBy(() -> Validation.checked("((((1))))", sql -> {
            throw new StackOverflowError();
        })).isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.QUERY_TOO_COMPLEX));
        IllegalStateException parserBug = new IllegalStateException("parser said: secret at line 3");
        assertThatThrownBy(() -> Validation.checked("SELECT x", sql -> {
            throw parserBug;
        })).isInstanceOfSatisfying(GuardException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.SYNTAX_ERROR);
            assertThat(e.safeMessage()).isEqualTo("The SQL could not be checked.");
            assertThat(e.getCause()).isSameAs(parserBug);
        });
    }
}
