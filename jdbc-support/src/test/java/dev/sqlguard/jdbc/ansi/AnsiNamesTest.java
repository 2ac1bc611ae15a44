package dev.sqlguard.jdbc.ansi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

class AnsiNamesTest {
    private static final AnsiNames UNQUOTED = new AnsiNames(63, AnsiNames.Folding.UNQUOTED);
    private static final AnsiNames EVERY_NAME = new AnsiNames(128, AnsiNames.Folding.EVERY_NAME_ASCII_ONLY);

    @Test
    void unquotedFoldingKeepsQuotedNamesAndFoldsOnlyAsciiLettersOfBareOnes() {
        assertThat(UNQUOTED.name("Region")).isEqualTo("region");
        assertThat(UNQUOTED.name("\"Region\"")).isEqualTo("Region");
        assertThat(UNQUOTED.name("\"a\"\"b\"")).isEqualTo("a\"b");
        assertThat(UNQUOTED.name("Ärger")).isEqualTo("Ärger");
    }

    @Test
    void upperFoldingFoldsOnlyBareNamesToUpperCase() {
        AnsiNames upper = new AnsiNames(63, AnsiNames.Folding.UPPER);
        assertThat(upper.name("claims")).isEqualTo("CLAIMS");
        assertThat(upper.name("Region_1")).isEqualTo("REGION_1");
        assertThat(upper.name("\"claims\"")).isEqualTo("claims");
        assertThat(upper.name("ärger")).isEqualTo("äRGER");
        assertThat(AnsiNames.Folding.LOWER).isSameAs(AnsiNames.Folding.UNQUOTED);
    }

    @Test
    void noFoldingKeepsEveryNameAsWritten() {
        AnsiNames none = new AnsiNames(63, AnsiNames.Folding.NONE);
        assertThat(none.name("Claims")).isEqualTo("Claims");
        assertThat(none.name("\"Claims\"")).isEqualTo("Claims");
        assertThat(none.name("\"a\"\"b\"")).isEqualTo("a\"b");
    }

    @Test
    void everyNameFoldingFoldsQuotedNamesTooAndRefusesNonAscii() {
        assertThat(EVERY_NAME.name("Region")).isEqualTo("region");
        assertThat(EVERY_NAME.name("\"Region\"")).isEqualTo("region");
        assertThat(EVERY_NAME.name("\"a\"\"B\"")).isEqualTo("a\"b");
        for (String bad : new String[] {"Ärger", "\"Ärger\"", "\"a\tb\""}) {
            assertThatThrownBy(() -> EVERY_NAME.name(bad)).isInstanceOfSatisfying(GuardException.class, e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.UNSAFE_SYNTAX);
                assertThat(e.safeMessage()).isEqualTo("Names must be plain ASCII on this source.");
            });
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "''|SYNTAX_ERROR|A name is missing.",
            "'\"\"'|UNSAFE_SYNTAX|A quoted name cannot be checked.",
            "'\"a\"b\"'|UNSAFE_SYNTAX|A quoted name cannot be checked.",
            "a`b|UNSAFE_SYNTAX|A name is quoted in a way that cannot be checked.",
            "'a''b'|UNSAFE_SYNTAX|A name is quoted in a way that cannot be checked.",
            "[a]|UNSAFE_SYNTAX|A name is quoted in a way that cannot be checked.",
            "'\"a'|UNSAFE_SYNTAX|A name is quoted in a way that cannot be checked."})
    void namesThatCannotBeCheckedAreRefusedTheSameUnderEitherFolding(String raw, ErrorCode code, String message) {
        for (AnsiNames names : new AnsiNames[] {UNQUOTED, EVERY_NAME}) {
            assertThatThrownBy(() -> names.name(raw)).as(raw).isInstanceOfSatisfying(GuardException.class, e -> {
                assertThat(e.code()).isEqualTo(code);
                assertThat(e.safeMessage()).isEqualTo(message);
            });
        }
    }

    @Test
    void identifiersAreQuotedWithinTheEnginesNameLength() {
        assertThat(UNQUOTED.identifier("a\"b")).isEqualTo("\"a\"\"b\"");
        assertThat(UNQUOTED.identifier("x".repeat(63))).hasSize(65);
        assertThat(EVERY_NAME.identifier("x".repeat(128))).hasSize(130);
        for (String bad : new String[] {"", "x".repeat(64), "é".repeat(32), "a\\b"}) {
            assertThatThrownBy(() -> UNQUOTED.identifier(bad)).as(bad).isInstanceOfSatisfying(GuardException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.UNSAFE_SYNTAX));
        }
        assertThatThrownBy(() -> UNQUOTED.identifier("x".repeat(64))).hasMessageContaining("longer than 63 bytes");
    }

    @Test
    void stringsAreTheKitsLiterals() {
        assertThat(EVERY_NAME.string("it's")).isEqualTo("'it''s'");
        assertThatThrownBy(() -> UNQUOTED.string("a\\'")).isInstanceOfSatisfying(GuardException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.UNSAFE_SYNTAX));
    }
}
