package dev.sqlguard.jdbc;

import static dev.sqlguard.jdbc.LexicalCheck.unsafe;

/**
 * The strict double-quote dialect of {@link LexicalCheck}, for an engine whose parser agreement
 * rests on plain ANSI lexis (PostgreSQL, Trino): outside string literals and double-quoted names it
 * refuses every form that JSqlParser and such a server may read differently. That is dollar signs
 * (dollar quoting and {@code $1} parameters), escape strings ({@code E'...'}), Unicode escapes
 * ({@code U&'...'}, {@code U&"..."}: the server decodes them, JSqlParser does not), bit, binary and
 * national strings ({@code B'...'}, {@code X'...'}, {@code N'...'}), adjacent string literals
 * (PostgreSQL joins them across a line break), operator characters whose meaning differs
 * ({@code ~ ! @ # ^ & |} other than {@code ||} and {@code !=}, a single {@code :}, brackets, which
 * carry array subscripts and constructors, and braces), and backticks.
 *
 * <p>{@link #check} is such an engine's whole pre-check, written once for all of them.
 */
public final class StrictQuotingDialect {
    /** Parentheses nested deeper than this are refused before parsing. */
    public static final int MAX_DEPTH = 32;

    public static final LexicalCheck.Dialect INSTANCE = new LexicalCheck.Dialect() {
        @Override
        public char nameQuote() {
            return '"';
        }

        @Override
        public void stringLiteral(String sql, int start, boolean afterLiteral) {
            if (afterLiteral) {
                throw unsafe("Adjacent string literals are not accepted; write one literal or use ||.");
            }
        }

        @Override
        public int symbol(String sql, int i) {
            char c = sql.charAt(i);
            int n = sql.length();
            if (Character.isLetter(c) && (i == 0 || !isIdentifierPart(sql.charAt(i - 1)))) {
                checkPrefix(sql, i);
            }
            return switch (c) {
                case '$' -> throw unsafe("Dollar quoting and $n parameters are not accepted; use single quotes and ? parameters.");
                case '`' -> throw unsafe("Backticks are not accepted; quote names with double quotes.");
                case '~', '@', '#', '^', '&', '[', ']', '{', '}' -> throw unsafe("The operator or character '" + c
                        + "' is not accepted outside strings.");
                case '|' -> {
                    if (i + 1 < n && sql.charAt(i + 1) == '|' && (i + 2 >= n || !isOperatorChar(sql.charAt(i + 2)))) {
                        yield i + 2;
                    }
                    throw unsafe("Only || is accepted among operators with '|'.");
                }
                case '!' -> {
                    if (i + 1 < n && sql.charAt(i + 1) == '=' && (i + 2 >= n || !isOperatorChar(sql.charAt(i + 2)))) {
                        yield i + 2;
                    }
                    throw unsafe("Only != is accepted among operators with '!'.");
                }
                case ':' -> {
                    if (i + 1 < n && sql.charAt(i + 1) == ':' && (i + 2 >= n || sql.charAt(i + 2) != ':')) {
                        yield i + 2;
                    }
                    throw unsafe("A single ':' is not accepted; casts are written ::type.");
                }
                default -> i + 1;
            };
        }
    };

    private StrictQuotingDialect() {
    }

    /**
     * The pre-check of an engine with plain ANSI lexis, run on the raw text before the parser sees it:
     * {@link LexicalCheck} in this dialect, parentheses nested at most {@link #MAX_DEPTH} deep. The
     * executed text is always rendered from the parse tree, so these checks are defence in depth, not
     * the main line.
     *
     * @throws dev.sqlguard.domain.GuardException QUERY_TOO_LONG, EMPTY_QUERY, QUERY_TOO_COMPLEX,
     *     UNSAFE_SYNTAX, MULTIPLE_STATEMENTS or SYNTAX_ERROR
     */
    public static void check(String sql, int maxLength) {
        LexicalCheck.check(sql, maxLength, MAX_DEPTH, INSTANCE);
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
}
