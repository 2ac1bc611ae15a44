package dev.sqlguard.mysql.internal;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.jdbc.SqlQuoting;

/**
 * MySQL's names in the SQL text sqlguard renders: backtick-quoted identifiers and string literals
 * (both through the kit's {@link SqlQuoting}), and one level of quoting removed from a name as
 * written. Nothing else builds executable text.
 */
final class MySqlQuoting {
    private MySqlQuoting() {
    }

    /** A backtick-quoted identifier; refuses names a quoted identifier cannot hold safely. */
    static String identifier(String name) {
        if (name.isEmpty() || name.length() > 256) {
            throw new GuardException(ErrorCode.UNSAFE_SYNTAX, "A name is empty or too long.");
        }
        return SqlQuoting.quotedName(name, '`');
    }

    /**
     * A single-quoted string literal. Quotes are doubled; backslashes and control characters other
     * than tab and line breaks are refused, so the literal means the same with and without
     * {@code NO_BACKSLASH_ESCAPES}.
     */
    static String string(String value) {
        return SqlQuoting.stringLiteral(value);
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
