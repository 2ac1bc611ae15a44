package dev.sqlguard.trino.internal;

import java.nio.charset.StandardCharsets;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

/** Quoting and name folding for the SQL text sqlguard renders; nothing else builds executable text. */
final class TrinoQuoting {
    /** Longer names are refused. */
    static final int MAX_NAME_BYTES = 128;

    private TrinoQuoting() {
    }

    /** A double-quoted identifier; refuses names a quoted identifier cannot hold safely or the server would truncate. */
    static String identifier(String name) {
        if (name.isEmpty() || name.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
            throw new GuardException(ErrorCode.UNSAFE_SYNTAX, "A name is empty or longer than " + MAX_NAME_BYTES + " bytes.");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (Character.isISOControl(c) || c == '\\') {
                throw new GuardException(ErrorCode.UNSAFE_SYNTAX, "A name contains a character that cannot be quoted safely.");
            }
        }
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    /**
     * A single-quoted string literal with quotes doubled. Backslashes and control characters other
     * than tab and line breaks are refused, so the literal means the same whatever
     * {@code standard_conforming_strings} says.
     */
    static String string(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\\' || (Character.isISOControl(c) && c != '\t' && c != '\n' && c != '\r')) {
                throw new GuardException(ErrorCode.UNSAFE_SYNTAX, "A string literal contains a character that cannot be rendered safely; pass it as a parameter.");
            }
        }
        return '\'' + value.replace("'", "''") + '\'';
    }

    /**
     * The name Trino reads: identifiers are case-insensitive on Trino, quoted or not, so a
     * double-quoted identifier is unquoted (quotes undoubled) and every name folded to lower case.
     * Names outside printable ASCII are refused: Trino folds them by rules of its own.
     */
    static String name(String raw) {
        if (raw == null || raw.isEmpty()) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "A name is missing.");
        }
        String inner = raw;
        if (raw.length() >= 2 && raw.charAt(0) == '"' && raw.charAt(raw.length() - 1) == '"') {
            inner = raw.substring(1, raw.length() - 1);
            if (inner.isEmpty() || inner.replace("\"\"", "").indexOf('"') >= 0) {
                throw new GuardException(ErrorCode.UNSAFE_SYNTAX, "A quoted name cannot be checked.");
            }
            inner = inner.replace("\"\"", "\"");
        } else {
            for (int i = 0; i < raw.length(); i++) {
                char c = raw.charAt(i);
                if (c == '"' || c == '\'' || c == '`' || c == '[' || c == ']') {
                    throw new GuardException(ErrorCode.UNSAFE_SYNTAX, "A name is quoted in a way that cannot be checked.");
                }
            }
        }
        StringBuilder out = new StringBuilder(inner.length());
        for (int i = 0; i < inner.length(); i++) {
            char c = inner.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                throw new GuardException(ErrorCode.UNSAFE_SYNTAX, "Names must be plain ASCII on this source.");
            }
            out.append(c >= 'A' && c <= 'Z' ? (char) (c + 32) : c);
        }
        return out.toString();
    }
}
