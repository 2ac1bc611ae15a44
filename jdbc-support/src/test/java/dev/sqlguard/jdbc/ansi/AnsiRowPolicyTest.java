package dev.sqlguard.jdbc.ansi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.Bindings;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.RowPolicy;

/**
 * Row filters and column masks in the kit's renderer (issue 31): every reference to a governed table
 * becomes its filtered and masked derived table under the same generated alias, the filter's attribute
 * placeholders take their own {@code ?} in text order next to the caller's parameters, and the plan's
 * text as checked (what every cross-check with the engine reads) stays the unfiltered rendering.
 * (The minimal dialect labels an unaliased output {@code c0}, {@code c1}, ...: subqueries here alias theirs.)
 */
class AnsiRowPolicyTest {
    private static final String LIMIT = " LIMIT 1001";
    private static final String FILTERED = "(SELECT \"id\", \"region\", \"ssn\" FROM \"s\".\"claims\" WHERE (region = ?))";
    private static final GuardrailPolicy TENANTS = RowPolicyCheck.inSchema("s", MinimalDialect.POLICY
            .withRows(RowPolicy.of(Optional.empty(), Map.of("claims", "region = :tenant"), Map.of())), "s");

    private static AnsiRenderer renderer(GuardrailPolicy policy) {
        return new AnsiRenderer(new MinimalDialect(), MinimalDialect.SCHEMA, policy);
    }

    /** The plan as checked and the plan as executed, from one renderer. */
    private record Both(QueryPlan checked, QueryPlan executed) {
    }

    private static Both both(GuardrailPolicy policy, String sql) {
        AnsiRenderer r = renderer(policy);
        QueryPlan checked = r.plan("s", sql);
        return new Both(checked, r.filtered(checked));
    }

    /** The slots of the bindings, in text order: "?" for a caller parameter, the attribute's name otherwise. */
    private static List<String> slots(Bindings b) {
        List<Object> parameters = new ArrayList<>();
        for (int i = 0; i < b.parameterCount(); i++) {
            parameters.add("?" + (i + 1));
        }
        Map<String, String> attributes = new java.util.HashMap<>();
        b.attributes().forEach(a -> attributes.put(a, ":" + a));
        return b.bind(parameters, attributes).stream().map(String::valueOf).toList();
    }

    @Test
    void aFilteredTableBecomesItsDerivedTableUnderTheSameAliasAndTheCheckedTextStaysAsWritten() {
        Both p = both(TENANTS, "SELECT id FROM claims WHERE id > ?");
        assertThat(p.checked().executableSql()).isEqualTo("SELECT \"t1\".\"id\" AS \"c0\" FROM \"s\".\"claims\" AS \"t1\""
                + " WHERE (\"t1\".\"id\" > ?)" + LIMIT);
        assertThat(p.checked().bindings()).isEqualTo(Bindings.parameters(1));
        assertThat(p.executed().executableSql()).isEqualTo("SELECT \"t1\".\"id\" AS \"c0\" FROM " + FILTERED + " AS \"t1\""
                + " WHERE (\"t1\".\"id\" > ?)" + LIMIT);
        assertThat(slots(p.executed().bindings())).containsExactly(":tenant", "?1");
        // the facts are those of the query as written: the filter's column is no use of the model's
        assertThat(p.executed().uses()).isEqualTo(p.checked().uses());
        assertThat(p.executed().tables()).isEqualTo(p.checked().tables());
        assertThat(p.executed().outputs()).isEqualTo(p.checked().outputs());
    }

    @Test
    void parametersBeforeAndAfterTheFilteredTableKeepTheirOrderAroundTheAttribute() {
        Both p = both(TENANTS, "SELECT id, ? AS p FROM claims WHERE id > ? AND region <> ?");
        assertThat(p.executed().executableSql()).isEqualTo("SELECT \"t1\".\"id\" AS \"c0\", ? AS \"p\" FROM " + FILTERED
                + " AS \"t1\" WHERE ((\"t1\".\"id\" > ?) AND (\"t1\".\"region\" <> ?))" + LIMIT);
        assertThat(slots(p.executed().bindings())).containsExactly("?1", ":tenant", "?2", "?3");
        QueryPlan called = p.executed().withParameters(List.of(0, 10, "x")).withAttributes(Map.of("tenant", "north", "other", "y"));
        assertThat(called.values()).containsExactly(0, "north", 10, "x");
        assertThat(called.attributes()).containsExactly(Map.entry("tenant", "north"));
        assertThatThrownBy(() -> p.executed().withParameters(List.of(0, 10, "x")).withAttributes(Map.of()))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.MISSING_ATTRIBUTE));
    }

    @Test
    void aFilteredTableReferencedTwiceIsFilteredTwiceAtAnyDepth() {
        Both p = both(TENANTS, "SELECT a.id FROM claims a JOIN claims b ON a.id = b.id WHERE b.id < ?"
                + " AND EXISTS (SELECT 1 FROM (SELECT c.id AS id FROM claims c WHERE c.id = ?) x WHERE x.id = a.id)");
        String sql = p.executed().executableSql();
        assertThat(sql).doesNotContain("\"s\".\"claims\" AS");
        assertThat(sql.split(java.util.regex.Pattern.quote(FILTERED), -1)).hasSize(4);
        assertThat(sql).contains(FILTERED + " AS \"t1\"", FILTERED + " AS \"t2\"", FILTERED + " AS \"t3\"");
        assertThat(slots(p.executed().bindings())).containsExactly(":tenant", ":tenant", "?1", ":tenant", "?2");
        assertThat(p.executed().parameters()).hasSize(2);
    }

    @Test
    void commonTableExpressionsSetOperationsAndScalarSubqueriesReadTheFilteredTable() {
        for (String sql : List.of("WITH x AS (SELECT id AS id FROM claims) SELECT id FROM x",
                "SELECT id FROM claims UNION ALL SELECT id FROM claims",
                "SELECT (SELECT count(*) FROM claims) AS n",
                "SELECT count(*) OVER () AS n FROM claims")) {
            Both p = both(TENANTS, sql);
            assertThat(p.executed().executableSql()).as(sql).contains(FILTERED).doesNotContain("\"s\".\"claims\" AS");
            assertThat(p.checked().executableSql()).as(sql).doesNotContain("WHERE (region");
        }
    }

    @Test
    void aSchemaQualifiedColumnReadsTheDerivedTableThroughItsAlias() {
        Both p = both(TENANTS, "SELECT s.claims.id FROM s.claims WHERE s.claims.region = 'north'");
        assertThat(p.executed().executableSql()).isEqualTo("SELECT \"t1\".\"id\" AS \"c0\" FROM " + FILTERED + " AS \"t1\""
                + " WHERE (\"t1\".\"region\" = 'north')" + LIMIT);
    }

    @Test
    void aMaskedColumnIsComputedInTheDerivedTableUnderItsOwnName() {
        GuardrailPolicy masked = RowPolicyCheck.inSchema("s", MinimalDialect.POLICY.withRows(RowPolicy.of(Optional.empty(),
                Map.of(), Map.of("claims.region", "upper(region)"))), "s");
        Both p = both(masked, "SELECT region FROM claims");
        assertThat(p.executed().executableSql()).isEqualTo("SELECT \"t1\".\"region\" AS \"c0\" FROM (SELECT \"id\","
                + " (upper(region)) AS \"region\", \"ssn\" FROM \"s\".\"claims\") AS \"t1\"" + LIMIT);
        assertThat(p.executed().bindings()).isEqualTo(Bindings.parameters(0));
    }

    @Test
    void aQueryThatReadsNoGovernedTableIsExecutedAsChecked() {
        Both p = both(TENANTS, "SELECT 1 AS one");
        assertThat(p.executed()).isSameAs(p.checked());
        Both ungoverned = both(MinimalDialect.POLICY, "SELECT id FROM claims WHERE id = ?");
        assertThat(ungoverned.executed()).isSameAs(ungoverned.checked());
    }

    @Test
    void aCommonTableExpressionNamedLikeAGovernedTableIsRefused() {
        for (String sql : List.of("WITH claims AS (SELECT 1 AS id) SELECT id FROM claims",
                "WITH x AS (WITH \"CLAIMS\" AS (SELECT 1 AS id) SELECT id FROM \"CLAIMS\") SELECT id FROM x",
                "SELECT id FROM (WITH Claims AS (SELECT 2 AS id) SELECT id FROM Claims) y")) {
            assertThatThrownBy(() -> renderer(TENANTS).plan("s", sql)).as(sql).isInstanceOfSatisfying(GuardException.class, e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.CONSTRUCT_NOT_ALLOWED);
                assertThat(e.safeMessage()).isEqualTo("A WITH query is named like the table claims, whose rows are filtered per caller;"
                        + " give it another name.");
            });
        }
        assertThat(renderer(MinimalDialect.POLICY).plan("s", "WITH claims AS (SELECT 1 AS id) SELECT id FROM claims").tables()).isEmpty();
    }

    @Test
    void filteredRefusesAPlanOfAnotherRenderer() {
        QueryPlan other = renderer(TENANTS).plan("s", "SELECT id FROM claims");
        AnsiRenderer r = renderer(TENANTS);
        r.plan("s", "SELECT region FROM claims");
        assertThatThrownBy(() -> r.filtered(other)).isInstanceOf(IllegalStateException.class);
    }

    /**
     * Where the database enforces the same policy (row-level security, Trino's access control), its
     * reading of a statement also reads the columns the filters and masks name: those, and no other,
     * are allowed beside the statement's own (a word in a string literal names no column).
     */
    @Test
    void theEngineMayAlsoReadTheColumnsThePolicyNames() {
        GuardrailPolicy p = RowPolicyCheck.inSchema("s", MinimalDialect.POLICY.withRows(RowPolicy.of(Optional.empty(),
                Map.of("claims", "region = :tenant OR 'id' = 'x'"), Map.of("claims.ssn", "'***'"))), "s");
        dev.sqlguard.domain.TableRef claims = dev.sqlguard.domain.TableRef.of("s", "claims");
        Set<dev.sqlguard.domain.ColumnRef> own = RowPolicyCheck.policyColumns(p, MinimalDialect.SCHEMA, Set.of(claims));
        assertThat(own).containsExactlyInAnyOrder(new dev.sqlguard.domain.ColumnRef(claims, "region"),
                new dev.sqlguard.domain.ColumnRef(claims, "ssn"));
        assertThat(RowPolicyCheck.policyColumns(MinimalDialect.POLICY, MinimalDialect.SCHEMA, Set.of(claims))).isEmpty();
        QueryPlan count = renderer(p).plan("s", "SELECT count(*) AS n FROM claims");
        EngineReading rls = new EngineReading(Set.of(claims), Set.of(new dev.sqlguard.domain.ColumnRef(claims, "region")), true);
        assertThatThrownBy(() -> rls.requireWithin(count)).isInstanceOf(GuardException.class);
        rls.requireWithin(count, own);
        EngineReading other = new EngineReading(Set.of(claims), Set.of(new dev.sqlguard.domain.ColumnRef(claims, "id")), true);
        assertThatThrownBy(() -> other.requireWithin(count, own)).isInstanceOfSatisfying(GuardException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.UNSAFE_SYNTAX));
    }

    @Test
    void theStartCheckProbesTheDerivedTableAndNamesTheTableThatFails() throws Exception {
        List<String> probes = new ArrayList<>();
        RowPolicyCheck.check("s", MinimalDialect.SCHEMA, TENANTS, new MinimalDialect(), a -> "CAST(NULL AS text)",
                (sql, placeholders) -> probes.add(sql + " | " + placeholders));
        assertThat(probes).containsExactly("SELECT \"id\", \"region\", \"ssn\" FROM \"s\".\"claims\" WHERE (region = CAST(NULL AS text)) | 1");
        assertThatThrownBy(() -> RowPolicyCheck.check("s", MinimalDialect.SCHEMA, TENANTS, new MinimalDialect(), a -> "?",
                (sql, placeholders) -> {
                    throw new java.sql.SQLException("column \"secret detail\" does not exist", "42703");
                })).isInstanceOfSatisfying(GuardException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
                    assertThat(e.safeMessage()).contains("claims").doesNotContain("secret detail");
                });
        GuardrailPolicy unknown = RowPolicyCheck.inSchema("s", MinimalDialect.POLICY.withRows(RowPolicy.of(Optional.empty(),
                Map.of("nope", "region = :tenant"), Map.of())), "s");
        assertThatThrownBy(() -> RowPolicyCheck.check("s", MinimalDialect.SCHEMA, unknown, new MinimalDialect(), a -> "?", (sql, n) -> { }))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.safeMessage()).contains("nope"));
        GuardrailPolicy badMask = RowPolicyCheck.inSchema("s", MinimalDialect.POLICY.withRows(RowPolicy.of(Optional.empty(),
                Map.of(), Map.of("claims.nope", "upper(nope)"))), "s");
        assertThatThrownBy(() -> RowPolicyCheck.check("s", MinimalDialect.SCHEMA, badMask, new MinimalDialect(), a -> "?", (sql, n) -> { }))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.safeMessage()).contains("claims.nope"));
        assertThatThrownBy(() -> RowPolicyCheck.inSchema("s", MinimalDialect.POLICY.withRows(RowPolicy.of(Optional.of("other"),
                Map.of("claims", "region = :tenant"), Map.of())), "s"))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR));
    }
}
