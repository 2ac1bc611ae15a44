package dev.sqlguard.jdbc.ansi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;

import org.junit.jupiter.api.Test;

/** Which bare words are quoted before JSqlParser reads the text, and which are left as keywords. */
class KeywordNamesTest {
    private static final Set<String> COLUMNS = Set.of("year", "uuid", "id", "date", "first");
    private static final Set<String> RESERVED = Set.of("select", "from", "where", "order", "group", "current_date");

    private static String quote(String sql) {
        return KeywordNames.quote(sql, COLUMNS, RESERVED);
    }

    @Test
    void theParserItselfSaysWhichWordsItCannotReadAsAName() {
        assertThat(KeywordNames.readsAsName("id")).isTrue();
        assertThat(KeywordNames.readsAsName("year")).isFalse();
        assertThat(KeywordNames.readsAsName("uuid")).isFalse();
    }

    @Test
    void bareColumnsTheParserMisreadsAreQuotedInTheEnginesFolding() {
        assertThat(quote("SELECT Year, uuid FROM c WHERE year > 2000 GROUP BY YEAR, uuid ORDER BY year"))
                .isEqualTo("SELECT \"year\", \"uuid\" FROM c WHERE \"year\" > 2000 GROUP BY \"year\", \"uuid\" ORDER BY \"year\"");
        assertThat(quote("SELECT c.year FROM c")).isEqualTo("SELECT c.\"year\" FROM c");
        assertThat(quote("SELECT id FROM c")).isEqualTo("SELECT id FROM c");
    }

    @Test
    void anAliasOfTheTextIsANameToo() {
        assertThat(quote("WITH x AS (SELECT EXTRACT(YEAR FROM d) AS yr, 1 AS uuid FROM t) SELECT uuid FROM x"))
                .isEqualTo("WITH x AS (SELECT EXTRACT(YEAR FROM d) AS yr, 1 AS \"uuid\" FROM t) SELECT \"uuid\" FROM x");
    }

    @Test
    void keywordsInTheirOwnPlaceStayKeywords() {
        for (String sql : new String[] {"SELECT EXTRACT(YEAR FROM d) FROM t", "SELECT d + INTERVAL '1' YEAR FROM t",
                "SELECT year(d) FROM t", "SELECT 'year' FROM t", "SELECT \"year\" FROM t", "SELECT 1 FROM t -- year",
                "SELECT id FROM t ORDER BY id NULLS FIRST", "SELECT INTERVAL '1' YEAR TO MONTH FROM t"}) {
            assertThat(quote(sql)).as(sql).isEqualTo(sql);
        }
    }
}
