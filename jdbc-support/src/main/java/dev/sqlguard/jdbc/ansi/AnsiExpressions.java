package dev.sqlguard.jdbc.ansi;

import static dev.sqlguard.jdbc.ansi.Amplifications.FIXED_FACTORS;
import static dev.sqlguard.jdbc.ansi.Amplifications.compounded;
import static dev.sqlguard.jdbc.ansi.AnsiErrors.construct;
import static dev.sqlguard.jdbc.ansi.AnsiErrors.unsafe;
import static dev.sqlguard.jdbc.ansi.AnsiLiterals.DECIMAL;
import static dev.sqlguard.jdbc.ansi.AnsiLiterals.number;
import static dev.sqlguard.jdbc.ansi.AnsiLiterals.string;
import static dev.sqlguard.jdbc.ansi.QueryRenderer.direction;
import static dev.sqlguard.jdbc.ansi.RenderFacts.MARK;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

import dev.sqlguard.domain.Amplification;
import dev.sqlguard.domain.CostClass;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.FlowStep;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.SafeText;
import dev.sqlguard.domain.UsePosition;
import dev.sqlguard.jdbc.ansi.Flows.Flow;
import dev.sqlguard.jdbc.ansi.Flows.Value;
import dev.sqlguard.jdbc.ansi.RenderScope.Out;
import dev.sqlguard.jdbc.ansi.RenderScope.Query;
import dev.sqlguard.jdbc.ansi.RenderScope.Scope;
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
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExtractExpression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.IntervalExpression;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NotExpression;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.TimeKeyExpression;
import net.sf.jsqlparser.expression.TrimFunction;
import net.sf.jsqlparser.expression.WhenClause;
import net.sf.jsqlparser.expression.WindowDefinition;
import net.sf.jsqlparser.expression.WindowElement;
import net.sf.jsqlparser.expression.WindowOffset;
import net.sf.jsqlparser.expression.operators.arithmetic.Addition;
import net.sf.jsqlparser.expression.operators.arithmetic.Concat;
import net.sf.jsqlparser.expression.operators.arithmetic.Division;
import net.sf.jsqlparser.expression.operators.arithmetic.Modulo;
import net.sf.jsqlparser.expression.operators.arithmetic.Multiplication;
import net.sf.jsqlparser.expression.operators.arithmetic.Subtraction;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.conditional.OrExpression;
import net.sf.jsqlparser.expression.operators.relational.Between;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ExistsExpression;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.GreaterThan;
import net.sf.jsqlparser.expression.operators.relational.GreaterThanEquals;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.IsBooleanExpression;
import net.sf.jsqlparser.expression.operators.relational.IsDistinctExpression;
import net.sf.jsqlparser.expression.operators.relational.IsNullExpression;
import net.sf.jsqlparser.expression.operators.relational.LikeExpression;
import net.sf.jsqlparser.expression.operators.relational.MinorThan;
import net.sf.jsqlparser.expression.operators.relational.MinorThanEquals;
import net.sf.jsqlparser.expression.operators.relational.NotEqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.Values;

/**
 * The value expressions of the {@link AnsiRenderer}: operators, predicates, CASE, casts, function, aggregate and
 * window calls, each rendered fully parenthesised with the flows of the base-column values into it.
 */
@SuppressWarnings({"deprecation", "removal"})
final class AnsiExpressions {
    private final RenderContext ctx;
    private final AnsiDialect dialect;
    private final AnsiDialect.Lexicon lexicon;
    private final AnsiNames naming;
    private final FunctionRules rules;
    private final SchemaSnapshot schema;
    private final RenderFacts facts;

    AnsiExpressions(RenderContext ctx) {
        this.ctx = ctx;
        this.dialect = ctx.dialect;
        this.lexicon = ctx.lexicon;
        this.naming = ctx.naming;
        this.rules = ctx.rules;
        this.schema = ctx.schema;
        this.facts = ctx.facts;
    }

    private static final int MAX_EXPRESSION_DEPTH = 64;

    private static final Pattern FUNCTION_NAME = Pattern.compile("[a-z_][a-z0-9_]*");

    /** The operators a quantified comparison ({@code x op ANY (subquery)}) may take, as {@link #binaryOperator} names them. */
    private static final Set<String> COMPARISONS = Set.of("=", "<>", "<", "<=", ">", ">=");

    /**
     * The operators that compare a row of values with the rows of a subquery through ANY, SOME or ALL,
     * {@code (a, b) = ANY (SELECT x, y ...)}: those measured on PostgreSQL 15 and Trino 483.
     */
    private static final Set<String> ROW_QUANTIFIED = Set.of("=", "<>");

    /** The quantifiers, lower case, of a comparison that JSqlParser reads as a call ({@link #quantifiedCall}). */
    private static final Set<String> QUANTIFIERS = Set.of("any", "some", "all");

    /** A collation name as written: a plain identifier or one double-quoted identifier (never qualified). */
    private static final Pattern COLLATION_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*|\"([^\"]|\"\")+\"");

    /** Whether a call carries any clause besides its arguments (ORDER BY, KEEP, named arguments, ...). */
    static boolean hasClauses(Function f) {
        return f.getNamedParameters() != null || KeywordForms.hasClausesBesideArguments(f);
    }

    Value expr(Expression e, Scope scope, int depth) {
        if (depth > MAX_EXPRESSION_DEPTH) {
            throw new GuardException(ErrorCode.QUERY_TOO_COMPLEX, "The query nests expressions too deeply.");
        }
        int d = depth + 1;
        if (e == null) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "An expression is missing.");
        }
        Class<?> k = e.getClass();
        if (k == Column.class) {
            return column((Column) e, scope);
        }
        if (k == JdbcParameter.class) {
            JdbcParameter p = (JdbcParameter) e;
            if (p.isUseFixedIndex() || !"?".equals(p.getParameterCharacter()) || p.getIndex() == null) {
                throw construct("Use ? for parameters.");
            }
            return Value.literal(MARK + Integer.toString(p.getIndex()) + MARK);
        }
        if (k == LongValue.class) {
            return Value.literal(number((LongValue) e));
        }
        if (k == DoubleValue.class) {
            String text = e.toString();
            if (!DECIMAL.matcher(text).matches() || text.chars().noneMatch(Character::isDigit)) {
                throw unsafe("number literal");
            }
            return Value.literal(text);
        }
        if (k == StringValue.class) {
            StringValue s = (StringValue) e;
            if (s.getPrefix() != null || !"'".equals(s.getQuoteStr())) {
                throw unsafe("prefixed string literal");
            }
            return Value.literal(naming.string(s.getNotExcapedValue()));
        }
        if (k == NullValue.class) {
            return Value.literal("NULL");
        }
        if (k == BooleanValue.class) {
            return Value.literal(((BooleanValue) e).getValue() ? "TRUE" : "FALSE");
        }
        if (k == DateTimeLiteralExpression.class) {
            return Value.literal(dateTime((DateTimeLiteralExpression) e));
        }
        if (k == IntervalExpression.class) {
            return Value.literal(dialect.interval((IntervalExpression) e));
        }
        if (k == TimeKeyExpression.class) {
            return Value.literal(timeKey((TimeKeyExpression) e));
        }
        if (k == ParenthesedExpressionList.class) {
            ParenthesedExpressionList<?> list = (ParenthesedExpressionList<?>) e;
            if (list.size() != 1) {
                throw construct("A row of values is allowed only compared with another, (a, b) = (1, 'x'), or tested with IN:"
                        + " (a, b) IN (SELECT x, y ...).");
            }
            // every composite node renders its own parentheses, so a grouping adds none (the text is a fixpoint)
            return expr(list.get(0), scope, d);
        }
        if (k == ParenthesedSelect.class) {
            Query q = subquery((ParenthesedSelect) e, scope);
            if (q.outputs().size() != 1) {
                throw new GuardException(ErrorCode.SYNTAX_ERROR, "A subquery used as a value must return one column.");
            }
            return new Value("(" + q.sql() + ")", q.outputs().get(0).flows());
        }
        if (k == ExistsExpression.class) {
            ExistsExpression x = (ExistsExpression) e;
            if (!(x.getRightExpression() instanceof ParenthesedSelect ps)) {
                throw unsafe("EXISTS form");
            }
            Query q = subquery(ps, scope);
            for (Out o : q.outputs()) {
                use(o.flows(), UsePosition.SUBQUERY_PREDICATE);
            }
            return Value.literal("(" + (x.isNot() ? "NOT " : "") + "EXISTS (" + q.sql() + "))");
        }
        if (k == SignedExpression.class) {
            SignedExpression s = (SignedExpression) e;
            if (s.getSign() != '-' && s.getSign() != '+') {
                throw unsafe("bitwise operator");
            }
            if (s.getExpression() instanceof CollateExpression) {
                // JSqlParser reads -x COLLATE c as -(x COLLATE c); PostgreSQL's unary minus binds tighter, (-x) COLLATE c
                throw new GuardException(ErrorCode.UNSAFE_SYNTAX, "A sign before a COLLATE is read differently by databases;"
                        + " write parentheses: (-x) COLLATE ... or -(x COLLATE ...).");
            }
            Value inner = expr(s.getExpression(), scope, d);
            return new Value("(" + s.getSign() + inner.sql() + ")", inner.flows()).then(FlowStep.partial(String.valueOf(s.getSign())));
        }
        if (k == NotExpression.class) {
            NotExpression n = (NotExpression) e;
            if (n.isExclamationMark()) {
                throw unsafe("! operator");
            }
            Value inner = expr(n.getExpression(), scope, d);
            return new Value("(NOT " + inner.sql() + ")", inner.flows()).then(FlowStep.partial("not"));
        }
        String binary = binaryOperator(e);
        if (binary != null && (((BinaryExpression) e).getRightExpression() instanceof AnyComparisonExpression
                || quantifiedCall(((BinaryExpression) e).getRightExpression()) != null)) {
            return quantified((BinaryExpression) e, binary, scope, d);
        }
        if (binary != null && (isRow(((BinaryExpression) e).getLeftExpression()) || isRow(((BinaryExpression) e).getRightExpression()))) {
            return rowComparison((BinaryExpression) e, binary, scope, d);
        }
        if (binary != null) {
            BinaryExpression b = (BinaryExpression) e;
            Value left = expr(b.getLeftExpression(), scope, d);
            Value right = expr(b.getRightExpression(), scope, d);
            boolean total = binary.equals("||");
            FlowStep step = total ? FlowStep.total("||") : FlowStep.partial(binary.toLowerCase(Locale.ROOT));
            Value out = new Value("(" + left.sql() + " " + binary + " " + right.sql() + ")", Flows.merge(List.of(left, right), step));
            if (total) {
                copies("||", out);
            }
            return out;
        }
        if (k == Between.class) {
            Between b = (Between) e;
            if (b.isUsingSymmetric() || b.isUsingAsymmetric()) {
                throw unsafe("BETWEEN SYMMETRIC");
            }
            if (isBarePredicate(b.getBetweenExpressionStart()) || isBarePredicate(b.getBetweenExpressionEnd())) {
                // JSqlParser 5.4 reads a BETWEEN b AND c = d as a BETWEEN b AND (c = d); PostgreSQL and Trino read a bound
                // as a value expression only, (a BETWEEN b AND c) = d: never answer one reading for the other
                throw new GuardException(ErrorCode.UNSAFE_SYNTAX, "A BETWEEN bound is a comparison written without parentheses,"
                        + " which databases read differently; write it more plainly, with parentheses around the BETWEEN or its bound.");
            }
            Value l = expr(b.getLeftExpression(), scope, d);
            Value lo = expr(b.getBetweenExpressionStart(), scope, d);
            Value hi = expr(b.getBetweenExpressionEnd(), scope, d);
            return new Value("(" + l.sql() + (b.isNot() ? " NOT BETWEEN " : " BETWEEN ") + lo.sql() + " AND " + hi.sql() + ")",
                    Flows.merge(List.of(l, lo, hi), FlowStep.partial("between")));
        }
        if (k == InExpression.class) {
            return in((InExpression) e, scope, d);
        }
        if (k == IsNullExpression.class) {
            IsNullExpression n = (IsNullExpression) e;
            Value l = expr(n.getLeftExpression(), scope, d);
            return new Value("(" + l.sql() + (n.isNot() ? " IS NOT NULL)" : " IS NULL)"), l.flows()).then(FlowStep.partial("is null"));
        }
        if (k == IsBooleanExpression.class) {
            IsBooleanExpression n = (IsBooleanExpression) e;
            Value l = expr(n.getLeftExpression(), scope, d);
            return new Value("(" + l.sql() + " IS " + (n.isNot() ? "NOT " : "") + (n.isTrue() ? "TRUE" : "FALSE") + ")", l.flows())
                    .then(FlowStep.partial("is true"));
        }
        if (k == IsDistinctExpression.class) {
            IsDistinctExpression x = (IsDistinctExpression) e;
            Value l = expr(x.getLeftExpression(), scope, d);
            Value r = expr(x.getRightExpression(), scope, d);
            return new Value("(" + l.sql() + (x.isNot() ? " IS NOT DISTINCT FROM " : " IS DISTINCT FROM ") + r.sql() + ")",
                    Flows.merge(List.of(l, r), FlowStep.partial("is distinct from")));
        }
        if (k == LikeExpression.class) {
            return like((LikeExpression) e, scope, d);
        }
        if (k == CaseExpression.class) {
            return caseExpr((CaseExpression) e, scope, d);
        }
        if (k == CastExpression.class) {
            CastExpression c = (CastExpression) e;
            if (c.getFormat() != null || (c.getColumnDefinitions() != null && !c.getColumnDefinitions().isEmpty())
                    || (c.keyword != null && !c.keyword.equalsIgnoreCase("CAST") && !c.keyword.isEmpty() && !c.keyword.equals("::"))) {
                throw unsafe("cast form");
            }
            Value inner = expr(c.getLeftExpression(), scope, d);
            String type = lexicon.castTypes().render(c.getColDataType());
            boolean toText = rules.totalCast(type);
            FlowStep step = toText ? FlowStep.total("cast") : FlowStep.partial("cast");
            return new Value("CAST(" + inner.sql() + " AS " + type + ")", inner.flows()).then(step);
        }
        if (k == ExtractExpression.class) {
            ExtractExpression x = (ExtractExpression) e;
            String field = x.getName() == null ? "" : x.getName().toLowerCase(Locale.ROOT).strip();
            if (!lexicon.extractFields().contains(field)) {
                throw construct(lexicon.extractFieldsMessage());
            }
            allow("extract");
            Value inner = expr(x.getExpression(), scope, d);
            return new Value("EXTRACT(" + field.toUpperCase(Locale.ROOT) + " FROM " + inner.sql() + ")", inner.flows())
                    .then(FlowStep.total("extract"));
        }
        if (k == CollateExpression.class) {
            return collate((CollateExpression) e, scope, d);
        }
        if (k == Function.class) {
            return function((Function) e, scope, d);
        }
        if (k == TrimFunction.class) {
            return trim((TrimFunction) e, scope, d);
        }
        if (k == AnalyticExpression.class) {
            return analytic((AnalyticExpression) e, scope, d);
        }
        if (k == AnyComparisonExpression.class) {
            throw construct("ANY, SOME and ALL stand after a comparison operator, with a subquery: x = ANY (SELECT ...).");
        }
        if (e instanceof AllColumns) {
            throw new GuardException(ErrorCode.WILDCARD_NOT_ALLOWED, "Only count(*) may use * inside an expression.");
        }
        if (k.getSimpleName().contains("Variable") || k.getSimpleName().contains("NamedParameter") || k.getSimpleName().contains("Bind")) {
            throw new GuardException(ErrorCode.VARIABLE_NOT_ALLOWED);
        }
        throw unsafe(k.getSimpleName());
    }

    /**
     * {@code x COLLATE name}, rendered {@code (x COLLATE "name")}: the collation's name as the engine reads it,
     * quoted. The value is the operand's under another ordering, so it carries exactly the operand's flows: a
     * column under COLLATE is that column wherever it filters, orders or groups.
     */
    private Value collate(CollateExpression c, Scope scope, int d) {
        if (!dialect.collate()) {
            throw construct("COLLATE does not exist on " + lexicon.engine() + ".");
        }
        String raw = c.getCollate();
        if (raw == null || !COLLATION_NAME.matcher(raw).matches()) {
            throw construct("Name a collation by a plain or double-quoted name, without a schema: COLLATE \"C\".");
        }
        String name = naming.identifier(naming.name(raw));
        Value inner = expr(c.getLeftExpression(), scope, d);
        return new Value("(" + inner.sql() + " COLLATE " + name + ")", inner.flows());
    }

    /**
     * {@code x op ANY (subquery)}, {@code x op SOME (subquery)} (the same comparison, rendered {@code ANY}) and
     * {@code x op ALL (subquery)}, for the six comparison operators, rendered {@code (x op ANY (subquery))}: the
     * subquery returns one column (one for each value of a row, {@code (a, b) = ANY (SELECT x, y ...)}, compared by
     * {@code =} or {@code <>} only), and both sides are used as an {@code IN (subquery)} uses them
     * ({@link UsePosition#SUBQUERY_PREDICATE}), so that what {@code IN} may not compare, no quantified comparison
     * compares either ({@code x = ANY (q)} is {@code x IN (q)}, {@code x <> ALL (q)} is {@code x NOT IN (q)}).
     * The subquery may be a {@code VALUES} list ({@link #listQuery}). JSqlParser 5.4 reads some of these texts as
     * a call of a function named {@code ANY}, {@code SOME} or {@code ALL} whose one argument is the subquery
     * ({@link #quantifiedCall}); that reading is taken for the comparison too.
     */
    private Value quantified(BinaryExpression b, String operator, Scope scope, int d) {
        if (!COMPARISONS.contains(operator)) {
            throw construct("ANY, SOME and ALL stand after a comparison operator (=, <>, <, <=, >, >=), with a subquery.");
        }
        Expression left = b.getLeftExpression();
        if (isRow(left) && !ROW_QUANTIFIED.contains(operator)) {
            throw construct("A row of values is compared with ANY, SOME or ALL by = or <> only: (a, b) = ANY (SELECT x, y ...).");
        }
        Expression right = b.getRightExpression();
        AnyType type;
        Select body;
        if (right instanceof AnyComparisonExpression any) {
            type = any.getAnyType();
            body = any.getSelect();
            if (!(body instanceof ParenthesedSelect)) {
                throw unsafe("ANY form");
            }
        } else {
            Function f = (Function) right;
            type = AnyType.from(f.getName());
            body = quantifiedCall(f);
        }
        if (type == null) {
            throw unsafe("ANY form");
        }
        List<Value> l = isRow(left) ? row(left, scope, d) : List.of(expr(left, scope, d));
        Query q = body instanceof ParenthesedSelect ps ? listQuery(ps, scope) : query(body, scope, false);
        String quantifier = switch (type) {
            case ANY, SOME -> " ANY";
            case ALL -> " ALL";
        };
        return subqueryPredicate(l, operator + quantifier, q, "A comparison with ANY or ALL needs a subquery that returns one column.");
    }

    /**
     * {@code (l <keyword> (q))}, for {@code IN}, {@code NOT IN} and the quantified comparisons, where {@code l} is one
     * value or a row of values ({@code (a, b) IN (SELECT x, y ...)}): {@code q} returns one column for each value,
     * and each value and its column are {@link UsePosition#SUBQUERY_PREDICATE} uses, as in the one-value form.
     */
    private Value subqueryPredicate(List<Value> l, String keyword, Query q, String oneColumn) {
        if (q.outputs().size() != l.size()) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, l.size() == 1 ? oneColumn
                    : "A row of " + l.size() + " values compared with a subquery needs a subquery that returns " + l.size() + " columns.");
        }
        for (int i = 0; i < l.size(); i++) {
            use(l.get(i).flows(), UsePosition.SUBQUERY_PREDICATE);
            use(q.outputs().get(i).flows(), UsePosition.SUBQUERY_PREDICATE);
        }
        return Value.literal("(" + rowSql(l) + " " + keyword + " (" + q.sql() + "))");
    }

    /** Whether a node is a row of values, {@code (a, b, ...)}: a parenthesised list that is not one value in parentheses. */
    private static boolean isRow(Expression e) {
        return e instanceof ParenthesedExpressionList<?> list && list.size() != 1;
    }

    /**
     * The values of a row, {@code (a, b, ...)}, each rendered as any value is (a row inside a row is refused there);
     * a row has two values or more.
     */
    private List<Value> row(Expression e, Scope scope, int d) {
        if (!(e instanceof ParenthesedExpressionList<?> list) || list.size() < 2) {
            throw construct("A row of values has two values or more: (a, b).");
        }
        List<Value> out = new ArrayList<>();
        for (Expression v : list) {
            out.add(expr(v, scope, d));
        }
        return out;
    }

    /** The text of one value, or of a row of values in its parentheses. */
    private static String rowSql(List<Value> values) {
        return values.size() == 1 ? values.get(0).sql() : "(" + String.join(", ", values.stream().map(Value::sql).toList()) + ")";
    }

    /**
     * {@code (a, b) = (c, d)} and the other five comparisons of two rows of as many values (PostgreSQL 15 and Trino 483
     * both compare rows in order, the first unequal pair deciding), rendered {@code ((a, b) = (c, d))}, each value's
     * flows into the comparison as in {@code a = c}. A row compared with a single value or a subquery, rows of unequal
     * widths and any other operator on a row are refused.
     */
    private Value rowComparison(BinaryExpression b, String operator, Scope scope, int d) {
        if (!COMPARISONS.contains(operator)) {
            throw construct("A row of values is compared with a comparison operator, (a, b) = (1, 'x'), or tested with IN.");
        }
        if (!isRow(b.getLeftExpression()) || !isRow(b.getRightExpression())) {
            throw construct("A row of values is compared with a row of values written out: (a, b) = (1, 'x').");
        }
        List<Value> left = row(b.getLeftExpression(), scope, d);
        List<Value> right = row(b.getRightExpression(), scope, d);
        if (left.size() != right.size()) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "Rows compared with " + operator + " need as many values on each side.");
        }
        List<Value> all = new ArrayList<>(left);
        all.addAll(right);
        return new Value("(" + rowSql(left) + " " + operator + " " + rowSql(right) + ")", Flows.merge(all, FlowStep.partial(operator)));
    }

    /**
     * The subquery of {@code ANY (SELECT ...)} where JSqlParser 5.4 reads it as a call: an unquoted, unqualified
     * {@code ANY}, {@code SOME} or {@code ALL} with one argument, a SELECT or set operation written in the call's
     * own parentheses, and no other clause; null for any other node. A parenthesised query or a VALUES list as the
     * argument ({@code ANY ((SELECT ...))}, which PostgreSQL may read as an array) is not one.
     */
    private static Select quantifiedCall(Expression e) {
        if (!(e instanceof Function f) || f.getClass() != Function.class || f.getMultipartName() == null || f.getMultipartName().size() != 1) {
            return null;
        }
        String name = f.getName();
        if (name == null || !QUANTIFIERS.contains(name.toLowerCase(Locale.ROOT)) || hasClauses(f) || f.isDistinct() || f.isAllColumns()
                || f.isEscaped() || f.getParameters() == null || f.getParameters().getClass() != ExpressionList.class || f.getParameters().size() != 1) {
            return null;
        }
        Object arg = f.getParameters().get(0);
        if (arg instanceof Select select && (arg.getClass() == PlainSelect.class || arg.getClass() == SetOperationList.class)) {
            return select;
        }
        return null;
    }

    /**
     * The subquery of {@code IN (...)} or of a quantified comparison: a query, or a {@code VALUES} list
     * ({@link QueryRenderer#values}), which sees this level's columns as a subquery does.
     */
    Query listQuery(ParenthesedSelect ps, Scope scope) {
        if (ps.getSelect() != null && ps.getSelect().getClass() == Values.class) {
            if (ps.getAlias() != null || ps.getPivot() != null || ps.getUnPivot() != null || QueryRenderer.hasTail(ps)
                    || (ps.getWithItemsList() != null && !ps.getWithItemsList().isEmpty())) {
                throw unsafe("subquery alias");
            }
            return ctx.queries.values((Values) ps.getSelect(), scope, scope);
        }
        return subquery(ps, scope);
    }

    /**
     * A subquery used as a value, in EXISTS, IN or a quantified comparison: rendered (and so checked and counted) each
     * time, and written as the first text of the same subquery at this level ({@link Scope#subqueryTexts}), unless it
     * holds a parameter, whose marker names the parameter's own position.
     */
    Query subquery(ParenthesedSelect ps, Scope scope) {
        if (ps.getAlias() != null || ps.getPivot() != null || ps.getUnPivot() != null) {
            throw unsafe("subquery alias");
        }
        Query q = query(ps.getSelect(), scope, false);
        String written = ps.toString();
        if (written.indexOf('?') >= 0) {
            return q;
        }
        return new Query(scope.subqueryTexts.computeIfAbsent(written + "\0" + scope.outputsReadFirst.keySet(), key -> q.sql()), q.outputs());
    }

    private static String binaryOperator(Expression e) {
        Class<?> c = e.getClass();
        if (c == AndExpression.class) {
            return "AND";
        } else if (c == OrExpression.class) {
            return "OR";
        } else if (c == EqualsTo.class) {
            return "=";
        } else if (c == NotEqualsTo.class) {
            return "<>";
        } else if (c == GreaterThan.class) {
            return ">";
        } else if (c == GreaterThanEquals.class) {
            return ">=";
        } else if (c == MinorThan.class) {
            return "<";
        } else if (c == MinorThanEquals.class) {
            return "<=";
        } else if (c == Addition.class) {
            return "+";
        } else if (c == Subtraction.class) {
            return "-";
        } else if (c == Multiplication.class) {
            return "*";
        } else if (c == Division.class) {
            return "/";
        } else if (c == Modulo.class) {
            return "%";
        } else if (c == Concat.class) {
            return "||";
        }
        return null;
    }

    Value in(InExpression in, Scope scope, int d) {
        if (in.isGlobal() || in.getOldOracleJoinSyntax() != 0) {
            throw unsafe("IN form");
        }
        Expression left = in.getLeftExpression();
        List<Value> l = isRow(left) ? row(left, scope, d) : List.of(expr(left, scope, d));
        Expression right = in.getRightExpression();
        if (right instanceof ParenthesedSelect ps) {
            return subqueryPredicate(l, in.isNot() ? "NOT IN" : "IN", listQuery(ps, scope), "IN (subquery) needs a subquery that returns one column.");
        }
        if (right == null || right.getClass() != ParenthesedExpressionList.class || ((ParenthesedExpressionList<?>) right).isEmpty()) {
            throw unsafe("IN without a value list");
        }
        if (l.size() > 1) {
            return rowInList(l, (ParenthesedExpressionList<?>) right, in.isNot(), scope, d);
        }
        List<Value> values = new ArrayList<>(l);
        List<String> texts = new ArrayList<>();
        for (Expression v : (ParenthesedExpressionList<?>) right) {
            Value rendered = expr(v, scope, d);
            values.add(rendered);
            texts.add(rendered.sql());
        }
        return new Value("(" + l.get(0).sql() + (in.isNot() ? " NOT IN (" : " IN (") + String.join(", ", texts) + "))",
                Flows.merge(values, FlowStep.partial("in")));
    }

    /**
     * {@code (a, b) [NOT] IN ((1, 'x'), (2, 'y'))}: each member a row written out with as many values as the row
     * tested, the flows of every value into the test as in the one-value list.
     */
    private Value rowInList(List<Value> row, ParenthesedExpressionList<?> list, boolean not, Scope scope, int d) {
        List<Value> values = new ArrayList<>(row);
        List<String> texts = new ArrayList<>();
        for (Expression member : list) {
            if (!isRow(member)) {
                throw construct("Each member of the list a row is tested IN is a row of values written out: (a, b) IN ((1, 'x'), (2, 'y')).");
            }
            List<Value> rendered = row(member, scope, d);
            if (rendered.size() != row.size()) {
                throw new GuardException(ErrorCode.SYNTAX_ERROR, "Each row of an IN list needs as many values as the row tested.");
            }
            values.addAll(rendered);
            texts.add(rowSql(rendered));
        }
        return new Value("(" + rowSql(row) + (not ? " NOT IN (" : " IN (") + String.join(", ", texts) + "))",
                Flows.merge(values, FlowStep.partial("in")));
    }

    Value like(LikeExpression like, Scope scope, int d) {
        LikeExpression.KeyWord word = like.getLikeKeyWord();
        if ((word != LikeExpression.KeyWord.LIKE && (word != LikeExpression.KeyWord.ILIKE || !dialect.ilike())) || like.isUseBinary()) {
            throw construct(dialect.ilike() ? "Only LIKE and ILIKE are allowed for pattern matching (no SIMILAR TO or regular expressions)."
                    : "Only LIKE is allowed for pattern matching (no ILIKE, SIMILAR TO or regular expressions); use lower(x) LIKE ...");
        }
        Value l = expr(like.getLeftExpression(), scope, d);
        Value r = expr(like.getRightExpression(), scope, d);
        String keyword = word == LikeExpression.KeyWord.ILIKE ? "ILIKE" : "LIKE";
        String out = "(" + l.sql() + (like.isNot() ? " NOT " : " ") + keyword + " " + r.sql();
        List<Value> parts = new ArrayList<>(List.of(l, r));
        if (like.getEscape() != null) {
            if (!(like.getEscape() instanceof StringValue s) || s.getNotExcapedValue().length() != 1) {
                throw unsafe("LIKE ESCAPE");
            }
            Value esc = expr(like.getEscape(), scope, d);
            out += " ESCAPE " + esc.sql();
        }
        return new Value(out + ")", Flows.merge(parts, FlowStep.partial(keyword.toLowerCase(Locale.ROOT))));
    }

    private Value caseExpr(CaseExpression c, Scope scope, int d) {
        if (c.getWhenClauses() == null || c.getWhenClauses().isEmpty()) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "CASE needs a WHEN.");
        }
        List<Flow> flows = new ArrayList<>();
        FlowStep condition = FlowStep.partial("case when");
        StringBuilder out = new StringBuilder("(CASE");
        if (c.getSwitchExpression() != null) {
            Value s = expr(c.getSwitchExpression(), scope, d);
            flows.addAll(s.then(condition).flows());
            out.append(' ').append(s.sql());
        }
        for (WhenClause w : c.getWhenClauses()) {
            Value when = expr(w.getWhenExpression(), scope, d);
            Value then = expr(w.getThenExpression(), scope, d);
            flows.addAll(when.then(condition).flows());
            flows.addAll(then.flows());
            out.append(" WHEN ").append(when.sql()).append(" THEN ").append(then.sql());
        }
        if (c.getElseExpression() != null) {
            Value otherwise = expr(c.getElseExpression(), scope, d);
            flows.addAll(otherwise.flows());
            out.append(" ELSE ").append(otherwise.sql());
        }
        return new Value(out.append(" END)").toString(), flows);
    }

    String functionName(List<String> parts, boolean escaped) {
        if (parts == null || parts.isEmpty() || parts.size() > 2 || escaped) {
            throw new GuardException(ErrorCode.FUNCTION_NOT_ALLOWED, "Qualified or escaped function names are not allowed.");
        }
        if (parts.size() == 2 && !inFunctionSchema(parts.get(0))) {
            throw new GuardException(ErrorCode.FUNCTION_NOT_ALLOWED, lexicon.functionSchema()
                    .map(schema -> "Only " + schema + " functions may be called.")
                    .orElse("Only built-in functions may be called, by their bare names."));
        }
        String raw = parts.get(parts.size() - 1);
        if (raw.startsWith("\"")) {
            throw new GuardException(ErrorCode.FUNCTION_NOT_ALLOWED, "Quoted function names are not allowed.");
        }
        // function names are case-insensitive on every engine, whatever it does with other names (H2 folds them to upper case)
        String name = naming.name(raw).toLowerCase(Locale.ROOT);
        if (!FUNCTION_NAME.matcher(name).matches()) {
            throw new GuardException(ErrorCode.FUNCTION_NOT_ALLOWED, "Quoted function names are not allowed.");
        }
        allow(name);
        return name;
    }

    /**
     * {@code GROUPING(a, ...)}: which of its arguments the current grouping set rolled up, a bit mask
     * that depends on the grouping sets, never on a value. Its arguments must be grouping expressions
     * (the server checks), so each is reported as a grouping use; the result derives from no column.
     * Rendered unqualified: it is a construct of the grammar, not a function of the function schema.
     */
    Value grouping(Function f, Scope scope, int d) {
        ExpressionList<?> params = f.getParameters();
        if (params == null || params.isEmpty() || f.isDistinct() || f.isAllColumns() || hasClauses(f)
                || (params.getClass() != ExpressionList.class && params.getClass() != ParenthesedExpressionList.class)) {
            throw unsafe("GROUPING form");
        }
        List<String> args = new ArrayList<>();
        for (Expression p : params) {
            Value v = expr(p, scope, d);
            use(v.flows(), UsePosition.GROUPING);
            args.add(v.sql());
        }
        return Value.literal("GROUPING(" + String.join(", ", args) + ")");
    }

    Value function(Function f, Scope scope, int d) {
        if (dialect.groupingSets() && f.getMultipartName() != null && f.getMultipartName().size() == 1 && !f.isEscaped()
                && f.getMultipartName().get(0).equalsIgnoreCase("grouping")) {
            return grouping(f, scope, d);
        }
        String name = functionName(f.getMultipartName(), f.isEscaped());
        if (KeywordForms.matches(f, name)) {
            return keywordCall(f, name, scope, d);
        }
        if (f.getKeep() != null || f.getHavingClause() != null || f.getLimit() != null || f.getNullHandling() != null || f.isIgnoreNulls()
                || f.isIgnoreNullsOutside() || f.getNamedParameters() != null || f.getChainedParameters() != null
                || f.getAttribute() != null || f.getAttributeColumn() != null || f.getExtraKeyword() != null
                || (f.getKeywordArguments() != null && !f.getKeywordArguments().isEmpty()) || f.getOnOverflowTruncate() != null
                || f.isUnique()) {
            throw construct("The function call uses a clause that is not allowed.");
        }
        CostClass cost = rules.costClass(name).orElseThrow();
        ExpressionList<?> params = f.getParameters();
        boolean star = f.isAllColumns() || (params != null && params.size() == 1 && params.get(0) instanceof AllColumns a
                && a.getClass() == AllColumns.class && "*".equals(a.toString().strip()));
        if (star) {
            if (!name.equals("count") || f.isDistinct() || (f.getOrderByElements() != null && !f.getOrderByElements().isEmpty())) {
                throw new GuardException(ErrorCode.WILDCARD_NOT_ALLOWED, "Only count(*) may use *.");
            }
            return Value.literal(qualified("count") + "(*)");
        }
        if (params == null && !lexicon.zeroArgumentFunctions().contains(name)) {
            throw unsafe("function call form");
        }
        List<Value> args = new ArrayList<>();
        if (params != null) {
            for (Expression p : params) {
                args.add(expr(p, scope, d));
            }
        }
        boolean aggregate = rules.aggregates().contains(name);
        if ((f.isDistinct() || (f.getOrderByElements() != null && !f.getOrderByElements().isEmpty())) && !aggregate) {
            throw construct("DISTINCT and ORDER BY inside a call are allowed for aggregates only.");
        }
        if (rules.window().contains(name)) {
            throw construct("The window function " + SafeText.identifier(name) + " needs OVER (...).");
        }
        StringBuilder sql = new StringBuilder(qualified(name)).append('(');
        if (f.isDistinct()) {
            if (args.isEmpty()) {
                throw new GuardException(ErrorCode.SYNTAX_ERROR, "DISTINCT needs an argument.");
            }
            args.forEach(a -> use(a.flows(), UsePosition.DISTINCT));
            sql.append("DISTINCT ");
        }
        sql.append(String.join(", ", args.stream().map(Value::sql).toList()));
        if (f.getOrderByElements() != null && !f.getOrderByElements().isEmpty()) {
            sql.append(" ORDER BY ").append(innerOrderBy(f.getOrderByElements(), scope, UsePosition.ORDERING));
        }
        sql.append(')');
        if (cost == CostClass.AMPLIFYING) {
            amplification(name, params == null ? List.of() : List.copyOf(params), args);
        }
        Value out = new Value(sql.toString(), through(name, cost, args));
        sizeArguments(name, params == null ? List.of() : List.copyOf(params));
        if (name.equals("concat") || name.equals("concat_ws")) {
            copies(name, out);
        }
        Long factor = FIXED_FACTORS.get(name);
        if (factor != null) {
            record(Amplification.relative(name, compounded(factor, params == null ? List.of() : List.copyOf(params), args)));
        }
        return out;
    }

    /** A keyword form ({@link KeywordForms}): its arguments flow as those of the plain call, in the order written. */
    private Value keywordCall(Function f, String name, Scope scope, int d) {
        CostClass cost = rules.costClass(name).orElseThrow();
        List<Value> args = new ArrayList<>();
        for (Expression p : f.getNamedParameters()) {
            args.add(expr(p, scope, d));
        }
        return new Value(KeywordForms.render(f, name, args.stream().map(Value::sql).toList()), through(name, cost, args));
    }

    /**
     * {@code TRIM([BOTH | LEADING | TRAILING] [chars] FROM x)} and {@code TRIM(x)}, rendered in the standard's syntax
     * and decided as the function the engine's catalog names for it: {@code trim} where the catalog has it (Trino),
     * else {@code btrim}, {@code ltrim} or {@code rtrim}, which the form is on PostgreSQL.
     * The text trimmed flows through the call as its first argument, the characters as its second.
     */
    private Value trim(TrimFunction t, Scope scope, int d) {
        TrimFunction.TrimSpecification spec = t.getTrimSpecification();
        if (t.getFromExpression() == null ? spec != null || t.isUsingFromKeyword() : !t.isUsingFromKeyword()) {
            throw unsafe("TRIM form");
        }
        String name = rules.costClass("trim").isPresent() ? "trim"
                : spec == TrimFunction.TrimSpecification.LEADING ? "ltrim" : spec == TrimFunction.TrimSpecification.TRAILING ? "rtrim" : "btrim";
        allow(name);
        CostClass cost = rules.costClass(name).orElseThrow();
        Expression text = t.getFromExpression() == null ? t.getExpression() : t.getFromExpression();
        Expression chars = t.getFromExpression() == null ? null : t.getExpression();
        List<Value> args = new ArrayList<>();
        Value from = expr(text, scope, d);
        args.add(from);
        StringBuilder sql = new StringBuilder("TRIM(");
        if (spec != null) {
            sql.append(spec.name()).append(' ');
        }
        if (chars != null) {
            Value c = expr(chars, scope, d);
            args.add(c);
            sql.append('(').append(c.sql()).append(") ");
        }
        if (t.getFromExpression() != null) {
            sql.append("FROM ");
        }
        sql.append('(').append(from.sql()).append("))");
        return new Value(sql.toString(), through(name, cost, args));
    }

    /** The flows of a call's arguments, each after the step its position takes ({@link FunctionRules#argumentClass}). */
    List<Flow> through(String name, CostClass cost, List<Value> args) {
        List<Flow> out = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            out.addAll(Flows.merge(List.of(args.get(i)), new FlowStep(name, rules.argumentClass(name, i, cost))));
        }
        return out;
    }

    private String innerOrderBy(List<OrderByElement> elements, Scope scope, UsePosition position) {
        List<String> keys = new ArrayList<>();
        for (OrderByElement o : elements) {
            if (o.getWithFill() != null || o.isMysqlWithRollup()) {
                throw unsafe("ORDER BY modifier");
            }
            if (o.getExpression() instanceof LongValue) {
                throw construct("Order inside a call or window by an expression, not a position.");
            }
            Value v = expr(o.getExpression(), scope, 1);
            use(v.flows(), position);
            keys.add(v.sql() + direction(o));
        }
        return String.join(", ", keys);
    }

    private Value analytic(AnalyticExpression a, Scope scope, int d) {
        String name = functionName(List.of(a.getName().split("\\.", -1)), false);
        if (a.getKeep() != null || a.isIgnoreNulls() || a.isIgnoreNullsOutside()
                || a.getHavingClause() != null || a.getNullHandling() != null
                || a.getLimit() != null || (a.getKeywordArguments() != null && !a.getKeywordArguments().isEmpty())
                || a.isUnique() || a.getOnOverflowTruncate() != null) {
            throw construct("The window or aggregate call uses a clause that is not allowed (IGNORE NULLS, KEEP).");
        }
        CostClass cost = rules.costClass(name).orElseThrow();
        AnalyticType type = a.getType();
        boolean aggregate = rules.aggregates().contains(name);
        boolean window = rules.window().contains(name);
        if (type == AnalyticType.FILTER_ONLY && !aggregate) {
            throw construct("FILTER is allowed on aggregates only.");
        }
        if ((type == AnalyticType.WITHIN_GROUP || type == AnalyticType.WITHIN_GROUP_OVER)
                && !name.equals("percentile_cont") && !name.equals("percentile_disc") && !name.equals("mode")) {
            throw construct("WITHIN GROUP is allowed for percentile_cont, percentile_disc and mode only.");
        }
        if (type == AnalyticType.WITHIN_GROUP_OVER) {
            throw construct("WITHIN GROUP cannot be combined with OVER.");
        }
        if (type == AnalyticType.OVER && !aggregate && !window) {
            throw construct("The function " + SafeText.identifier(name) + " is not a window or aggregate function.");
        }
        if ((name.equals("percentile_cont") || name.equals("percentile_disc") || name.equals("mode")) && type != AnalyticType.WITHIN_GROUP) {
            throw construct("percentile_cont, percentile_disc and mode need WITHIN GROUP (ORDER BY ...).");
        }
        // an aggregate's own ORDER BY, string_agg(x, ',' ORDER BY x) FILTER (WHERE ...): JSqlParser 5.4 reads a call with
        // FILTER as this node, the ORDER BY as its funcOrderBy; with OVER it is refused (PostgreSQL 15 does not implement it)
        boolean ordered = a.getFuncOrderBy() != null && !a.getFuncOrderBy().isEmpty();
        if (ordered && (type != AnalyticType.FILTER_ONLY || !aggregate)) {
            throw construct("ORDER BY inside a call is allowed for aggregates only, with FILTER but not with OVER or WITHIN GROUP.");
        }
        List<Value> args = new ArrayList<>();
        String argSql;
        if (a.getExpression() instanceof AllColumns all && all.getClass() == AllColumns.class && "*".equals(all.toString().strip())) {
            if (!name.equals("count") || a.isDistinct() || ordered) {
                throw new GuardException(ErrorCode.WILDCARD_NOT_ALLOWED, "Only count(*) may use *.");
            }
            argSql = "*";
        } else {
            for (Expression arg : new Expression[] {a.getExpression(), a.getOffset(), a.getDefaultValue()}) {
                if (arg != null) {
                    if (arg instanceof ExpressionList<?>) {
                        throw unsafe("argument list");
                    }
                    args.add(expr(arg, scope, d));
                }
            }
            if (a.getExpression() == null && (a.getOffset() != null || a.getDefaultValue() != null)) {
                throw unsafe("argument list");
            }
            if (args.isEmpty() && !lexicon.zeroArgumentFunctions().contains(name)) {
                throw unsafe("function call form");
            }
            if (a.isDistinct()) {
                if (!aggregate || args.isEmpty()) {
                    throw construct("DISTINCT inside a call is allowed for aggregates with an argument only.");
                }
                args.forEach(v -> use(v.flows(), UsePosition.DISTINCT));
            }
            argSql = (a.isDistinct() ? "DISTINCT " : "") + String.join(", ", args.stream().map(Value::sql).toList());
            if (ordered) {
                argSql += " ORDER BY " + innerOrderBy(a.getFuncOrderBy(), scope, UsePosition.ORDERING);
            }
        }
        StringBuilder sql = new StringBuilder(qualified(name)).append('(').append(argSql).append(')');
        List<Flow> flows = new ArrayList<>(through(name, cost, args));
        if (type == AnalyticType.WITHIN_GROUP) {
            if (a.getOrderByElements() == null || a.getOrderByElements().size() != 1) {
                throw construct("WITHIN GROUP takes one ORDER BY expression.");
            }
            OrderByElement o = a.getOrderByElements().get(0);
            Value v = expr(o.getExpression(), scope, d);
            flows.addAll(v.then(new FlowStep(name, cost)).flows());
            sql.append(" WITHIN GROUP (ORDER BY ").append(v.sql()).append(direction(o)).append(')');
            return new Value(sql.toString(), flows);
        }
        if (a.getFilterExpression() != null) {
            Value filter = expr(a.getFilterExpression(), scope, d);
            use(filter.flows(), UsePosition.FILTER);
            sql.append(" FILTER (WHERE ").append(filter.sql()).append(')');
        }
        if (a.getWindowName() != null && type != AnalyticType.OVER) {
            throw unsafe("window form");
        }
        if (type == AnalyticType.OVER) {
            sql.append(" OVER ").append(a.getWindowName() != null ? namedWindow(a, scope)
                    : "(" + window(a.getPartitionExpressionList(), a.getOrderByElements(), a.getWindowElement(), scope, d) + ")");
        } else if (type != AnalyticType.FILTER_ONLY) {
            throw unsafe("window form");
        }
        if (cost == CostClass.AMPLIFYING) {
            throw construct("Amplifying functions cannot be used as window functions.");
        }
        return new Value(sql.toString(), flows);
    }

    /** The inside of {@code OVER (...)}: {@code PARTITION BY ... ORDER BY ... frame}, each part when present. */
    private String window(ExpressionList<?> partition, List<OrderByElement> orderBy, WindowElement frame, Scope scope, int d) {
        List<String> parts = new ArrayList<>();
        if (partition != null && !partition.isEmpty()) {
            List<String> keys = new ArrayList<>();
            for (Expression p : partition) {
                Value v = expr(p, scope, d);
                use(v.flows(), UsePosition.WINDOW);
                keys.add(v.sql());
            }
            parts.add("PARTITION BY " + String.join(", ", keys));
        }
        if (orderBy != null && !orderBy.isEmpty()) {
            parts.add("ORDER BY " + innerOrderBy(orderBy, scope, UsePosition.WINDOW));
        }
        if (frame != null) {
            parts.add(frame(frame));
        }
        return String.join(" ", parts);
    }

    /**
     * A definition of the WINDOW clause of the SELECT at this level, {@code (PARTITION BY ... ORDER BY ... frame)},
     * its names read where the engine reads them: the input columns of that SELECT, never its outputs. A window
     * call inside it is refused (the engines refuse it too).
     */
    String windowDefinition(WindowDefinition definition, Scope scope) {
        scope.renderingWindows = true;
        try {
            return "(" + window(definition.getPartitionExpressionList(), definition.getOrderByElements(), definition.getWindowElement(), scope, 0)
                    + ")";
        } finally {
            scope.renderingWindows = false;
        }
    }

    /**
     * {@code OVER w}: the name the WINDOW clause of the SELECT at this level gives {@code w} in the rendered text
     * ({@link QueryRenderer}). Looked up at that level only, as the engines do: a subquery does not see the windows
     * of the query around it.
     */
    private String namedWindow(AnalyticExpression a, Scope scope) {
        WindowDefinition refinement = a.getWindowDefinition();
        if (refinement != null && ((refinement.getPartitionExpressionList() != null && !refinement.getPartitionExpressionList().isEmpty())
                || (refinement.getOrderByElements() != null && !refinement.getOrderByElements().isEmpty())
                || refinement.getWindowElement() != null)) {
            throw construct("A named window cannot be refined here; write OVER w, or the whole window inline: OVER (...).");
        }
        if (scope.renderingWindows) {
            throw construct("A window definition cannot hold a window function.");
        }
        String name = naming.name(a.getWindowName());
        String rendered = scope.windows.get(name);
        if (rendered == null) {
            throw construct("The window " + SafeText.identifier(name) + " is not defined in the WINDOW clause of this SELECT.");
        }
        return rendered;
    }

    private static String frame(WindowElement w) {
        if (w.getExclusion() != null) {
            throw construct("Window frame exclusions are not allowed.");
        }
        String type = switch (w.getType()) {
            case ROWS -> "ROWS";
            case RANGE -> "RANGE";
            case GROUPS -> "GROUPS";
        };
        if (w.getRange() != null) {
            return type + " BETWEEN " + bound(w.getRange().getStart()) + " AND " + bound(w.getRange().getEnd());
        }
        if (w.getOffset() != null) {
            return type + " " + bound(w.getOffset());
        }
        throw unsafe("window frame");
    }

    static String bound(WindowOffset o) {
        if (o == null) {
            throw unsafe("window frame");
        }
        if (o.getType() == WindowOffset.Type.CURRENT) {
            if (o.getExpression() != null) {
                throw unsafe("window frame");
            }
            return "CURRENT ROW";
        }
        String dir = switch (o.getType()) {
            case PRECEDING -> "PRECEDING";
            case FOLLOWING -> "FOLLOWING";
            default -> throw unsafe("window frame");
        };
        if (o.getExpression() == null) {
            return "UNBOUNDED " + dir;
        }
        if (o.getExpression().getClass() != LongValue.class) {
            throw construct("Window frame offsets must be plain numbers.");
        }
        return number((LongValue) o.getExpression()) + " " + dir;
    }

    /**
     * Whether a parsed BETWEEN bound is a predicate the text did not parenthesize (a parenthesized one is a
     * {@link ParenthesedExpressionList} or {@code Parenthesis} node): a comparison, {@code IS}, {@code LIKE},
     * {@code SIMILAR TO}, {@code IN}, {@code BETWEEN} or a regular-expression match.
     */
    private static boolean isBarePredicate(Expression bound) {
        return bound instanceof net.sf.jsqlparser.expression.operators.relational.ComparisonOperator
                || bound instanceof IsNullExpression || bound instanceof IsBooleanExpression || bound instanceof IsDistinctExpression
                || bound instanceof LikeExpression || bound instanceof net.sf.jsqlparser.expression.operators.relational.SimilarToExpression
                || bound instanceof InExpression || bound instanceof Between
                || bound instanceof net.sf.jsqlparser.expression.operators.relational.RegExpMatchOperator;
    }

    // ------------------------------------------------------------------ the other parts

    private Query query(Select select, Scope outer, boolean top) {
        return ctx.queries.query(select, outer, top);
    }

    private void use(List<Flow> flows, UsePosition position) {
        facts.use(flows, position);
    }

    private void record(Amplification call) {
        facts.record(call);
    }

    private CostClass allow(String name) {
        return ctx.allow(name);
    }

    private String qualified(String name) {
        return ctx.qualified(name);
    }

    private boolean inFunctionSchema(String rawQualifier) {
        return ctx.inFunctionSchema(rawQualifier);
    }

    private Value column(Column c, Scope scope) {
        return ctx.names.column(c, scope);
    }

    private String timeKey(TimeKeyExpression e) {
        return ctx.literals.timeKey(e);
    }

    private String dateTime(DateTimeLiteralExpression e) {
        return ctx.literals.dateTime(e);
    }

    private void amplification(String name, List<Expression> args, List<Value> values) {
        ctx.amplifications.amplification(name, args, values);
    }

    private void copies(String name, Value value) {
        ctx.amplifications.copies(name, value);
    }

    private void sizeArguments(String name, List<Expression> params) {
        ctx.amplifications.sizeArguments(name, params);
    }
}
