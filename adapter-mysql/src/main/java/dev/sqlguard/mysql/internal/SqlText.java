package dev.sqlguard.mysql.internal;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

/** Quoting for the SQL text sqlguard renders; nothing else builds executable text. */
final class SqlText {
    private SqlText() {
    }

    /** A backtick-quoted identifier; refuses names a quoted identifier cannot hold safely. */
    static String identifier(String name) {
        if (name.isEmpty() || name.length() > 256) {
            throw new GuardException(ErrorCode.UNSAFE_SYNTAX, "A name is empty or too long.");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (Character.isISOControl(c) || c == '\\') {
                throw new GuardException(ErrorCode.UNSAFE_SYNTAX, "A name contains a character that cannot be quoted safely.");
            }
        }
        return '`' + name.replace("`", "``") + '`';
    }

    /**
     * A single-quoted string literal. Quotes are doubled; backslashes and control characters other
     * than tab and line breaks are refused, so the literal means the same with and without
     * {@code NO_BACKSLASH_ESCAPES}.
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

    /** Removes one level of backtick or single-quote quoting, undoubling the quote character. */
    static String unquote(String name) {
        if (name.length() >= 2) {
            char first = name.charAt(0);
            char last = name.charAt(name.length() - 1);
            if ((first == '`' || first == '\'') && last == first) {
                String inner = name.substring(1, name.length() - 1);
                return inner.replace(String.valueOf(first) + first, String.valueOf(first));
            }
            if (first == '"' || first == '[') {
                throw new GuardException(ErrorCode.UNSAFE_SYNTAX, "Quote names with backticks.");
            }
        }
        if (name.indexOf('`') >= 0 || name.indexOf('\'') >= 0 || name.indexOf('"') >= 0) {
            throw new GuardException(ErrorCode.UNSAFE_SYNTAX, "A name is quoted in a way that cannot be checked.");
        }
        return name;
    }
}
