package dev.sqlguard.jdbc.ansi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.TableRef;

class AnsiCheckTest {
    private static final TableRef CLAIMS = TableRef.of("s", "claims");
    private static final String SQL = "SELECT upper(region) AS r FROM claims";

    private static AnsiCheck check(GuardrailPolicy policy, AnsiCheck.Reader reader) {
        return new AnsiCheck("s", new MinimalDialect(), MinimalDialect.SCHEMA, policy, sql -> {
            if (sql.contains("--")) {
                throw new GuardException(ErrorCode.UNSAFE_SYNTAX, "No comments here.");
            }
        }, reader);
    }

    private static void assertRefused(Runnable call, ErrorCode code) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(code));
    }

    @Test
    void theRawTextIsPrecheckedThenRenderedAndTheEnginesReadingOfTheRenderedTextCrossChecked() {
        List<String> asked = new ArrayList<>();
        AnsiCheck check = check(MinimalDialect.POLICY, plan -> {
            asked.add(plan.executableSql());
            return new EngineReading(Set.of(CLAIMS), Set.of(new ColumnRef(CLAIMS, "region")), true);
        });
        QueryPlan plan = check.plan(SQL);
        assertThat(plan.executableSql()).startsWith("SELECT upper(\"t1\".\"region\") AS \"r\" FROM \"s\".\"claims\" AS \"t1\"");
        assertThat(asked).containsExactly(plan.executableSql());
        assertRefused(() -> check.plan(SQL + " -- x"), ErrorCode.UNSAFE_SYNTAX);
        assertThat(asked).hasSize(1);
    }

    @Test
    void aReadingBeyondTheCheckedPlanRefusesTheStatement() {
        AnsiCheck check = check(MinimalDialect.POLICY, plan -> new EngineReading(Set.of(CLAIMS),
                Set.of(new ColumnRef(CLAIMS, "region"), new ColumnRef(CLAIMS, "ssn")), true));
        assertRefused(() -> check.plan(SQL), ErrorCode.UNSAFE_SYNTAX);
        assertThat(check(MinimalDialect.POLICY, null).plan(SQL).tables()).containsExactly(CLAIMS);
    }

    @Test
    void thePolicysFunctionsDefaultToEveryFunctionTheDialectClassifies() {
        TableAllowlist tables = TableAllowlist.of(Optional.of("s"), Map.of("claims", List.of("id", "region")));
        GuardrailPolicy noList = new GuardrailPolicy(tables, Set.of(), Set.of(), Set.of(), Limits.defaults());
        assertThat(check(noList, null).plan(SQL).functions()).containsExactly("upper");
        assertRefused(() -> check(noList.withFunctions(Set.of("count")), null).plan(SQL), ErrorCode.FUNCTION_NOT_ALLOWED);
    }

    @Test
    void thePolicyDecidesOnceBeforeTheEngineReadsTheText() {
        List<String> order = new ArrayList<>();
        AnsiCheck check = check(MinimalDialect.POLICY, plan -> {
            order.add("read");
            return new EngineReading(Set.of(CLAIMS), Set.of(new ColumnRef(CLAIMS, "region")), true);
        });
        check.plan(SQL, -1, plan -> order.add("decide"));
        assertThat(order).containsExactly("decide", "read");
        // a refusal of the decision stops the check before the engine reads anything
        assertRefused(() -> check.plan(SQL, -1, plan -> {
            throw new GuardException(ErrorCode.FUNCTION_NOT_ALLOWED, "no");
        }), ErrorCode.FUNCTION_NOT_ALLOWED);
        assertThat(order).containsExactly("decide", "read");
    }
}
