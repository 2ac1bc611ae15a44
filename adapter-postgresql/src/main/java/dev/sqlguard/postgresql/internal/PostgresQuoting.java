package dev.sqlguard.postgresql.internal;

import dev.sqlguard.jdbc.ansi.AnsiNames;

/**
 * PostgreSQL's names in the SQL text sqlguard renders: double-quoted identifiers within the server's
 * name length, string literals, and the name the server reads for a name as written (a quoted name
 * exactly, an unquoted one with its ASCII letters folded). Nothing else builds executable text.
 */
final class PostgresQuoting {
    /** PostgreSQL's NAMEDATALEN - 1: longer names are truncated by the server, so they are refused. */
    static final int MAX_NAME_BYTES = 63;

    static final AnsiNames NAMES = new AnsiNames(MAX_NAME_BYTES, AnsiNames.Folding.UNQUOTED);

    private PostgresQuoting() {
    }

    /** A double-quoted identifier; refuses names a quoted identifier cannot hold safely or the server would truncate. */
    static String identifier(String name) {
        return NAMES.identifier(name);
    }
}
