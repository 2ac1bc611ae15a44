package dev.sqlguard.jdbc;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

/**
 * Quoting for the SQL text an engine renders from a checked tree, the same on every server that
 * doubles a quote character inside quotes: what a literal or a name may hold so that it means the same
 * whatever the session's escape settings ({@code standard_conforming_strings},
 * {@code NO_BACKSLASH_ESCAPES}) say. An engine adds its own name rules (length, folding) around it.
 */
public final class SqlQuoting {
    private SqlQuoting() {
    }

    /**
     * A single-quoted string literal with quotes doubled. Backslashes and control characters other
     * than tab and line breaks are refused ({@code UNSAFE_SYNTAX}): such a value is passed as a
     * parameter instead.
     */
    public static String stringLiteral(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\\' || (Character.isISOControl(c) && c != '\t' && c != '\n' && c != '\r')) {
                throw new GuardException(ErrorCode.UNSAFE_SYNTAX,
                        "A string literal contains a character that cannot be rendered safely; pass it as a parameter.");
            }
        }
        return '\'' + value.replace("'", "''") + '\'';
    }

    /**
     * {@code name} between {@code quote} characters, a quote inside doubled. Control characters and
     * backslashes are refused ({@code UNSAFE_SYNTAX}); the engine checks emptiness and length first.
     */
    public static String quotedName(String name, char quote) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (Character.isISOControl(c) || c == '\\') {
                throw new GuardException(ErrorCode.UNSAFE_SYNTAX, "A name contains a character that cannot be quoted safely.");
            }
        }
        String q = String.valueOf(quote);
        return q + name.replace(q, q + q) + q;
    }

    /**
     * The rendered text with its {@code n}-th {@code ?} placeholder (1-based, in text order) replaced by
     * {@code replacement.apply(n)}; a {@code ?} inside single or double quotes is text. For texts this kit
     * renders, which quote only with doubled quotes (no dollar quotes, no {@code E''}, no comments).
     */
    public static String replacePlaceholders(String sql, java.util.function.IntFunction<String> replacement) {
        StringBuilder out = new StringBuilder(sql.length() + 16);
        char quote = 0;
        int n = 0;
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (quote != 0) {
                out.append(c);
                if (c == quote) {
                    quote = 0; // a doubled quote closes and reopens: the same result
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                out.append(c);
            } else if (c == '?') {
                out.append(replacement.apply(++n));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
