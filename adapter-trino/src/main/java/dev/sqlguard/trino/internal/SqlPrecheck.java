package dev.sqlguard.trino.internal;

import dev.sqlguard.domain.GuardException;
import dev.sqlguard.jdbc.LexicalCheck;
import dev.sqlguard.jdbc.StrictQuotingDialect;

/**
 * Trino's lexical rules, run on the raw text before the parser sees it: the kit's
 * {@link LexicalCheck} in its {@link StrictQuotingDialect}, which refuses every lexical form that
 * JSqlParser and Trino may read differently. The executed text is always rendered from the parse
 * tree, so these checks are defence in depth, not the main line.
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
        LexicalCheck.check(sql, maxLength, MAX_DEPTH, StrictQuotingDialect.INSTANCE);
    }
}
