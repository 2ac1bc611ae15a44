package dev.sqlguard.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

class SqlQuotingTest {
    @Test
    void literalsDoubleTheirQuotesAndRefuseWhatEscapeSettingsReadDifferently() {
        assertThat(SqlQuoting.stringLiteral("it's")).isEqualTo("'it''s'");
        assertThat(SqlQuoting.stringLiteral("a\tb\nc\r")).isEqualTo("'a\tb\nc\r'");
        for (String bad : List.of("a\\'", "a\u0000", "\u001b[0m")) {
            assertThatThrownBy(() -> SqlQuoting.stringLiteral(bad)).isInstanceOfSatisfying(GuardException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.UNSAFE_SYNTAX));
        }
    }

    @Test
    void namesDoubleTheEnginesQuoteAndRefuseControlCharacters() {
        assertThat(SqlQuoting.quotedName("a\"b", '"')).isEqualTo("\"a\"\"b\"");
        assertThat(SqlQuoting.quotedName("a`b\"", '`')).isEqualTo("`a``b\"`");
        for (String bad : List.of("a\\b", "a\tb", "a\nb")) {
            assertThatThrownBy(() -> SqlQuoting.quotedName(bad, '"')).isInstanceOfSatisfying(GuardException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.UNSAFE_SYNTAX));
        }
    }
}
