package dev.sqlguard.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;

import org.junit.jupiter.api.Test;

class AbsentNamesTest {
    private static final Set<String> HIDDEN = Set.of("password", "ssn");
    private static final Set<String> RESERVED = Set.of("select", "from", "as", "ssn");

    @Test
    void bareAndQuotedHiddenNamesAreRenamedEverywhereTheyNameSomething() {
        assertThat(AbsentNames.rename("SELECT upper(name) AS password FROM users GROUP BY Password", HIDDEN, RESERVED))
                .isEqualTo("SELECT upper(name) AS password__sqlguard_absent FROM users GROUP BY Password__sqlguard_absent");
        assertThat(AbsentNames.rename("SELECT \"password\", \"pass\"\"word\" FROM users password", HIDDEN, RESERVED))
                .isEqualTo("SELECT \"password__sqlguard_absent\", \"pass\"\"word\" FROM users password__sqlguard_absent");
    }

    @Test
    void literalsFunctionCallsReservedWordsAndLongerWordsStayAsWritten() {
        String sql = "SELECT 'password', 'it''s password', password (1), passwords, x.password_zz, 2password, ssn FROM t";
        assertThat(AbsentNames.rename(sql, HIDDEN, RESERVED)).isEqualTo(sql);
    }

    @Test
    void aTextWithNothingHiddenIsUnchanged() {
        String sql = "SELECT a, \"b\" FROM t WHERE c = 'password'";
        assertThat(AbsentNames.rename(sql, Set.of(), RESERVED)).isSameAs(sql);
        assertThat(AbsentNames.rename(sql, HIDDEN, RESERVED)).isEqualTo(sql);
    }

    @Test
    void anUnterminatedQuoteIsCopiedAsItIs() {
        assertThat(AbsentNames.rename("SELECT \"password", HIDDEN, RESERVED)).isEqualTo("SELECT \"password");
        assertThat(AbsentNames.rename("SELECT 'password", HIDDEN, RESERVED)).isEqualTo("SELECT 'password");
    }

    @Test
    void aTypeOrAnExtractUnitNamedLikeAHiddenColumnIsAWordOfTheGrammar() {
        Set<String> hidden = Set.of("date", "day");
        assertThat(AbsentNames.rename("SELECT CAST(x AS date), x::date, TRY_CAST(y AS DATE), extract(day FROM ts) FROM t", hidden, RESERVED))
                .isEqualTo("SELECT CAST(x AS date), x::date, TRY_CAST(y AS DATE), extract(day FROM ts) FROM t");
        assertThat(AbsentNames.rename("SELECT x AS date FROM t ORDER BY date", hidden, RESERVED))
                .isEqualTo("SELECT x AS date__sqlguard_absent FROM t ORDER BY date__sqlguard_absent");
        assertThat(AbsentNames.rename("SELECT CAST((SELECT 1 AS date) AS date), (day) FROM t", hidden, RESERVED))
                .isEqualTo("SELECT CAST((SELECT 1 AS date__sqlguard_absent) AS date), (day__sqlguard_absent) FROM t");
    }

    private static final Set<String> WORDS = Set.of("double", "precision", "character", "char", "varying", "bit", "national",
            "timestamp", "time", "with", "without", "zone", "interval", "year", "month", "day", "hour", "minute", "second",
            "to", "at", "week", "int", "date");
    /** Reserved words as neither engine has them (to, with and at left out, so that they could be renamed). */
    private static final Set<String> FEW = Set.of("select", "from", "as", "cast");

    private static String renamed(String sql) {
        return AbsentNames.rename(sql, WORDS, FEW);
    }

    private static String absent(String word) {
        return word + AbsentNames.SUFFIX;
    }

    @Test
    void aCastsWholeTypeIsGrammarUpToItsClosingParenthesis() {
        String sql = "SELECT CAST(x AS double precision), CAST(t AS timestamp with time zone), CAST(s AS character varying(10)),"
                + " TRY_CAST(s AS national char varying(2)), CAST(i AS interval day to second(3)), CAST(t AS \"date\") FROM t";
        assertThat(renamed(sql)).isEqualTo(sql);
        assertThat(renamed("SELECT CAST(day AS int) AS day FROM t"))
                .isEqualTo("SELECT CAST(" + absent("day") + " AS int) AS " + absent("day") + " FROM t");
        assertThat(renamed("SELECT CAST((SELECT zone AS zone) AS time without time zone), zone FROM t"))
                .isEqualTo("SELECT CAST((SELECT " + absent("zone") + " AS " + absent("zone") + ") AS time without time zone), "
                        + absent("zone") + " FROM t");
    }

    @Test
    void afterDoubleColonsTheTypeGoesOnOnlyInTheGrammarsFixedSpellings() {
        String sql = "SELECT x::double precision, t::timestamp without time zone, t::timestamp(3) with time zone,"
                + " t::time(2) without time zone, s::character varying(3), s::char varying, s::bit varying(3),"
                + " s::national character varying(2), x::pg_catalog.date, x::\"date\", x::int[] FROM t";
        assertThat(renamed(sql)).isEqualTo(sql);
        // a word after the type that does not continue it is an alias
        assertThat(renamed("SELECT x::int zone, x::double precision day, x::date time, t::timestamp with FROM t"))
                .isEqualTo("SELECT x::int " + absent("zone") + ", x::double precision " + absent("day") + ", x::date "
                        + absent("time") + ", t::timestamp " + absent("with") + " FROM t");
        assertThat(renamed("SELECT x::int precision, x::character zone FROM t"))
                .isEqualTo("SELECT x::int " + absent("precision") + ", x::character " + absent("zone") + " FROM t");
    }

    @Test
    void anIntervalTypesFieldsAreGrammarAndTheWordAfterThemAnAlias() {
        String sql = "SELECT '1 day'::interval day, '1'::interval day to second, '1'::interval second(3), '1'::interval year to month,"
                + " '1'::interval(2), '1'::interval minute to second(2) FROM t";
        assertThat(renamed(sql)).isEqualTo(sql);
        assertThat(renamed("SELECT '1'::interval zone, '1'::interval day week, '1'::interval week FROM t"))
                .isEqualTo("SELECT '1'::interval " + absent("zone") + ", '1'::interval day " + absent("week") + ", '1'::interval "
                        + absent("week") + " FROM t");
    }

    @Test
    void anIntervalLiteralsUnitsAreGrammarAndTheWordAfterThemAnAlias() {
        String sql = "SELECT INTERVAL '1' day, INTERVAL '1-2' year to month, INTERVAL '1' hour to second, interval '1 day',"
                + " INTERVAL '1' second(2), INTERVAL -'1' DAY, INTERVAL '1' DAY(2) TO SECOND(3), interval(2) '1.5 second' FROM t";
        assertThat(renamed(sql)).isEqualTo(sql);
        assertThat(renamed("SELECT INTERVAL '1' day AS day, INTERVAL '1' week, interval '1 day' hour, INTERVAL '1' day to zone FROM t"))
                .isEqualTo("SELECT INTERVAL '1' day AS " + absent("day") + ", INTERVAL '1' " + absent("week") + ", interval '1 day' hour, "
                        + "INTERVAL '1' day " + absent("to") + " " + absent("zone") + " FROM t");
        // PostgreSQL reads interval - 'n' without a unit after it as a column minus a string
        assertThat(renamed("SELECT interval - '1', day FROM t"))
                .isEqualTo("SELECT " + absent("interval") + " - '1', " + absent("day") + " FROM t");
    }

    @Test
    void aTypedLiteralsTypeAndAtTimeZoneAreGrammar() {
        String sql = "SELECT date '2024-01-01', double precision '1.5', timestamp with time zone '2024-01-01', time(3) without time zone"
                + " '10:00', character varying(3) 'x', national char varying 'y', bit varying '101', \"date\" '2024-01-01',"
                + " t at time zone 'UTC', t AT TIME ZONE INTERVAL '1' HOUR FROM t";
        assertThat(renamed(sql)).isEqualTo(sql);
        assertThat(renamed("SELECT t at time zone zone, date, at FROM t"))
                .isEqualTo("SELECT t at time zone " + absent("zone") + ", " + absent("date") + ", " + absent("at") + " FROM t");
    }

    @Test
    void nestedCastsEachKeepTheirOwnTypeAndUnbalancedTextIsRenamedWithoutFailing() {
        assertThat(renamed("SELECT CAST(CAST(day AS int) + (SELECT zone AS zone) AS double precision) FROM t"))
                .isEqualTo("SELECT CAST(CAST(" + absent("day") + " AS int) + (SELECT " + absent("zone") + " AS " + absent("zone")
                        + ") AS double precision) FROM t");
        assertThat(renamed("SELECT ) day, ( CAST( zone AS time with")).isEqualTo("SELECT ) " + absent("day") + ", ( CAST( " + absent("zone")
                + " AS time with");
        assertThat(renamed("SELECT x:: ) '1' day INTERVAL ( zone ::")).isEqualTo("SELECT x:: ) '1' " + absent("day") + " INTERVAL ( "
                + absent("zone") + " ::");
    }
}
