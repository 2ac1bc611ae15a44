package dev.sqlguard.jdbc;

import static java.util.Objects.requireNonNull;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

/**
 * The lexical check every engine runs on the model's raw text before its parser sees it: it bounds
 * the parser's cost (length, nesting depth) and walks the text once, skipping string literals, quoted
 * names and comments the way the server reads them, so that each engine's {@link Dialect} judges
 * only what lies outside them. The executed text is always rendered from the parse tree, so this is
 * defence in depth, not the main line.
 *
 * <p>Refused for every dialect: a text longer than the limit ({@code QUERY_TOO_LONG}), a blank one
 * ({@code EMPTY_QUERY}), backslashes and control characters other than tab and line breaks anywhere
 * (their meaning depends on server settings), an unterminated string literal or quoted name
 * ({@code SYNTAX_ERROR}), a nested or unterminated block comment, a line comment that ends in a bare
 * carriage return, parentheses nested deeper than the bound ({@code QUERY_TOO_COMPLEX}) and any text
 * after a {@code ;} ({@code MULTIPLE_STATEMENTS}). Everything else is the dialect's.
 */
public final class LexicalCheck {
    /** What one engine's server reads differently from its parser. Every method may refuse by throwing a {@link GuardException}. */
    public interface Dialect {
        /** The character that quotes a name ({@code "} or {@code `}); single quotes always quote string literals. */
        char nameQuote();

        /** Whether square brackets nest like parentheses (counted against the depth bound) rather than being {@link #symbol symbols}. */
        default boolean bracketsNest() {
            return false;
        }

        /**
         * A string literal opens at {@code start}.
         *
         * @param afterLiteral the token before it (whitespace skipped) was a string literal too
         */
        default void stringLiteral(String sql, int start, boolean afterLiteral) {
        }

        /** A block comment opens at {@code start} ({@code /*}): refuse the forms the server executes (hints, versioned comments). */
        default void blockComment(String sql, int start) {
        }

        /** A line comment opens at {@code start} ({@code --}): refuse the forms the server does not read as a comment. */
        default void lineComment(String sql, int start) {
        }

        /**
         * Any other character outside literals, quoted names and comments (letters, digits,
         * operators, punctuation) at {@code index}; returns the index after what it accepted,
         * at least {@code index + 1}.
         */
        int symbol(String sql, int index);
    }

    private LexicalCheck() {
    }

    /**
     * @throws GuardException QUERY_TOO_LONG, EMPTY_QUERY, QUERY_TOO_COMPLEX, UNSAFE_SYNTAX,
     *     MULTIPLE_STATEMENTS or SYNTAX_ERROR
     */
    public static void check(String sql, int maxLength, int maxDepth, Dialect dialect) {
        requireNonNull(dialect, "dialect is null");
        if (sql.length() > maxLength) {
            throw new GuardException(ErrorCode.QUERY_TOO_LONG, "The SQL text is longer than " + maxLength + " characters.");
        }
        if (sql.isBlank()) {
            throw new GuardException(ErrorCode.EMPTY_QUERY);
        }
        char nameQuote = dialect.nameQuote();
        boolean brackets = dialect.bracketsNest();
        int depth = 0;
        int n = sql.length();
        int i = 0;
        boolean afterLiteral = false;
        while (i < n) {
            char c = sql.charAt(i);
            checkCharacter(c);
            if (Character.isWhitespace(c)) {
                i++;
                continue;
            }
            if (c == '\'') {
                dialect.stringLiteral(sql, i, afterLiteral);
                i = skipQuoted(sql, i, '\'', "string literal");
                afterLiteral = true;
                continue;
            }
            afterLiteral = false;
            if (c == nameQuote) {
                i = skipQuoted(sql, i, nameQuote, "quoted identifier");
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                dialect.blockComment(sql, i);
                i = skipBlockComment(sql, i);
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                dialect.lineComment(sql, i);
                i = skipLineComment(sql, i);
            } else if (c == '(' || (brackets && c == '[')) {
                depth++;
                if (depth > maxDepth) {
                    throw new GuardException(ErrorCode.QUERY_TOO_COMPLEX, "The SQL text nests parentheses deeper than " + maxDepth + " levels.");
                }
                i++;
            } else if (c == ')' || (brackets && c == ']')) {
                depth = Math.max(0, depth - 1);
                i++;
            } else if (c == ';') {
                for (int j = i + 1; j < n; j++) {
                    if (!Character.isWhitespace(sql.charAt(j))) {
                        throw new GuardException(ErrorCode.MULTIPLE_STATEMENTS);
                    }
                }
                i = n;
            } else {
                int next = dialect.symbol(sql, i);
                if (next <= i) {
                    throw new IllegalStateException("a dialect must consume at least one character");
                }
                i = next;
            }
        }
    }

    /** An UNSAFE_SYNTAX refusal with the dialect's own sentence. */
    public static GuardException unsafe(String message) {
        return new GuardException(ErrorCode.UNSAFE_SYNTAX, message);
    }

    private static void checkCharacter(char c) {
        if (c == '\\') {
            throw unsafe("Backslashes are not accepted; pass such values as parameters.");
        }
        if (Character.isISOControl(c) && c != '\t' && c != '\n' && c != '\r') {
            throw unsafe("The SQL contains a control character.");
        }
    }

    private static int skipQuoted(String sql, int start, char quote, String what) {
        int i = start + 1;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            checkCharacter(c);
            if (c == quote) {
                if (i + 1 < n && sql.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        throw new GuardException(ErrorCode.SYNTAX_ERROR, "A " + what + " is not terminated.");
    }

    private static int skipBlockComment(String sql, int start) {
        int n = sql.length();
        for (int i = start + 2; i < n - 1; i++) {
            char c = sql.charAt(i);
            if (c == '*' && sql.charAt(i + 1) == '/') {
                return i + 2;
            }
            if (c == '/' && sql.charAt(i + 1) == '*') {
                throw unsafe("Nested comments are not accepted.");
            }
        }
        throw unsafe("A comment is not terminated.");
    }

    private static int skipLineComment(String sql, int start) {
        int n = sql.length();
        for (int i = start + 2; i < n; i++) {
            char c = sql.charAt(i);
            if (c == '\n') {
                return i + 1;
            }
            if (c == '\r' && (i + 1 >= n || sql.charAt(i + 1) != '\n')) {
                throw unsafe("A comment ends in a bare carriage return.");
            }
        }
        return n;
    }
}
