package dev.sqlguard.jdbc.ansi;

import java.util.List;
import java.util.Locale;
import java.util.Map;

import net.sf.jsqlparser.expression.Function;

/**
 * The standard's calls with keywords between their arguments, which PostgreSQL, Trino and MySQL all
 * read: {@code position(a IN b)}, {@code substring(x FROM a)} and {@code substring(x FROM a FOR b)}.
 * JSqlParser holds their arguments as named parameters, the first one unnamed. A renderer writes the
 * same keywords with each argument in parentheses, so that no operator inside an argument can reach
 * a keyword, and lets the arguments flow as those of the plain call, in the order written.
 */
public final class KeywordForms {
    private static final Map<String, List<List<String>>> FORMS = Map.of(
            "position", List.of(List.of("", "IN")),
            "substring", List.of(List.of("", "FROM"), List.of("", "FROM", "FOR")));

    private KeywordForms() {
    }

    /** Whether {@code f}, whose name folded to lower case is {@code name}, is one of the forms and has no other clause. */
    public static boolean matches(Function f, String name) {
        if (f.getNamedParameters() == null || f.getNamedParameters().getNames() == null) {
            return false;
        }
        List<String> written = f.getNamedParameters().getNames().stream().map(n -> n == null ? "" : n.strip().toUpperCase(Locale.ROOT)).toList();
        return FORMS.getOrDefault(name, List.of()).contains(written) && f.getParameters() == null && !f.isDistinct() && !f.isAllColumns()
                && !hasClausesBesideArguments(f);
    }

    /**
     * Whether a call holds a clause besides its arguments, however they are written: an ORDER BY, KEEP, HAVING, LIMIT,
     * null handling, chained parameters, an attribute, an extra keyword, keyword arguments, ON OVERFLOW or UNIQUE.
     */
    public static boolean hasClausesBesideArguments(Function f) {
        return (f.getOrderByElements() != null && !f.getOrderByElements().isEmpty()) || f.getKeep() != null || f.getHavingClause() != null
                || f.getLimit() != null || f.getNullHandling() != null || f.isIgnoreNulls() || f.isIgnoreNullsOutside()
                || f.getChainedParameters() != null || f.getAttribute() != null || f.getAttributeColumn() != null || f.getExtraKeyword() != null
                || (f.getKeywordArguments() != null && !f.getKeywordArguments().isEmpty()) || f.getOnOverflowTruncate() != null || f.isUnique();
    }

    /**
     * The call's text: the name in upper case (the grammar's own keyword form, which a schema before it would make a
     * syntax error) and each rendered argument in parentheses after its keyword.
     */
    public static String render(Function f, String name, List<String> args) {
        List<String> names = f.getNamedParameters().getNames();
        StringBuilder sql = new StringBuilder(name.toUpperCase(Locale.ROOT)).append('(');
        for (int i = 0; i < args.size(); i++) {
            if (i > 0) {
                sql.append(' ').append(names.get(i).strip().toUpperCase(Locale.ROOT)).append(' ');
            }
            sql.append('(').append(args.get(i)).append(')');
        }
        return sql.append(')').toString();
    }
}
