package dev.sqlguard.postgresql.internal;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import dev.sqlguard.jdbc.ansi.AnsiDialect;
import dev.sqlguard.jdbc.ansi.AnsiErrors;
import dev.sqlguard.jdbc.ansi.AnsiNames;
import dev.sqlguard.jdbc.ansi.CastTypes;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.CaseExpression;
import net.sf.jsqlparser.expression.CastExpression;
import net.sf.jsqlparser.expression.CollateExpression;
import net.sf.jsqlparser.expression.DateTimeLiteralExpression;
import net.sf.jsqlparser.expression.DateTimeLiteralExpression.DateTime;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExtractExpression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.IntervalExpression;
import net.sf.jsqlparser.expression.TimeKeyExpression;
import net.sf.jsqlparser.expression.operators.relational.ExistsExpression;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.SetOperationList;

/**
 * What PostgreSQL renders differently from the shared ANSI renderer: every call
 * {@code pg_catalog.}-qualified, its literal and cast forms, {@code LIMIT n OFFSET m}, its output
 * column names, and the constructs it has that other engines lack (DISTINCT ON, grouping sets,
 * FETCH FIRST, column lists and WITH RECURSIVE, USING and NATURAL joins, LATERAL, ILIKE, COLLATE,
 * named windows, generate_series in FROM).
 */
@SuppressWarnings("deprecation")
final class PostgresDialect implements AnsiDialect {
    static final PostgresDialect INSTANCE = new PostgresDialect();

    /**
     * PostgreSQL's names in the text sqlguard renders: double-quoted identifiers of at most
     * NAMEDATALEN - 1 (63) bytes, since longer names are truncated by the server, and the name the
     * server reads for a name as written (a quoted name exactly, an unquoted one with its ASCII
     * letters folded). Nothing else builds executable text.
     */
    static final AnsiNames NAMES = new AnsiNames(63, AnsiNames.Folding.UNQUOTED);

    private static final String UNITS = "(years?|mons?|months?|weeks?|days?|hours?|mins?|minutes?|secs?|seconds?)";
    private static final Pattern INTERVAL = Pattern.compile(
            "'\\s*-?[0-9]{1,9}(\\.[0-9]{1,6})?\\s*" + UNITS + "(\\s+-?[0-9]{1,9}(\\.[0-9]{1,6})?\\s*" + UNITS + ")*\\s*'",
            Pattern.CASE_INSENSITIVE);
    /** The date and time literals PostgreSQL takes, each with the form of its text. */
    private static final Map<DateTime, Pattern> DATE_TIMES = Map.of(
            DateTime.DATE, Pattern.compile("'[0-9]{4}-[0-9]{2}-[0-9]{2}'"),
            DateTime.TIME, Pattern.compile("'[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,6})?)?'"),
            DateTime.TIMESTAMP, Pattern.compile("'[0-9]{4}-[0-9]{2}-[0-9]{2}([ T][0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,6})?)?)?'"),
            DateTime.TIMESTAMPTZ, Pattern.compile(
                    "'[0-9]{4}-[0-9]{2}-[0-9]{2}([ T][0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,6})?)?)?([+-][0-9]{2}(:?[0-9]{2})?|Z| UTC)?'"));
    private static final CastTypes CAST_TYPES = new CastTypes(
            "int|integer|int4|bigint|int8|smallint|int2|real|float4|float8|double precision|float|text|date|boolean|bool|interval"
            + "|timestamp|timestamptz|timestamp with time zone|timestamp without time zone|time|time without time zone",
            Map.of("timestamp with time zone", "timestamptz", "timestamp without time zone", "timestamp",
                    "time without time zone", "time", "float", "double precision"),
            "numeric",
            "CAST supports integer, bigint, smallint, numeric(p,s), real, double precision, text, varchar(n), char(n), "
            + "boolean, date, time, timestamp, timestamptz and interval.");
    private static final Set<String> EXTRACT_FIELDS = Set.of("year", "month", "day", "hour", "minute", "second", "dow",
            "isodow", "doy", "week", "quarter", "epoch", "isoyear", "decade", "century", "millennium", "milliseconds",
            "microseconds");
    /** Words PostgreSQL reads as SQL value functions when unquoted, whatever columns exist. */
    private static final Set<String> SQL_VALUE_KEYWORDS = Set.of("current_date", "current_time", "current_timestamp", "localtime",
            "localtimestamp", "current_user", "session_user", "user", "current_role", "current_catalog", "current_schema",
            "system_user");
    private static final Set<String> ZERO_ARGUMENTS = Set.of("now", "pi", "mode", "row_number", "rank", "dense_rank", "percent_rank",
            "cume_dist");
    /**
     * PostgreSQL's reserved keywords and its keywords that can only be function or type names: none can
     * be a table alias, with AS or without (measured on PostgreSQL 15.20 with {@code pg_get_keywords()},
     * catcode R and T; {@code system_user} is reserved from 16 on).
     */
    static final Set<String> RESERVED = Set.of("all", "analyse", "analyze", "and", "any", "array", "as", "asc", "asymmetric",
            "both", "case", "cast", "check", "collate", "column", "constraint", "create", "current_catalog", "current_date",
            "current_role", "current_time", "current_timestamp", "current_user", "default", "deferrable", "desc", "distinct",
            "do", "else", "end", "except", "false", "fetch", "for", "foreign", "from", "grant", "group", "having", "in",
            "initially", "intersect", "into", "lateral", "leading", "limit", "localtime", "localtimestamp", "not", "null",
            "offset", "on", "only", "or", "order", "placing", "primary", "references", "returning", "select", "session_user",
            "some", "symmetric", "system_user", "table", "then", "to", "trailing", "true", "union", "unique", "user", "using",
            "variadic", "when", "where", "window", "with",
            "authorization", "binary", "collation", "concurrently", "cross", "current_schema", "freeze", "full", "ilike",
            "inner", "is", "isnull", "join", "left", "like", "natural", "notnull", "outer", "overlaps", "right", "similar",
            "tablesample", "verbose");

    private static final Lexicon LEXICON = new Lexicon("PostgreSQL", NAMES, FunctionCatalog.RULES,
            Optional.of("pg_catalog"), Set.of("pg_catalog", "information_schema"), SQL_VALUE_KEYWORDS, ZERO_ARGUMENTS, RESERVED,
            EXTRACT_FIELDS,
            "EXTRACT supports year, quarter, month, week, day, dow, isodow, doy, hour, minute, second, epoch and similar fields.",
            DATE_TIMES, CAST_TYPES);

    private PostgresDialect() {
    }

    @Override
    public Lexicon lexicon() {
        return LEXICON;
    }

    @Override
    public String interval(IntervalExpression e) {
        if (!e.isUsingIntervalKeyword() || e.getExpression() != null || e.getIntervalType() != null || e.getIntervalQualifier() != null) {
            throw AnsiErrors.construct("Write intervals as INTERVAL '3 days' (a number and a unit, repeated).");
        }
        return AnsiErrors.checkedLiteral("INTERVAL ", e.getParameter(), INTERVAL);
    }

    @Override
    public String label(Expression e, int position) {
        return figure(e);
    }

    /** A name and its strength, as PostgreSQL's FigureColname weighs them: 0 none, 1 a fallback ("case", a type's), 2 a real name. */
    private record Figure(String name, int strength) {
        private static final Figure NONE = new Figure("?column?", 0);
    }

    /** PostgreSQL's own name for an unaliased output column (FigureColname). */
    private static String figure(Expression e) {
        return figured(e).name();
    }

    /**
     * FigureColnameInternal of PostgreSQL 15 (parser/parse_target.c) over JSqlParser's tree: a column
     * reference, a function call, {@code EXISTS} and a scalar subquery's own output name are real names
     * (strength 2); a {@code CASE} takes its {@code ELSE} value's name when that is a real one, else
     * {@code case}; a cast takes its operand's name when that is a real one, else its type's name
     * (strength 1, so a {@code CASE} around it is still {@code case}).
     */
    private static Figure figured(Expression e) {
        if (e instanceof Column c) {
            String name = c.getColumnName();
            if (c.getTable() == null && (name.equalsIgnoreCase("true") || name.equalsIgnoreCase("false"))) {
                return Figure.NONE; // JSqlParser reads TRUE and FALSE as names; PostgreSQL 15 as constants, unnamed
            }
            return new Figure(NAMES.name(name), 2);
        }
        if (e instanceof Function f && f.getMultipartName() != null && !f.getMultipartName().isEmpty()) {
            return new Figure(NAMES.name(f.getMultipartName().get(f.getMultipartName().size() - 1)), 2);
        }
        if (e instanceof AnalyticExpression a) {
            String[] parts = a.getName().split("\\.", -1);
            return new Figure(NAMES.name(parts[parts.length - 1]), 2);
        }
        if (e instanceof CollateExpression c) {
            return figured(c.getLeftExpression()); // a CollateClause is named by its operand
        }
        if (e instanceof CastExpression c) {
            Figure inner = figured(c.getLeftExpression());
            if (inner.strength() > 1) {
                return inner;
            }
            String type = c.getColDataType().getDataType().toLowerCase(Locale.ROOT).strip();
            return new Figure(typeName(type), 1);
        }
        if (e instanceof DateTimeLiteralExpression d) {
            return new Figure(typeName(d.getType().name().toLowerCase(Locale.ROOT)), 1);
        }
        if (e instanceof CaseExpression c) {
            Figure otherwise = c.getElseExpression() == null ? Figure.NONE : figured(c.getElseExpression());
            return otherwise.strength() > 1 ? otherwise : new Figure("case", 1);
        }
        if (e instanceof ExistsExpression) {
            return new Figure("exists", 2);
        }
        if (e instanceof ExtractExpression) {
            return new Figure("extract", 2);
        }
        if (e instanceof TimeKeyExpression t) {
            return new Figure(t.getStringValue().toLowerCase(Locale.ROOT).replace("()", "").strip(), 2);
        }
        if (e instanceof IntervalExpression) {
            return new Figure("interval", 1);
        }
        if (e instanceof ParenthesedSelect p) {
            return new Figure(subqueryName(p), 2);
        }
        if (e instanceof ParenthesedExpressionList<?> p && p.size() == 1) {
            return figured(p.get(0));
        }
        return Figure.NONE;
    }

    /** A scalar subquery's name: the output name of its first column (of its first branch). */
    private static String subqueryName(ParenthesedSelect p) {
        Select s = p;
        while (true) {
            if (s instanceof ParenthesedSelect ps && ps.getSelect() != null) {
                s = ps.getSelect();
            } else if (s instanceof SetOperationList l && !l.getSelects().isEmpty()) {
                s = l.getSelects().get(0);
            } else {
                break;
            }
        }
        if (s instanceof PlainSelect ps && ps.getSelectItems() != null && !ps.getSelectItems().isEmpty()) {
            SelectItem<?> first = ps.getSelectItems().get(0);
            if (first.getAlias() != null) {
                return NAMES.name(first.getAlias().getName());
            }
            if (first.getExpression() != null && !(first.getExpression() instanceof AllColumns)) {
                return figure(first.getExpression());
            }
        }
        return "?column?";
    }

    /** The last part of the name PostgreSQL's grammar gives a type written this way. */
    private static String typeName(String type) {
        return switch (type) {
            case "int", "integer", "int4" -> "int4";
            case "bigint", "int8" -> "int8";
            case "smallint", "int2" -> "int2";
            case "real", "float4" -> "float4";
            case "double precision", "float8", "float" -> "float8";
            case "boolean", "bool" -> "bool";
            case "decimal", "dec" -> "numeric";
            case "character varying" -> "varchar";
            case "character", "char" -> "bpchar";
            case "timestamp with time zone" -> "timestamptz";
            case "timestamp without time zone" -> "timestamp";
            case "time with time zone" -> "timetz";
            case "time without time zone" -> "time";
            default -> type.matches("[a-z]+") ? type : "?column?";
        };
    }

    @Override
    public String filteredTableFence() {
        return " OFFSET 0"; // a derived table with OFFSET is never pulled up, and no predicate is pushed into it
    }

    @Override
    public boolean equalOutputsShareAName() {
        return true; // findTargetlistEntrySQL92: ambiguous only when the matching outputs' expressions differ
    }

    @Override
    public String limitClause(Long rows, long offset) {
        return (rows == null ? "" : " LIMIT " + rows) + (offset > 0 ? " OFFSET " + offset : "");
    }

    @Override
    public boolean distinctOn() {
        return true;
    }

    @Override
    public boolean groupingSets() {
        return true;
    }

    @Override
    public boolean fetchFirst() {
        return true;
    }

    @Override
    public boolean cteColumnLists() {
        return true;
    }

    /** PostgreSQL has no recursion limit of its own: the renderer bounds the depth by the term's counter column. */
    @Override
    public boolean recursiveCtes() {
        return true;
    }

    @Override
    public boolean joinUsing() {
        return true;
    }

    @Override
    public boolean lateral() {
        return true;
    }

    @Override
    public boolean collate() {
        return true;
    }

    /** PostgreSQL names the columns of a VALUES list {@code column1}, {@code column2}, ... (transformValuesClause). */
    @Override
    public Optional<String> valuesColumnName(int position) {
        return Optional.of("column" + (position + 1));
    }

    @Override
    public boolean namedWindows() {
        return true;
    }

    @Override
    public boolean ilike() {
        return true;
    }

    @Override
    public boolean generateSeries() {
        return true;
    }
}
