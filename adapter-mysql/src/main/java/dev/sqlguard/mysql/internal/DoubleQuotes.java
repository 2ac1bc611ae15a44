package dev.sqlguard.mysql.internal;

import java.util.Locale;
import java.util.Set;

import dev.sqlguard.domain.QuotedRuns;

/**
 * What a double-quoted run means on this server, written the one way the checker reads without
 * doubt. Unless its sql_mode holds {@code ANSI_QUOTES}, a MySQL or MariaDB server reads
 * {@code "France"} as a string literal, exactly as {@code 'France'}; under {@code ANSI_QUOTES} it is a
 * name, exactly as {@code `France`}. The public text-to-SQL benchmarks write their strings in double
 * quotes (Spider's {@code WHERE country = "France"}), and the server's default mode runs them, so
 * refusing every double quote refused honest questions.
 *
 * <p>The reading follows the server's default sql_mode as the operator set it: the session the
 * executor pins keeps every flag of it except the parsing ones, and the engine reads the text as the
 * server would have by default. Before the pre-check, each double-quoted run is rewritten to the
 * single-quoted literal (or backtick-quoted name) the server reads it as: its doubled {@code ""}
 * becomes one {@code "}, and a {@code '} (or a backtick) inside is doubled. Runs the rewrite cannot
 * speak for stay as they are, so the pre-check refuses them as before: one that does not close, and
 * one right after a letter, digit, {@code _} or {@code $} (a character set introducer such as
 * {@code _utf8mb4"x"}, or {@code N"x"} and {@code X"41"}, which the server reads otherwise or not at
 * all). Single-quoted strings, backtick-quoted names and comments are stepped over untouched. Only
 * the parse is affected: what runs is rendered from the tree.
 */
public enum DoubleQuotes {
    /** The server's default: {@code "x"} is the string {@code 'x'}. */
    STRINGS,
    /** Under {@code ANSI_QUOTES} (or a mode that implies it): {@code "x"} is the name {@code `x`}. */
    NAMES;

    /** The modes whose presence in the server's default sql_mode makes a double-quoted run a name. */
    private static final Set<String> QUOTING_NAMES = Set.of("ANSI_QUOTES", "ANSI", "ORACLE", "POSTGRESQL", "MSSQL", "DB2", "MAXDB");

    /** How a server whose default sql_mode is {@code serverDefault} reads a double-quoted run. */
    public static DoubleQuotes ofServerMode(String serverDefault) {
        for (String mode : (serverDefault == null ? "" : serverDefault).toUpperCase(Locale.ROOT).split(",")) {
            if (QUOTING_NAMES.contains(mode.strip())) {
                return NAMES;
            }
        }
        return STRINGS;
    }

    /** {@code sql} with every double-quoted run it can speak for written as this reading's literal or name. */
    public String rewrite(String sql) {
        if (sql.indexOf('"') < 0) {
            return sql;
        }
        StringBuilder out = new StringBuilder(sql.length() + 8);
        int copied = 0;
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            int skipped = skip(sql, i);
            if (skipped < 0) {
                break; // an unterminated quote or comment: the pre-check refuses the rest as it stands
            }
            if (skipped > i) {
                i = skipped;
                continue;
            }
            if (c != '"') {
                i++;
                continue;
            }
            int end = QuotedRuns.end(sql, i, '"');
            if (end < 0) {
                break;
            }
            if (i > 0 && isWordChar(sql.charAt(i - 1))) {
                i = end; // left for the pre-check to refuse
                continue;
            }
            out.append(sql, copied, i).append(written(sql.substring(i + 1, end - 1).replace("\"\"", "\"")));
            i = end;
            copied = end;
        }
        return copied == 0 ? sql : out.append(sql, copied, n).toString();
    }

    private String written(String content) {
        return this == STRINGS ? "'" + content.replace("'", "''") + "'" : "`" + content.replace("`", "``") + "`";
    }

    /**
     * The end of a single-quoted string, a backtick-quoted name or a comment starting at {@code i}
     * ({@code i} itself when none starts there, {@code -1} when it does not end).
     */
    private static int skip(String sql, int i) {
        char c = sql.charAt(i);
        int n = sql.length();
        if (c == '\'' || c == '`') {
            return QuotedRuns.end(sql, i, c);
        }
        if (c == '#' || (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-')) {
            int end = sql.indexOf('\n', i);
            return end < 0 ? n : end + 1;
        }
        if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
            int end = sql.indexOf("*/", i + 2);
            return end < 0 ? -1 : end + 2;
        }
        return i;
    }

    private static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }
}
