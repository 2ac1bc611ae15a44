package dev.sqlguard.h2.internal;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import net.sf.jsqlparser.expression.DateTimeLiteralExpression.DateTime;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.IntervalExpression;
import net.sf.jsqlparser.schema.Column;

import dev.sqlguard.domain.CostClass;
import dev.sqlguard.jdbc.ansi.AnsiDialect;
import dev.sqlguard.jdbc.ansi.AnsiErrors;
import dev.sqlguard.jdbc.ansi.AnsiNames;
import dev.sqlguard.jdbc.ansi.CastTypes;
import dev.sqlguard.jdbc.ansi.FunctionRules;

/**
 * What H2 reads differently from the kit's ANSI renderer: names folded to upper case, its functions,
 * its reserved words, {@code OFFSET m ROWS FETCH FIRST n ROWS ONLY}, and its own labels for
 * unaliased outputs. Every optional construct keeps the interface's default (off).
 */
public final class H2Dialect implements AnsiDialect {
    public static final H2Dialect INSTANCE = new H2Dialect();

    /** H2 folds an unquoted name to upper case and keeps a quoted one; names up to 256 characters. */
    public static final AnsiNames NAMES = new AnsiNames(256, AnsiNames.Folding.UPPER);

    /** Every callable function with its cost class: total (never fails, never branches on a value), partial, amplifying. */
    private static final Map<String, CostClass> CLASSES = FunctionRules.classes(
            Set.of("count", "min", "max", "upper", "lower", "length", "concat", "coalesce"),
            Set.of("sum", "avg", "round", "abs", "power", "ascii", "substring"),
            Set.of());

    static final FunctionRules RULES = new FunctionRules("H2", CLASSES,
            Set.of("sleep", "random", "rand", "disk_space_used", "session_id", "database_path", "cancel_session"), // never
            Set.of(),                                                        // never, by prefix
            Set.of("file_read", "file_write", "csvread", "csvwrite", "link_schema"), // external: files, other databases
            Set.of("file_"),                                                 // external, by prefix
            Set.of("coalesce"),                                              // written as keywords
            Set.of("count", "sum", "avg", "min", "max"),                     // aggregates
            Set.of(),                                                        // window-only functions
            Map.of(),                                                        // parameter arguments
            Map.of("pow", "power"));                                         // absent here, with the nearest

    /** Words H2 reserves: none may stand as an unquoted alias. */
    private static final Set<String> RESERVED = Set.of("all", "and", "any", "array", "as", "asymmetric", "authorization",
            "between", "both", "case", "cast", "check", "constraint", "cross", "current_catalog", "current_date",
            "current_path", "current_role", "current_schema", "current_time", "current_timestamp", "current_user", "day",
            "default", "distinct", "else", "end", "except", "exists", "false", "fetch", "for", "foreign", "from", "full",
            "group", "groups", "having", "hour", "if", "ilike", "in", "inner", "intersect", "interval", "is", "join", "key",
            "leading", "left", "like", "limit", "localtime", "localtimestamp", "minus", "minute", "month", "natural", "not",
            "null", "offset", "on", "or", "order", "over", "partition", "primary", "qualify", "range", "regexp", "right",
            "row", "rownum", "rows", "second", "select", "session_user", "set", "some", "symmetric", "system_user", "table",
            "to", "top", "trailing", "true", "uescape", "union", "unique", "unknown", "user", "using", "value", "values",
            "when", "where", "window", "with", "year", "_rowid_");

    private static final Lexicon LEXICON = new Lexicon("H2", NAMES, RULES, Optional.empty(),
            Set.of("information_schema"),
            Set.of("current_date", "current_time", "current_timestamp", "localtime", "localtimestamp", "current_user",
                    "session_user", "system_user", "user", "current_schema", "current_catalog", "current_role", "current_path"),
            Set.of(),
            RESERVED,
            Set.of("year", "month", "day", "hour", "minute", "second"),
            "EXTRACT supports YEAR, MONTH, DAY, HOUR, MINUTE and SECOND.",
            Map.of(DateTime.DATE, Pattern.compile("'[0-9]{4}-[0-9]{2}-[0-9]{2}'")),
            new CastTypes("int|integer|bigint|smallint|double precision|double|real|date|boolean", Map.of("int", "integer"),
                    "numeric", "CAST supports integer, bigint, smallint, numeric(p,s), double, real, varchar(n), char(n), date and boolean."));

    private H2Dialect() {
    }

    @Override
    public Lexicon lexicon() {
        return LEXICON;
    }

    @Override
    public String interval(IntervalExpression e) {
        throw AnsiErrors.construct("Intervals are not supported on this source.");
    }

    /**
     * H2's own name for an unaliased output: a column's name as H2 folds it; for an expression, its
     * text as H2 prints it, which for a call on columns and literals is the text with every unquoted
     * word in upper case ({@code count(*)} is {@code COUNT(*)}, {@code upper(name)} is {@code UPPER(NAME)}).
     */
    @Override
    public String label(Expression e, int position) {
        if (e instanceof Column c) {
            return NAMES.name(c.getColumnName());
        }
        String text = e.toString();
        StringBuilder out = new StringBuilder(text.length());
        boolean quoted = false;
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (ch == '\'' || ch == '"') {
                quoted = !quoted;
            }
            out.append(!quoted && ch >= 'a' && ch <= 'z' ? (char) (ch - 32) : ch);
        }
        return out.toString();
    }

    @Override
    public String limitClause(Long rows, long offset) {
        return (offset > 0 ? " OFFSET " + offset + " ROWS" : "") + (rows == null ? "" : " FETCH FIRST " + rows + " ROWS ONLY");
    }
}
