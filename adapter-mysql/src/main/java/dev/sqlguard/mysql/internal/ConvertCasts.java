package dev.sqlguard.mysql.internal;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * MySQL's {@code CONVERT(expr, type)}, which the server reads exactly as {@code CAST(expr AS type)}
 * (both take the grammar's {@code cast_type}). JSqlParser 5.4 reads it as SQL Server's
 * {@code CONVERT(type, value)}: {@code CONVERT(a, CHAR(10))} becomes a type named {@code a} and a value
 * {@code CHAR(10)}, and {@code CONVERT(a + 1, DATE)} does not parse at all, so the tree cannot be read
 * back. Before parsing, each {@code CONVERT(} whose parenthesis holds exactly one top-level comma, no
 * top-level {@code USING}, and after the comma a type that starts with a cast type's keyword is written
 * as {@code CAST(expr AS type)}; the type is then checked like any CAST's. Anything else is left as it
 * is (and {@code CONVERT} with a comma stays refused). Only the parse is affected: what runs is
 * rendered from the tree. Strings, quoted names and comments are skipped; the text has passed the
 * pre-check, so it holds no double quote, executable comment or backslash.
 */
final class ConvertCasts {
    private static final Set<String> TYPE_WORDS = Set.of("signed", "unsigned", "int", "integer", "decimal", "dec", "numeric",
            "char", "nchar", "binary", "date", "datetime", "time", "float", "double", "real");
    private static final Pattern TYPE = Pattern.compile("[A-Za-z]+(?:\\s+[A-Za-z]+)*\\s*(?:\\(\\s*[0-9]+\\s*(?:,\\s*[0-9]+\\s*)?\\))?");

    private ConvertCasts() {
    }

    static String rewrite(String sql) {
        return rewrite(sql, 0, sql.length());
    }

    private static String rewrite(String sql, int from, int to) {
        StringBuilder out = new StringBuilder(to - from + 16);
        int i = from;
        int copied = from;
        char previous = ' ';
        while (i < to) {
            char c = sql.charAt(i);
            int skipped = skip(sql, i, to);
            if (skipped > i) {
                i = skipped;
                previous = ' ';
                continue;
            }
            if (Character.isLetter(c) || c == '_') {
                int end = wordEnd(sql, i, to);
                String word = sql.substring(i, end);
                int open = next(sql, end, to);
                if (word.equalsIgnoreCase("convert") && previous != '.' && open < to && sql.charAt(open) == '(') {
                    Optional<Parenthesis> call = Parenthesis.scan(sql, open, to);
                    if (call.isEmpty()) {
                        return sql.substring(from, to);
                    }
                    out.append(sql, copied, i).append(call(sql, i, open, call.get()));
                    i = call.get().close() + 1;
                    copied = i;
                    previous = ')';
                    continue;
                }
                previous = 'w';
                i = end;
                continue;
            }
            if (!Character.isWhitespace(c)) {
                previous = c;
            }
            i++;
        }
        return out.append(sql, copied, to).toString();
    }

    /** One {@code CONVERT(...)} call from its word to its closing parenthesis, rewritten when it is the cast form. */
    private static String call(String sql, int word, int open, Parenthesis p) {
        int close = p.close();
        String type = p.commas() == 1 ? sql.substring(p.lastComma() + 1, close).strip() : "";
        if (p.commas() != 1 || p.using() || !TYPE.matcher(type).matches() || !TYPE_WORDS.contains(firstWord(type))) {
            return sql.substring(word, open + 1) + rewrite(sql, open + 1, close) + ")";
        }
        return "CAST(" + rewrite(sql, open + 1, p.lastComma()) + " AS " + type.replaceAll("\\s+", " ") + ")";
    }

    /**
     * What one parenthesis holds, read in a single pass: where it closes, how many commas stand at its
     * top level (and where the last one is), and whether the word {@code USING} stands at its top level.
     */
    private record Parenthesis(int close, int commas, int lastComma, boolean using) {
        /**
         * Scans the parenthesis opened at {@code open}, skipping strings, quoted names and comments;
         * empty when it does not close before {@code to}.
         */
        static Optional<Parenthesis> scan(String sql, int open, int to) {
            int depth = 0;
            int commas = 0;
            int comma = -1;
            boolean using = false;
            int i = open + 1;
            while (i < to) {
                int skipped = skip(sql, i, to);
                if (skipped > i) {
                    i = skipped;
                    continue;
                }
                char c = sql.charAt(i);
                if (c == '(') {
                    depth++;
                } else if (c == ')') {
                    if (depth == 0) {
                        return Optional.of(new Parenthesis(i, commas, comma, using));
                    }
                    depth--;
                } else if (c == ',' && depth == 0) {
                    commas++;
                    comma = i;
                } else if (Character.isLetter(c) || c == '_') {
                    int end = wordEnd(sql, i, to);
                    using |= depth == 0 && sql.substring(i, end).equalsIgnoreCase("using");
                    i = end;
                    continue;
                }
                i++;
            }
            return Optional.empty();
        }
    }

    private static String firstWord(String type) {
        int end = 0;
        while (end < type.length() && Character.isLetter(type.charAt(end))) {
            end++;
        }
        return type.substring(0, end).toLowerCase(Locale.ROOT);
    }

    /** The end of a string, quoted name or comment starting at {@code i}, or {@code i} itself. */
    private static int skip(String sql, int i, int to) {
        char c = sql.charAt(i);
        if (c == '\'' || c == '`' || c == '"') {
            int end = dev.sqlguard.domain.QuotedRuns.end(sql, i, c);
            return end < 0 || end > to ? to : end;
        }
        if (c == '-' && i + 1 < to && sql.charAt(i + 1) == '-') {
            int end = sql.indexOf('\n', i);
            return end < 0 || end >= to ? to : end + 1;
        }
        if (c == '/' && i + 1 < to && sql.charAt(i + 1) == '*') {
            int end = sql.indexOf("*/", i + 2);
            return end < 0 || end + 2 > to ? to : end + 2;
        }
        return i;
    }

    private static int wordEnd(String sql, int i, int to) {
        int end = i;
        while (end < to && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_' || sql.charAt(end) == '$')) {
            end++;
        }
        return end;
    }

    /** The first position at or after {@code i} that is not white space or a comment. */
    private static int next(String sql, int i, int to) {
        int at = i;
        while (at < to) {
            if (Character.isWhitespace(sql.charAt(at))) {
                at++;
                continue;
            }
            int skipped = sql.charAt(at) == '-' || sql.charAt(at) == '/' ? skip(sql, at, to) : at;
            if (skipped == at) {
                return at;
            }
            at = skipped;
        }
        return to;
    }
}
