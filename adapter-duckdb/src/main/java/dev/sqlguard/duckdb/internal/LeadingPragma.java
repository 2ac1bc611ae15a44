package dev.sqlguard.duckdb.internal;

import java.util.Locale;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

/** The one text check made before DuckDB's parser sees the SQL: a leading PRAGMA (defence in depth only). */
final class LeadingPragma {
    private LeadingPragma() {
    }

    /**
     * Refuses a statement whose first keyword, after comments and whitespace, is {@code PRAGMA}
     * (PRAGMA reads and changes settings). DuckDB's serializer refuses PRAGMA too; this check does not
     * depend on it.
     */
    static void requireNoLeadingPragma(String sql) {
        String head = stripLeadingNoise(sql);
        if (head.length() >= 6 && head.substring(0, 6).toLowerCase(Locale.ROOT).equals("pragma")
                && (head.length() == 6 || !Character.isLetterOrDigit(head.charAt(6)) && head.charAt(6) != '_')) {
            throw new GuardException(ErrorCode.STATEMENT_NOT_ALLOWED, "PRAGMA statements are not allowed; only a single SELECT is.");
        }
    }

    /** The text after leading whitespace, {@code --} line comments, {@code /* *}{@code /} block comments and parentheses. */
    static String stripLeadingNoise(String sql) {
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c) || c == '(' || c == ';') {
                i++;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? n : end + 1;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else {
                break;
            }
        }
        return sql.substring(i);
    }
}
