package dev.sqlguard.jdbc.ansi;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.jdbc.SqlQuoting;

/**
 * How an ANSI engine reads and writes names: the name it reads for a name as written (quotes
 * removed, folded as the engine folds), the double-quoted identifier sqlguard renders for an exact
 * name within the engine's name length, and string literals (both through the kit's
 * {@link SqlQuoting}). Immutable.
 */
public final class AnsiNames {
    /** How an engine folds a name as written. */
    public enum Folding {
        /**
         * A double-quoted name exactly; an unquoted one with its ASCII letters folded to lower case
         * (PostgreSQL, which folds nothing else in UTF-8).
         */
        UNQUOTED,
        /**
         * Every name, quoted or not, folded to lower case, and names outside printable ASCII refused
         * (Trino: identifiers are case-insensitive, quoted or not, and it folds other characters by
         * rules of its own).
         */
        EVERY_NAME_ASCII_ONLY,
        /**
         * A double-quoted name exactly; an unquoted one with its ASCII letters folded to upper case
         * (H2, Oracle, Db2 and the SQL standard: {@code claims} is {@code CLAIMS}).
         */
        UPPER,
        /** Every name exactly as written, quoted or not (an engine whose names are case-sensitive and never folded). */
        NONE;

        /** {@link #UNQUOTED}, by the name the other options go by: unquoted names folded to lower case. */
        public static final Folding LOWER = UNQUOTED;
    }

    private final int maxNameBytes;
    private final Folding folding;

    /**
     * @param maxNameBytes the longest name in UTF-8 bytes the engine keeps whole: longer names are
     *     refused, never truncated by the server
     */
    public AnsiNames(int maxNameBytes, Folding folding) {
        if (maxNameBytes < 1) {
            throw new IllegalArgumentException("maxNameBytes must be positive");
        }
        this.maxNameBytes = maxNameBytes;
        this.folding = requireNonNull(folding, "folding is null");
    }

    public int maxNameBytes() {
        return maxNameBytes;
    }

    /** A double-quoted identifier; refuses names a quoted identifier cannot hold safely or the server would truncate. */
    public String identifier(String name) {
        if (name.isEmpty() || name.getBytes(StandardCharsets.UTF_8).length > maxNameBytes) {
            throw new GuardException(ErrorCode.UNSAFE_SYNTAX, "A name is empty or longer than " + maxNameBytes + " bytes.");
        }
        return SqlQuoting.quotedName(name, '"');
    }

    /**
     * A single-quoted string literal with quotes doubled. Backslashes and control characters other
     * than tab and line breaks are refused, so the literal means the same whatever
     * {@code standard_conforming_strings} says.
     */
    public String string(String value) {
        return SqlQuoting.stringLiteral(value);
    }

    /** The name the engine reads for {@code raw} as written: quotes undoubled, folded as {@link Folding} says. */
    public String name(String raw) {
        if (raw == null || raw.isEmpty()) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "A name is missing.");
        }
        boolean quoted = raw.length() >= 2 && raw.charAt(0) == '"' && raw.charAt(raw.length() - 1) == '"';
        String text = quoted ? unquoted(raw) : bare(raw);
        if (folding == Folding.UNQUOTED) {
            return quoted ? text : lowerAscii(text);
        }
        if (folding == Folding.UPPER) {
            return quoted ? text : upperAscii(text);
        }
        if (folding == Folding.NONE) {
            return text;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                throw new GuardException(ErrorCode.UNSAFE_SYNTAX, "Names must be plain ASCII on this source.");
            }
        }
        return lowerAscii(text);
    }

    private static String unquoted(String raw) {
        String inner = raw.substring(1, raw.length() - 1);
        if (inner.isEmpty() || inner.replace("\"\"", "").indexOf('"') >= 0) {
            throw new GuardException(ErrorCode.UNSAFE_SYNTAX, "A quoted name cannot be checked.");
        }
        return inner.replace("\"\"", "\"");
    }

    private static String bare(String raw) {
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '"' || c == '\'' || c == '`' || c == '[' || c == ']') {
                throw new GuardException(ErrorCode.UNSAFE_SYNTAX, "A name is quoted in a way that cannot be checked.");
            }
        }
        return raw;
    }

    private static String upperAscii(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            out.append(c >= 'a' && c <= 'z' ? (char) (c - 32) : c);
        }
        return out.toString();
    }

    private static String lowerAscii(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            out.append(c >= 'A' && c <= 'Z' ? (char) (c + 32) : c);
        }
        return out.toString();
    }
}
