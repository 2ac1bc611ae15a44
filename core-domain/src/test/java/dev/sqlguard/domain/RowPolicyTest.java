package dev.sqlguard.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.sqlguard.domain.port.AuditEvent;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.domain.port.ExecutionPort;
import dev.sqlguard.domain.port.LifecycleRecord;
import dev.sqlguard.domain.port.StatementValidator;

/** Row filters, masks and the binding of caller attributes (issue 31). */
class RowPolicyTest {
    @Test
    void placeholdersAreFoundInCodeOnlyAndInTextOrder() {
        RowFilter f = new RowFilter("org_id = :Tenant AND note <> ':fake' AND \":quoted\" = 1 AND x::text = :region AND y = :tenant");
        assertThat(f.placeholders()).containsExactly("tenant", "region", "tenant");
        assertThat(f.attributes()).containsExactly("tenant", "region");
        List<String> seen = new ArrayList<>();
        String rendered = f.render(name -> {
            seen.add(name);
            return "?";
        });
        assertThat(rendered).isEqualTo("org_id = ? AND note <> ':fake' AND \":quoted\" = 1 AND x::text = ? AND y = ?");
        assertThat(seen).containsExactly("tenant", "region", "tenant");
        assertThat(new RowFilter("deleted_at IS NULL").placeholders()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "  ", "a = ?", "a = 1; DROP TABLE t", "a = 1 -- x", "a = 1 /* x */", "a = 1 # x",
            "a IN (SELECT b FROM other)", "EXISTS (select 1)", "a = 'unclosed", "a = 'back\\'slash'"})
    void aFilterThatIsNotOnePlainPredicateIsRefused(String text) {
        assertThatThrownBy(() -> new RowFilter(text)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void wordsInsideQuotesOrNamesAreNotReadsOrStatementEnds() {
        assertThat(new RowFilter("status <> 'select; from' AND selected_from = 1").placeholders()).isEmpty();
    }

    @Test
    void aMaskTakesNoAttributes() {
        assertThat(new ColumnMask("'***-**-' || right(ssn, 4)").expression()).startsWith("'***");
        assertThatThrownBy(() -> new ColumnMask("CASE WHEN :tenant = 'x' THEN ssn END")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void keysResolveLikeTheAllowlistWithTheDefaultSchema() {
        RowPolicy p = RowPolicy.of(Optional.of("Main"), Map.of("claims", "tenant_id = :tenant", "other.users", "org = :org"),
                Map.of("main.users.ssn", "'x'", "claims.note", "'y'"));
        assertThat(p.filterOf(TableRef.of("main", "claims"))).isPresent();
        assertThat(p.filterOf(TableRef.of("claims"))).isPresent();
        assertThat(p.filterOf(TableRef.of("other", "claims"))).isEmpty();
        assertThat(p.filterOf(TableRef.of("other", "users"))).isPresent();
        assertThat(p.masksOf(TableRef.of("users"))).containsOnlyKeys("ssn");
        assertThat(p.governs(TableRef.of("main", "users"))).isTrue();
        assertThat(p.governs(TableRef.of("regions"))).isFalse();
        assertThat(p.isMasked(TableRef.of("claims"), "NOTE")).isTrue();
        assertThat(p.masksColumnNamed("Note")).isTrue();
        assertThat(p.attributes()).containsExactlyInAnyOrder("tenant", "org");
        assertThat(p.governedTables()).contains(TableRef.of("claims"), TableRef.of("other", "users"), TableRef.of("users"));
        assertThat(RowPolicy.none().isEmpty()).isTrue();
    }

    @Test
    void theMaskIndexesAnswerAsTheMasksDo() {
        RowPolicy p = RowPolicy.of(Optional.of("main"), Map.of("claims", "tenant_id = :tenant"),
                Map.of("main.users.ssn", "'x'", "users.email", "'e'", "other.users.ssn", "'z'"));
        assertThat(p.masksOf(TableRef.of("main", "users"))).containsOnlyKeys("ssn", "email");
        assertThat(p.masksOf(TableRef.of("other", "users"))).containsOnlyKeys("ssn");
        assertThat(p.masksOf(TableRef.of("claims"))).isEmpty();
        assertThatThrownBy(() -> p.masksOf(TableRef.of("users")).put("x", new ColumnMask("'x'")))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(p.governs(TableRef.of("other", "users"))).isTrue();
        assertThat(p.governs(TableRef.of("other", "claims"))).isFalse();
        assertThat(p.governs(TableRef.of("main", "claims"))).isTrue();
        assertThat(p.masksColumnNamed("EMAIL")).isTrue();
        assertThat(p.masksColumnNamed("tenant_id")).isFalse();
        assertThat(RowPolicy.none().masksColumnNamed("ssn")).isFalse();
    }

    @Test
    void policiesAndFiltersAreValues() {
        RowPolicy a = RowPolicy.of(Optional.of("Main"), Map.of("main.claims", "tenant_id = :tenant"), Map.of("users.ssn", "'x'"));
        RowPolicy b = new RowPolicy(Optional.of("main"), Map.of(TableRef.of("claims"), new RowFilter("tenant_id = :tenant")),
                Map.of(ColumnRef.of("users", "ssn"), new ColumnMask("'x'")));
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(a).isNotEqualTo(RowPolicy.of(Optional.of("main"), Map.of("claims", "tenant_id = :org"), Map.of("users.ssn", "'x'")));
        assertThat(a.toString()).contains("tenant_id = :tenant");
        RowFilter f = new RowFilter("a = :x AND b = :x");
        assertThat(f).isEqualTo(new RowFilter("a = :x AND b = :x")).hasSameHashCodeAs(new RowFilter("a = :x AND b = :x"))
                .isNotEqualTo(new RowFilter("a = :x"));
        assertThat(f.predicate()).isEqualTo("a = :x AND b = :x");
        assertThat(f.render(name -> "$" + name)).isEqualTo(f.render(name -> "$" + name)).isEqualTo("a = $x AND b = $x");
        assertThatThrownBy(() -> f.placeholders().add("y")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> f.attributes().add("y")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void applyingAttributesKeepsThePlansFactsAndCopiesNothingTheCallerCanChange() {
        List<Object> params = new ArrayList<>(java.util.Arrays.asList(1L, null));
        Set<ColumnUse> uses = new java.util.LinkedHashSet<>();
        uses.add(ColumnUse.direct(ColumnRef.of("t", "id"), UsePosition.OUTPUT));
        uses.add(ColumnUse.direct(ColumnRef.of("t", "a"), UsePosition.FILTER));
        Set<Integer> masked = new java.util.HashSet<>(Set.of(0));
        QueryPlan plan = new QueryPlan("s", "SELECT", "SELECT id FROM (SELECT id FROM t WHERE tenant = ?) t WHERE a > ? OR a = ?",
                params, Set.of(TableRef.of("t")), uses, Set.of(), List.of(OutputColumn.traced("id", Set.of(ColumnRef.of("t", "id")))),
                List.of(), Limits.defaults(), masked, Bindings.builder().attribute("tenant").parameter().parameter().build(), Map.of());
        params.set(0, 99L);
        uses.clear();
        masked.clear();
        QueryPlan applied = plan.withAttributes(Map.of("tenant", "north", "other", "x"));
        for (QueryPlan p : List.of(plan, applied)) {
            assertThat(p.parameters()).containsExactly(1L, null);
            assertThat(p.uses()).extracting(u -> u.column().column()).containsExactly("id", "a");
            assertThat(p.maskedOutputs()).containsExactly(0);
            assertThatThrownBy(() -> p.parameters().set(0, 2L)).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> p.uses().clear()).isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> p.maskedOutputs().clear()).isInstanceOf(UnsupportedOperationException.class);
        }
        assertThat(applied.attributes()).containsExactly(Map.entry("tenant", "north"));
        assertThat(applied.values()).containsExactly("north", 1L, null);
        assertThat(applied).isEqualTo(plan.withAttributes(Map.of("tenant", "north")));
        assertThat(applied.withParameters(java.util.Arrays.asList(3L, 4L)).values()).containsExactly("north", 3L, 4L);
        assertThatThrownBy(() -> plan.withAttributes(Map.of("other", "x")))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.MISSING_ATTRIBUTE));
    }

    @Test
    void malformedKeysAreNamed() {
        assertThatThrownBy(() -> RowPolicy.of(Optional.empty(), Map.of("a.b.c", "x = 1"), Map.of()))
                .hasMessageContaining("a.b.c");
        assertThatThrownBy(() -> RowPolicy.of(Optional.empty(), Map.of(), Map.of("ssn", "'x'")))
                .hasMessageContaining("table.column");
        assertThatThrownBy(() -> RowPolicy.of(Optional.empty(), Map.of("claims", "x = ?"), Map.of()))
                .hasMessageContaining("row filter of claims");
        assertThatThrownBy(() -> RowPolicy.of(Optional.of("main"), Map.of("claims", "a = 1", "main.claims", "a = 2"), Map.of()))
                .hasMessageContaining("two row filters");
    }

    @Test
    void bindingsInterleaveParametersAndAttributesInPlaceholderOrder() {
        Bindings b = Bindings.builder().parameter().attribute("Tenant").parameter().attribute("tenant").build();
        assertThat(b.parameterCount()).isEqualTo(2);
        assertThat(b.size()).isEqualTo(4);
        assertThat(b.attributes()).containsExactly("tenant");
        assertThat(b.bind(List.of(1L, 2L), Map.of("tenant", "north"))).containsExactly(1L, "north", 2L, "north");
        assertThatThrownBy(() -> b.bind(List.of(1L, 2L), Map.of()))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.MISSING_ATTRIBUTE));
        assertThatThrownBy(() -> b.bind(List.of(1L), Map.of("tenant", "north")))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.PARAMETER_COUNT_MISMATCH));
        assertThat(Bindings.parameters(2).bind(List.of(1L, 2L), Map.of())).containsExactly(1L, 2L);
    }

    @Test
    void requestAttributesAreFoldedAndBounded() {
        QueryRequest r = QueryRequest.of("s", "SELECT 1").withAttributes(Map.of("Tenant", "acme"));
        assertThat(r.attributes()).containsExactly(Map.entry("tenant", "acme"));
        assertThatThrownBy(() -> r.withAttributes(Map.of("tenant", "a", "TENANT", "b"))).hasMessageContaining("twice");
        assertThatThrownBy(() -> r.withAttributes(Map.of("tenant", "x".repeat(4097)))).hasMessageContaining("4096");
        assertThatThrownBy(() -> r.withAttributes(Map.of(" ", "x"))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aMaskedColumnIsHeldToTheSensitiveFlowButNotRedacted() {
        GuardrailPolicy policy = GuardrailPolicy.defaults()
                .withRows(RowPolicy.of(Optional.empty(), Map.of(), Map.of("regions.manager", "upper(manager)")));
        assertThat(policy.isFlowSensitive("manager")).isTrue();
        assertThat(policy.isSensitive("manager")).isFalse();
        assertThat(policy.mustRedact(OutputColumn.traced("manager", Set.of(ColumnRef.of("regions", "manager"))))).isFalse();
    }

    // ------------------------------------------------------------------ the call: fail closed, audited

    private final List<AuditEvent> events = new ArrayList<>();
    private final List<List<Object>> executed = new ArrayList<>();
    private final AuditSink sink = new AuditSink() {
        @Override
        public void audit(AuditEvent event) {
            events.add(event);
        }

        @Override
        public void lifecycle(LifecycleRecord record) {
        }
    };

    /** A validator that renders the filtered table with one attribute placeholder between two caller ones. */
    private final StatementValidator filtered = request -> new QueryPlan("s", request.sql(),
            "SELECT id FROM (SELECT id FROM t WHERE a > ? AND tenant = ?) t WHERE id < ?", List.of(1L, 2L), Set.of(TableRef.of("t")),
            Set.of(), Set.of(), List.of(OutputColumn.traced("id", Set.of(ColumnRef.of("t", "id")))), List.of(), Limits.defaults(),
            Set.of(), Bindings.builder().parameter().attribute("tenant").parameter().build(), Map.of())
            .withParameters(request.params());

    private final ExecutionPort execution = plan -> {
        executed.add(plan.values());
        return ListCursor.of(List.of("id"), new Object[] {7L});
    };

    private final SourceBinding source = new SourceBinding("s", GuardrailPolicy.defaults(), filtered, execution);

    @Test
    void aCallWithoutTheAttributeIsRefusedBeforeAnyDatabaseCall() {
        ToolResult r = new QueryService(sink).query(source, QueryRequest.of("s", "SELECT id FROM t", 5L, 9L));
        assertThat(r.status()).isEqualTo(ToolStatus.REJECTED);
        assertThat(r.error()).get().extracting(ToolError::code).isEqualTo(ErrorCode.MISSING_ATTRIBUTE);
        assertThat(r.rows()).isEmpty();
        assertThat(executed).isEmpty();
        assertThat(events).singleElement().satisfies(e -> assertThat(e.attributes()).isEmpty());
    }

    @Test
    void aCallBindsItsAttributeWhereTheFilterPutItAndAuditsOnlyTheAppliedOnes() {
        QueryRequest request = QueryRequest.of("s", "SELECT id FROM t", 5L, 9L)
                .withAttributes(Map.of("tenant", "north", "unused", "x"));
        ToolResult r = new QueryService(sink).query(source, request);
        assertThat(r.status()).isEqualTo(ToolStatus.OK);
        assertThat(executed).containsExactly(List.of(5L, "north", 9L));
        assertThat(events).singleElement().satisfies(e -> assertThat(e.attributes()).containsExactly(Map.entry("tenant", "north")));
    }
}
