package dev.sqlguard.postgresql.internal;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import dev.sqlguard.jdbc.ansi.AnsiDialect;
import dev.sqlguard.jdbc.ansi.AnsiErrors;
import dev.sqlguard.jdbc.ansi.CastTypes;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.CaseExpression;
import net.sf.jsqlparser.expression.CastExpression;
import net.sf.jsqlparser.expression.DateTimeLiteralExpression.DateTime;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExtractExpression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.IntervalExpression;
import net.sf.jsqlparser.expression.TimeKeyExpression;
import net.sf.jsqlparser.expression.operators.relational.ExistsExpression;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;

/**
 * What PostgreSQL renders differently from the shared ANSI renderer: every call
 * {@code pg_catalog.}-qualified, its literal and cast forms, {@code LIMIT n OFFSET m}, its output
 * column names, and the constructs it has that other engines lack (DISTINCT ON, grouping sets,
 * FETCH FIRST, column lists and WITH RECURSIVE, USING and NATURAL joins, LATERAL, ILIKE,
 * generate_series in FROM).
 */
@SuppressWarnings("deprecation")
final class PostgresDialect implements AnsiDialect {
    static final PostgresDialect INSTANCE = new PostgresDialect();

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

    private static final Lexicon LEXICON = new Lexicon("PostgreSQL", PostgresQuoting.NAMES, FunctionCatalog.RULES,
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

    /** PostgreSQL's own name for an unaliased output column (FigureColname). */
    private static String figure(Expression e) {
        if (e instanceof Column c) {
            return PostgresQuoting.NAMES.name(c.getColumnName());
        }
        if (e instanceof Function f && f.getMultipartName() != null && !f.getMultipartName().isEmpty()) {
            return PostgresQuoting.NAMES.name(f.getMultipartName().get(f.getMultipartName().size() - 1));
        }
        if (e instanceof AnalyticExpression a) {
            String[] parts = a.getName().split("\\.", -1);
            return PostgresQuoting.NAMES.name(parts[parts.length - 1]);
        }
        if (e instanceof CastExpression c) {
            String inner = figure(c.getLeftExpression());
            if (!inner.equals("?column?")) {
                return inner;
            }
            String type = c.getColDataType().getDataType().toLowerCase(Locale.ROOT).strip();
            return switch (type) {
                case "int", "integer", "int4" -> "int4";
                case "bigint", "int8" -> "int8";
                case "smallint", "int2" -> "int2";
                case "real", "float4" -> "float4";
                case "double precision", "float8", "float" -> "float8";
                case "boolean", "bool" -> "bool";
                case "decimal" -> "numeric";
                case "character varying" -> "varchar";
                case "character", "char" -> "bpchar";
                default -> type.matches("[a-z]+") ? type : "?column?";
            };
        }
        if (e instanceof CaseExpression) {
            return "case";
        }
        if (e instanceof ExistsExpression) {
            return "exists";
        }
        if (e instanceof ExtractExpression) {
            return "extract";
        }
        if (e instanceof TimeKeyExpression t) {
            return t.getStringValue().toLowerCase(Locale.ROOT).replace("()", "").strip();
        }
        if (e instanceof IntervalExpression) {
            return "interval";
        }
        if (e instanceof ParenthesedExpressionList<?> p && p.size() == 1) {
            return figure(p.get(0));
        }
        return "?column?";
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
    public boolean ilike() {
        return true;
    }

    @Override
    public boolean generateSeries() {
        return true;
    }
}
