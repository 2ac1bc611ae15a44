package dev.sqlguard.jdbc.ansi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryPlan;

/**
 * The kit's renderer driven by the smallest dialect a third party could write: no optional
 * construct, bare function names, {@code FETCH}-less {@code LIMIT}. Shows what the hooks decide and
 * that every construct a dialect leaves off is refused with its stable code.
 */
class AnsiRendererTest {
    private static QueryPlan plan(String sql) {
        return new AnsiRenderer(new MinimalDialect(), MinimalDialect.SCHEMA, MinimalDialect.POLICY).plan("s", sql);
    }

    @Test
    void rendersEveryNameQualifiedUnderGeneratedAliasesWithTheDialectsLabelsAndLimit() {
        QueryPlan p = plan("SELECT upper(region), count(*) AS n FROM claims c WHERE c.id > 2 GROUP BY 1 ORDER BY n DESC LIMIT 5 OFFSET 1");
        assertThat(p.executableSql()).isEqualTo("SELECT upper(\"t1\".\"region\") AS \"c0\", count(*) AS \"n\" FROM \"s\".\"claims\" AS \"t1\""
                + " WHERE (\"t1\".\"id\" > 2) GROUP BY 1 ORDER BY 2 DESC LIMIT 5 OFFSET 1");
        assertThat(p.functions()).containsExactlyInAnyOrder("count", "upper");
        assertThat(plan("SELECT id FROM claims").executableSql()).endsWith(" LIMIT " + (Limits.defaults().maxRows() + 1));
    }

    /**
     * An output the policy redacts (here by the policy's {@code redact} list, and by a sensitive label)
     * is masked by an outer projection over the statement as rendered, with a derived column list (so
     * two outputs may share a label) and each output's own label; the statement keeps its ordering and
     * bound. {@code unmasked} gives the statement back, and refuses a text that is not the masking.
     */
    @Test
    void masksTheOutputsThePolicyRedactsOutsideTheStatement() {
        AnsiRenderer redacting = new AnsiRenderer(new MinimalDialect(), MinimalDialect.SCHEMA,
                MinimalDialect.POLICY.withRedact(java.util.Set.of("region")));
        QueryPlan p = redacting.plan("s", "SELECT id AS i, region AS r, region AS i FROM claims ORDER BY 1 DESC");
        assertThat(p.maskedOutputs()).containsExactly(1, 2);
        String statement = "SELECT \"t1\".\"id\" AS \"i\", \"t1\".\"region\" AS \"r\", \"t1\".\"region\" AS \"i\""
                + " FROM \"s\".\"claims\" AS \"t1\" ORDER BY 1 DESC LIMIT 1001";
        assertThat(p.executableSql()).isEqualTo("SELECT \"sqlguard_result\".\"c1\" AS \"i\","
                + " CASE WHEN 1 = 0 THEN \"sqlguard_result\".\"c2\" END AS \"r\","
                + " CASE WHEN 1 = 0 THEN \"sqlguard_result\".\"c3\" END AS \"i\" FROM (" + statement
                + ") AS \"sqlguard_result\" (\"c1\", \"c2\", \"c3\")");
        assertThat(AnsiRenderer.unmasked(new MinimalDialect(), p)).isEqualTo(statement);
        QueryPlan label = plan("SELECT id AS secret_id, region AS r FROM claims");
        assertThat(label.maskedOutputs()).containsExactly(0);
        assertThat(AnsiRenderer.unmasked(new MinimalDialect(), label)).isEqualTo(
                "SELECT \"t1\".\"id\" AS \"secret_id\", \"t1\".\"region\" AS \"r\" FROM \"s\".\"claims\" AS \"t1\" LIMIT 1001");
        QueryPlan honest = plan("SELECT id, region FROM claims");
        assertThat(honest.maskedOutputs()).isEmpty();
        assertThat(AnsiRenderer.unmasked(new MinimalDialect(), honest)).isEqualTo(honest.executableSql());
        QueryPlan forged = new QueryPlan("s", "x", "SELECT 1", List.of(), java.util.Set.of(), java.util.Set.of(), java.util.Set.of(),
                label.outputs(), List.of(), Limits.defaults(), java.util.Set.of(0));
        assertThatThrownBy(() -> AnsiRenderer.unmasked(new MinimalDialect(), forged)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void capsAGroupedAggregateUnlessTheDialectLeavesItOff() {
        String grouped = "SELECT region, count(*) AS n FROM claims GROUP BY region";
        String cap = " LIMIT " + (Limits.defaults().maxRows() + 1);
        assertThat(plan(grouped).executableSql()).endsWith(cap);
        MinimalDialect uncapped = new MinimalDialect() {
            @Override
            public boolean capsGroupedAggregates() {
                return false;
            }
        };
        AnsiRenderer renderer = new AnsiRenderer(uncapped, MinimalDialect.SCHEMA, MinimalDialect.POLICY);
        assertThat(renderer.plan("s", grouped).executableSql()).doesNotContain("LIMIT");
        assertThat(renderer.plan("s", "SELECT region FROM claims GROUP BY region").executableSql()).endsWith(cap);
        assertThat(renderer.plan("s", grouped + " ORDER BY 2").executableSql()).endsWith(cap);
        assertThat(renderer.plan("s", "SELECT id FROM claims").executableSql()).endsWith(cap);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "SELECT DISTINCT ON (region) region FROM claims|CONSTRUCT_NOT_ALLOWED",
            "SELECT region, count(*) AS n FROM claims GROUP BY ROLLUP (region)|FUNCTION_NOT_ALLOWED",
            "SELECT region FROM claims GROUP BY GROUPING SETS ((region))|CONSTRUCT_NOT_ALLOWED",
            "SELECT id FROM claims FETCH FIRST 2 ROWS ONLY|CONSTRUCT_NOT_ALLOWED",
            "WITH x(a) AS (SELECT id FROM claims) SELECT a FROM x|CONSTRUCT_NOT_ALLOWED",
            "WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT n FROM r|CONSTRUCT_NOT_ALLOWED",
            "SELECT a.id FROM claims a JOIN claims b USING (id)|JOIN_NOT_ALLOWED",
            "SELECT a.id FROM claims a NATURAL JOIN claims b|JOIN_NOT_ALLOWED",
            "SELECT a.id FROM claims a CROSS JOIN LATERAL (SELECT a.id AS x) b|CONSTRUCT_NOT_ALLOWED",
            "SELECT id FROM claims WHERE region ILIKE 'n%'|CONSTRUCT_NOT_ALLOWED",
            "SELECT g FROM generate_series(1, 3) g|TABLE_FUNCTION_NOT_ALLOWED",
            "SELECT s.upper(region) AS u FROM claims|FUNCTION_NOT_ALLOWED",
            "SELECT count(*) AS n FROM claims LEFT CROSS JOIN claims c|SYNTAX_ERROR",
            "SELECT ssn FROM claims|UNKNOWN_COLUMN",
            "SELECT id FROM information_schema.tables|TABLE_NOT_ALLOWED",
            "SELECT sleep(1) AS z FROM claims|FUNCTION_NOT_ALLOWED",
            "SELECT id FROM claims; SELECT id FROM claims|MULTIPLE_STATEMENTS"})
    void refusesWhatTheDialectLeavesOff(String sql, ErrorCode code) {
        assertThatThrownBy(() -> plan(sql)).isInstanceOfSatisfying(GuardException.class,
                e -> assertThat(e.code()).as(sql + ": " + e.safeMessage()).isEqualTo(code));
    }

    @Test
    void dateTimeLiteralsAndCastTypesAreTheLexicons() {
        assertThat(plan("SELECT DATE '2024-01-31' AS d, CAST(id AS TEXT) AS t FROM claims").executableSql())
                .startsWith("SELECT DATE '2024-01-31' AS \"d\", CAST(\"t1\".\"id\" AS text) AS \"t\" FROM");
        Map<String, ErrorCode> refused = Map.of("SELECT TIME '10:00' AS t FROM claims", ErrorCode.UNSAFE_SYNTAX,
                "SELECT DATE '2024-1-31' AS d FROM claims", ErrorCode.UNSAFE_SYNTAX,
                "SELECT CAST(id AS bigint) AS b FROM claims", ErrorCode.CONSTRUCT_NOT_ALLOWED);
        refused.forEach((sql, code) -> assertThatThrownBy(() -> plan(sql)).as(sql).isInstanceOfSatisfying(GuardException.class,
                e -> assertThat(e.code()).isEqualTo(code)));
    }

    @Test
    void quotedReservedWordsStayAliases() {
        assertThat(plan("SELECT \"left\".id FROM claims \"left\"").executableSql())
                .isEqualTo("SELECT \"t1\".\"id\" AS \"c0\" FROM \"s\".\"claims\" AS \"t1\" LIMIT " + (Limits.defaults().maxRows() + 1));
    }
}
