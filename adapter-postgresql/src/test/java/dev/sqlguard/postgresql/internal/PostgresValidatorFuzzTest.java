package dev.sqlguard.postgresql.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.jdbc.ansi.AnsiRenderer;

/**
 * Drives the validator with arbitrary text. It may only refuse with {@link GuardException}, and
 * whatever it accepts must render to a text that passes its own pre-check and reads back as
 * exactly the same statement (the rendered text is a fixpoint). Runs the seed corpus under plain
 * {@code mvn verify}; fuzz for longer with {@code JAZZER_FUZZ=1}.
 */
class PostgresValidatorFuzzTest {
    private final PostgresValidator validator = Validators.validator();

    @FuzzTest(maxDuration = "30s")
    void validatorAcceptsOnlyTextsItCanRenderBack(FuzzedDataProvider data) {
        String sql = data.consumeRemainingAsString();
        if (sql.isBlank() || sql.length() > Limits.DEFAULT_MAX_SQL_LENGTH) {
            return; // QueryService refuses these before any validator runs
        }
        QueryPlan plan;
        try {
            plan = validator.plan(sql);
        } catch (GuardException refused) {
            assertThat(refused.code()).isNotNull();
            return;
        }
        // a plan that masks a sensitive output runs its statement under the masking projection: the statement is the fixpoint
        String statement = AnsiRenderer.unmasked(PostgresDialect.INSTANCE, plan);
        QueryPlan again = validator.plan(statement);
        assertThat(again.executableSql()).isEqualTo(plan.executableSql());
        assertThat(again.maskedOutputs()).isEqualTo(plan.maskedOutputs());
        assertThat(again.uses()).isEqualTo(plan.uses());
        assertThat(statement).startsWith(statement.startsWith("WITH") ? "WITH" : statement.startsWith("(") ? "(" : "SELECT");
    }
}
