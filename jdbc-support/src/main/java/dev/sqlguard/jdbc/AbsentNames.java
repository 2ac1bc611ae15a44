package dev.sqlguard.jdbc;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import dev.sqlguard.domain.QuotedRuns;

/**
 * Makes the names that only hidden columns have absent from a text as written, so that an engine's
 * own reading of that text ({@code EXPLAIN}) is the reading of a schema without them, as the check's
 * is. A validator that compares the engine's reading of the text as written with the checked tree must
 * decide the same for a hidden column's name as for a name that exists nowhere: it asks the engine
 * about the renamed text, never about the text that names the hidden column.
 *
 * <p>Each identifier in the hidden set, bare or double-quoted, outside string literals, gets
 * {@link #SUFFIX} appended, except where it is a word of the grammar and no column can stand there: renaming
 * such a word would make the text unplannable where a text without that hidden column runs (an existence
 * oracle). Left as written (PostgreSQL 15's and Trino 483's grammars, measured on PostgreSQL 15):
 * <ul>
 * <li>a bare word followed by {@code (} (a function's name, or a type's arguments) and the engine's reserved words;
 * <li>inside {@code CAST(} / {@code TRY_CAST(}, everything from the cast's own {@code AS} to its closing parenthesis
 *     (the type: {@code double precision}, {@code timestamp with time zone}, {@code character varying(10)}, ...);
 * <li>the type after {@code ::}: its (qualified) name and the words that continue it in the grammar's fixed
 *     spellings ({@code double precision}; {@code character}, {@code char}, {@code nchar}, {@code national character},
 *     {@code bit} {@code varying}; {@code timestamp}/{@code time} [{@code (p)}] {@code with}/{@code without time zone};
 *     {@code interval} and its fields); the next word after the type is an alias ({@code x::int zone});
 * <li>a word (or quoted name) just before a string literal (a typed literal's type or a keyword:
 *     {@code date '2024-01-01'}, {@code interval '1 day'}, {@code double precision '1.5'}, {@code timestamp with time
 *     zone '...'}), and {@code AT TIME ZONE};
 * <li>an interval literal's fields: {@code INTERVAL [+|-] 'n' unit [(p)] [TO unit [(p)]]} with the units year,
 *     month, day, hour, minute and second (also after PostgreSQL's {@code interval(p) 'n'}); another word after
 *     them is an alias (PostgreSQL reads {@code INTERVAL '1' week} as the alias {@code week});
 * <li>EXTRACT's unit.
 * </ul>
 * The text has passed the strict lexical check ({@link StrictQuotingDialect}): single-quoted literals and
 * double-quoted names are its only quoting forms, and it holds no comment.
 */
public final class AbsentNames {
    /** Appended to a hidden name to make a name that exists nowhere. */
    public static final String SUFFIX = "__sqlguard_absent";

    /** The interval fields of both grammars (Trino 483 has no WEEK there; PostgreSQL reads a word after them as an alias). */
    private static final Set<String> UNITS = Set.of("year", "month", "day", "hour", "minute", "second");

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
        List<Token> tokens = tokens(sql);
        boolean[] grammar = grammar(tokens, reserved);
        StringBuilder out = new StringBuilder(sql.length() + 32);
        int copied = 0;
        for (int t = 0; t < tokens.size(); t++) {
            Token k = tokens.get(t);
            if (grammar[t]) {
                continue;
            }
            if (k.kind() == Kind.WORD && hidden.contains(k.text())) {
                out.append(sql, copied, k.end()).append(SUFFIX);
                copied = k.end();
            } else if (k.kind() == Kind.NAME && k.closed() && k.end() - k.start() > 2
                    && hidden.contains(sql.substring(k.start() + 1, k.end() - 1).toLowerCase(Locale.ROOT))) {
                out.append(sql, copied, k.end() - 1).append(SUFFIX).append('"');
                copied = k.end();
            }
        }
        out.append(sql, copied, sql.length());
        return out.toString();
    }

    private enum Kind { WORD, NAME, STRING, NUMBER, SYMBOL }

    /** One token: a word (its text in lower case), a double-quoted name, a string literal, a number or a symbol ({@code ::} or one character). */
    private record Token(Kind kind, int start, int end, String text, boolean closed) {
        boolean is(Kind k, String t) {
            return kind == k && text.equals(t);
        }

        boolean isWord(Set<String> words) {
            return kind == Kind.WORD && words.contains(text);
        }

        boolean isSymbol(String s) {
            return kind == Kind.SYMBOL && text.equals(s);
        }
    }

    private static List<Token> tokens(String sql) {
        List<Token> out = new ArrayList<>();
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '\'' || c == '"') {
                int end = QuotedRuns.end(sql, i, c);
                out.add(new Token(c == '\'' ? Kind.STRING : Kind.NAME, i, end < 0 ? n : end, "", end >= 0));
                i = end < 0 ? n : end;
            } else if (Character.isLetter(c) || c == '_') {
                int end = i + 1;
                while (end < n && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_' || sql.charAt(end) == '$')) {
                    end++;
                }
                out.add(new Token(Kind.WORD, i, end, sql.substring(i, end).toLowerCase(Locale.ROOT), true));
                i = end;
            } else if (Character.isDigit(c)) {
                int end = i + 1;
                while (end < n && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_' || sql.charAt(end) == '.')) {
                    end++;
                }
                out.add(new Token(Kind.NUMBER, i, end, "", true));
                i = end;
            } else if (c == ':' && i + 1 < n && sql.charAt(i + 1) == ':') {
                out.add(new Token(Kind.SYMBOL, i, i + 2, "::", true));
                i += 2;
            } else {
                out.add(new Token(Kind.SYMBOL, i, i + 1, String.valueOf(c), true));
                i++;
            }
        }
        return out;
    }

    /** Which tokens are words of the grammar (never renamed). */
    private static boolean[] grammar(List<Token> tokens, Set<String> reserved) {
        Marks marks = new Marks(tokens);
        for (int i = 0; i < tokens.size(); i++) {
            Token k = tokens.get(i);
            if (k.kind() == Kind.WORD && (reserved.contains(k.text()) || marks.symbol(i + 1, "("))) {
                marks.mark(i);
            }
            if ((k.is(Kind.WORD, "cast") || k.is(Kind.WORD, "try_cast")) && marks.symbol(i + 1, "(")) {
                marks.castType(i + 1);
            }
            if (k.is(Kind.WORD, "extract") && marks.symbol(i + 1, "(") && marks.word(i + 2)) {
                marks.mark(i + 2);
            }
            if (k.isSymbol("::")) {
                marks.type(i + 1);
            }
            if (k.kind() == Kind.STRING) {
                marks.beforeString(i);
            }
            if (k.is(Kind.WORD, "at") && marks.word(i + 1, "time") && marks.word(i + 2, "zone")) {
                marks.mark(i);
                marks.mark(i + 1);
                marks.mark(i + 2);
            }
        }
        return marks.grammar;
    }

    /** The tokens and the marks of those that are grammar. */
    private static final class Marks {
        private final List<Token> tokens;
        private final boolean[] grammar;

        /** For each parenthesis, the index of its partner: the token count for an unclosed one, -1 for an unopened one. */
        private final int[] partner;

        Marks(List<Token> tokens) {
            this.tokens = tokens;
            this.grammar = new boolean[tokens.size()];
            this.partner = new int[tokens.size()];
            java.util.ArrayDeque<Integer> open = new java.util.ArrayDeque<>();
            for (int j = 0; j < tokens.size(); j++) {
                if (tokens.get(j).isSymbol("(")) {
                    open.push(j);
                    partner[j] = tokens.size();
                } else if (tokens.get(j).isSymbol(")")) {
                    partner[j] = open.isEmpty() ? -1 : open.peek();
                    if (!open.isEmpty()) {
                        partner[open.pop()] = j;
                    }
                }
            }
        }

        void mark(int i) {
            if (i >= 0 && i < tokens.size()) {
                grammar[i] = true;
            }
        }

        boolean symbol(int i, String s) {
            return i >= 0 && i < tokens.size() && tokens.get(i).isSymbol(s);
        }

        boolean word(int i) {
            return i >= 0 && i < tokens.size() && tokens.get(i).kind() == Kind.WORD;
        }

        boolean word(int i, String w) {
            return i >= 0 && i < tokens.size() && tokens.get(i).is(Kind.WORD, w);
        }

        boolean word(int i, Set<String> words) {
            return i >= 0 && i < tokens.size() && tokens.get(i).isWord(words);
        }

        boolean name(int i) {
            return i >= 0 && i < tokens.size() && (tokens.get(i).kind() == Kind.WORD || tokens.get(i).kind() == Kind.NAME);
        }

        /** The index of the parenthesis closing the one at {@code open}, or the token count when none does. */
        int closing(int open) {
            return partner[open];
        }

        /** The index of the parenthesis opening the one closed at {@code close}, or -1. */
        int opening(int close) {
            return partner[close];
        }

        /** {@code i}, or the closing parenthesis of a {@code (...)} right after it. */
        int past(int i) {
            return symbol(i + 1, "(") ? closing(i + 1) : i;
        }

        /** CAST( at {@code open}: everything from its own AS to its closing parenthesis is the type. */
        void castType(int open) {
            int close = closing(open);
            for (int j = open + 1; j < close; j++) {
                Token t = tokens.get(j);
                if (t.isSymbol("(")) {
                    j = closing(j); // a nested parenthesis (a subquery's AS is not the cast's)
                } else if (t.is(Kind.WORD, "as")) {
                    for (int k = j + 1; k < close; k++) {
                        if (name(k)) {
                            mark(k);
                        }
                    }
                    return;
                }
            }
        }

        /** The type that starts at {@code i} (after {@code ::}): its name parts and the words continuing its spelling. */
        void type(int i) {
            if (!name(i)) {
                return;
            }
            mark(i);
            int k = i;
            while (symbol(k + 1, ".") && name(k + 2)) {
                k += 2;
                mark(k);
            }
            String last = tokens.get(k).kind() == Kind.WORD ? tokens.get(k).text() : "";
            if (last.equals("national") && word(k + 1, Set.of("character", "char"))) {
                mark(++k);
                last = tokens.get(k).text();
            }
            switch (last) {
                case "double" -> {
                    if (word(k + 1, "precision")) {
                        mark(k + 1);
                    }
                }
                case "character", "char", "nchar", "bit" -> {
                    if (word(k + 1, "varying")) {
                        mark(k + 1);
                    }
                }
                case "timestamp", "time" -> timeZone(past(k) + 1);
                case "interval" -> units(past(k) + 1);
                default -> {
                }
            }
        }

        /** {@code WITH|WITHOUT TIME ZONE} at {@code i}, when it is there. */
        void timeZone(int i) {
            if (word(i, Set.of("with", "without")) && word(i + 1, "time") && word(i + 2, "zone")) {
                mark(i);
                mark(i + 1);
                mark(i + 2);
            }
        }

        /** Interval fields at {@code i}: {@code unit [(p)] [TO unit [(p)]]}, when they are there. */
        void units(int i) {
            if (!word(i, UNITS)) {
                return;
            }
            mark(i);
            int next = past(i) + 1;
            if (word(next, "to") && word(next + 1, UNITS)) {
                mark(next);
                mark(next + 1);
            }
        }

        /**
         * The string literal at {@code s}: the word or quoted name just before it is a typed literal's type or a keyword
         * (with the fixed multi-word spellings before it), and an interval literal's fields follow it.
         */
        void beforeString(int s) {
            int p = s - 1;
            boolean interval = false;
            if (name(p)) {
                mark(p);
                typeBefore(p);
                interval = word(p, "interval");
            } else if ((symbol(p, "+") || symbol(p, "-")) && word(p - 1, "interval") && word(s + 1, UNITS)) {
                // Trino's signed interval literal; PostgreSQL reads interval - 'n' as a column minus a string
                mark(p - 1);
                interval = true;
            } else if (symbol(p, ")")) {
                // a type with arguments (character varying(3) 'x', interval(2) '1 second'); its own word is a call
                int w = opening(p) - 1;
                typeBefore(w);
                interval = word(w, "interval");
            }
            if (interval) {
                units(s + 1);
            }
        }

        /** The words before {@code p} that, with it, spell one multi-word type. */
        void typeBefore(int p) {
            if (word(p, "precision") && word(p - 1, "double")) {
                mark(p - 1);
            } else if (word(p, "varying") && word(p - 1, Set.of("character", "char", "nchar", "bit"))) {
                mark(p - 1);
                if (word(p - 2, "national")) {
                    mark(p - 2);
                }
            } else if (word(p, "zone") && word(p - 1, "time") && word(p - 2, Set.of("with", "without", "at"))) {
                mark(p - 1);
                mark(p - 2);
                int base = symbol(p - 3, ")") ? opening(p - 3) - 1 : p - 3;
                if (!word(p - 2, "at") && word(base, Set.of("timestamp", "time"))) {
                    mark(base);
                }
            }
        }
    }
}
