package dev.sqlguard.trino.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.FunctionConfiguration;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.ColumnInfo;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.TableInfo;

/** Rendering and refusals without a cluster (the EXPLAIN cross-check is off). */
class TrinoValidatorTest {
    private static final GuardrailPolicy POLICY = new GuardrailPolicy(
            new TableAllowlist(java.util.Optional.of("s1"), TableAllowlist.of(Map.of("claims", List.of("*"))).tables(), true),
            Set.of(), Set.of(), Set.of(), Limits.defaults()).withFunctions(FunctionCatalog.defaults());
    private static final SchemaSnapshot SCHEMA = SchemaSnapshot.of("memory", "s1", List.of(new TableInfo("s1", "claims",
            List.of(new ColumnInfo("id", "bigint"), new ColumnInfo("region", "varchar(16)"), new ColumnInfo("amount", "decimal(12,2)"),
                    new ColumnInfo("created", "date")), OptionalLong.empty())));

    private static QueryPlan validate(String sql, Object... params) {
        return new TrinoValidator("s", SCHEMA, POLICY, null).validate(QueryRequest.of("s", sql, params));
    }

    @Test
    void rendersCatalogQualifiedTablesQualifiedColumnsAndTrinoLabels() {
        QueryPlan plan = validate("SELECT Region, count(*), sum(amount) AS Total FROM claims WHERE created >= DATE '2024-01-01'"
                + " AND id > ? GROUP BY region ORDER BY 2 DESC OFFSET 1 LIMIT 5", 3L);
        assertThat(plan.executableSql()).isEqualTo("SELECT \"t1\".\"region\" AS \"region\", count(*) AS \"_col1\","
                + " sum(\"t1\".\"amount\") AS \"total\" FROM \"memory\".\"s1\".\"claims\" AS \"t1\""
                + " WHERE ((\"t1\".\"created\" >= DATE '2024-01-01') AND (\"t1\".\"id\" > ?)) GROUP BY \"t1\".\"region\" ORDER BY 2 DESC OFFSET 1 LIMIT 5");
        assertThat(validate("SELECT created + INTERVAL '3' DAY AS d FROM claims").executableSql()).contains("INTERVAL '3' DAY");
    }

    /**
     * The row cap (max rows + 1) is left off a top-level grouped aggregate only: Trino would plan it
     * as one more stage gathered on one node, and the groups are all computed first anyway. Every
     * other shape keeps it, and so does a query's own LIMIT.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "SELECT region, count(*) AS n FROM claims GROUP BY region|false",
            "SELECT region, round(avg(amount), 2) AS a FROM claims GROUP BY region HAVING count(*) > 1|false",
            "SELECT region, count(*) AS n FROM claims GROUP BY region ORDER BY n DESC|true",
            "SELECT region FROM claims GROUP BY region|true",
            "SELECT DISTINCT region, count(*) AS n FROM claims GROUP BY region|true",
            "SELECT id, amount FROM claims|true",
            "SELECT count(*) AS n FROM claims|true",
            "SELECT r, n FROM (SELECT region AS r, count(*) AS n FROM claims GROUP BY region) x|true",
            "SELECT region, count(*) AS n FROM claims GROUP BY region UNION ALL SELECT region, 1 FROM claims|true"})
    void capsEveryShapeButAGroupedAggregate(String sql, boolean capped) {
        assertThat(validate(sql).executableSql().endsWith(" LIMIT " + (Limits.defaults().maxRows() + 1))).as(sql).isEqualTo(capped);
    }

    @Test
    void aGroupedAggregateKeepsItsOwnLimit() {
        assertThat(validate("SELECT region, count(*) AS n FROM claims GROUP BY region LIMIT 3").executableSql()).endsWith(" LIMIT 3");
    }

    /**
     * A sensitive value may reach the data argument of a total function, never its parameter
     * argument, where Trino fails on an invalid value: these would be error oracles through total
     * steps only ({@code length(ltrim(v, chars))} is 0 exactly when v is made of those characters).
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "SELECT max(id, length(ltrim(region, '0123456789-'))) AS m FROM claims|max",
            "SELECT min(id, length(region)) AS m FROM claims|min",
            "SELECT date_trunc(concat('da', ltrim(region, '0123456789-'), 'y'), created) AS m FROM claims|date_trunc",
            "SELECT lag(id, length(region)) OVER (ORDER BY id) AS m FROM claims|lag",
            "SELECT lead(id, length(region), 0) OVER (ORDER BY id) AS m FROM claims|lead",
            "SELECT approx_distinct(id, length(region)) AS m FROM claims|approx_distinct"})
    void aSensitiveValueNeverReachesAParameterArgument(String sql, String operation) {
        assertThatThrownBy(() -> validateRedacting(sql)).isInstanceOfSatisfying(GuardException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
            assertThat(e.safeMessage()).contains("computed on or compared, as '" + operation + "' does.");
        });
    }

    @Test
    void aSensitiveValueStillReachesTheDataArgumentOfTheSameFunctions() {
        for (String sql : List.of("SELECT max(region, 3) AS m FROM claims", "SELECT date_trunc('month', created) AS d FROM claims",
                "SELECT lag(region, 1, region) OVER (ORDER BY id) AS m FROM claims", "SELECT approx_distinct(region, 0.1) AS m FROM claims")) {
            assertThat(validateRedacting(sql).outputs()).as(sql).allSatisfy(o -> assertThat(POLICY.withRedact(Set.of("region", "created"))
                    .mustRedact(o)).isTrue());
        }
    }

    private static QueryPlan validateRedacting(String sql) {
        GuardrailPolicy redacting = POLICY.withRedact(Set.of("region", "created"));
        return new TrinoValidator("s", SCHEMA, redacting, null).validate(QueryRequest.of("s", sql));
    }

    @Test
    void aFunctionTrinoDoesNotHaveMayBeListedButACallNamesTheNearest() {
        FunctionConfiguration.require("s", POLICY.withFunctions(Set.of("ascii", "upper")), FunctionCatalog.classes(),
                FunctionCatalog.facts(Set.of("ascii", "upper"), Set.of()));
        GuardrailPolicy listing = POLICY.withFunctions(Set.of("ascii", "upper"));
        assertThatThrownBy(() -> new TrinoValidator("s", SCHEMA, listing, null).validate(QueryRequest.of("s", "SELECT ascii(region) AS a FROM claims")))
                .isInstanceOfSatisfying(GuardException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.FUNCTION_NOT_ALLOWED);
                    assertThat(e.safeMessage()).isEqualTo("The function 'ascii' does not exist on Trino; use codepoint instead.");
                });
        assertThat(FunctionCatalog.RULES.costClass("ascii")).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "SELECT id FROM claims WHERE region ILIKE 'n%'|CONSTRUCT_NOT_ALLOWED",
            "SELECT DISTINCT ON (region) id FROM claims|CONSTRUCT_NOT_ALLOWED",
            "SELECT memory.system.abs(id) AS a FROM claims|FUNCTION_NOT_ALLOWED",
            "SELECT id FROM memory.s1.claims|TABLE_NOT_ALLOWED",
            "SELECT id FROM information_schema.tables|TABLE_NOT_ALLOWED",
            "SELECT created + INTERVAL '3 days' AS d FROM claims|CONSTRUCT_NOT_ALLOWED",
            "SELECT try(id / 0) AS t FROM claims|FUNCTION_NOT_ALLOWED",
            "SELECT sequence(1, 10) AS s FROM claims|FUNCTION_NOT_ALLOWED",
            "SELECT repeat('x', 10) AS s FROM claims|FUNCTION_NOT_ALLOWED",
            "SELECT \"Région\" FROM claims|UNSAFE_SYNTAX"})
    void refusesWhatTrinoReadsDifferentlyOrWhatReachesTooFar(String sql, ErrorCode code) {
        assertThatThrownBy(() -> validate(sql)).isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(code));
    }

    /**
     * JSqlParser 5.4 reads {@code claims LEFT CROSS JOIN claims} as {@code claims} aliased
     * {@code LEFT}, then a CROSS JOIN, which Trino itself rejects: an unquoted reserved word (Trino's
     * list, plus LATERAL) is never a table or subquery alias here.
     */
    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT count(*) AS n FROM claims LEFT CROSS JOIN claims c",
            "SELECT count(*) AS n FROM claims RIGHT CROSS JOIN claims c",
            "SELECT count(*) AS n FROM claims LEFT NATURAL JOIN claims c",
            "SELECT count(*) AS n FROM claims AS left",
            "SELECT x.n FROM (SELECT count(*) AS n FROM claims) cube, claims x"})
    void refusesUnquotedReservedWordsAsTableAliases(String sql) {
        assertThatThrownBy(() -> validate(sql)).isInstanceOfSatisfying(GuardException.class, e -> {
            assertThat(e.code()).as(sql).isEqualTo(ErrorCode.SYNTAX_ERROR);
            assertThat(e.safeMessage()).as(sql).contains("reserved word");
        });
    }

    @Test
    void quotedAndNonReservedWordsStayAliases() {
        assertThat(validate("SELECT \"left\".id FROM claims \"left\"").executableSql())
                .contains("FROM \"memory\".\"s1\".\"claims\" AS \"t1\"");
        assertThat(validate("SELECT data.id FROM claims data").executableSql())
                .contains("FROM \"memory\".\"s1\".\"claims\" AS \"t1\"");
    }
}
