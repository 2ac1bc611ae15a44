package dev.sqlguard.mysql.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DoubleQuotesTest {
    @Test
    void aDoubleQuotedRunIsWrittenAsTheStringTheServerReads() {
        assertThat(DoubleQuotes.STRINGS.rewrite("SELECT a FROM t WHERE b = \"France\""))
                .isEqualTo("SELECT a FROM t WHERE b = 'France'");
        assertThat(DoubleQuotes.STRINGS.rewrite("SELECT \"it's\", \"say \"\"hi\"\"\", \"\"")).isEqualTo("SELECT 'it''s', 'say \"hi\"', ''");
        assertThat(DoubleQuotes.STRINGS.rewrite("\"a\"IN(\"b\",\"c\")")).isEqualTo("'a'IN('b','c')");
    }

    @Test
    void underAnsiQuotesItIsTheName() {
        assertThat(DoubleQuotes.NAMES.rewrite("SELECT \"Name\", \"a`b\" FROM \"t\"")).isEqualTo("SELECT `Name`, `a``b` FROM `t`");
        assertThat(DoubleQuotes.NAMES.rewrite("SELECT \"a\"\"b\"")).isEqualTo("SELECT `a\"b`");
    }

    @Test
    void stringsNamesAndCommentsAreSteppedOver() {
        String text = "SELECT 'a \"b\" c', `x\"y`, 1 /* \"z\" */ -- \"w\"\n, 2 # \"v\"\n";
        assertThat(DoubleQuotes.STRINGS.rewrite(text)).isEqualTo(text);
        assertThat(DoubleQuotes.STRINGS.rewrite("SELECT 'it''s \"x\"', \"y\"")).isEqualTo("SELECT 'it''s \"x\"', 'y'");
    }

    @Test
    void runsItCannotSpeakForAreLeftForThePrecheckToRefuse() {
        // a character set introducer, N"..", X"..": the server reads them otherwise or not at all
        for (String text : new String[] {"SELECT _utf8mb4\"x\"", "SELECT N\"x\"", "SELECT X\"41\"", "SELECT a$\"x\""}) {
            assertThat(DoubleQuotes.STRINGS.rewrite(text)).isEqualTo(text);
        }
        // unterminated: the run and everything after it stay
        assertThat(DoubleQuotes.STRINGS.rewrite("SELECT \"a\", \"b")).isEqualTo("SELECT 'a', \"b");
        assertThat(DoubleQuotes.STRINGS.rewrite("SELECT 1 /* \"a\"")).isEqualTo("SELECT 1 /* \"a\"");
        assertThat(DoubleQuotes.STRINGS.rewrite("SELECT 'a")).isEqualTo("SELECT 'a");
    }

    @Test
    void theServersDefaultModeDecides() {
        assertThat(DoubleQuotes.ofServerMode("STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER"))
                .isEqualTo(DoubleQuotes.STRINGS);
        assertThat(DoubleQuotes.ofServerMode("")).isEqualTo(DoubleQuotes.STRINGS);
        assertThat(DoubleQuotes.ofServerMode(null)).isEqualTo(DoubleQuotes.STRINGS);
        assertThat(DoubleQuotes.ofServerMode("ansi_quotes")).isEqualTo(DoubleQuotes.NAMES);
        assertThat(DoubleQuotes.ofServerMode("REAL_AS_FLOAT,PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,ANSI")).isEqualTo(DoubleQuotes.NAMES);
        assertThat(DoubleQuotes.ofServerMode("STRICT_ALL_TABLES, ORACLE")).isEqualTo(DoubleQuotes.NAMES);
    }
}
