package dev.sqlguard.mysql.internal;

import static dev.sqlguard.jdbc.LexicalCheck.unsafe;

import dev.sqlguard.domain.GuardException;
import dev.sqlguard.jdbc.LexicalCheck;

/**
 * MySQL's and MariaDB's rules for the kit's {@link LexicalCheck}, run on the raw text before the
 * parser sees it: every lexical form that JSqlParser and a MySQL-compatible server may read
 * differently is refused.
 *
 * <p>Refused outside string literals and quoted identifiers, beyond what the kit refuses for every
 * engine: executable comments ({@code /*!}, {@code /*M!}), optimizer hints ({@code /*+}),
 * {@code --} not followed by a space, tab or line break, {@code #}, {@code //}, double quotes,
 * braces (JDBC escapes), and the operators whose grouping or meaning differs between the parser and
 * the server: {@code !} (other than {@code !=}), {@code &&} and {@code ||}. Square brackets nest like
 * parentheses.
 */
public final class SqlPrecheck {
    /** Parentheses and brackets nested deeper than this are refused before parsing. */
    public static final int MAX_DEPTH = 32;

    private static final LexicalCheck.Dialect MYSQL = new LexicalCheck.Dialect() {
        @Override
        public char nameQuote() {
            return '`';
        }

        @Override
        public boolean bracketsNest() {
            return true;
        }

        @Override
        public void blockComment(String sql, int start) {
            int n = sql.length();
            int body = start + 2;
            if (body < n) {
                char first = sql.charAt(body);
                if (first == '!' || first == '+'
                        || ((first == 'M' || first == 'm') && body + 1 < n && sql.charAt(body + 1) == '!')) {
                    throw unsafe("Executable comments and optimizer hints are not accepted.");
                }
            }
        }

        @Override
        public void lineComment(String sql, int start) {
            int after = start + 2;
            if (after >= sql.length() || (sql.charAt(after) != ' ' && sql.charAt(after) != '\t' && sql.charAt(after) != '\n')) {
                throw unsafe("'--' starts a comment only when a space follows; write '-- ' or avoid it.");
            }
        }

        @Override
        public int symbol(String sql, int i) {
            char c = sql.charAt(i);
            int n = sql.length();
            return switch (c) {
                case '"' -> throw unsafe("Double quotes are not accepted; use single quotes for strings and backticks for names.");
                case '#' -> throw unsafe("'#' comments are not accepted.");
                case '{', '}' -> throw unsafe("Braces are not accepted.");
                case '!' -> {
                    if (i + 1 >= n || sql.charAt(i + 1) != '=') {
                        throw unsafe("'!' binds more tightly on the server than in the checker; write NOT (...).");
                    }
                    yield i + 2;
                }
                case '&', '|' -> {
                    if (i + 1 < n && sql.charAt(i + 1) == c) {
                        throw unsafe("'" + c + c + "' is not accepted; write " + (c == '&' ? "AND" : "OR") + " (or CONCAT for text).");
                    }
                    yield i + 1;
                }
                case '/' -> {
                    if (i + 1 < n && sql.charAt(i + 1) == '/') {
                        throw unsafe("Two slashes in a row are not accepted outside strings.");
                    }
                    yield i + 1;
                }
                default -> i + 1;
            };
        }
    };

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
        LexicalCheck.check(sql, maxLength, maxDepth, MYSQL);
    }
}
