package dev.sqlguard.jdbc.ansi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.CostClass;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.jdbc.SqlQuoting;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.ColumnInfo;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.TableInfo;
import net.sf.jsqlparser.expression.DateTimeLiteralExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.IntervalExpression;
import net.sf.jsqlparser.statement.create.table.ColDataType;

/**
 * The kit's renderer driven by the smallest dialect a third party could write: no optional
 * construct, bare function names, {@code FETCH}-less {@code LIMIT}. Shows what the hooks decide and
 * that every construct a dialect leaves off is refused with its stable code.
 */
class AnsiRendererTest {
    /** A minimal ANSI engine: the interface's defaults for every construct. */
    private static final class MinimalDialect implements AnsiDialect {
        private static final FunctionRules RULES = new FunctionRules("Minimal", Map.of("count", CostClass.TOTAL, "upper", CostClass.TOTAL,
                "coalesce", CostClass.TOTAL, "abs", CostClass.PARTIAL), Set.of("sleep"), Set.of("pg_"), Set.of("read_file"), Set.of(),
                Set.of("coalesce"), Set.of("count"), Set.of(), Map.of(), Map.of());

        @Override
        public String engine() {
            return "Minimal";
        }

        @Override
        public FunctionRules functions() {
            return RULES;
        }

        @Override
        public String name(String raw) {
            return raw.startsWith("\"") ? raw.substring(1, raw.length() - 1) : raw.toLowerCase(java.util.Locale.ROOT);
        }

        @Override
        public String identifier(String name) {
            return SqlQuoting.quotedName(name, '"');
        }

        @Override
        public String string(String value) {
            return SqlQuoting.stringLiteral(value);
        }

        @Override
        public Optional<String> functionSchema() {
            return Optional.empty();
        }

        @Override
        public Set<String> hiddenSchemas() {
            return Set.of("information_schema");
        }

        @Override
        public Set<String> sqlValueKeywords() {
            return Set.of("current_user");
        }

        @Override
        public Set<String> zeroArgumentFunctions() {
            return Set.of();
        }

        @Override
        public Set<String> reservedWords() {
            return Set.of("left", "right", "join", "natural", "cross");
        }

        @Override
        public Set<String> extractFields() {
            return Set.of("year");
        }

        @Override
        public String extractFieldsMessage() {
            return "EXTRACT supports YEAR.";
        }

        @Override
        public String dateTime(DateTimeLiteralExpression e) {
            return AnsiErrors.checkedLiteral("DATE ", e.getValue(), Pattern.compile("'[0-9]{4}-[0-9]{2}-[0-9]{2}'"));
        }

        @Override
        public String interval(IntervalExpression e) {
            throw AnsiErrors.construct("No intervals here.");
        }

        @Override
        public String castType(ColDataType type) {
            throw AnsiErrors.construct("No casts here.");
        }

        @Override
        public String label(Expression e, int position) {
            return "c" + position;
        }

        @Override
        public String limitClause(Long rows, long offset) {
            return (rows == null ? "" : " LIMIT " + rows) + (offset > 0 ? " OFFSET " + offset : "");
        }
    }

    private static final GuardrailPolicy POLICY = new GuardrailPolicy(TableAllowlist.of(Optional.of("s"),
            Map.of("claims", List.of("id", "region"))), Set.of(), Set.of(), Set.of(), Limits.defaults())
            .withFunctions(Set.of("count", "upper", "coalesce", "abs"));
    private static final SchemaSnapshot SCHEMA = SchemaSnapshot.of("s", List.of(new TableInfo("s", "claims",
            List.of(new ColumnInfo("id", "integer"), new ColumnInfo("region", "text"), new ColumnInfo("ssn", "text")), OptionalLong.empty())));

    private static QueryPlan plan(String sql) {
        return new AnsiRenderer(new MinimalDialect(), SCHEMA, POLICY, POLICY.functions()).plan("s", sql);
    }

    @Test
    void rendersEveryNameQualifiedUnderGeneratedAliasesWithTheDialectsLabelsAndLimit() {
        QueryPlan p = plan("SELECT upper(region), count(*) AS n FROM claims c WHERE c.id > 2 GROUP BY 1 ORDER BY n DESC LIMIT 5 OFFSET 1");
        assertThat(p.executableSql()).isEqualTo("SELECT upper(\"t1\".\"region\") AS \"c0\", count(*) AS \"n\" FROM \"s\".\"claims\" AS \"t1\""
                + " WHERE (\"t1\".\"id\" > 2) GROUP BY 1 ORDER BY 2 DESC LIMIT 5 OFFSET 1");
        assertThat(p.functions()).containsExactlyInAnyOrder("count", "upper");
        assertThat(plan("SELECT id FROM claims").executableSql()).endsWith(" LIMIT " + (Limits.defaults().maxRows() + 1));
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
    void quotedReservedWordsStayAliases() {
        assertThat(plan("SELECT \"left\".id FROM claims \"left\"").executableSql())
                .isEqualTo("SELECT \"t1\".\"id\" AS \"c0\" FROM \"s\".\"claims\" AS \"t1\" LIMIT " + (Limits.defaults().maxRows() + 1));
    }
}
