package dev.sqlguard.jdbc.ansi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.ColumnUse;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.domain.UsePosition;

/**
 * {@code x COLLATE name} and named windows ({@code OVER w ... WINDOW w AS (...)}) on a dialect that takes
 * them: COLLATE rendered parenthesised with the collation's name quoted and the operand's flows unchanged;
 * the WINDOW clause rendered whole, each definition over the input columns under a generated name that each
 * {@code OVER w} takes; and on the minimal dialect, which takes neither, both refused as before.
 */
class CollateAndNamedWindowsTest {
    private static final String CAP = " LIMIT " + (Limits.defaults().maxRows() + 1);
    private static final ColumnRef REGION = new ColumnRef(TableRef.of("s", "claims"), "region");
    private static final ColumnRef ID = new ColumnRef(TableRef.of("s", "claims"), "id");

    /** The minimal dialect with COLLATE and named windows. */
    private static final class Taking extends MinimalDialect {
        @Override
        public boolean collate() {
            return true;
        }

        @Override
        public boolean namedWindows() {
            return true;
        }
    }

    private static QueryPlan plan(String sql) {
        return new AnsiRenderer(new Taking(), MinimalDialect.SCHEMA, MinimalDialect.POLICY).plan("s", sql);
    }

    private static QueryPlan minimal(String sql) {
        return new AnsiRenderer(new MinimalDialect(), MinimalDialect.SCHEMA, MinimalDialect.POLICY).plan("s", sql);
    }

    private static Set<UsePosition> positions(QueryPlan p, ColumnRef column) {
        return p.uses().stream().filter(u -> u.column().equals(column)).map(ColumnUse::position).collect(java.util.stream.Collectors.toSet());
    }

    @Test
    void collateIsRenderedParenthesisedWithTheCollationQuoted() {
        assertThat(plan("SELECT region COLLATE \"C\" AS r FROM claims WHERE region COLLATE C = 'x' ORDER BY region COLLATE \"en_US\" DESC")
                .executableSql()).isEqualTo("SELECT (\"t1\".\"region\" COLLATE \"C\") AS \"r\" FROM \"s\".\"claims\" AS \"t1\""
                        + " WHERE ((\"t1\".\"region\" COLLATE \"c\") = 'x') ORDER BY (\"t1\".\"region\" COLLATE \"en_US\") DESC" + CAP);
        assertThat(plan("SELECT region COLLATE \"a\"\"b\" AS r FROM claims").executableSql())
                .startsWith("SELECT (\"t1\".\"region\" COLLATE \"a\"\"b\") AS \"r\"");
    }

    /** COLLATE binds tighter than every binary operator, on PostgreSQL and in the parser: the rendering keeps that reading. */
    @Test
    void collateBindsToTheOperandItFollows() {
        assertThat(plan("SELECT region || 'x' COLLATE \"C\" AS v, region COLLATE \"C\" || 'x' AS w FROM claims").executableSql())
                .startsWith("SELECT (\"t1\".\"region\" || ('x' COLLATE \"C\")) AS \"v\", ((\"t1\".\"region\" COLLATE \"C\") || 'x') AS \"w\"");
        assertThat(plan("SELECT (region || 'x') COLLATE \"C\" AS v FROM claims").executableSql())
                .startsWith("SELECT ((\"t1\".\"region\" || 'x') COLLATE \"C\") AS \"v\"");
        assertThat(plan("SELECT id FROM claims WHERE NOT region COLLATE \"C\" LIKE 'a%'").executableSql())
                .contains(" WHERE (NOT ((\"t1\".\"region\" COLLATE \"C\") LIKE 'a%'))");
    }

    /** A column under COLLATE is that column wherever it is used: the same uses, in the same positions, with the same steps. */
    @Test
    void collateCarriesExactlyTheOperandsFlows() {
        String[][] pairs = {
                {"SELECT id FROM claims ORDER BY region COLLATE \"C\"", "SELECT id FROM claims ORDER BY region"},
                {"SELECT id FROM claims WHERE region COLLATE \"C\" = 'x'", "SELECT id FROM claims WHERE region = 'x'"},
                {"SELECT upper(region COLLATE \"C\") AS u FROM claims GROUP BY upper(region COLLATE \"C\")",
                        "SELECT upper(region) AS u FROM claims GROUP BY upper(region)"},
                {"SELECT region COLLATE \"C\" AS r FROM claims", "SELECT region AS r FROM claims"}};
        for (String[] pair : pairs) {
            QueryPlan collated = plan(pair[0]);
            QueryPlan plain = plan(pair[1]);
            assertThat(collated.uses()).as(pair[0]).isEqualTo(plain.uses());
            assertThat(collated.outputs().get(0).lineage()).as(pair[0]).isEqualTo(plain.outputs().get(0).lineage());
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "SELECT region COLLATE `C` AS r FROM claims|CONSTRUCT_NOT_ALLOWED",
            "SELECT region COLLATE \"\" AS r FROM claims|CONSTRUCT_NOT_ALLOWED",
            "SELECT region COLLATE pg_catalog.\"C\" AS r FROM claims|UNSAFE_SYNTAX",
            "SELECT -id COLLATE \"C\" AS r FROM claims|UNSAFE_SYNTAX",
            "SELECT id FROM claims ORDER BY ssn COLLATE \"C\"|UNKNOWN_COLUMN",
            "SELECT id AS x FROM claims ORDER BY x COLLATE \"C\"|UNKNOWN_COLUMN"})
    void refusesCollateItCannotRenderExactly(String sql, ErrorCode code) {
        assertThatThrownBy(() -> plan(sql)).isInstanceOfSatisfying(GuardException.class,
                e -> assertThat(e.code()).as(sql + ": " + e.safeMessage()).isEqualTo(code));
    }

    @Test
    void collateIsRefusedWhereTheDialectHasNone() {
        assertThatThrownBy(() -> minimal("SELECT region COLLATE \"C\" AS r FROM claims")).isInstanceOfSatisfying(GuardException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.CONSTRUCT_NOT_ALLOWED);
            assertThat(e.safeMessage()).contains("COLLATE does not exist on Minimal");
        });
    }

    @Test
    void eachDefinitionIsRenderedOverTheInputColumnsUnderAGeneratedName() {
        QueryPlan p = plan("SELECT id, count(*) OVER w AS n, count(id) OVER w AS m FROM claims WHERE id > ? GROUP BY id, region HAVING count(*) > 0"
                + " WINDOW w AS (PARTITION BY region ORDER BY id DESC ROWS BETWEEN 1 PRECEDING AND CURRENT ROW), v AS (PARTITION BY region = ?)"
                + " ORDER BY count(*) OVER v");
        assertThat(p.executableSql()).isEqualTo("SELECT \"t1\".\"id\" AS \"c0\", count(*) OVER \"w1\" AS \"n\", count(\"t1\".\"id\") OVER \"w1\""
                + " AS \"m\" FROM \"s\".\"claims\" AS \"t1\" WHERE (\"t1\".\"id\" > ?) GROUP BY \"t1\".\"id\", \"t1\".\"region\" HAVING (count(*) > 0)"
                + " WINDOW \"w1\" AS (PARTITION BY \"t1\".\"region\" ORDER BY \"t1\".\"id\" DESC ROWS BETWEEN 1 PRECEDING AND CURRENT ROW),"
                + " \"w2\" AS (PARTITION BY (\"t1\".\"region\" = ?)) ORDER BY count(*) OVER \"w2\"" + CAP);
        assertThat(positions(p, REGION)).contains(UsePosition.WINDOW);
        QueryPlan quoted = plan("SELECT count(*) OVER \"W\" AS n FROM claims WINDOW \"W\" AS (), v AS (ORDER BY id)");
        assertThat(quoted.executableSql()).startsWith("SELECT count(*) OVER \"w1\" AS \"n\" FROM \"s\".\"claims\" AS \"t1\""
                + " WINDOW \"w1\" AS (), \"w2\" AS (ORDER BY \"t1\".\"id\") LIMIT");
    }

    /** A name in a definition is an input column, never an output of the SELECT, as on the engines. */
    @Test
    void namesInADefinitionAreInputColumns() {
        assertThat(plan("SELECT id AS region, count(*) OVER w AS n FROM claims WINDOW w AS (ORDER BY region)").executableSql())
                .contains(" WINDOW \"w1\" AS (ORDER BY \"t1\".\"region\")");
        assertThatThrownBy(() -> plan("SELECT id AS x, count(*) OVER w AS n FROM claims WINDOW w AS (ORDER BY x)"))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.UNKNOWN_COLUMN));
    }

    /** An unused definition is rendered and checked like a used one (the engines plan it too), and its uses recorded. */
    @Test
    void unusedDefinitionsAreCheckedLikeUsedOnes() {
        QueryPlan p = plan("SELECT id FROM claims WINDOW w AS (PARTITION BY region)");
        assertThat(p.executableSql()).isEqualTo("SELECT \"t1\".\"id\" AS \"c0\" FROM \"s\".\"claims\" AS \"t1\""
                + " WINDOW \"w1\" AS (PARTITION BY \"t1\".\"region\")" + CAP);
        assertThat(positions(p, REGION)).containsExactly(UsePosition.WINDOW);
        assertThat(positions(p, ID)).containsExactly(UsePosition.OUTPUT);
        assertThatThrownBy(() -> plan("SELECT id FROM claims WINDOW w AS (ORDER BY ssn)")).isInstanceOfSatisfying(GuardException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.UNKNOWN_COLUMN));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "SELECT count(*) OVER v AS n FROM claims WINDOW w AS (ORDER BY id)|not defined",
            "SELECT count(*) OVER w AS n FROM claims|not defined",
            "SELECT id FROM claims WINDOW w AS (ORDER BY id), W AS (PARTITION BY region)|defined twice",
            "SELECT count(*) OVER w AS n FROM claims WINDOW w AS (ORDER BY count(*) OVER w)|window function",
            "SELECT (SELECT count(*) OVER w FROM claims c LIMIT 1) AS n FROM claims WINDOW w AS (ORDER BY id)|not defined"})
    void refusesNamedWindowsItCannotResolve(String sql, String message) {
        assertThatThrownBy(() -> plan(sql)).isInstanceOfSatisfying(GuardException.class, e -> {
            assertThat(e.code()).as(sql).isEqualTo(ErrorCode.CONSTRUCT_NOT_ALLOWED);
            assertThat(e.safeMessage()).as(sql).contains(message);
        });
    }

    @Test
    void namedWindowsAreRefusedWhereTheDialectHasNone() {
        for (String sql : List.of("SELECT count(*) OVER w AS n FROM claims WINDOW w AS (ORDER BY id)",
                "SELECT id FROM claims WINDOW w AS (ORDER BY id)")) {
            assertThatThrownBy(() -> minimal(sql)).isInstanceOfSatisfying(GuardException.class,
                    e -> assertThat(e.code()).as(sql).isEqualTo(ErrorCode.CONSTRUCT_NOT_ALLOWED));
        }
    }
}
