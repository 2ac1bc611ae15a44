package dev.sqlguard.duckdb.ingest.internal;

import static java.util.Objects.requireNonNull;

/**
 * The text the loader writes: DuckDB string literals and quoted identifiers for the few values it puts
 * into SQL, and operator input made printable for its messages.
 */
public final class LoaderText {
    private LoaderText() {
    }

    /** A DuckDB string literal: single quotes doubled. */
    public static String literal(String value) {
        requireNonNull(value, "value is null");
        if (value.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("a NUL character cannot appear in a string literal");
        }
        return "'" + value.replace("'", "''") + "'";
    }

    /** A DuckDB quoted identifier: double quotes doubled. */
    public static String identifier(String name) {
        requireNonNull(name, "name is null");
        if (name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("a NUL character cannot appear in an identifier");
        }
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    /** Text from operator input made safe to echo in one line of a message. */
    public static String printable(String text, int maxLength) {
        StringBuilder out = new StringBuilder();
        text.codePoints().limit(maxLength).forEach(cp ->
                out.appendCodePoint(Character.isISOControl(cp) ? '?' : cp));
        if (text.codePointCount(0, text.length()) > maxLength) {
            out.append("...");
        }
        return out.toString();
    }
}
