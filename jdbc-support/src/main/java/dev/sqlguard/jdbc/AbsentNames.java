package dev.sqlguard.jdbc;

import java.util.Locale;
import java.util.Set;

/**
 * Makes the names that only hidden columns have absent from a text as written, so that an engine's
 * own reading of that text ({@code EXPLAIN}) is the reading of a schema without them, as the check's
 * is. A validator that compares the engine's reading of the text as written with the checked tree must
 * decide the same for a hidden column's name as for a name that exists nowhere: it asks the engine
 * about the renamed text, never about the text that names the hidden column.
 *
 * <p>Each identifier in the hidden set, bare or double-quoted, outside string literals, gets
 * {@link #SUFFIX} appended; a bare word followed by {@code (} (a function's name), one of the
 * engine's reserved words, or a word of the grammar where a name cannot stand (a type after {@code ::} or
 * after {@code AS} inside {@code CAST(}, EXTRACT's unit) is left as written. The text has passed the strict lexical check
 * ({@link StrictQuotingDialect}): single-quoted literals and double-quoted names are its only quoting
 * forms, and it holds no comment.
 */
public final class AbsentNames {
    /** Appended to a hidden name to make a name that exists nowhere. */
    public static final String SUFFIX = "__sqlguard_absent";

    private AbsentNames() {
    }

    /**
     * @param hidden the names (lower case) that only hidden columns have
     * @param reserved the engine's reserved words (lower case), never renamed
     */
    public static String rename(String sql, Set<String> hidden, Set<String> reserved) {
        if (hidden.isEmpty()) {
            return sql;
        }
        StringBuilder out = new StringBuilder(sql.length() + 32);
        // what each open parenthesis was opened by (the word just before it, or ""), and the last token read:
        // a type after CAST(... AS or ::, and EXTRACT's unit, are words of the grammar, not names
        java.util.ArrayDeque<String> opened = new java.util.ArrayDeque<>();
        String previous = "";
        String lastWord = "";
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '(') {
                opened.push(lastWord);
                lastWord = "";
                previous = "(";
                out.append(c);
                i++;
                continue;
            }
            if (c == ')') {
                opened.poll();
                lastWord = "";
                previous = ")";
                out.append(c);
                i++;
                continue;
            }
            if (c == ':' && i + 1 < n && sql.charAt(i + 1) == ':') {
                lastWord = "";
                previous = "::";
                out.append("::");
                i += 2;
                continue;
            }
            if (!Character.isWhitespace(c) && !Character.isLetter(c) && c != '_') {
                lastWord = "";
                previous = String.valueOf(c);
            }
            if (c == '\'') {
                int end = closing(sql, i, '\'');
                out.append(sql, i, end);
                i = end;
            } else if (c == '"') {
                int end = closing(sql, i, '"');
                String inner = sql.substring(i + 1, Math.max(i + 1, end - 1));
                if (end <= n && sql.charAt(end - 1) == '"' && end - 1 > i && hidden.contains(inner.toLowerCase(Locale.ROOT))) {
                    out.append('"').append(inner).append(SUFFIX).append('"');
                } else {
                    out.append(sql, i, end);
                }
                i = end;
            } else if (Character.isLetter(c) || c == '_') {
                int end = i + 1;
                while (end < n && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_' || sql.charAt(end) == '$')) {
                    end++;
                }
                String word = sql.substring(i, end);
                String lower = word.toLowerCase(Locale.ROOT);
                int next = end;
                while (next < n && Character.isWhitespace(sql.charAt(next))) {
                    next++;
                }
                boolean call = next < n && sql.charAt(next) == '(';
                String within = opened.isEmpty() ? "" : opened.peek();
                boolean grammar = previous.equals("::") || (previous.equals("as") && (within.equals("cast") || within.equals("try_cast")))
                        || (previous.equals("(") && within.equals("extract"));
                out.append(word);
                if (hidden.contains(lower) && !call && !grammar && !reserved.contains(lower)) {
                    out.append(SUFFIX);
                }
                lastWord = lower;
                previous = lower;
                i = end;
            } else if (Character.isDigit(c)) {
                int end = i + 1;
                while (end < n && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_' || sql.charAt(end) == '.')) {
                    end++;
                }
                out.append(sql, i, end);
                i = end;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /** The index just past the quote that closes the one at {@code start} (a doubled quote stays inside), or the text's end. */
    private static int closing(String sql, int start, char quote) {
        int i = start + 1;
        while (i < sql.length()) {
            if (sql.charAt(i) == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return sql.length();
    }
}
