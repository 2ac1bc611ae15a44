package dev.sqlguard.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** The function decision in the domain ({@link GuardrailPolicy#requireFunctionsAllowed}) and {@link GuardrailPolicy#effective}. */
class FunctionDecisionTest {
    private static final FunctionClasses ENGINE = new FunctionClasses(Set.of("upper", "lower", "count", "range"),
            Set.of("range", "unnest"), Set.of("sleep"), Set.of("read_"), Set.of(), Set.of(),
            FunctionClasses.NeverWording.NOT_ALLOWLISTED);
    private static final FunctionClasses SAYS_NEVER = new FunctionClasses(Set.of("upper"), Set.of(), Set.of("sleep"),
            Set.of("pg_"), Set.of("load_file"), Set.of("pg_read_"), FunctionClasses.NeverWording.NEVER_ALLOWED);
    private static final GuardrailPolicy CONFIGURED = GuardrailPolicy.defaults().withTables(TableAllowlist.of(Map.of(
            "users", List.of("id", "name"))));

    private static QueryPlan calling(Set<String> functions, Set<String> tableFunctions) {
        return new QueryPlan("s", "SELECT", "SELECT", List.of(), Set.of(), Set.of(), functions, List.of(), List.of(),
                Limits.defaults(), Set.of(), Bindings.parameters(0), Map.of(), tableFunctions);
    }

    private static GuardException refused(GuardrailPolicy policy, QueryPlan plan) {
        Throwable t = catchThrowable(() -> policy.authorize(plan));
        assertThat(t).isInstanceOf(GuardException.class);
        return (GuardException) t;
    }

    @Test
    void withoutAConfiguredListTheEngineDefaultsDecide() {
        GuardrailPolicy policy = CONFIGURED.effective(EngineDefaults.of(ENGINE));
        assertThatCode(() -> policy.authorize(calling(Set.of("upper", "count"), Set.of("range")))).doesNotThrowAnyException();
        GuardException e = refused(policy, calling(Set.of("uper"), Set.of()));
        assertThat(e.code()).isEqualTo(ErrorCode.FUNCTION_NOT_ALLOWED);
        assertThat(e.safeMessage()).isEqualTo("The function 'uper' is not allowlisted. Did you mean 'upper'?");
        GuardException table = refused(policy, calling(Set.of(), Set.of("rnage")));
        assertThat(table.code()).isEqualTo(ErrorCode.TABLE_FUNCTION_NOT_ALLOWED);
        assertThat(table.safeMessage()).isEqualTo("The table function 'rnage' is not allowlisted. Did you mean 'range'?");
    }

    @Test
    void aConfiguredListReplacesTheDefaultsAndTheEngineCannotWidenIt() {
        GuardrailPolicy policy = CONFIGURED.withFunctions(Set.of("upper")).effective(EngineDefaults.of(ENGINE));
        assertThatCode(() -> policy.requireFunction("upper")).doesNotThrowAnyException();
        // lower is on the engine's default list, but the configuration names its own list
        assertThat(refused(policy, calling(Set.of("lower"), Set.of())).safeMessage())
                .isEqualTo("The function 'lower' is not allowlisted.");
        // a scalar function's list does not allow the table function of the same name
        assertThat(policy.allowsTableFunction("upper")).isFalse();
    }

    @Test
    void theNeverListWinsOverEveryList() {
        GuardrailPolicy policy = CONFIGURED.withFunctions(Set.of("sleep", "read_text", "upper"))
                .withTableFunctions(Set.of("read_csv")).effective(EngineDefaults.of(ENGINE));
        assertThat(refused(policy, calling(Set.of("sleep"), Set.of())).code()).isEqualTo(ErrorCode.FUNCTION_NOT_ALLOWED);
        assertThat(refused(policy, calling(Set.of("read_text"), Set.of())).code()).isEqualTo(ErrorCode.FUNCTION_NOT_ALLOWED);
        GuardException table = refused(policy, calling(Set.of(), Set.of("read_csv")));
        assertThat(table.code()).isEqualTo(ErrorCode.TABLE_FUNCTION_NOT_ALLOWED);
        // the suggestion never names a never-allowed function
        assertThat(policy.allowedFunctions()).containsExactly("upper");
    }

    @Test
    void anEngineMayWordItsNeverListAsNeverAllowedAndRefuseExternalAccessAsSuch() {
        GuardrailPolicy policy = CONFIGURED.effective(EngineDefaults.of(SAYS_NEVER));
        GuardException sleep = refused(policy, calling(Set.of("sleep"), Set.of()));
        assertThat(sleep.code()).isEqualTo(ErrorCode.FUNCTION_NOT_ALLOWED);
        assertThat(sleep.safeMessage()).isEqualTo("The function 'sleep' is never allowed.");
        assertThat(refused(policy, calling(Set.of("load_file"), Set.of())).code()).isEqualTo(ErrorCode.EXTERNAL_ACCESS_DENIED);
        assertThat(refused(policy, calling(Set.of("pg_read_file"), Set.of())).code()).isEqualTo(ErrorCode.EXTERNAL_ACCESS_DENIED);
        assertThat(refused(policy, calling(Set.of("pg_sleep"), Set.of())).code()).isEqualTo(ErrorCode.FUNCTION_NOT_ALLOWED);
    }

    @Test
    void anEngineThatReportsNoFunctionsGetsOnlyTheConfiguredOnes() {
        assertThat(refused(CONFIGURED, calling(Set.of("upper"), Set.of())).code()).isEqualTo(ErrorCode.FUNCTION_NOT_ALLOWED);
        assertThatCode(() -> CONFIGURED.withFunctions(Set.of("upper")).authorize(calling(Set.of("upper"), Set.of())))
                .doesNotThrowAnyException();
    }

    @Test
    void theFunctionCheckRunsBetweenColumnsAndSensitiveFlow() {
        GuardrailPolicy policy = CONFIGURED.effective(EngineDefaults.of(ENGINE));
        QueryPlan both = new QueryPlan("s", "SELECT", "SELECT", List.of(), Set.of(TableRef.of("secrets")), Set.of(),
                Set.of("sleep"), List.of(), List.of(), Limits.defaults());
        assertThat(refused(policy, both).code()).isEqualTo(ErrorCode.TABLE_NOT_ALLOWED);
    }

    @Test
    void theEnginesSchemaIsFilledInOnlyWhereTheConfigurationLeavesItOpen() {
        GuardrailPolicy policy = CONFIGURED.effective(EngineDefaults.inSchema("Sales", ENGINE));
        assertThat(policy.tables().defaultSchema()).contains("sales");
        assertThat(policy.tables().allowsTable(TableRef.of("sales", "users"))).isTrue();
        assertThat(policy.tables().allowsTable(TableRef.of("other", "users"))).isFalse();
        GuardrailPolicy own = GuardrailPolicy.defaults().withTables(TableAllowlist.of(Optional.of("hr"), Map.of("users", List.of("id"))));
        Throwable t = catchThrowable(() -> own.effective(EngineDefaults.inSchema("sales", ENGINE)));
        assertThat(t).isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR));
        assertThat(own.effective(EngineDefaults.inSchema("hr", ENGINE)).tables()).isEqualTo(own.tables());
        // an unrestricted allowlist stays unrestricted; the engine adds no table to it and none to a restricted one
        assertThat(GuardrailPolicy.defaults().effective(EngineDefaults.inSchema("sales", ENGINE)).tables().restricted()).isFalse();
        assertThat(policy.tables().tables().keySet()).containsExactly(TableRef.of("users"));
    }

    @Test
    void effectiveIsIdempotentAndKeepsEveryConfiguredSetting() {
        GuardrailPolicy configured = CONFIGURED.withFunctions(Set.of("upper")).withRedact(Set.of("name"))
                .withLimits(Limits.defaults());
        GuardrailPolicy once = configured.effective(EngineDefaults.inSchema("sales", ENGINE));
        assertThat(once.effective(EngineDefaults.inSchema("sales", ENGINE))).isEqualTo(once);
        assertThat(once.functions()).isEqualTo(configured.functions());
        assertThat(once.redact()).isEqualTo(configured.redact());
        assertThat(once.limits()).isEqualTo(configured.limits());
        assertThat(once.engineFunctions()).isEqualTo(ENGINE);
    }
}
