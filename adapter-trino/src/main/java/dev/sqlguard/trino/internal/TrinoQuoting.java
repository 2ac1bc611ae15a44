package dev.sqlguard.trino.internal;

import dev.sqlguard.jdbc.ansi.AnsiNames;

/**
 * Trino's names in the SQL text sqlguard renders: double-quoted identifiers, string literals, and the
 * name Trino reads for a name as written (every name folded to lower case, quoted or not; names
 * outside printable ASCII refused). Nothing else builds executable text.
 */
final class TrinoQuoting {
    /** Longer names are refused. */
    static final int MAX_NAME_BYTES = 128;

    static final AnsiNames NAMES = new AnsiNames(MAX_NAME_BYTES, AnsiNames.Folding.EVERY_NAME_ASCII_ONLY);

    private TrinoQuoting() {
    }

    /** A double-quoted identifier; refuses names a quoted identifier cannot hold safely or the server would truncate. */
    static String identifier(String name) {
        return NAMES.identifier(name);
    }
}
