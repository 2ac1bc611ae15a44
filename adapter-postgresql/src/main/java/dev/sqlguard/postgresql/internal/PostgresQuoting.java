package dev.sqlguard.postgresql.internal;

import java.nio.charset.StandardCharsets;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.jdbc.SqlQuoting;

/**
 * PostgreSQL's names in the SQL text sqlguard renders: double-quoted identifiers within the server's
 * name length, string literals (both through the kit's {@link SqlQuoting}), and the name the server
 * reads for a name as written (folding). Nothing else builds executable text.
 */
final class PostgresQuoting {
    /** PostgreSQL's NAMEDATALEN - 1: longer names are truncated by the server, so they are refused. */
    static final int MAX_NAME_BYTES = 63;

    private PostgresQuoting() {
    }

    /** A double-quoted identifier; refuses names a quoted identifier cannot hold safely or the server would truncate. */
    static String identifier(String name) {
        if (name.isEmpty() || name.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
            throw new GuardException(ErrorCode.UNSAFE_SYNTAX, "A name is empty or longer than " + MAX_NAME_BYTES + " bytes.");
        }
        return SqlQuoting.quotedName(name, '"');
    }

    /**
     * A single-quoted string literal with quotes doubled. Backslashes and control characters other
     * than tab and line breaks are refused, so the literal means the same whatever
     * {@code standard_conforming_strings} says.
     */
    static String string(String value) {
        return SqlQuoting.stringLiteral(value);
    }

    /**
     * The name PostgreSQL reads: a double-quoted identifier exactly, quotes undoubled; an unquoted
     * one with ASCII letters folded to lower case (the server folds nothing else in UTF-8).
     */
    static String name(String raw) {
        if (raw == null || raw.isEmpty()) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "A name is missing.");
        }
        if (raw.length() >= 2 && raw.charAt(0) == '"' && raw.charAt(raw.length() - 1) == '"') {
            String inner = raw.substring(1, raw.length() - 1);
            if (inner.isEmpty() || inner.replace("\"\"", "").indexOf('"') >= 0) {
                throw new GuardException(ErrorCode.UNSAFE_SYNTAX, "A quoted name cannot be checked.");
            }
            return inner.replace("\"\"", "\"");
        }
        StringBuilder out = new StringBuilder(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '"' || c == '\'' || c == '`' || c == '[' || c == ']') {
                throw new GuardException(ErrorCode.UNSAFE_SYNTAX, "A name is quoted in a way that cannot be checked.");
            }
            out.append(c >= 'A' && c <= 'Z' ? (char) (c + 32) : c);
        }
        return out.toString();
    }
}
