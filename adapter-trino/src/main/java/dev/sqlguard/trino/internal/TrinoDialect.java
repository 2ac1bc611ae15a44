package dev.sqlguard.trino.internal;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.sqlguard.jdbc.ansi.AnsiDialect;
import dev.sqlguard.jdbc.ansi.AnsiErrors;
import dev.sqlguard.jdbc.ansi.FunctionRules;
import net.sf.jsqlparser.expression.DateTimeLiteralExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.IntervalExpression;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.create.table.ColDataType;

/**
 * What Trino renders differently from the shared ANSI renderer: calls by their bare built-in names
 * (every qualified name is refused, so a catalog's own SQL routines can never be called), its
 * literal, interval and cast forms, {@code OFFSET m LIMIT n}, its {@code _colN} output names; and
 * none of the optional constructs (no DISTINCT ON, grouping sets, FETCH FIRST, CTE column lists,
 * WITH RECURSIVE, USING or NATURAL joins, LATERAL, ILIKE or table functions).
 */
@SuppressWarnings("deprecation")
final class TrinoDialect implements AnsiDialect {
    static final TrinoDialect INSTANCE = new TrinoDialect();

    private static final Pattern DATE = Pattern.compile("'[0-9]{4}-[0-9]{2}-[0-9]{2}'");
    private static final Pattern TIME = Pattern.compile("'[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,6})?)?'");
    private static final Pattern TIMESTAMP = Pattern.compile("'[0-9]{4}-[0-9]{2}-[0-9]{2}( [0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,6})?)?)?'");
    private static final Pattern INTERVAL = Pattern.compile("'-?[0-9]{1,9}'");
    private static final Set<String> INTERVAL_UNITS = Set.of("YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND");
    private static final Set<String> EXTRACT_FIELDS = Set.of("year", "quarter", "month", "week", "day", "day_of_month",
            "day_of_week", "dow", "day_of_year", "doy", "year_of_week", "yow", "hour", "minute", "second");
    /** Words Trino reads as SQL value functions when unquoted, whatever columns exist. */
    private static final Set<String> SQL_VALUE_KEYWORDS = Set.of("current_date", "current_time", "current_timestamp", "localtime",
            "localtimestamp", "current_user", "session_user", "user", "current_role", "current_catalog", "current_schema", "current_path",
            "system_user");
    private static final Set<String> ZERO_ARGUMENTS = Set.of("now", "pi", "row_number", "rank", "dense_rank", "percent_rank",
            "cume_dist");
    /**
     * Trino's reserved keywords (trino.io, "Keywords and identifiers"), which must be quoted to be an
     * identifier, plus LATERAL: non-reserved on Trino, but a join keyword JSqlParser could read as an alias.
     */
    static final Set<String> RESERVED = Set.of("alter", "and", "as", "auto", "between", "by", "case", "cast", "constraint",
            "create", "cross", "cube", "current_catalog", "current_date", "current_path", "current_role", "current_schema",
            "current_time", "current_timestamp", "current_user", "deallocate", "delete", "describe", "distinct", "drop", "else",
            "end", "escape", "except", "execute", "exists", "extract", "false", "for", "from", "full", "group", "grouping",
            "having", "in", "inner", "insert", "intersect", "into", "is", "join", "json_array", "json_exists", "json_object",
            "json_query", "json_table", "json_value", "left", "like", "listagg", "localtime", "localtimestamp", "natural",
            "normalize", "not", "null", "on", "or", "order", "outer", "prepare", "recursive", "right", "rollup", "select", "skip",
            "table", "then", "trim", "true", "uescape", "union", "unnest", "using", "values", "when", "where", "with",
            "lateral");

    private TrinoDialect() {
    }

    @Override
    public String engine() {
        return "Trino";
    }

    @Override
    public FunctionRules functions() {
        return FunctionCatalog.RULES;
    }

    @Override
    public String name(String raw) {
        return TrinoQuoting.name(raw);
    }

    @Override
    public String identifier(String name) {
        return TrinoQuoting.identifier(name);
    }

    @Override
    public String string(String value) {
        return TrinoQuoting.string(value);
    }

    @Override
    public Optional<String> functionSchema() {
        return Optional.empty();
    }

    @Override
    public Set<String> hiddenSchemas() {
        return Set.of("information_schema");
    }

    @Override
    public Set<String> sqlValueKeywords() {
        return SQL_VALUE_KEYWORDS;
    }

    @Override
    public Set<String> zeroArgumentFunctions() {
        return ZERO_ARGUMENTS;
    }

    @Override
    public Set<String> reservedWords() {
        return RESERVED;
    }

    @Override
    public Set<String> extractFields() {
        return EXTRACT_FIELDS;
    }

    @Override
    public String extractFieldsMessage() {
        return "EXTRACT supports YEAR, QUARTER, MONTH, WEEK, DAY, DAY_OF_WEEK (DOW), DAY_OF_YEAR (DOY), YEAR_OF_WEEK, HOUR, MINUTE and SECOND.";
    }

    @Override
    public String dateTime(DateTimeLiteralExpression e) {
        String value = e.getValue();
        return switch (e.getType()) {
            case DATE -> AnsiErrors.checkedLiteral("DATE ", value, DATE);
            case TIME -> AnsiErrors.checkedLiteral("TIME ", value, TIME);
            case TIMESTAMP -> AnsiErrors.checkedLiteral("TIMESTAMP ", value, TIMESTAMP);
            default -> throw AnsiErrors.unsafe("date or time literal");
        };
    }

    @Override
    public String interval(IntervalExpression e) {
        // JSqlParser 5.4 puts the unit of INTERVAL '3' DAY in the interval qualifier
        Object qualifier = e.getIntervalQualifier();
        String written = e.getIntervalType() != null ? e.getIntervalType() : qualifier == null ? "" : qualifier.toString();
        String unit = written.strip().toUpperCase(Locale.ROOT);
        if (!e.isUsingIntervalKeyword() || e.getExpression() != null || (e.getIntervalType() != null && qualifier != null)
                || !INTERVAL_UNITS.contains(unit)) {
            throw AnsiErrors.construct("Write intervals as INTERVAL '3' DAY (a whole number and one of YEAR, MONTH, DAY, HOUR, MINUTE, SECOND).");
        }
        return AnsiErrors.checkedLiteral("INTERVAL ", e.getParameter(), INTERVAL) + " " + unit;
    }

    private static final Pattern CAST_TYPE = Pattern.compile(
            "(int|integer|bigint|smallint|tinyint|real|double|double precision|float|date|boolean|timestamp|time|text)"
            + "|(numeric|decimal)( \\(([0-9]{1,2})(, ?([0-9]{1,2}))?\\))?"
            + "|(varchar|character varying|char|character)( \\(([0-9]{1,5})\\))?");

    @Override
    public String castType(ColDataType type) {
        if (type == null || type.getCharacterSet() != null || (type.getArrayData() != null && !type.getArrayData().isEmpty())) {
            throw AnsiErrors.unsafe("cast type");
        }
        StringBuilder name = new StringBuilder(type.getDataType().toLowerCase(Locale.ROOT).strip().replaceAll("\\s+", " "));
        if (type.getArgumentsStringList() != null && !type.getArgumentsStringList().isEmpty()) {
            name.append(" (").append(String.join(", ", type.getArgumentsStringList())).append(')');
        }
        Matcher m = CAST_TYPE.matcher(name.toString());
        if (!m.matches()) {
            throw AnsiErrors.construct("CAST supports integer, bigint, smallint, tinyint, decimal(p,s), real, double, varchar(n), char(n), "
                    + "boolean, date, time and timestamp.");
        }
        if (m.group(1) != null) {
            return switch (m.group(1)) {
                case "int" -> "integer";
                case "double precision", "float" -> "double";
                case "text" -> "varchar";
                default -> m.group(1);
            };
        }
        if (m.group(2) != null) {
            return "decimal" + (m.group(4) == null ? "" : "(" + m.group(4) + (m.group(6) == null ? "" : ", " + m.group(6)) + ")");
        }
        String base = m.group(7).startsWith("var") || m.group(7).equals("character varying") ? "varchar" : "char";
        return base + (m.group(9) == null ? "" : "(" + m.group(9) + ")");
    }

    /** Trino's own name for an unaliased output column: a column's name, else {@code _colN} by 0-based position. */
    @Override
    public String label(Expression e, int position) {
        if (e instanceof Column c) {
            return TrinoQuoting.name(c.getColumnName());
        }
        if (e instanceof ParenthesedExpressionList<?> p && p.size() == 1 && p.get(0) instanceof Column c) {
            return TrinoQuoting.name(c.getColumnName());
        }
        return "_col" + position;
    }

    @Override
    public String limitClause(Long rows, long offset) {
        return (offset > 0 ? " OFFSET " + offset : "") + (rows == null ? "" : " LIMIT " + rows);
    }
}
