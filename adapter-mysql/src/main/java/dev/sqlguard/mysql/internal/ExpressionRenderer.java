package dev.sqlguard.mysql.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import dev.sqlguard.domain.Amplification;
import dev.sqlguard.domain.CostClass;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.FlowStep;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Names;
import dev.sqlguard.domain.SafeText;
import dev.sqlguard.domain.Suggestions;
import dev.sqlguard.domain.UsePosition;
import dev.sqlguard.jdbc.ansi.KeywordForms;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.AnalyticType;
import net.sf.jsqlparser.expression.AnyComparisonExpression;
import net.sf.jsqlparser.expression.AnyType;
import net.sf.jsqlparser.expression.BinaryExpression;
import net.sf.jsqlparser.expression.BooleanValue;
import net.sf.jsqlparser.expression.CaseExpression;
import net.sf.jsqlparser.expression.CastExpression;
import net.sf.jsqlparser.expression.CollateExpression;
import net.sf.jsqlparser.expression.DateTimeLiteralExpression;
import net.sf.jsqlparser.expression.DateUnitExpression;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExtractExpression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.IntervalExpression;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NotExpression;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.expression.Parenthesis;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.TimeKeyExpression;
import net.sf.jsqlparser.expression.TranscodingFunction;
import net.sf.jsqlparser.expression.TrimFunction;
import net.sf.jsqlparser.expression.WhenClause;
import net.sf.jsqlparser.expression.WindowDefinition;
import net.sf.jsqlparser.expression.WindowElement;
import net.sf.jsqlparser.expression.WindowOffset;
import net.sf.jsqlparser.expression.operators.arithmetic.Addition;
import net.sf.jsqlparser.expression.operators.arithmetic.Division;
import net.sf.jsqlparser.expression.operators.arithmetic.IntegerDivision;
import net.sf.jsqlparser.expression.operators.arithmetic.Modulo;
import net.sf.jsqlparser.expression.operators.arithmetic.Multiplication;
import net.sf.jsqlparser.expression.operators.arithmetic.Subtraction;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.conditional.OrExpression;
import net.sf.jsqlparser.expression.operators.conditional.XorExpression;
import net.sf.jsqlparser.expression.operators.relational.Between;
import net.sf.jsqlparser.expression.operators.relational.CosineSimilarity;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ExistsExpression;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.GreaterThan;
import net.sf.jsqlparser.expression.operators.relational.GreaterThanEquals;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.IsNullExpression;
import net.sf.jsqlparser.expression.operators.relational.LikeExpression;
import net.sf.jsqlparser.expression.operators.relational.MinorThan;
import net.sf.jsqlparser.expression.operators.relational.MinorThanEquals;
import net.sf.jsqlparser.expression.operators.relational.NotEqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.expression.operators.relational.SupportsOldOracleJoinSyntax;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;

/**
 * Renders expressions: a dispatch table keyed by the node's exact class, so that a subclass the
 * parser may add later, or a node this class does not know, is refused ({@code UNSAFE_SYNTAX})
 * instead of being rendered by a handler written for something else. Every operator is rendered
 * fully parenthesised; every column fully qualified with the alias sqlguard generated. Each value
 * carries its flows: the base columns it derives from and the steps they pass through, which the
 * domain decides on. Not thread-safe: one instance per validation.
 */
@SuppressWarnings({"deprecation", "removal"})
final class ExpressionRenderer {
    /**
     * Where an expression stands, for the name rules of the server (aliases in HAVING and ORDER BY).
     * {@code HAVING_AGGREGATE}, {@code ORDER_BY_AGGREGATE} and {@code WINDOW_AGGREGATE} are the arguments of an
     * aggregate function in HAVING, in ORDER BY and in a window's PARTITION BY or ORDER BY, where the server reads a
     * bare name as a column of the FROM tables first (measured on MariaDB 10.11; see
     * {@link SelectRenderer#aliasReference(String, Ctx, boolean)}).
     */
    enum Clause { SELECT, ON, WHERE, GROUP_BY, HAVING, HAVING_AGGREGATE, ORDER_BY, ORDER_BY_AGGREGATE, WINDOW, WINDOW_AGGREGATE,
        AGGREGATE_ORDER }

    /** The context of one expression. */
    record Ctx(Scope scope, Clause clause, int depth) {
        Ctx deeper() {
            if (depth >= Literals.MAX_NESTING) {
                throw new GuardException(ErrorCode.QUERY_TOO_COMPLEX, "The query nests expressions too deeply.");
            }
            return new Ctx(scope, clause, depth + 1);
        }
    }

    @FunctionalInterface
    private interface Handler {
        Value render(ExpressionRenderer r, Expression e, Ctx ctx);
    }

    private static final Pattern FUNCTION_NAME = Pattern.compile("[a-z_][a-z0-9_]*");
    /** Functions whose first argument is a time unit keyword. */
    private static final Set<String> UNIT_FIRST = Set.of("timestampdiff", "timestampadd");
    private static final Pattern COLLATION = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,63}");
    /** Character sets CONVERT ... USING may name (MariaDB and MySQL both have them). */
    private static final Set<String> CHARSETS = Set.of("utf8mb4", "utf8mb3", "utf8", "latin1", "ascii", "binary");
    private static final Set<String> TIME_KEYS = Set.of("current_date", "current_time", "current_timestamp", "localtime",
            "localtimestamp");
    /** Bare words MariaDB reads as functions, never as a column of the same name. */
    private static final Set<String> SERVER_VALUE_WORDS = Set.of("current_date", "current_time", "current_timestamp", "localtime",
            "localtimestamp", "utc_date", "utc_time", "utc_timestamp", "current_user", "current_role");

    /** Built once: the table is the same for every validation (building it per validation was measurable). */
    private static final Map<Class<?>, Handler> HANDLERS = handlers();

    private final SelectRenderer queries;
    private final Facts facts;
    /** The policy whose function decision every call asks ({@link GuardrailPolicy#requireFunction}). */
    private final GuardrailPolicy policy;
    private final ParameterMarkers parameters;
    ExpressionRenderer(SelectRenderer queries, Facts facts, GuardrailPolicy policy, ParameterMarkers parameters) {
        this.queries = queries;
        this.facts = facts;
        this.policy = policy;
        this.parameters = parameters;
    }

    private static Map<Class<?>, Handler> handlers() {
        Map<Class<?>, Handler> h = new HashMap<>();
        h.put(Column.class, (r, e, c) -> r.column((Column) e, c));
        h.put(DateUnitExpression.class, (r, e, c) -> r.unitAsColumn((DateUnitExpression) e, c));
        h.put(LongValue.class, (r, e, c) -> Value.literal(Literals.integer((LongValue) e), integerValue((LongValue) e)));
        h.put(DoubleValue.class, (r, e, c) -> Value.of(Literals.decimal((DoubleValue) e)));
        h.put(StringValue.class, (r, e, c) -> Value.literal(Literals.string((StringValue) e), ((StringValue) e).getNotExcapedValue()));
        h.put(NullValue.class, (r, e, c) -> Value.of("NULL"));
        h.put(BooleanValue.class, (r, e, c) -> Value.of(((BooleanValue) e).getValue() ? "TRUE" : "FALSE"));
        h.put(DateTimeLiteralExpression.class, (r, e, c) -> Value.of(Literals.dateTime((DateTimeLiteralExpression) e)));
        h.put(JdbcParameter.class, (r, e, c) -> r.parameter((JdbcParameter) e));
        h.put(Parenthesis.class, (r, e, c) -> wrap(r.render(((Parenthesis) e).getExpression(), c)));
        h.put(ParenthesedExpressionList.class, (r, e, c) -> r.parenthesedList((ParenthesedExpressionList<?>) e, c));
        h.put(SignedExpression.class, (r, e, c) -> r.signed((SignedExpression) e, c));
        h.put(NotExpression.class, (r, e, c) -> r.not((NotExpression) e, c));
        binary(h, AndExpression.class, "AND");
        binary(h, OrExpression.class, "OR");
        binary(h, XorExpression.class, "XOR");
        binary(h, EqualsTo.class, "=");
        binary(h, NotEqualsTo.class, "<>");
        // JSqlParser 5.4 reads MySQL's null-safe equality <=> as a node of this name, at the comparisons' level
        binary(h, CosineSimilarity.class, "<=>");
        binary(h, GreaterThan.class, ">");
        binary(h, GreaterThanEquals.class, ">=");
        binary(h, MinorThan.class, "<");
        binary(h, MinorThanEquals.class, "<=");
        binary(h, Addition.class, "+");
        binary(h, Subtraction.class, "-");
        binary(h, Multiplication.class, "*");
        binary(h, Division.class, "/");
        binary(h, Modulo.class, "%");
        binary(h, IntegerDivision.class, "DIV");
        h.put(Between.class, (r, e, c) -> r.between((Between) e, c));
        h.put(InExpression.class, (r, e, c) -> r.in((InExpression) e, c));
        h.put(IsNullExpression.class, (r, e, c) -> r.isNull((IsNullExpression) e, c));
        h.put(LikeExpression.class, (r, e, c) -> r.like((LikeExpression) e, c));
        h.put(CaseExpression.class, (r, e, c) -> r.caseExpr((CaseExpression) e, c));
        h.put(CastExpression.class, (r, e, c) -> r.cast((CastExpression) e, c));
        h.put(CollateExpression.class, (r, e, c) -> r.collate((CollateExpression) e, c));
        h.put(TranscodingFunction.class, (r, e, c) -> r.convert((TranscodingFunction) e, c));
        h.put(Function.class, (r, e, c) -> r.function((Function) e, c));
        h.put(TimeKeyExpression.class, (r, e, c) -> r.timeKey((TimeKeyExpression) e));
        h.put(IntervalExpression.class, (r, e, c) -> r.interval((IntervalExpression) e, c));
        h.put(TrimFunction.class, (r, e, c) -> r.trim((TrimFunction) e, c));
        h.put(ExtractExpression.class, (r, e, c) -> r.extract((ExtractExpression) e, c));
        h.put(ParenthesedSelect.class, (r, e, c) -> r.scalarSubquery((ParenthesedSelect) e, c));
        h.put(ExistsExpression.class, (r, e, c) -> r.exists((ExistsExpression) e, c));
        h.put(AnalyticExpression.class, (r, e, c) -> r.window((AnalyticExpression) e, c));
        return Map.copyOf(h);
    }

    /** Renders {@code e} in {@code ctx}; a node class without a handler is refused. */
    Value render(Expression e, Ctx ctx) {
        if (e == null) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "An expression is missing.");
        }
        Ctx inner = ctx.deeper();
        if (e instanceof SupportsOldOracleJoinSyntax o && (o.getOldOracleJoinSyntax() != 0 || o.getOraclePriorPosition() != 0)) {
            throw Literals.unsafe("Oracle join syntax");
        }
        Handler handler = HANDLERS.get(e.getClass());
        if (handler == null) {
            throw refusal(e);
        }
        return handler.render(this, e, inner);
    }

    private static GuardException refusal(Expression e) {
        if (e instanceof AllColumns) {
            return new GuardException(ErrorCode.WILDCARD_NOT_ALLOWED, "Only COUNT(*) and the select list may use *.");
        }
        if (e instanceof net.sf.jsqlparser.expression.UserVariable || e instanceof net.sf.jsqlparser.expression.VariableAssignment) {
            return new GuardException(ErrorCode.VARIABLE_NOT_ALLOWED);
        }
        if (e instanceof net.sf.jsqlparser.expression.JdbcNamedParameter || e instanceof net.sf.jsqlparser.expression.NumericBind) {
            return new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, "Use ? for parameters.");
        }
        if (e instanceof net.sf.jsqlparser.expression.NextValExpression) {
            return new GuardException(ErrorCode.FUNCTION_NOT_ALLOWED, "Sequences are not allowed.");
        }
        return Literals.unsafe(e.getClass().getSimpleName());
    }

    private static void binary(Map<Class<?>, Handler> h, Class<? extends BinaryExpression> type, String operator) {
        String lower = operator.toLowerCase(Locale.ROOT);
        h.put(type, (r, e, c) -> {
            BinaryExpression b = (BinaryExpression) e;
            if ((isComparison(type) || type == CosineSimilarity.class)
                    && (rowElements(b.getLeftExpression()).isPresent() || rowElements(b.getRightExpression()).isPresent())) {
                return r.rowComparison(b, operator, c);
            }
            Value left = r.render(b.getLeftExpression(), c);
            Value right = b.getRightExpression() instanceof AnyComparisonExpression any && isComparison(type)
                    ? r.anyAll(any, left, c) : r.render(b.getRightExpression(), c);
            return Value.combine("(" + left.sql() + " " + operator + " " + right.sql() + ")",
                    FlowStep.partial(lower), List.of(left, right));
        });
    }

    private static boolean isComparison(Class<?> type) {
        return type == EqualsTo.class || type == NotEqualsTo.class || type == GreaterThan.class || type == GreaterThanEquals.class
                || type == MinorThan.class || type == MinorThanEquals.class;
    }

    private static Value wrap(Value v) {
        return new Value("(" + v.sql() + ")", v.flows(), v.literal(), v.mayFail(), v.weight());
    }

    private static Long integerValue(LongValue v) {
        try {
            return Long.parseLong(v.getStringValue());
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }

    // ------------------------------------------------------------------ columns

    private Value column(Column c, Ctx ctx) {
        if (c.getArrayConstructor() != null || c.getCommentText() != null) {
            throw Literals.unsafe("column form");
        }
        String name = MySqlQuoting.unquote(c.getColumnName());
        Table qualifier = c.getTable();
        boolean qualified = qualifier != null && qualifier.getName() != null;
        if (!qualified && !c.getColumnName().startsWith("`") && SERVER_VALUE_WORDS.contains(name.toLowerCase(Locale.ROOT))) {
            // MariaDB reads these bare words as its functions even where a column has the name (measured with
            // information_schema.KEYWORDS): read them so too, under the function allowlist
            String key = name.toLowerCase(Locale.ROOT);
            requireAllowed(key);
            facts.function(key);
            return Value.of(key.toUpperCase(Locale.ROOT));
        }
        if (!qualified) {
            Optional<Value> alias = queries.aliasReference(name, ctx);
            if (alias.isPresent()) {
                return alias.get();
            }
            return ctx.scope().resolve(name);
        }
        if (qualifier.getNameParts().size() > 2) {
            throw new GuardException(ErrorCode.UNKNOWN_COLUMN, "Qualify columns as table.column, alias.column or schema.table.column.");
        }
        Optional<String> schemaName = qualifier.getSchemaName() == null ? Optional.empty()
                : Optional.of(MySqlQuoting.unquote(qualifier.getSchemaName()));
        return ctx.scope().resolve(schemaName, MySqlQuoting.unquote(qualifier.getName()), name);
    }

    /** An unqualified {@code year}, {@code month}, ... where a value stands: the server reads a column. */
    private Value unitAsColumn(DateUnitExpression e, Ctx ctx) {
        return column(new Column(e.getType().name().toLowerCase(Locale.ROOT)), ctx);
    }

    private Value parameter(JdbcParameter p) {
        if (p.isUseFixedIndex() || !"?".equals(p.getParameterCharacter()) || p.getIndex() == null) {
            throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, "Use ? for parameters.");
        }
        return Value.of(parameters.marker(p.getIndex()));
    }

    // ------------------------------------------------------------------ operators

    private Value parenthesedList(ParenthesedExpressionList<?> list, Ctx ctx) {
        if (list.size() != 1) {
            throw Literals.unsafe("row constructor");
        }
        return wrap(render(list.get(0), ctx));
    }

    private Value signed(SignedExpression s, Ctx ctx) {
        if (s.getSign() != '-' && s.getSign() != '+') {
            throw Literals.unsafe("bitwise operator");
        }
        Value inner = render(s.getExpression(), ctx);
        return Value.combine("(" + s.getSign() + inner.sql() + ")", FlowStep.partial(String.valueOf(s.getSign())), List.of(inner));
    }

    private Value not(NotExpression n, Ctx ctx) {
        if (n.isExclamationMark()) {
            throw Literals.unsafe("exclamation mark operator");
        }
        Value inner = render(n.getExpression(), ctx);
        return Value.combine("(NOT " + inner.sql() + ")", FlowStep.partial("not"), List.of(inner));
    }

    private Value between(Between b, Ctx ctx) {
        if (b.isUsingSymmetric() || b.isUsingAsymmetric()) {
            throw Literals.unsafe("BETWEEN SYMMETRIC");
        }
        Value left = render(b.getLeftExpression(), ctx);
        Value start = render(b.getBetweenExpressionStart(), ctx);
        Value end = render(b.getBetweenExpressionEnd(), ctx);
        return Value.combine("(" + left.sql() + (b.isNot() ? " NOT BETWEEN " : " BETWEEN ") + start.sql() + " AND " + end.sql() + ")",
                FlowStep.partial("between"), List.of(left, start, end));
    }

    /**
     * {@code x [NOT] IN (subquery)}, {@code x [NOT] IN (v1, v2, ...)}, and the same with a row of values
     * on the left: {@code (a, b) [NOT] IN (SELECT x, y ...)} or {@code (a, b) [NOT] IN ((1, 'x'), (2, 'y'))}.
     * A row takes a subquery of as many columns, or a list of rows of as many values (MariaDB 10.11
     * refuses anything else: {@code Operand should contain 2 column(s)}, {@code Illegal parameter data
     * types row and int}); each value of the row is used as a single value is.
     */
    private Value in(InExpression in, Ctx ctx) {
        if (in.isGlobal()) {
            throw Literals.unsafe("GLOBAL IN");
        }
        Expression leftExpression = in.getLeftExpression();
        Optional<List<Expression>> row = rowElements(leftExpression);
        if (row.isEmpty() && leftExpression instanceof ExpressionList<?> l
                && !(l.getClass() == ParenthesedExpressionList.class && l.size() == 1)) {
            throw Literals.unsafe("row constructor");
        }
        List<Value> left = row.isPresent() ? renderRow(row.get(), ctx) : List.of(render(leftExpression, ctx));
        String leftSql = row.isPresent() ? rowSql(left) : left.get(0).sql();
        String op = in.isNot() ? " NOT IN " : " IN ";
        Expression right = in.getRightExpression();
        List<Value> parts = new ArrayList<>(left);
        if (right != null && right.getClass() == ParenthesedSelect.class) {
            SelectRenderer.Query q = queries.subquery((ParenthesedSelect) right, ctx.scope());
            requireColumns(q, left.size());
            for (Value v : left) {
                facts.use(v, UsePosition.SUBQUERY_PREDICATE);
            }
            for (Value v : q.values()) {
                facts.use(v, UsePosition.SUBQUERY_PREDICATE);
            }
            parts.addAll(q.values());
            return Value.combine("(" + leftSql + op + "(" + q.sql() + "))", FlowStep.partial("in"), parts);
        }
        if (!(right instanceof ExpressionList<?> list) || list.isEmpty()
                || (right.getClass() != ParenthesedExpressionList.class && right.getClass() != ExpressionList.class)) {
            throw Literals.unsafe("IN without a value list");
        }
        List<String> values = new ArrayList<>();
        for (Expression v : list) {
            if (row.isEmpty()) {
                Value value = render(v, ctx);
                parts.add(value);
                values.add(value.sql());
            } else {
                List<Value> item = renderRow(sameWidth(row.get().size(), v), ctx);
                parts.addAll(item);
                values.add(rowSql(item));
            }
        }
        return Value.combine("(" + leftSql + op + "(" + String.join(", ", values) + "))", FlowStep.partial("in"), parts);
    }

    /**
     * Two rows of values compared: {@code (a, b) = (c, d)}, with {@code =}, {@code <>}, {@code <},
     * {@code <=}, {@code >}, {@code >=} or {@code <=>}. MariaDB 10.11 compares them value by value
     * ({@code <} and the others in order, as words are ordered), so each value passes the comparison's
     * step as in {@code a = c}. Both sides must be rows of as many values, each value a single value
     * (no row inside a row); a row against a single value, a subquery, ANY or ALL is refused.
     */
    private Value rowComparison(BinaryExpression b, String operator, Ctx ctx) {
        if (b.getRightExpression() instanceof AnyComparisonExpression) {
            throw Literals.unsafe("row constructor");
        }
        List<Expression> leftRow = rowElements(b.getLeftExpression()).orElseThrow(() -> Literals.unsafe("row constructor"));
        List<Expression> rightRow = sameWidth(leftRow.size(), b.getRightExpression());
        List<Value> left = renderRow(leftRow, ctx);
        List<Value> right = renderRow(rightRow, ctx);
        List<Value> parts = new ArrayList<>(left);
        parts.addAll(right);
        return Value.combine("(" + rowSql(left) + " " + operator + " " + rowSql(right) + ")",
                FlowStep.partial(operator.toLowerCase(Locale.ROOT)), parts);
    }

    /**
     * The values of a row, {@code (a, b, ...)} in any number of parentheses, or empty when {@code e} is
     * no such row ({@code (a)} is a single value). {@code ROW(a, b)} is another node and stays refused.
     */
    private static Optional<List<Expression>> rowElements(Expression e) {
        Expression inner = unwrap(e);
        if (inner != null && inner.getClass() == ParenthesedExpressionList.class && ((ParenthesedExpressionList<?>) inner).size() > 1) {
            return Optional.of(List.copyOf((ParenthesedExpressionList<?>) inner));
        }
        return Optional.empty();
    }

    /** The values of {@code e}, a row of {@code width} values; anything else is refused, as the server does. */
    private static List<Expression> sameWidth(int width, Expression e) {
        List<Expression> row = rowElements(e).orElseThrow(() -> Literals.unsafe("row constructor"));
        if (row.size() != width) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "A row of " + width + " values is compared with a row of "
                    + row.size() + "; both need as many values.");
        }
        return row;
    }

    /** Each value of a row, rendered as any value (a row inside it is refused). */
    private List<Value> renderRow(List<Expression> row, Ctx ctx) {
        List<Value> out = new ArrayList<>();
        for (Expression e : row) {
            out.add(render(e, ctx));
        }
        return out;
    }

    private static String rowSql(List<Value> row) {
        List<String> out = new ArrayList<>();
        row.forEach(v -> out.add(v.sql()));
        return "(" + String.join(", ", out) + ")";
    }

    private Value anyAll(AnyComparisonExpression any, Value left, Ctx ctx) {
        if (any.getAnyType() == null || any.getSelect() == null || any.getSelect().getClass() != ParenthesedSelect.class) {
            throw Literals.unsafe("ANY or ALL form");
        }
        SelectRenderer.Query q = queries.subquery((ParenthesedSelect) any.getSelect(), ctx.scope());
        requireOneColumn(q);
        facts.use(left, UsePosition.SUBQUERY_PREDICATE);
        facts.use(q.values().get(0), UsePosition.SUBQUERY_PREDICATE);
        String keyword = any.getAnyType() == AnyType.ALL ? "ALL" : any.getAnyType() == AnyType.ANY ? "ANY" : "SOME";
        return Value.combine(keyword + " (" + q.sql() + ")", null, List.of(q.values().get(0)));
    }

    /**
     * {@code x IS [NOT] NULL}, rendered as {@code (x <=> NULL)} and {@code (NOT (x <=> NULL))}: the same value for every
     * x (true or false, never NULL). MariaDB 10.11 takes {@code x IS NULL} (also {@code ISNULL(x)}, {@code x IS UNKNOWN}
     * and {@code NOT (x IS NOT NULL)}, which it turns into it) over a column that cannot be NULL for a constant only
     * late in planning; grouped by such keys alone, a window function over the groups crashed the server (signal 11
     * in filesort: {@code SELECT count(1), rank() OVER (ORDER BY count(1)) FROM claims GROUP BY id IS NULL}; found by the
     * raw run of a MySQL differential run of 100,000 cases from seed 3,000,001) or numbered the rows before grouping ({@code row_number() OVER ()} gave 20 on the one
     * group). The null-safe comparison is not taken for a constant that way (measured: the same queries with
     * {@code <=> NULL} answer right), so the server never meets the form. {@code x IS NOT NULL} alone is no such
     * constant, but under a NOT the server turns it into {@code x IS NULL}, through an AND too ({@code GROUP BY NOT ((id
     * IS NOT NULL) AND TRUE)} crashed it), so it is written null-safe as well; the cost is that {@code NOT (k <=> NULL)}
     * reads a whole index where {@code k IS NOT NULL} took a range (measured with EXPLAIN on a sparse indexed column).
     */
    private Value isNull(IsNullExpression n, Ctx ctx) {
        if (n.isUseIsNull() || n.isUseNotNull()) {
            throw Literals.unsafe("ISNULL or NOTNULL operator");
        }
        Value left = render(n.getLeftExpression(), ctx);
        return Value.combine(nullTest(left.sql(), n.isNot()), FlowStep.partial("is null"), List.of(left));
    }

    /** {@code sql IS [NOT] NULL} in the form the server never takes for a constant ({@link #isNull}). */
    static String nullTest(String sql, boolean not) {
        return not ? "(NOT (" + sql + " <=> NULL))" : "(" + sql + " <=> NULL)";
    }

    private Value like(LikeExpression like, Ctx ctx) {
        LikeExpression.KeyWord keyword = like.getLikeKeyWord();
        if (keyword == LikeExpression.KeyWord.REGEXP || keyword == LikeExpression.KeyWord.RLIKE) {
            return regexp(like, ctx);
        }
        if (keyword != LikeExpression.KeyWord.LIKE || like.isUseBinary() || like.isCaseInsensitive()) {
            throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED,
                    "Only LIKE, REGEXP and RLIKE are allowed for pattern matching (no ILIKE, SIMILAR TO or LIKE BINARY).");
        }
        Value left = render(like.getLeftExpression(), ctx);
        Value pattern = render(like.getRightExpression(), ctx);
        String out = "(" + left.sql() + (like.isNot() ? " NOT LIKE " : " LIKE ") + pattern.sql();
        if (like.getEscape() != null) {
            if (!(like.getEscape() instanceof StringValue s) || s.getClass() != StringValue.class || s.getNotExcapedValue().length() != 1) {
                throw Literals.unsafe("LIKE ESCAPE");
            }
            out += " ESCAPE " + Literals.string(s);
        }
        return Value.combine(out + ")", FlowStep.partial("like"), List.of(left, pattern));
    }

    /**
     * {@code x [NOT] REGEXP p} and its synonym RLIKE, rendered as REGEXP. A pattern the server cannot
     * compile is an error, and matching branches on the value: partial. {@code REGEXP BINARY} is refused.
     */
    private Value regexp(LikeExpression like, Ctx ctx) {
        if (like.isUseBinary() || like.isCaseInsensitive() || like.getEscape() != null) {
            throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, "Write x REGEXP pattern, without BINARY or ESCAPE.");
        }
        Value left = render(like.getLeftExpression(), ctx);
        Value pattern = render(like.getRightExpression(), ctx);
        return Value.combine("(" + left.sql() + (like.isNot() ? " NOT REGEXP " : " REGEXP ") + pattern.sql() + ")",
                FlowStep.partial("regexp"), List.of(left, pattern));
    }

    /**
     * {@code x COLLATE name}: the same value under another collation of its character set. Whether the
     * collation fits the character set does not depend on the value, so the step is total.
     */
    private Value collate(CollateExpression c, Ctx ctx) {
        String name = c.getCollate() == null ? "" : c.getCollate().strip();
        if (!COLLATION.matcher(name).matches()) {
            throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, "COLLATE takes a plain collation name such as utf8mb4_bin.");
        }
        Value inner = render(c.getLeftExpression(), ctx);
        return Value.combine("(" + inner.sql() + " COLLATE " + Names.fold(name) + ")", FlowStep.total("collate"), List.of(inner));
    }

    /**
     * {@code CONVERT(x USING charset)} for a few character sets: a character the target cannot hold
     * becomes {@code ?} with a warning, never an error (measured on MariaDB 10.11 in the pinned mode),
     * so the step is total. {@code CONVERT(x, type)} never reaches this node as such: JSqlParser 5.4 reads
     * {@code CONVERT(a, CHAR(10))} as SQL Server's {@code CONVERT(type, value)}, the reverse of what the
     * server reads, so {@link ConvertCasts} writes it as {@code CAST(x AS type)} before parsing; a
     * comma form it left alone (a type CAST does not take) is refused here.
     */
    private Value convert(TranscodingFunction t, Ctx ctx) {
        if (!t.isTranscodeStyle() || t.getColDataType() != null || t.getExpression() == null) {
            throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, "CONVERT(x, type) takes the types CAST takes: SIGNED, UNSIGNED,"
                    + " INTEGER, DECIMAL(p,s), CHAR(n), BINARY(n), DATE, DATETIME, TIME, FLOAT and DOUBLE.");
        }
        if (t.getKeyword() != null && !"CONVERT".equalsIgnoreCase(t.getKeyword().strip())) {
            throw Literals.unsafe("transcoding function");
        }
        String charset = t.getTranscodingName() == null ? "" : Names.fold(t.getTranscodingName().strip());
        if (!CHARSETS.contains(charset)) {
            throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, "CONVERT(x USING ...) takes one of " + String.join(", ",
                    CHARSETS.stream().sorted().toList()) + ".");
        }
        Value inner = render(t.getExpression(), ctx);
        return Value.combine("CONVERT(" + inner.sql() + " USING " + charset + ")", FlowStep.total("convert using"), List.of(inner));
    }

    private Value caseExpr(CaseExpression c, Ctx ctx) {
        if (c.getWhenClauses() == null || c.getWhenClauses().isEmpty()) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "CASE needs a WHEN.");
        }
        List<Value> conditions = new ArrayList<>();
        List<Value> results = new ArrayList<>();
        StringBuilder out = new StringBuilder("(CASE");
        if (c.getSwitchExpression() != null) {
            Value switched = render(c.getSwitchExpression(), ctx);
            conditions.add(switched);
            out.append(' ').append(switched.sql());
        }
        for (WhenClause w : c.getWhenClauses()) {
            if (w.getClass() != WhenClause.class) {
                throw Literals.unsafe("WHEN form");
            }
            Value when = render(w.getWhenExpression(), ctx);
            Value then = render(w.getThenExpression(), ctx);
            conditions.add(when);
            results.add(then);
            out.append(" WHEN ").append(when.sql()).append(" THEN ").append(then.sql());
        }
        if (c.getElseExpression() != null) {
            Value otherwise = render(c.getElseExpression(), ctx);
            results.add(otherwise);
            out.append(" ELSE ").append(otherwise.sql());
        }
        String sql = out.append(" END)").toString();
        // the conditions decide which branch comes back: partial; the branches' values pass through
        Value decided = Value.combine(sql, FlowStep.partial("case when"), conditions);
        Value chosen = Value.combine(sql, FlowStep.total("case"), results);
        return Value.combine(sql, null, List.of(decided, chosen));
    }

    private Value cast(CastExpression c, Ctx ctx) {
        if (!c.isUseCastKeyword() || c.getFormat() != null || (c.getColumnDefinitions() != null && !c.getColumnDefinitions().isEmpty())) {
            throw Literals.unsafe("cast form");
        }
        Value inner = render(c.getLeftExpression(), ctx);
        String type = Literals.castType(c.getColDataType());
        FlowStep step = Literals.textCast(type) ? FlowStep.total("cast") : FlowStep.partial("cast");
        return Value.combine("CAST(" + inner.sql() + " AS " + type + ")", step, List.of(inner));
    }

    private Value interval(IntervalExpression i, Ctx ctx) {
        if (!i.isUsingIntervalKeyword() || (i.getIntervalQualifier() != null && i.getIntervalType() != null)) {
            throw Literals.unsafe("interval form");
        }
        String unit = Literals.unit(i.getIntervalQualifier() != null ? i.getIntervalQualifier().toString() : i.getIntervalType());
        Value amount;
        if (i.getExpression() != null) {
            amount = render(i.getExpression(), ctx);
        } else if (i.getParameter() != null && i.getParameter().matches("-?[0-9]{1,18}")) {
            amount = Value.of(i.getParameter());
        } else if (i.getParameter() != null && i.getParameter().matches("'[0-9:. -]{1,40}'")) {
            amount = Value.of(MySqlQuoting.string(i.getParameter().substring(1, i.getParameter().length() - 1)));
        } else {
            throw Literals.unsafe("interval amount");
        }
        return Value.combine("INTERVAL " + amount.sql() + " " + unit, FlowStep.partial("interval"), List.of(amount));
    }

    /** TRIM(x), TRIM([BOTH|LEADING|TRAILING] [remove] FROM x). */
    private Value trim(TrimFunction t, Ctx ctx) {
        requireAllowed("trim");
        facts.function("trim");
        List<Value> parts = new ArrayList<>();
        StringBuilder sql = new StringBuilder("TRIM(");
        if (!t.isUsingFromKeyword()) {
            if (t.getTrimSpecification() != null || t.getFromExpression() != null) {
                throw Literals.unsafe("trim form");
            }
            Value v = render(t.getExpression(), ctx);
            parts.add(v);
            sql.append(v.sql());
        } else {
            if (t.getTrimSpecification() != null) {
                sql.append(t.getTrimSpecification().name()).append(' ');
            }
            if (t.getExpression() != null) {
                Value remove = render(t.getExpression(), ctx);
                parts.add(remove);
                sql.append(remove.sql()).append(' ');
            }
            Value from = render(t.getFromExpression(), ctx);
            parts.add(from);
            sql.append("FROM ").append(from.sql());
        }
        return Value.combine(sql.append(')').toString(), FlowStep.total("trim"), parts);
    }

    private Value extract(ExtractExpression e, Ctx ctx) {
        String unit = Literals.unit(e.getName());
        Value inner = render(e.getExpression(), ctx);
        facts.function("extract");
        requireAllowed("extract");
        return Value.combine("EXTRACT(" + unit + " FROM " + inner.sql() + ")", FlowStep.partial("extract"), List.of(inner));
    }

    /** CURRENT_DATE and the like: allowed when the function list names them. */
    private Value timeKey(TimeKeyExpression e) {
        String key = Names.fold(e.getStringValue().strip());
        if (key.endsWith("()")) {
            key = key.substring(0, key.length() - 2);
        }
        if (!TIME_KEYS.contains(key)) {
            throw Literals.unsafe("time keyword");
        }
        requireAllowed(key);
        facts.function(key);
        return Value.of(key.toUpperCase(Locale.ROOT));
    }

    // ------------------------------------------------------------------ subqueries

    private Value scalarSubquery(ParenthesedSelect p, Ctx ctx) {
        SelectRenderer.Query q = queries.subquery(p, ctx.scope());
        requireOneColumn(q);
        // more than one row is an error: the subquery can fail
        return Value.combine("(" + q.sql() + ")", null, List.of(q.values().get(0))).failing();
    }

    private Value exists(ExistsExpression e, Ctx ctx) {
        if (e.getRightExpression() == null || e.getRightExpression().getClass() != ParenthesedSelect.class) {
            throw Literals.unsafe("EXISTS form");
        }
        SelectRenderer.Query q = queries.subquery((ParenthesedSelect) e.getRightExpression(), ctx.scope());
        return Value.of((e.isNot() ? "(NOT EXISTS (" : "(EXISTS (") + q.sql() + "))");
    }

    private static void requireOneColumn(SelectRenderer.Query q) {
        requireColumns(q, 1);
    }

    /** A subquery compared with a row of {@code width} values returns as many columns (the server refuses others). */
    private static void requireColumns(SelectRenderer.Query q, int width) {
        if (q.values().size() != width) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, width == 1 ? "This subquery must return exactly one column."
                    : "This subquery must return exactly " + width + " columns, one for each value of the row.");
        }
    }

    // ------------------------------------------------------------------ functions

    /**
     * The policy decides on a call before the server sees the text; one it allows that the catalogue
     * cannot classify gets the policy's own refusal.
     */
    private MySqlFunctions.Entry requireAllowed(String name) {
        policy.requireFunction(name);
        return MySqlFunctions.of(name).orElseThrow(() -> policy.functionRefusal(name));
    }

    private String functionName(Function f) {
        if (f.getMultipartName() == null || f.getMultipartName().size() != 1 || f.isEscaped()) {
            throw new GuardException(ErrorCode.FUNCTION_NOT_ALLOWED, "Qualified or escaped function names are not allowed.");
        }
        String name = Names.fold(f.getName());
        if (!FUNCTION_NAME.matcher(name).matches()) {
            throw new GuardException(ErrorCode.FUNCTION_NOT_ALLOWED, "Quoted function names are not allowed.");
        }
        return name;
    }

    private Value function(Function f, Ctx ctx) {
        String name = functionName(f);
        MySqlFunctions.Entry entry = requireAllowed(name);
        if (KeywordForms.matches(f, name)) {
            facts.function(name);
            List<Value> args = new ArrayList<>();
            for (Expression p : f.getNamedParameters()) {
                args.add(render(p, ctx));
            }
            return call(KeywordForms.render(f, name, args.stream().map(Value::sql).toList()), name, entry, args);
        }
        if (f.getKeep() != null || f.getHavingClause() != null || f.getLimit() != null || f.getNullHandling() != null
                || f.isIgnoreNulls() || f.isIgnoreNullsOutside() || f.getNamedParameters() != null || f.getChainedParameters() != null
                || f.getAttribute() != null || f.getAttributeColumn() != null || f.getExtraKeyword() != null
                || f.getOnOverflowTruncate() != null || f.isUnique()) {
            throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, "The function call uses a clause that is not allowed.");
        }
        boolean aggregateClauses = (f.getOrderByElements() != null && !f.getOrderByElements().isEmpty())
                || (f.getKeywordArguments() != null && !f.getKeywordArguments().isEmpty());
        if (aggregateClauses && !name.equals("group_concat")) {
            throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, "Only GROUP_CONCAT takes ORDER BY or SEPARATOR.");
        }
        facts.function(name);
        if (entry.category() == MySqlFunctions.Category.AGGREGATE) {
            ctx.scope().noteAggregate();
        }
        ExpressionList<?> params = f.getParameters();
        boolean star = f.isAllColumns() || (params != null && params.size() == 1 && params.get(0) instanceof AllColumns a && isPlainStar(a));
        if (star) {
            if (!name.equals("count") || f.isDistinct()) {
                throw new GuardException(ErrorCode.WILDCARD_NOT_ALLOWED, "Only COUNT(*) may use *.");
            }
            return Value.of("count(*)");
        }
        if (params == null && !f.toString().replace(" ", "").equalsIgnoreCase(name + "()")) {
            throw Literals.unsafe("function argument form");
        }
        if (params != null && params.getClass() != ExpressionList.class && params.getClass() != ParenthesedExpressionList.class) {
            throw Literals.unsafe("function argument form");
        }
        List<Value> args = new ArrayList<>();
        List<String> rendered = new ArrayList<>();
        Ctx argCtx = entry.category() == MySqlFunctions.Category.AGGREGATE ? aggregateArguments(ctx) : ctx;
        if (params != null) {
            for (int i = 0; i < params.size(); i++) {
                Expression p = params.get(i);
                if (i == 0 && UNIT_FIRST.contains(name)) {
                    String unit = p instanceof DateUnitExpression d ? d.getType().name()
                            : p instanceof Column c && c.getTable() == null ? c.getColumnName() : "";
                    rendered.add(Literals.unit(unit));
                    continue;
                }
                Value v = render(p, argCtx);
                args.add(v);
                rendered.add(v.sql());
            }
        }
        if (entry.costClass() == CostClass.TOTAL && args.size() > 1) {
            args = fallbacks(args, name);
        }
        if (f.isDistinct() && args.isEmpty()) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "DISTINCT needs an argument.");
        }
        if (f.isDistinct()) {
            ctx.scope().distinctAggregate();
        }
        if (name.equals("isnull") && rendered.size() == 1 && !f.isDistinct()) {
            // ISNULL(x) is x IS NULL on the server, which it may take for a constant and crash on (isNull above)
            return call(nullTest(rendered.get(0), false), name, entry, args);
        }
        StringBuilder sql = new StringBuilder(name).append('(').append(f.isDistinct() ? "DISTINCT " : "").append(String.join(", ", rendered));
        if (name.equals("group_concat")) {
            ctx.scope().collectingAggregate();
            Rendered clauses = groupConcatClauses(f, ctx);
            sql.append(clauses.sql());
            if (clauses.mayFail()) {
                // rows whose arguments are NULL are skipped before their ORDER BY keys are computed (measured)
                List<Value> marked = new ArrayList<>();
                args.forEach(a -> marked.add(a.through(FlowStep.partial("group_concat before a failing ORDER BY"))));
                args = marked;
            }
        }
        sql.append(')');
        if (entry.costClass() == CostClass.AMPLIFYING) {
            facts.amplification(amplification(name, entry.rule(), args));
        }
        return call(sql.toString(), name, entry, args);
    }

    /** A call's value: each argument after the step its position takes ({@link MySqlFunctions#argumentClass}). */
    private static Value call(String sql, String name, MySqlFunctions.Entry entry, List<Value> args) {
        if (!MySqlFunctions.PARAMETER_ARGUMENTS.containsKey(name)) {
            return Value.combine(sql, new FlowStep(name, entry.costClass()), args);
        }
        List<Value> stepped = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            stepped.add(args.get(i).through(new FlowStep(name, MySqlFunctions.argumentClass(name, i, entry.costClass()))));
        }
        return Value.combine(sql, null, stepped);
    }

    /**
     * The context of a window function's arguments: in HAVING the server reads a bare name there as a column of the
     * FROM tables before a select-list alias, as in an aggregate's ({@link #aggregateArguments}); elsewhere the
     * clause's own rules.
     */
    private static Ctx windowArguments(Ctx ctx) {
        return ctx.clause() == Clause.HAVING ? new Ctx(ctx.scope(), Clause.HAVING_AGGREGATE, ctx.depth()) : ctx;
    }

    /**
     * The context of an aggregate's arguments: in HAVING, ORDER BY and a window's keys the server reads a bare name
     * there as a column of the FROM tables before a select-list alias (measured on MariaDB 10.11: {@code HAVING
     * max(ssn)} read the table's {@code ssn} although an item was labelled {@code ssn}; {@code SELECT status, min(amount)
     * AS amount ... GROUP BY status} with {@code HAVING max(amount) > 14.2}, {@code ORDER BY max(amount)} or {@code
     * rank() OVER (ORDER BY max(amount))} reads the table's {@code amount}, also over a derived table, a CTE and a
     * join; with the name in two joined tables the server refuses it as ambiguous), so an alias there is never
     * rendered as a name.
     */
    private static Ctx aggregateArguments(Ctx ctx) {
        return switch (ctx.clause()) {
            case HAVING -> new Ctx(ctx.scope(), Clause.HAVING_AGGREGATE, ctx.depth());
            case ORDER_BY -> new Ctx(ctx.scope(), Clause.ORDER_BY_AGGREGATE, ctx.depth());
            case WINDOW -> new Ctx(ctx.scope(), Clause.WINDOW_AGGREGATE, ctx.depth());
            default -> ctx;
        };
    }

    /**
     * The server evaluates a call's arguments left to right and may stop early: COALESCE at the first
     * value that is not NULL, CONCAT and most others at the first NULL. When an argument can fail,
     * whether the query fails tells whether the values before it are NULL, so those values are
     * computed on (measured on MariaDB 10.11: {@code coalesce(NULL, pow(10, 400 + id - id))} fails,
     * {@code coalesce('x', ...)} does not).
     */
    private static List<Value> fallbacks(List<Value> args, String name) {
        List<Value> out = new ArrayList<>(args);
        String step = name.equals("coalesce") || name.equals("ifnull") ? name + " fallback" : name + " before a failing argument";
        for (int i = args.size() - 1; i > 0; i--) {
            if (args.get(i).mayFail()) {
                for (int j = 0; j < i; j++) {
                    out.set(j, out.get(j).through(FlowStep.partial(step)));
                }
                break;
            }
        }
        return out;
    }

    /** Rendered text, and whether computing it can fail. */
    record Rendered(String sql, boolean mayFail) {
    }

    private Rendered groupConcatClauses(Function f, Ctx ctx) {
        StringBuilder out = new StringBuilder();
        boolean mayFail = false;
        if (f.getOrderByElements() != null && !f.getOrderByElements().isEmpty()) {
            Rendered order = orderList(f.getOrderByElements(), new Ctx(ctx.scope(), Clause.AGGREGATE_ORDER, ctx.depth()),
                    UsePosition.ORDERING);
            out.append(" ORDER BY ").append(order.sql());
            mayFail = order.mayFail();
        }
        if (f.getKeywordArguments() != null) {
            for (Function.KeywordArgument k : f.getKeywordArguments()) {
                if (!"SEPARATOR".equalsIgnoreCase(k.getKeyword()) || !(k.getExpression() instanceof StringValue s)
                        || s.getClass() != StringValue.class) {
                    throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, "GROUP_CONCAT takes ORDER BY and SEPARATOR '...' only.");
                }
                out.append(" SEPARATOR ").append(Literals.string(s));
            }
        }
        return new Rendered(out.toString(), mayFail);
    }

    /** An ORDER BY list of expressions (windows and aggregates: no positions, no aliases), each a use at {@code position}. */
    Rendered orderList(List<OrderByElement> elements, Ctx ctx, UsePosition position) {
        List<String> out = new ArrayList<>();
        boolean mayFail = false;
        for (OrderByElement o : elements) {
            if (o.getNullOrdering() != null || o.getWithFill() != null || o.isMysqlWithRollup()) {
                throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, "NULLS FIRST, NULLS LAST and WITH ROLLUP are not allowed in ORDER BY.");
            }
            if (Literals.positionLiteral(o.getExpression()).isPresent()) {
                throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, "Order a window or an aggregate by expressions, not by positions.");
            }
            Value v = ctx.clause() == Clause.WINDOW ? windowKey(o.getExpression(), ctx, true) : render(o.getExpression(), ctx);
            facts.use(v, position);
            mayFail |= v.mayFail();
            out.add(v.sql() + (o.isAscDescPresent() ? (o.isAsc() ? " ASC" : " DESC") : ""));
        }
        return new Rendered(String.join(", ", out), mayFail);
    }

    private static boolean isPlainStar(AllColumns a) {
        return a.getClass() == AllColumns.class && "*".equals(a.toString().strip());
    }

    private Amplification amplification(String name, MySqlFunctions.Rule rule, List<Value> args) {
        return switch (rule) {
            case LINEAR -> throw new IllegalStateException("not amplifying: " + name);
            case REPEAT -> {
                Optional<Long> count = args.size() > 1 ? args.get(1).integerLiteral() : Optional.empty();
                if (count.isEmpty()) {
                    yield Amplification.unbounded(name);
                }
                Optional<String> text = args.get(0).stringLiteral();
                yield text.isPresent() ? Amplification.absolute(name, saturated((long) text.get().length(), count.get()))
                        : Amplification.relative(name, count.get());
            }
            case PAD -> args.size() > 1 && args.get(1).integerLiteral().isPresent()
                    ? Amplification.absolute(name, args.get(1).integerLiteral().get()) : Amplification.unbounded(name);
            case SPACE -> !args.isEmpty() && args.get(0).integerLiteral().isPresent()
                    ? Amplification.absolute(name, args.get(0).integerLiteral().get()) : Amplification.unbounded(name);
            case REPLACE -> args.size() > 2 && args.get(2).stringLiteral().isPresent()
                    ? Amplification.relative(name, Math.max(1, args.get(2).stringLiteral().get().length()))
                    : Amplification.unbounded(name);
        };
    }

    private static long saturated(long a, long b) {
        if (a == 0 || b == 0) {
            return 0;
        }
        return a > Long.MAX_VALUE / 4 / b ? Long.MAX_VALUE / 4 : a * b;
    }

    // ------------------------------------------------------------------ windows

    private Value window(AnalyticExpression a, Ctx ctx) {
        ctx.scope().windowFunction();
        String name = Names.fold(a.getName());
        if (!FUNCTION_NAME.matcher(name).matches()) {
            throw new GuardException(ErrorCode.FUNCTION_NOT_ALLOWED, "Quoted function names are not allowed.");
        }
        MySqlFunctions.Entry entry = requireAllowed(name);
        if (entry.category() != MySqlFunctions.Category.WINDOW && entry.category() != MySqlFunctions.Category.AGGREGATE
                || name.equals("group_concat")) {
            throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, "The function " + SafeText.identifier(name)
                    + " cannot be used as a window function.");
        }
        if (a.getType() != AnalyticType.OVER || a.getKeep() != null || a.getFilterExpression() != null
                || a.isIgnoreNulls() || a.isIgnoreNullsOutside() || a.isUnique() || a.getHavingClause() != null
                || a.getNullHandling() != null || a.getLimit() != null || a.getOnOverflowTruncate() != null
                || (a.getKeywordArguments() != null && !a.getKeywordArguments().isEmpty())
                || (a.getFuncOrderBy() != null && !a.getFuncOrderBy().isEmpty()) || a.isDistinct()) {
            throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, "The window function uses a clause that is not allowed: "
                    + "write name(args) OVER (PARTITION BY ... ORDER BY ... [ROWS|RANGE frame]).");
        }
        facts.function(name);
        List<Value> args = new ArrayList<>();
        List<String> rendered = new ArrayList<>();
        if (a.isAllColumns() || a.getExpression() instanceof AllColumns star && isPlainStar(star)) {
            if (!name.equals("count")) {
                throw new GuardException(ErrorCode.WILDCARD_NOT_ALLOWED, "Only COUNT(*) may use *.");
            }
            rendered.add("*");
        } else {
            Ctx argCtx = windowArguments(ctx);
            for (Expression e : new Expression[] {a.getExpression(), a.getOffset(), a.getDefaultValue()}) {
                if (e == null) {
                    continue;
                }
                if (e instanceof ExpressionList<?> list) {
                    for (Expression item : list) {
                        Value v = render(item, argCtx);
                        args.add(v);
                        rendered.add(v.sql());
                    }
                } else {
                    Value v = render(e, argCtx);
                    args.add(v);
                    rendered.add(v.sql());
                }
            }
        }
        Ctx windowCtx = new Ctx(ctx.scope(), Clause.WINDOW, ctx.depth());
        StringBuilder over = new StringBuilder();
        ExpressionList<?> partition = a.getPartitionExpressionList();
        List<OrderByElement> order = a.getOrderByElements();
        WindowElement frame = a.getWindowElement();
        if (a.getWindowName() != null) {
            // OVER w: the named window's definition, written out (OVER (w ...) does not parse and stays refused)
            if ((partition != null && !partition.isEmpty()) || (order != null && !order.isEmpty()) || frame != null) {
                throw Literals.unsafe("window reference form");
            }
            WindowDefinition named = ctx.scope().window(a.getWindowName());
            if (named.getClass() != WindowDefinition.class || (named.getPartitionBy() != null && named.getPartitionBy().isBrackets())) {
                throw Literals.unsafe("window definition form");
            }
            partition = named.getPartitionExpressionList();
            order = named.getOrderByElements();
            frame = named.getWindowElement();
        }
        if (partition != null && !partition.isEmpty()) {
            List<String> keys = new ArrayList<>();
            for (Expression p : partition) {
                Value v = windowKey(p, windowCtx, false);
                facts.use(v, UsePosition.WINDOW);
                keys.add(v.sql());
            }
            over.append("PARTITION BY ").append(String.join(", ", keys));
        }
        if (order != null && !order.isEmpty()) {
            over.append(over.isEmpty() ? "" : " ").append("ORDER BY ").append(orderList(order, windowCtx, UsePosition.WINDOW).sql());
        }
        if (frame != null) {
            over.append(over.isEmpty() ? "" : " ").append(frame(frame));
        }
        String sql = name + "(" + String.join(", ", rendered) + ") OVER (" + over + ")";
        return call(sql, name, entry, args);
    }

    /**
     * A window's PARTITION BY or ORDER BY key. A key that is a bare name (parentheses aside) and no column
     * of the FROM tables means the select item of that alias on MariaDB 10.11, wherever the item stands in
     * the list (measured: {@code rank() OVER (ORDER BY x) AS r, a AS x} orders by {@code a}); the item's
     * expression is written in its place, so the server has no name to resolve. A name that is both an
     * alias and a column is an ORDER BY key's alias, as in a statement's ORDER BY (MariaDB resolves both in
     * {@code find_order_in_list} without looking at the tables; measured on 10.11, grouped and not, over a
     * derived table, in parentheses: {@code SELECT id, 0 - amount AS amount, rank() OVER (ORDER BY amount)} ranks
     * by {@code 0 - amount}); a PARTITION BY key of that name is refused ({@link SelectRenderer#aliasReference}):
     * MariaDB looks it up as a GROUP BY item, in the tables too, and reads the column where one table has it
     * ({@code 10 - id AS tenant ... PARTITION BY tenant} partitions by the column).
     *
     * @param ordering whether the key is one of the window's ORDER BY keys, not a PARTITION BY key
     */
    private Value windowKey(Expression e, Ctx ctx, boolean ordering) {
        Expression inner = unwrap(e);
        if (inner.getClass() == Column.class && (((Column) inner).getTable() == null || ((Column) inner).getTable().getName() == null)) {
            Column c = (Column) inner;
            String name = MySqlQuoting.unquote(c.getColumnName());
            if (c.getColumnName().startsWith("`") || !SERVER_VALUE_WORDS.contains(name.toLowerCase(Locale.ROOT))) {
                Optional<Value> alias = queries.aliasReference(name, ctx, true, ordering);
                if (alias.isPresent()) {
                    return alias.get();
                }
                requireNotReadThroughAMerge(name, ctx.scope());
            }
        }
        return render(e, ctx);
    }

    /**
     * Refuses a bare window key that MariaDB 10.11 would read as another column: over a derived table or CTE it merges
     * into the block, a whole PARTITION BY or ORDER BY key that names no select item is looked up among the merged base
     * tables' columns, and a column of that name there wins over the derived table's own (measured: over {@code (SELECT
     * c.id AS amount, 0 AS id FROM c) w0}, {@code max(amount) OVER (ORDER BY id)} ran 1, 2, ..., 8 as if ordered by
     * {@code c.id}, and so did {@code OVER (ORDER BY (id))}, a nested merge and a CTE; {@code w0.id}, {@code id + 0}, a
     * materialized derived table and an item {@code id} in the select list read 0; differential seed 75839). The derived
     * column is fine where it is that very base column; elsewhere the query is refused with the qualified name to write.
     */
    private static void requireNotReadThroughAMerge(String name, Scope scope) {
        String key = Names.fold(name);
        if (scope.items().stream().anyMatch(i -> Names.fold(i.label()).equals(key))) {
            return;
        }
        List<Scope.Relation> offering = scope.relationsWithColumn(name);
        if (offering.size() != 1 || offering.get(0).base() || !offering.get(0).mergedNames().contains(key)) {
            return;
        }
        Scope.Relation derived = offering.get(0);
        Value value = derived.column(name).orElseThrow().value();
        boolean same = value.flows().size() == 1 && value.flows().get(0).chain().isEmpty()
                && value.flows().get(0).column().column().equals(key) && value.literal().isEmpty();
        if (!same) {
            throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, "Write the window key " + SafeText.identifier(name) + " qualified ("
                    + SafeText.identifier(derived.visibleName() + "." + name) + "): MariaDB reads a bare name there as the column of"
                    + " that name inside the derived table or common table expression, not the column it outputs.");
        }
    }

    /** The expression inside any number of parentheses. */
    static Expression unwrap(Expression e) {
        Expression out = e;
        while (true) {
            if (out instanceof Parenthesis p) {
                out = p.getExpression();
            } else if (out != null && out.getClass() == ParenthesedExpressionList.class && ((ParenthesedExpressionList<?>) out).size() == 1) {
                out = ((ParenthesedExpressionList<?>) out).get(0);
            } else {
                return out;
            }
        }
    }

    private static String frame(WindowElement w) {
        if (w.getClass() != WindowElement.class || w.getType() == null || w.getType() == WindowElement.Type.GROUPS
                || w.getExclusion() != null) {
            throw Literals.unsafe("window frame");
        }
        String type = w.getType() == WindowElement.Type.ROWS ? "ROWS" : "RANGE";
        if (w.getRange() != null) {
            return type + " BETWEEN " + offset(w.getRange().getStart()) + " AND " + offset(w.getRange().getEnd());
        }
        return type + " " + offset(w.getOffset());
    }

    private static String offset(WindowOffset o) {
        if (o == null || o.getType() == null || o.getClass() != WindowOffset.class) {
            throw Literals.unsafe("window frame");
        }
        Expression e = o.getExpression();
        String bound = switch (o.getType()) {
            case CURRENT -> "CURRENT ROW";
            case PRECEDING, FOLLOWING -> (e == null ? "UNBOUNDED" : frameNumber(e)) + " " + o.getType().name();
            default -> throw Literals.unsafe("window frame");
        };
        if (o.getType() == WindowOffset.Type.CURRENT && e != null) {
            throw Literals.unsafe("window frame");
        }
        return bound;
    }

    private static String frameNumber(Expression e) {
        if (e.getClass() != LongValue.class) {
            throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, "Window frames take plain row counts.");
        }
        return Literals.integer((LongValue) e);
    }
}
