package dev.sqlguard.trino.internal;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

/**
 * Cheap checks on the raw SQL text, run before the parser sees it. They bound the parser's cost
 * (length, nesting depth) and refuse every lexical form that JSqlParser and Trino may read
 * differently. The executed text is always rendered from the parse tree, so these checks are
 * defence in depth, not the main line.
 *
 * <p>Refused outside string literals and quoted identifiers: dollar signs (dollar quoting and
 * {@code $1} parameters), escape strings ({@code E'...'}), Unicode escapes ({@code U&'...'},
 * {@code U&"..."}), bit and national strings ({@code B'...'}, {@code X'...'}, {@code N'...'}),
 * nested or unterminated block comments, adjacent string literals (PostgreSQL joins them across a
 * line break), operator characters whose meaning differs between the two ({@code ~ ! @ # ^ & |}
 * other than {@code ||} and {@code !=}, a single {@code :}, brackets and braces), backticks, and
 * text after a {@code ;}. Refused anywhere: backslashes and control characters other than tab and
 * line breaks.
 */
public final class SqlPrecheck {
    /** Parentheses nested deeper than this are refused before parsing. */
    public static final int MAX_DEPTH = 32;

    private SqlPrecheck() {
    }

    /**
     * @throws GuardException QUERY_TOO_LONG, EMPTY_QUERY, QUERY_TOO_COMPLEX, UNSAFE_SYNTAX,
     *     MULTIPLE_STATEMENTS or SYNTAX_ERROR
     */
    public static void check(String sql, int maxLength) {
        if (sql.length() > maxLength) {
            throw new GuardException(ErrorCode.QUERY_TOO_LONG, "The SQL text is longer than " + maxLength + " characters.");
        }
        if (sql.isBlank()) {
            throw new GuardException(ErrorCode.EMPTY_QUERY);
        }
        int depth = 0;
        int n = sql.length();
        int i = 0;
        int lastStringEnd = -1;
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\\') {
                throw unsafe("Backslashes are not accepted; pass such values as parameters.");
            }
            if (Character.isISOControl(c) && c != '\t' && c != '\n' && c != '\r') {
                throw unsafe("The SQL contains a control character.");
            }
            if (Character.isWhitespace(c)) {
                i++;
                continue;
            }
            if (c == '\'' && lastStringEnd >= 0) {
                throw unsafe("Adjacent string literals are not accepted; write one literal or use ||.");
            }
            lastStringEnd = -1;
            if (Character.isLetter(c) && (i == 0 || !isIdentifierPart(sql.charAt(i - 1)))) {
                checkPrefix(sql, i);
            }
            switch (c) {
                case '\'' -> {
                    i = skipQuoted(sql, i, '\'', "string literal");
                    lastStringEnd = i;
                }
                case '"' -> i = skipQuoted(sql, i, '"', "quoted identifier");
                case '$' -> throw unsafe("Dollar quoting and $n parameters are not accepted; use single quotes and ? parameters.");
                case '`' -> throw unsafe("Backticks are not accepted; quote names with double quotes.");
                case '~', '@', '#', '^', '&', '[', ']', '{', '}' -> throw unsafe("The operator or character '" + c
                        + "' is not accepted outside strings.");
                case '|' -> {
                    if (i + 1 < n && sql.charAt(i + 1) == '|' && (i + 2 >= n || !isOperatorChar(sql.charAt(i + 2)))) {
                        i += 2;
                    } else {
                        throw unsafe("Only || is accepted among operators with '|'.");
                    }
                }
                case '!' -> {
                    if (i + 1 < n && sql.charAt(i + 1) == '=' && (i + 2 >= n || !isOperatorChar(sql.charAt(i + 2)))) {
                        i += 2;
                    } else {
                        throw unsafe("Only != is accepted among operators with '!'.");
                    }
                }
                case ':' -> {
                    if (i + 1 < n && sql.charAt(i + 1) == ':' && (i + 2 >= n || sql.charAt(i + 2) != ':')) {
                        i += 2;
                    } else {
                        throw unsafe("A single ':' is not accepted; casts are written ::type.");
                    }
                }
                case '/' -> {
                    if (i + 1 < n && sql.charAt(i + 1) == '*') {
                        i = skipBlockComment(sql, i);
                    } else {
                        i++;
                    }
                }
                case '-' -> {
                    if (i + 1 < n && sql.charAt(i + 1) == '-') {
                        i = skipLineComment(sql, i);
                    } else {
                        i++;
                    }
                }
                case '(' -> {
                    depth++;
                    if (depth > MAX_DEPTH) {
                        throw new GuardException(ErrorCode.QUERY_TOO_COMPLEX,
                                "The SQL text nests parentheses deeper than " + MAX_DEPTH + " levels.");
                    }
                    i++;
                }
                case ')' -> {
                    depth = Math.max(0, depth - 1);
                    i++;
                }
                case ';' -> {
                    for (int j = i + 1; j < n; j++) {
                        if (!Character.isWhitespace(sql.charAt(j))) {
                            throw new GuardException(ErrorCode.MULTIPLE_STATEMENTS);
                        }
                    }
                    i = n;
                }
                default -> i++;
            }
        }
    }

    /** E'..', U&'..', U&"..", B'..', X'..', N'..' at the start of a word. */
    private static void checkPrefix(String sql, int i) {
        int n = sql.length();
        char c = Character.toUpperCase(sql.charAt(i));
        if ((c == 'E' || c == 'B' || c == 'X' || c == 'N') && i + 1 < n && sql.charAt(i + 1) == '\'') {
            throw unsafe("Escape, bit and national string literals (E'', B'', X'', N'') are not accepted; use plain quotes or parameters.");
        }
        if (c == 'U' && i + 1 < n && sql.charAt(i + 1) == '&') {
            throw unsafe("Unicode escapes (U&'' and U&\"\") are not accepted.");
        }
    }

    private static boolean isIdentifierPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }

    private static boolean isOperatorChar(char c) {
        return "+-*/<>=~!@#%^&|`?".indexOf(c) >= 0;
    }

    private static int skipQuoted(String sql, int start, char quote, String what) {
        int i = start + 1;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\\') {
                throw unsafe("Backslashes are not accepted; pass such values as parameters.");
            }
            if (Character.isISOControl(c) && c != '\t' && c != '\n' && c != '\r') {
                throw unsafe("The SQL contains a control character.");
            }
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

    private static GuardException unsafe(String message) {
        return new GuardException(ErrorCode.UNSAFE_SYNTAX, message);
    }
}
