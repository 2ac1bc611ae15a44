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
}
