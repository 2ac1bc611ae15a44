package dev.sqlguard.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

class GuardrailPolicyAuthorizeTest {
    private static final GuardrailPolicy POLICY = GuardrailPolicy.defaults().withTables(TableAllowlist.of(Map.of(
            "users", List.of("id", "name", "password"), "claims", List.of("*"))));

    private static QueryPlan plan(Set<TableRef> tables, Set<ColumnUse> uses, List<Amplification> amplifications, Limits limits) {
        return new QueryPlan("s", "SELECT", "SELECT", List.of(), tables, uses, Set.of(), List.of(), amplifications, limits);
    }

    private static QueryPlan plan(Set<TableRef> tables, Set<ColumnUse> uses) {
        return plan(tables, uses, List.of(), Limits.defaults());
    }

    private static GuardException refused(QueryPlan plan) {
        Throwable t = catchThrowable(() -> POLICY.authorize(plan));
        assertThat(t).isInstanceOf(GuardException.class);
        return (GuardException) t;
    }

    @Test
    void anAllowedPlanPasses() {
        assertThatCode(() -> POLICY.authorize(plan(Set.of(TableRef.of("users"), TableRef.of("claims")), Set.of(
                ColumnUse.direct(ColumnRef.of("users", "name"), UsePosition.FILTER),
                ColumnUse.direct(ColumnRef.of("claims", "anything"), UsePosition.GROUPING),
                new ColumnUse(ColumnRef.of("users", "password"), UsePosition.OUTPUT, List.of(FlowStep.total("upper")))),
                List.of(Amplification.absolute("lpad", 10), Amplification.relative("concat", 3)), Limits.defaults())))
                .doesNotThrowAnyException();
    }

    @Test
    void aTableOrColumnOffTheAllowlistIsRefusedLikeAMissingOne() {
        GuardException table = refused(plan(Set.of(TableRef.of("secrets")), Set.of()));
        assertThat(table.code()).isEqualTo(ErrorCode.TABLE_NOT_ALLOWED);
        assertThat(table.getMessage()).isEqualTo(Refusals.unknownTable("secrets").getMessage());
        GuardException column = refused(plan(Set.of(TableRef.of("users")),
                Set.of(ColumnUse.direct(ColumnRef.of("users", "api_key"), UsePosition.OUTPUT))));
        assertThat(column.code()).isEqualTo(ErrorCode.UNKNOWN_COLUMN);
        assertThat(column.getMessage()).doesNotContain("api_key");
    }

    @Test
    void sensitiveFlowIsDecidedHere() {
        GuardException e = refused(plan(Set.of(TableRef.of("users")), Set.of(new ColumnUse(ColumnRef.of("users", "password"),
                UsePosition.OUTPUT, List.of(FlowStep.partial("substring"), FlowStep.total("ascii"), FlowStep.partial("pow"))))));
        assertThat(e.code()).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
    }

    @Test
    void amplificationsMustStayWithinTheBoundTheLimitsGive() {
        Limits limits = Limits.defaults();
        long bound = Amplification.maxAbsolute(limits);
        assertThat(bound).isEqualTo(1953);
        assertThatCode(() -> POLICY.authorize(plan(Set.of(), Set.of(), List.of(Amplification.absolute("repeat", bound)), limits)))
                .doesNotThrowAnyException();
        GuardException over = refused(plan(Set.of(), Set.of(), List.of(Amplification.absolute("repeat", bound + 1)), limits));
        assertThat(over.code()).isEqualTo(ErrorCode.UNBOUNDED_COST);
        assertThat(over.getMessage()).isEqualTo("'repeat' could build a value longer than 1953 characters or elements; use a smaller literal.");
        assertThat(refused(plan(Set.of(), Set.of(), List.of(Amplification.relative("||", 65)), limits)).getMessage())
                .contains("more than 64 times");
        assertThat(refused(plan(Set.of(), Set.of(), List.of(Amplification.unbounded("lpad")), limits)).getMessage())
                .startsWith("'lpad' can build values or do work that grows faster than its input");
        // a larger memory limit allows larger literals
        Limits big = limits.withMemoryBytes(4L << 30);
        assertThatCode(() -> POLICY.authorize(plan(Set.of(), Set.of(), List.of(Amplification.absolute("repeat", 20_000)), big)))
                .doesNotThrowAnyException();
    }

    @Test
    void anUnrestrictedPolicyStillDecidesSensitivityAndCost() {
        GuardrailPolicy open = GuardrailPolicy.defaults();
        QueryPlan filter = plan(Set.of(TableRef.of("any")), Set.of(ColumnUse.direct(ColumnRef.of("any", "ssn"), UsePosition.FILTER)));
        assertThat(((GuardException) catchThrowable(() -> open.authorize(filter))).code()).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
    }

    private static QueryPlan outputs(Set<Integer> masked, OutputColumn... outputs) {
        return new QueryPlan("s", "SELECT", "SELECT", List.of(), Set.of(TableRef.of("users")),
                Set.of(ColumnUse.direct(ColumnRef.of("users", "name"), UsePosition.OUTPUT),
                        ColumnUse.direct(ColumnRef.of("users", "password"), UsePosition.OUTPUT)),
                Set.of(), List.of(outputs), List.of(), Limits.defaults(), masked);
    }

    /**
     * A sensitive output the engine would send in clear (redacted only in the JVM, after its bytes were
     * measured on the wire) is refused; masked in the executable SQL, the same plan passes. Sensitive by
     * lineage, by name and by an untraced lineage alike.
     */
    @Test
    void anOutputThatMustBeRedactedButIsNotMaskedInTheEngineIsRefused() {
        OutputColumn name = OutputColumn.traced("name", Set.of(ColumnRef.of("users", "name")));
        OutputColumn[] sensitive = {
            OutputColumn.traced("x", Set.of(ColumnRef.of("users", "password"))),
            OutputColumn.traced("my_secret", Set.of(ColumnRef.of("users", "name"))),
            OutputColumn.untraced("mystery")};
        for (OutputColumn output : sensitive) {
            GuardException e = refused(outputs(Set.of(), name, output));
            assertThat(e.code()).as(output.name()).isEqualTo(ErrorCode.SENSITIVE_OUTPUT_NOT_MASKED);
            assertThat(e.code().type()).isEqualTo(ErrorType.POLICY);
            assertThat(e.getMessage()).as(output.name()).startsWith("Output column 2 (");
            // masking the wrong output is no better
            assertThat(refused(outputs(Set.of(0), name, output)).code()).isEqualTo(ErrorCode.SENSITIVE_OUTPUT_NOT_MASKED);
            assertThatCode(() -> POLICY.authorize(outputs(Set.of(1), name, output))).as(output.name()).doesNotThrowAnyException();
            assertThat(POLICY.outputsToMask(List.of(name, output))).containsExactly(1);
        }
        // a plan that masks nothing sensitive passes as before, and one masking more than it must passes too
        assertThatCode(() -> POLICY.authorize(outputs(Set.of(), name))).doesNotThrowAnyException();
        assertThatCode(() -> POLICY.authorize(outputs(Set.of(0), name))).doesNotThrowAnyException();
        // a configured name is sensitive too
        GuardrailPolicy redactName = POLICY.withRedact(Set.of("name"));
        assertThat(redactName.outputsToMask(List.of(name))).containsExactly(0);
        assertThat(((GuardException) catchThrowable(() -> redactName.authorize(outputs(Set.of(), name)))).code())
                .isEqualTo(ErrorCode.SENSITIVE_OUTPUT_NOT_MASKED);
    }

    /** The check runs after the flow rules: an oracle keeps its own refusal code. */
    @Test
    void anOracleKeepsItsCodeWhenItsOutputIsNotMaskedEither() {
        QueryPlan plan = new QueryPlan("s", "SELECT", "SELECT", List.of(), Set.of(TableRef.of("users")),
                Set.of(ColumnUse.direct(ColumnRef.of("users", "password"), UsePosition.FILTER),
                        ColumnUse.direct(ColumnRef.of("users", "password"), UsePosition.OUTPUT)),
                Set.of(), List.of(OutputColumn.traced("password", Set.of(ColumnRef.of("users", "password")))), List.of(), Limits.defaults());
        assertThat(refused(plan).code()).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
    }

    @Test
    void aPlanCarriesItsMaskedOutputsThroughParameterBinding() {
        OutputColumn a = OutputColumn.traced("a", Set.of());
        QueryPlan plan = new QueryPlan("s", "SELECT ?", "SELECT ?", java.util.Arrays.asList((Object) null), Set.of(), Set.of(),
                Set.of(), List.of(a, a), List.of(), Limits.defaults(), Set.of(1));
        assertThat(plan.withParameters(List.of(7)).maskedOutputs()).containsExactly(1);
        assertThat(plan.masks(1)).isTrue();
        assertThat(plan.masks(0)).isFalse();
        // the ten-argument constructor masks nothing
        assertThat(new QueryPlan("s", "SELECT", "SELECT", List.of(), Set.of(), Set.of(), Set.of(), List.of(a), List.of(),
                Limits.defaults()).maskedOutputs()).isEmpty();
        assertThat(catchThrowable(() -> new QueryPlan("s", "SELECT", "SELECT", List.of(), Set.of(), Set.of(), Set.of(), List.of(a),
                List.of(), Limits.defaults(), Set.of(1)))).isInstanceOf(IllegalArgumentException.class);
        assertThat(catchThrowable(() -> new QueryPlan("s", "SELECT", "SELECT", List.of(), Set.of(), Set.of(), Set.of(), List.of(a),
                List.of(), Limits.defaults(), Set.of(-1)))).isInstanceOf(IllegalArgumentException.class);
    }
}
