package dev.sqlguard.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

/** The scan every engine shares, with a dialect that records what it is shown and refuses '@'. */
class LexicalCheckTest {
    private final List<String> seen = new ArrayList<>();

    private LexicalCheck.Dialect dialect(char nameQuote, boolean brackets) {
        return new LexicalCheck.Dialect() {
            @Override
            public char nameQuote() {
                return nameQuote;
            }

            @Override
            public boolean bracketsNest() {
                return brackets;
            }

            @Override
            public void stringLiteral(String sql, int start, boolean afterLiteral) {
                seen.add("literal" + (afterLiteral ? "+" : ""));
            }

            @Override
            public void blockComment(String sql, int start) {
                seen.add("block");
            }

            @Override
            public void lineComment(String sql, int start) {
                seen.add("line");
            }

            @Override
            public int symbol(String sql, int index) {
                if (sql.charAt(index) == '@') {
                    throw LexicalCheck.unsafe("no @");
                }
                seen.add(String.valueOf(sql.charAt(index)));
                return index + 1;
            }
        };
    }

    private void check(String sql) {
        LexicalCheck.check(sql, 1_000, 3, dialect('"', false));
    }

    private static void refused(Runnable check, ErrorCode code) {
        assertThatThrownBy(check::run).isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(code));
    }

    @Test
    void theDialectSeesOnlyWhatLiesOutsideLiteralsNamesAndComments() {
        check("a'@x'\"@y\"/*@*/b -- @\nc");
        assertThat(seen).containsExactly("a", "literal", "block", "b", "line", "c");
    }

    @Test
    void quotesAreDoubledInsideLiteralsAndNames() {
        check("'it''s @' \"a \"\"@\"\" b\"");
        assertThat(seen).containsExactly("literal");
        refused(() -> check("'it''s"), ErrorCode.SYNTAX_ERROR);
        refused(() -> check("\"name"), ErrorCode.SYNTAX_ERROR);
    }

    @Test
    void theDialectHearsWhetherALiteralFollowsAnother() {
        check("'a'\n 'b' x 'c'");
        assertThat(seen).containsExactly("literal", "literal+", "x", "literal");
    }

    @Test
    void theNameQuoteIsTheDialects() {
        LexicalCheck.check("`@` \"", 100, 3, dialect('`', false));
        assertThat(seen).containsExactly("\"");
    }

    @Test
    void whatEveryEngineRefuses() {
        refused(() -> check("x".repeat(1_001)), ErrorCode.QUERY_TOO_LONG);
        refused(() -> check(" \n\t"), ErrorCode.EMPTY_QUERY);
        refused(() -> check("a \\ b"), ErrorCode.UNSAFE_SYNTAX);
        refused(() -> check("'a \\' b'"), ErrorCode.UNSAFE_SYNTAX);
        refused(() -> check("a \u0000 b"), ErrorCode.UNSAFE_SYNTAX);
        refused(() -> check("'a \u001b b'"), ErrorCode.UNSAFE_SYNTAX);
        refused(() -> check("a /* b /* c */ */"), ErrorCode.UNSAFE_SYNTAX);
        refused(() -> check("a /* b"), ErrorCode.UNSAFE_SYNTAX);
        refused(() -> check("a -- b\rc"), ErrorCode.UNSAFE_SYNTAX);
        refused(() -> check("a; b"), ErrorCode.MULTIPLE_STATEMENTS);
        refused(() -> check("a @ b"), ErrorCode.UNSAFE_SYNTAX);
        assertThatCode(() -> check("a;  \n")).doesNotThrowAnyException();
        assertThatCode(() -> check("a\t-- b\r\nc")).doesNotThrowAnyException();
    }

    @Test
    void nestingIsBoundedAndBracketsCountWhereTheDialectSaysSo() {
        assertThatCode(() -> check("(((a)))(((b)))")).doesNotThrowAnyException();
        refused(() -> check("((((a))))"), ErrorCode.QUERY_TOO_COMPLEX);
        assertThatCode(() -> check("[[[[a]]]]")).doesNotThrowAnyException();
        assertThat(seen).contains("[", "]");
        refused(() -> LexicalCheck.check("[([(a)])]", 100, 3, dialect('"', true)), ErrorCode.QUERY_TOO_COMPLEX);
    }

    @Test
    void aDialectMustConsumeWhatItIsShown() {
        LexicalCheck.Dialect stuck = new LexicalCheck.Dialect() {
            @Override
            public char nameQuote() {
                return '"';
            }

            @Override
            public int symbol(String sql, int index) {
                return index;
            }
        };
        assertThatThrownBy(() -> LexicalCheck.check("a", 10, 3, stuck)).isInstanceOf(IllegalStateException.class);
    }
}
