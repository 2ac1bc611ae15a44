package dev.sqlguard.jdbc.ansi;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.QuotedRuns;
import dev.sqlguard.jdbc.CommentRuns;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SelectItem;

/**
 * Names that the engine reads as bare column names but JSqlParser does not: {@code year} (a date unit
 * to the parser), {@code uuid}, {@code position} and the like. Before parsing, each bare word that
 * names a column of the schema or an output alias of the text, that the engine does not reserve, and
 * that JSqlParser cannot read as a column where a column stands (asked of the parser itself, once per
 * word), is double-quoted in the engine's folded spelling, which the engine reads as the same name. A
 * word followed by {@code (} (a call) or used in a keyword's place ({@code EXTRACT(YEAR FROM ...)},
 * {@code INTERVAL '1' YEAR}, {@code DATE '...'}, {@code CAST(x AS date)}, {@code NULLS FIRST},
 * {@code CURRENT ROW}, {@code AT TIME ZONE}) is left as it is; a wrong guess only makes the parser or
 * the engine refuse the query, and the executed text is rendered from the tree, never this text.
 * Strings, quoted names and comments are skipped; the engine's pre-check has already refused dollar
 * quotes, escape strings and other lexical forms the parser might read differently.
 */
public final class KeywordNames {
    /** JSqlParser's reading of a word as a column name, per lower-case word; bounded. */
    private static final Map<String, Boolean> PARSER_READS_AS_NAME = new ConcurrentHashMap<>();
    private static final int MAX_CACHED = 20_000;
    /** Words after which a keyword-like word is part of the syntax, not a name. */
    private static final Set<String> SYNTAX_BEFORE = Set.of("nulls", "at", "to", "current", "unbounded", "fetch", "next", "first",
            "row", "rows", "with", "without", "time", "group", "order", "partition", "double", "interval", "::");
    /** Words before which a keyword-like word is part of the syntax ({@code CURRENT ROW}, {@code YEAR TO MONTH}). */
    private static final Set<String> SYNTAX_AFTER = Set.of("row", "rows", "to", "zone", "preceding", "following", "only", "by");

    private KeywordNames() {
    }

    /**
     * What {@link #quote} reads for a source: the lower-case names of the columns its policy shows (a hidden column's
     * name is quoted exactly when a name that exists nowhere would be: quoting it only where a hidden column has it
     * turned a refusal into an unknown column, or into rows, on PostgreSQL), and the words the engine never reads as a
     * bare column name (its reserved words and its SQL value keywords). Computed once per source.
     */
    record Words(Set<String> columns, Set<String> keywords) {
        static Words of(AnsiDialect dialect, SchemaSnapshot schema, GuardrailPolicy policy) {
            Set<String> columns = new HashSet<>();
            schema.tables().forEach((ref, t) -> {
                for (SchemaSnapshot.ColumnInfo c : t.columns()) {
                    if (policy.tables().allowsColumn(ref, c.name())) {
                        columns.add(c.name().toLowerCase(Locale.ROOT));
                    }
                }
            });
            Set<String> keywords = new HashSet<>(dialect.lexicon().reservedWords());
            keywords.addAll(dialect.lexicon().sqlValueKeywords());
            return new Words(Set.copyOf(columns), Set.copyOf(keywords));
        }

        /** {@code sql} as the kit parses it ({@link #quote}). */
        String quote(String sql) {
            return KeywordNames.quote(sql, columns, keywords);
        }
    }

    /**
     * {@code sql} with every bare keyword-named column the parser cannot read quoted.
     *
     * @param columns the lower-case names of the schema's columns
     * @param reserved the engine's reserved words (never names when bare) and its SQL value keywords
     */
    public static String quote(String sql, Set<String> columns, Set<String> reserved) {
        List<Token> tokens = lex(sql);
        Set<String> names = new HashSet<>();
        for (int i = 0; i + 1 < tokens.size(); i++) {
            if (tokens.get(i).word().equals("as") && tokens.get(i + 1).isWord()) {
                names.add(tokens.get(i + 1).word());
            }
        }
        StringBuilder out = null;
        int copied = 0;
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (!t.isWord()) {
                continue;
            }
            String w = t.word();
            if (!(columns.contains(w) || names.contains(w)) || reserved.contains(w) || !w.matches("[a-z_][a-z0-9_]*")) {
                continue;
            }
            Token prev = i > 0 ? tokens.get(i - 1) : Token.NONE;
            Token next = i + 1 < tokens.size() ? tokens.get(i + 1) : Token.NONE;
            Token prev2 = i > 1 ? tokens.get(i - 2) : Token.NONE;
            if (next.word().equals("(") || next.word().equals("'") || prev.word().equals("'") || SYNTAX_BEFORE.contains(prev.word())
                    || SYNTAX_AFTER.contains(next.word()) || (prev.word().equals("(") && prev2.word().equals("extract"))
                    || (prev.word().equals("as") && (next.word().equals(")") || next.word().equals("(")))) {
                continue;
            }
            if (readsAsName(w)) {
                continue;
            }
            if (out == null) {
                out = new StringBuilder(sql.length() + 16);
            }
            out.append(sql, copied, t.start()).append('"').append(w).append('"');
            copied = t.end();
        }
        return out == null ? sql : out.append(sql, copied, sql.length()).toString();
    }

    /** Whether JSqlParser reads {@code word} as a plain column in a select list, a filter, a grouping, an ordering and a call. */
    static boolean readsAsName(String word) {
        Boolean known = PARSER_READS_AS_NAME.get(word);
        if (known != null) {
            return known;
        }
        boolean reads = probe(word);
        if (PARSER_READS_AS_NAME.size() < MAX_CACHED) {
            PARSER_READS_AS_NAME.put(word, reads);
        }
        return reads;
    }

    private static boolean probe(String w) {
        try {
            Statement s = OneStatement.parse("SELECT " + w + ", count(" + w + ") FROM t WHERE " + w + " = 1 GROUP BY " + w
                    + " ORDER BY " + w, "");
            if (!(s instanceof PlainSelect p) || p.getSelectItems().size() != 2 || p.getGroupBy() == null
                    || p.getOrderByElements() == null || p.getOrderByElements().size() != 1) {
                return false;
            }
            SelectItem<?> first = p.getSelectItems().get(0);
            Expression call = p.getSelectItems().get(1).getExpression();
            return column(first.getExpression(), w) && first.getAlias() == null
                    && call instanceof Function f && f.getParameters() != null && f.getParameters().size() == 1
                    && column(f.getParameters().get(0), w)
                    && p.getWhere() instanceof EqualsTo eq && column(eq.getLeftExpression(), w)
                    && p.getGroupBy().getGroupByExpressionList().size() == 1
                    && column(p.getGroupBy().getGroupByExpressionList().get(0), w)
                    && column(p.getOrderByElements().get(0).getExpression(), w);
        } catch (RuntimeException | StackOverflowError e) {
            return false;
        }
    }

    private static boolean column(Expression e, String w) {
        return e != null && e.getClass() == Column.class && ((Column) e).getTable() == null
                && ((Column) e).getColumnName().toLowerCase(Locale.ROOT).equals(w);
    }

    /** A word (lower case, with its place in the text) or one punctuation character ({@code '} for a whole string). */
    private record Token(String word, int start, int end, boolean isWord) {
        static final Token NONE = new Token("", -1, -1, false);
    }

    private static List<Token> lex(String sql) {
        List<Token> out = new java.util.ArrayList<>();
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                int end = QuotedRuns.end(sql, i, c);
                end = end < 0 ? n : end;
                out.add(new Token(c == '\'' ? "'" : "\"", i, end, false));
                i = end;
                continue;
            }
            int comment = CommentRuns.end(sql, i);
            if (comment > i) {
                i = comment;
                continue;
            }
            if (c == ':' && i + 1 < n && sql.charAt(i + 1) == ':') {
                out.add(new Token("::", i, i + 2, false));
                i += 2;
                continue;
            }
            if (Character.isLetter(c) || c == '_') {
                int end = i;
                while (end < n && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_' || sql.charAt(end) == '$')) {
                    end++;
                }
                boolean afterDigit = i > 0 && Character.isDigit(sql.charAt(i - 1));
                out.add(new Token(sql.substring(i, end).toLowerCase(Locale.ROOT), i, end, !afterDigit));
                i = end;
                continue;
            }
            if (Character.isDigit(c)) {
                int end = i;
                while (end < n && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '.' || sql.charAt(end) == '_')) {
                    end++;
                }
                out.add(new Token("0", i, end, false));
                i = end;
                continue;
            }
            if (!Character.isWhitespace(c)) {
                out.add(new Token(String.valueOf(c), i, i + 1, false));
            }
            i++;
        }
        return out;
    }
}
