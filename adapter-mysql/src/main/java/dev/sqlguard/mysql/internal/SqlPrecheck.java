package dev.sqlguard.mysql.internal;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

/**
 * Cheap checks on the raw SQL text, run before the parser sees it. They bound the parser's cost
 * (length, nesting depth) and refuse every lexical form that JSqlParser and a MySQL-compatible
 * server may read differently. The executed text is always rendered from the parse tree, so these
 * checks are defence in depth, not the main line.
 *
 * <p>Refused outside string literals and quoted identifiers: executable comments ({@code /*!},
 * {@code /*M!}), optimizer hints ({@code /*+}), nested or unterminated block comments,
 * {@code --} not followed by a space, tab or line break, {@code #}, {@code //}, double quotes,
 * braces (JDBC escapes), text after a {@code ;}, and the operators whose grouping or meaning differs
 * between the parser and the server: {@code !} (other than {@code !=}), {@code &&} and {@code ||}. Refused anywhere: backslashes (their meaning
 * depends on {@code NO_BACKSLASH_ESCAPES}) and control characters other than tab and line breaks.
 */
public final class SqlPrecheck {
    /** Parentheses and brackets nested deeper than this are refused before parsing. */
    public static final int MAX_DEPTH = 32;

    private SqlPrecheck() {
    }

    /**
     * @throws GuardException QUERY_TOO_LONG, EMPTY_QUERY, QUERY_TOO_COMPLEX, UNSAFE_SYNTAX,
     *     MULTIPLE_STATEMENTS or SYNTAX_ERROR
     */
    public static void check(String sql, int maxLength) {
        check(sql, maxLength, MAX_DEPTH);
    }

    /** The same checks with another nesting bound (the renderer's own output is bounded by its expression depth). */
    public static void check(String sql, int maxLength, int maxDepth) {
        if (sql.length() > maxLength) {
            throw new GuardException(ErrorCode.QUERY_TOO_LONG, "The SQL text is longer than " + maxLength + " characters.");
        }
        if (sql.isBlank()) {
            throw new GuardException(ErrorCode.EMPTY_QUERY);
        }
        int depth = 0;
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\\') {
                throw unsafe("Backslashes are not accepted; pass such values as parameters.");
            }
            if (Character.isISOControl(c) && c != '\t' && c != '\n' && c != '\r') {
                throw unsafe("The SQL contains a control character.");
            }
            switch (c) {
                case '\'' -> i = skipQuoted(sql, i, '\'', "string literal");
                case '`' -> i = skipQuoted(sql, i, '`', "quoted identifier");
                case '"' -> throw unsafe("Double quotes are not accepted; use single quotes for strings and backticks for names.");
                case '#' -> throw unsafe("'#' comments are not accepted.");
                case '{', '}' -> throw unsafe("Braces are not accepted.");
                case '!' -> {
                    if (i + 1 >= n || sql.charAt(i + 1) != '=') {
                        throw unsafe("'!' binds more tightly on the server than in the checker; write NOT (...).");
                    }
                    i += 2;
                }
                case '&', '|' -> {
                    if (i + 1 < n && sql.charAt(i + 1) == c) {
                        throw unsafe("'" + c + c + "' is not accepted; write " + (c == '&' ? "AND" : "OR") + " (or CONCAT for text).");
                    }
                    i++;
                }
                case '/' -> {
                    if (i + 1 < n && sql.charAt(i + 1) == '*') {
                        i = skipBlockComment(sql, i);
                    } else if (i + 1 < n && sql.charAt(i + 1) == '/') {
                        throw unsafe("Two slashes in a row are not accepted outside strings.");
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
                case '(', '[' -> {
                    depth++;
                    if (depth > maxDepth) {
                        throw new GuardException(ErrorCode.QUERY_TOO_COMPLEX,
                                "The SQL text nests parentheses deeper than " + maxDepth + " levels.");
                    }
                    i++;
                }
                case ')', ']' -> {
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
        int body = start + 2;
        if (body < n) {
            char first = sql.charAt(body);
            if (first == '!' || first == '+'
                    || ((first == 'M' || first == 'm') && body + 1 < n && sql.charAt(body + 1) == '!')) {
                throw unsafe("Executable comments and optimizer hints are not accepted.");
            }
        }
        for (int i = body; i < n - 1; i++) {
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
        int after = start + 2;
        if (after >= n || (sql.charAt(after) != ' ' && sql.charAt(after) != '\t' && sql.charAt(after) != '\n')) {
            throw unsafe("'--' starts a comment only when a space follows; write '-- ' or avoid it.");
        }
        for (int i = after; i < n; i++) {
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
