package dev.sqlguard.mysql.internal;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

import dev.sqlguard.domain.QuotedRuns;
import dev.sqlguard.jdbc.CommentRuns;

/**
 * Column names the parser cannot read as names although the server does: {@code uuid},
 * {@code number}, {@code window}, {@code enum}, {@code unknown}, {@code nchar}, {@code only} and
 * {@code current}. Before parsing, each such bare word that stands where a name stands is quoted with
 * backticks, which the server reads as the same name. A word followed by {@code (} (a function
 * call), or used as a keyword ({@code CURRENT ROW}, {@code IS UNKNOWN}, {@code AS NCHAR}), is left as
 * it is; a wrong guess only makes the parser or the server refuse the query. Strings, quoted names
 * and comments are skipped; the text has already passed the pre-check, so no executable comment and
 * no backslash escape is left in it.
 */
final class KeywordNames {
    private static final Set<String> WORDS = Set.of("uuid", "number", "window", "enum", "unknown", "nchar", "only", "current",
            // MariaDB 10.11 keywords (information_schema.KEYWORDS) it takes as bare column names and JSqlParser does not
            "bool", "errors", "full", "import", "minus", "nocycle", "nvarchar", "returns", "statement", "unbounded");
    /** What follows the keyword of a WINDOW clause: {@code name AS (}. */
    private static final Pattern WINDOW_CLAUSE = Pattern.compile("\\s+(?:[A-Za-z_][A-Za-z0-9_]*|`[^`]+`)\\s+(?i:as)\\s*\\(");

    private KeywordNames() {
    }

    static String quote(String sql) {
        StringBuilder out = null;
        int n = sql.length();
        int i = 0;
        int copied = 0;
        String previous = "";
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                int end = QuotedRuns.end(sql, i, c);
                i = end < 0 ? n : end;
                previous = "";
                continue;
            }
            int comment = CommentRuns.end(sql, i);
            if (comment > i) {
                i = comment;
                continue;
            }
            if (Character.isLetter(c) || c == '_') {
                int end = i;
                while (end < n && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_' || sql.charAt(end) == '$')) {
                    end++;
                }
                String word = sql.substring(i, end);
                String lower = word.toLowerCase(Locale.ROOT);
                if (WORDS.contains(lower) && nameHere(sql, end, lower, previous) && (i == 0 || !Character.isDigit(sql.charAt(i - 1)))) {
                    if (out == null) {
                        out = new StringBuilder(n + 16);
                    }
                    out.append(sql, copied, i).append('`').append(word).append('`');
                    copied = end;
                }
                previous = lower;
                i = end;
                continue;
            }
            if (!Character.isWhitespace(c)) {
                previous = c == '.' ? "." : String.valueOf(c);
            }
            i++;
        }
        if (out == null) {
            return sql;
        }
        return out.append(sql, copied, n).toString();
    }

    private static boolean nameHere(String sql, int end, String word, String previous) {
        String next = nextWord(sql, end);
        if (next.equals("(")) {
            return false;
        }
        if (word.equals("current") && next.equals("row")) {
            return false;
        }
        if (word.equals("unbounded") && (next.equals("preceding") || next.equals("following"))) {
            return false;
        }
        if ((word.equals("full") && (next.equals("join") || next.equals("outer"))) || (word.equals("bool") && previous.equals("as"))
                || (word.equals("nvarchar") && previous.equals("as"))) {
            return false;
        }
        if (word.equals("unknown") && (previous.equals("is") || previous.equals("not"))) {
            return false;
        }
        if (word.equals("nchar") && (previous.equals("as") || next.equals("'"))) {
            return false;
        }
        if (word.equals("window") && !previous.equals(".") && WINDOW_CLAUSE.matcher(sql).region(end, sql.length()).lookingAt()) {
            return false;
        }
        return !previous.equals("window") || !word.equals("window");
    }

    private static String nextWord(String sql, int from) {
        int i = from;
        while (i < sql.length() && Character.isWhitespace(sql.charAt(i))) {
            i++;
        }
        if (i >= sql.length()) {
            return "";
        }
        if (!Character.isLetter(sql.charAt(i))) {
            return String.valueOf(sql.charAt(i));
        }
        int end = i;
        while (end < sql.length() && Character.isLetterOrDigit(sql.charAt(end))) {
            end++;
        }
        return sql.substring(i, end).toLowerCase(Locale.ROOT);
    }
}
