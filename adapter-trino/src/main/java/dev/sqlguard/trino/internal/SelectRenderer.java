package dev.sqlguard.trino.internal;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.sqlguard.domain.Amplification;
import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.ColumnUse;
import dev.sqlguard.domain.CostClass;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.FlowStep;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.OutputColumn;
import dev.sqlguard.domain.Refusals;
import dev.sqlguard.domain.SafeText;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.domain.UsePosition;
import dev.sqlguard.trino.internal.Flows.Flow;
import dev.sqlguard.trino.internal.Flows.Value;
import dev.sqlguard.trino.internal.SchemaSnapshot.ColumnInfo;
import dev.sqlguard.trino.internal.SchemaSnapshot.TableInfo;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.AnalyticType;
import net.sf.jsqlparser.expression.AnyComparisonExpression;
import net.sf.jsqlparser.expression.BinaryExpression;
import net.sf.jsqlparser.expression.BooleanValue;
import net.sf.jsqlparser.expression.CaseExpression;
import net.sf.jsqlparser.expression.CastExpression;
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
import net.sf.jsqlparser.expression.WhenClause;
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
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.create.table.ColDataType;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.Distinct;
import net.sf.jsqlparser.statement.select.ExceptOp;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.GroupByElement;
import net.sf.jsqlparser.statement.select.IntersectOp;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.Limit;
import net.sf.jsqlparser.statement.select.Offset;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.SetOperation;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.UnionOp;
import net.sf.jsqlparser.statement.select.WithItem;

/**
 * Checks one parsed SELECT against the catalog and renders it back as the only SQL text the server
 * will run, while it records the facts the domain decides on: every use of a base column with its
 * position and the steps its value passes through, the output lineage and every amplifying call.
 *
 * <p>The renderer is an allowlist: it emits a node only when it knows the node's meaning on
 * Trino, fully parenthesised, with every table catalog- and schema-qualified under a generated alias,
 * every column qualified by that alias, every function a bare built-in name, every literal re-quoted
 * and no comments. A node it does not know is refused ({@code UNSAFE_SYNTAX}); a field of
 * the tree it does not read never reaches the server. Not thread-safe: one instance per validation.
 */
@SuppressWarnings({"deprecation", "removal"})
final class SelectRenderer {
    private static final int MAX_EXPRESSION_DEPTH = 64;
    private static final int MAX_QUERY_DEPTH = 16;
    private static final char MARK = '\u0001';
    private static final Pattern FUNCTION_NAME = Pattern.compile("[a-z_][a-z0-9_]*");
    private static final Pattern DIGITS = Pattern.compile("[0-9]{1,30}");
    private static final Pattern DECIMAL = Pattern.compile("[0-9]{0,30}(\\.[0-9]{0,30})?([eE][+-]?[0-9]{1,3})?");
    private static final Pattern DATE = Pattern.compile("'[0-9]{4}-[0-9]{2}-[0-9]{2}'");
    private static final Pattern TIME = Pattern.compile("'[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,6})?)?'");
    private static final Pattern TIMESTAMP = Pattern.compile("'[0-9]{4}-[0-9]{2}-[0-9]{2}( [0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,6})?)?)?'");
    private static final Pattern INTERVAL = Pattern.compile("'-?[0-9]{1,9}'");
    private static final Set<String> INTERVAL_UNITS = Set.of("YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND");
    private static final Set<String> EXTRACT_FIELDS = Set.of("year", "quarter", "month", "week", "day", "day_of_month",
            "day_of_week", "dow", "day_of_year", "doy", "year_of_week", "yow", "hour", "minute", "second");
    private static final Set<String> TIME_KEYS = Set.of("current_date", "current_timestamp", "localtimestamp");
    /** Words Trino reads as SQL value functions when unquoted, whatever columns exist. */
    private static final Set<String> SQL_VALUE_KEYWORDS = Set.of("current_date", "current_time", "current_timestamp", "localtime",
            "localtimestamp", "current_user", "session_user", "user", "current_role", "current_catalog", "current_schema", "current_path",
            "system_user");
    private static final Set<String> ZERO_ARGUMENTS = Set.of("now", "pi", "row_number", "rank", "dense_rank", "percent_rank",
            "cume_dist");

    /** The rendering of one statement and its facts. */
    record Rendered(String sql, List<OutputColumn> outputs, Set<TableRef> tables, Set<ColumnUse> uses, Set<String> functions,
                    List<Amplification> amplifications, int parameterCount) {
    }

    /** One output column of a query: its label and the flows into it. */
    private record Out(String label, List<Flow> flows) {
    }

    /** A rendered query: its text and its outputs. */
    private record Query(String sql, List<Out> outputs) {
    }

    /** A column a FROM item offers: its name, the flows of its value, and whether it is hidden by the allowlist. */
    private record Col(String name, List<Flow> flows, boolean hidden) {
    }

    /** A FROM item: the name the query may use for it, the alias sqlguard renders, its columns. */
    private record Source(String visibleName, Optional<String> baseSchema, String renderedAlias, List<Col> columns) {
        List<Col> find(String name) {
            return columns.stream().filter(c -> c.name().equals(name)).toList();
        }
    }

    /** A rendered select-list item. */
    private record Item(String label, Value value, Expression node) {
    }

    /** The names visible at one query level, and the common table expressions in scope. */
    private static final class Scope {
        final Scope parent;
        /** Where common table expressions are looked up next: the parent, or for a FROM subquery the level it appears in. */
        final Scope cteParent;
        final List<Source> sources = new ArrayList<>();
        final Map<String, Query> ctes = new HashMap<>();
        final Map<String, String> cteNames = new HashMap<>();

        Scope(Scope parent, Scope cteParent) {
            this.parent = parent;
            this.cteParent = cteParent;
        }

        Optional<String> cte(String name) {
            for (Scope s = this; s != null; s = s.cteParent) {
                if (s.cteNames.containsKey(name)) {
                    return Optional.of(name);
                }
            }
            return Optional.empty();
        }

        Query cteQuery(String name) {
            for (Scope s = this; s != null; s = s.cteParent) {
                if (s.ctes.containsKey(name)) {
                    return s.ctes.get(name);
                }
            }
            throw new IllegalStateException("no CTE " + name);
        }

        String cteRendered(String name) {
            for (Scope s = this; s != null; s = s.cteParent) {
                if (s.cteNames.containsKey(name)) {
                    return s.cteNames.get(name);
                }
            }
            throw new IllegalStateException("no CTE " + name);
        }
    }

    private final SchemaSnapshot schema;
    private final GuardrailPolicy policy;
    private final Set<String> functionAllowlist;

    private final Set<TableRef> tables = new LinkedHashSet<>();
    private final Set<ColumnUse> uses = new LinkedHashSet<>();
    private final Set<String> functions = new TreeSet<>();
    private final Map<String, Amplification> amplifications = new LinkedHashMap<>();
    private final List<Integer> parameterIndices = new ArrayList<>();
    private int aliases;
    private int queryDepth;

    SelectRenderer(SchemaSnapshot schema, GuardrailPolicy policy, Set<String> functionAllowlist) {
        this.schema = requireNonNull(schema, "schema is null");
        this.policy = requireNonNull(policy, "policy is null");
        this.functionAllowlist = Set.copyOf(functionAllowlist);
    }

    Rendered render(Select select) {
        Query q = query(select, null, true);
        List<OutputColumn> outputs = new ArrayList<>();
        for (Out out : q.outputs()) {
            use(out.flows(), UsePosition.OUTPUT);
            outputs.add(OutputColumn.traced(out.label(), Flows.lineage(out.flows())));
        }
        String sql = bindMarkers(q.sql());
        return new Rendered(sql, outputs, tables, uses, functions, new ArrayList<>(amplifications.values()), parameterIndices.size());
    }

    // ------------------------------------------------------------------ queries

    private Query query(Select select, Scope outer, boolean top) {
        return query(select, outer, outer, top);
    }

    /**
     * @param outer the level whose columns the query may reference (correlation)
     * @param cteOuter the level whose common table expressions the query sees
     */
    private Query query(Select select, Scope outer, Scope cteOuter, boolean top) {
        if (++queryDepth > MAX_QUERY_DEPTH) {
            throw new GuardException(ErrorCode.QUERY_TOO_COMPLEX, "The query nests subqueries too deeply.");
        }
        try {
            checkSelectLevel(select);
            Scope scope = new Scope(outer, cteOuter);
            String with = with(select, scope);
            Query body;
            if (select.getClass() == PlainSelect.class) {
                body = plain((PlainSelect) select, scope, top);
            } else if (select.getClass() == SetOperationList.class) {
                body = setOperations((SetOperationList) select, scope, top);
            } else if (select.getClass() == ParenthesedSelect.class) {
                ParenthesedSelect p = (ParenthesedSelect) select;
                if (p.getAlias() != null || hasTail(p)) {
                    throw construct("A parenthesised query may not carry its own alias, ORDER BY or LIMIT here.");
                }
                Query inner = query(p.getSelect(), scope, top);
                body = new Query("(" + inner.sql() + ")", inner.outputs());
            } else {
                throw construct("Only SELECT queries are allowed (no VALUES, TABLE or other statements).");
            }
            return new Query(with + body.sql(), body.outputs());
        } finally {
            queryDepth--;
        }
    }

    private static boolean hasTail(Select s) {
        return (s.getOrderByElements() != null && !s.getOrderByElements().isEmpty()) || s.getLimit() != null
                || s.getOffset() != null || s.getFetch() != null;
    }

    private String with(Select select, Scope scope) {
        List<WithItem<?>> items = select.getWithItemsList();
        if (items == null || items.isEmpty()) {
            return "";
        }
        List<String> rendered = new ArrayList<>();
        for (WithItem<?> item : items) {
            if (item.isRecursive()) {
                throw construct("Recursive common table expressions are not allowed.");
            }
            if (item.isMaterialized() || item.isUsingNot() || item.getWithItemList() != null || item.getSearchClause() != null
                    || item.getCycleClause() != null || item.getWithFunctionDeclaration() != null) {
                throw construct("A common table expression may only be written name AS (SELECT ...).");
            }
            if (!(item.getParenthesedStatement() instanceof ParenthesedSelect ps) || ps.getAlias() != null) {
                throw new GuardException(ErrorCode.STATEMENT_NOT_ALLOWED, "A common table expression must be a SELECT.");
            }
            String name = TrinoQuoting.name(item.getAlias().getName());
            if (scope.cteNames.containsKey(name)) {
                throw new GuardException(ErrorCode.AMBIGUOUS_COLUMN, "The name " + SafeText.identifier(name) + " is used for two common table expressions.");
            }
            Query q = query(ps.getSelect(), scope, false);
            requireUniqueLabels(q);
            String rendered_ = "q" + (++aliases);
            scope.ctes.put(name, q);
            scope.cteNames.put(name, rendered_);
            rendered.add(TrinoQuoting.identifier(rendered_) + " AS (" + q.sql() + ")");
        }
        return "WITH " + String.join(", ", rendered) + " ";
    }

    private static void requireUniqueLabels(Query q) {
        Set<String> seen = new java.util.HashSet<>();
        for (Out o : q.outputs()) {
            if (!seen.add(o.label())) {
                throw new GuardException(ErrorCode.AMBIGUOUS_COLUMN, "A subquery or common table expression returns two columns named "
                        + SafeText.identifier(o.label()) + "; give them different aliases.");
            }
        }
    }

    private Query setOperations(SetOperationList list, Scope scope, boolean top) {
        List<Select> selects = list.getSelects();
        List<SetOperation> ops = list.getOperations();
        if (selects == null || selects.size() < 2 || ops == null || ops.size() != selects.size() - 1) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "A set operation needs two or more queries.");
        }
        Class<?> kind = ops.get(0).getClass();
        boolean compares = false;
        for (SetOperation op : ops) {
            if (op.getClass() != kind) {
                throw construct("Mixing UNION, INTERSECT and EXCEPT needs parentheses around each pair.");
            }
            if (op.getClass() != UnionOp.class && op.getClass() != IntersectOp.class && op.getClass() != ExceptOp.class) {
                throw construct("Only UNION, INTERSECT and EXCEPT are allowed.");
            }
            if (op.getModifier() != null && !op.getModifier().isBlank() && !op.isAll() && !op.isDistinct()) {
                throw unsafe("set operation modifier");
            }
            compares |= !op.isAll() || op.getClass() != UnionOp.class;
        }
        List<Query> branches = new ArrayList<>();
        for (Select s : selects) {
            Scope branchScope = new Scope(scope, scope);
            branches.add(query(s, branchScope, false));
        }
        int width = branches.get(0).outputs().size();
        for (Query b : branches) {
            if (b.outputs().size() != width) {
                throw new GuardException(ErrorCode.SYNTAX_ERROR, "Each query of a set operation must return the same number of columns.");
            }
        }
        List<Out> outputs = new ArrayList<>();
        for (int i = 0; i < width; i++) {
            List<Flow> flows = new ArrayList<>();
            for (Query b : branches) {
                flows.addAll(b.outputs().get(i).flows());
            }
            outputs.add(new Out(branches.get(0).outputs().get(i).label(), flows));
            if (compares) {
                use(flows, UsePosition.SET_COMPARISON);
            }
        }
        StringBuilder sql = new StringBuilder();
        for (int i = 0; i < branches.size(); i++) {
            if (i > 0) {
                SetOperation op = ops.get(i - 1);
                String word = op.getClass() == UnionOp.class ? "UNION" : op.getClass() == IntersectOp.class ? "INTERSECT" : "EXCEPT";
                sql.append(' ').append(word).append(op.isAll() ? " ALL " : " ");
            }
            String b = branches.get(i).sql();
            sql.append(b.startsWith("(") ? b : "(" + b + ")");
        }
        List<Item> items = new ArrayList<>();
        for (Out o : outputs) {
            items.add(new Item(o.label(), new Value("", o.flows()), null));
        }
        List<OrderByElement> orderBy = list.getOrderByElements();
        if (orderBy != null && !orderBy.isEmpty()) {
            List<String> keys = new ArrayList<>();
            for (OrderByElement o : orderBy) {
                int position = outputPosition(o.getExpression(), items)
                        .orElseThrow(() -> construct("ORDER BY after a set operation takes output column names or positions."));
                use(items.get(position - 1).value().flows(), UsePosition.ORDERING);
                keys.add(position + direction(o));
            }
            sql.append(" ORDER BY ").append(String.join(", ", keys));
        }
        sql.append(limit(list, top));
        return new Query(sql.toString(), outputs);
    }

    private Query plain(PlainSelect ps, Scope scope, boolean top) {
        checkPlainSelectLevel(ps);
        String from = from(ps, scope);
        List<SelectItem<?>> selectItems = ps.getSelectItems();
        if (selectItems == null || selectItems.isEmpty()) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "The SELECT list is empty.");
        }
        List<Item> items = new ArrayList<>();
        for (SelectItem<?> item : selectItems) {
            selectItem(item, scope, items);
        }
        StringBuilder sql = new StringBuilder("SELECT ");
        Distinct distinct = ps.getDistinct();
        if (distinct != null) {
            if (distinct.isUseUnique() || distinct.getClass() != Distinct.class) {
                throw construct("Only DISTINCT is allowed.");
            }
            if (distinct.getOnSelectItems() != null && !distinct.getOnSelectItems().isEmpty()) {
                throw construct("DISTINCT ON does not exist on Trino; use row_number() OVER (PARTITION BY ...) in a subquery.");
            } else {
                for (Item item : items) {
                    use(item.value().flows(), UsePosition.DISTINCT);
                }
                sql.append("DISTINCT ");
            }
        }
        List<String> rendered = new ArrayList<>();
        for (Item item : items) {
            rendered.add(item.value().sql() + " AS " + TrinoQuoting.identifier(item.label()));
        }
        sql.append(String.join(", ", rendered));
        if (from != null) {
            sql.append(" FROM ").append(from);
        }
        if (ps.getWhere() != null) {
            Value where = expr(ps.getWhere(), scope, 0);
            use(where.flows(), UsePosition.FILTER);
            sql.append(" WHERE ").append(where.sql());
        }
        GroupByElement groupBy = ps.getGroupBy();
        if (groupBy != null) {
            sql.append(" GROUP BY ").append(groupBy(groupBy, scope, items));
        }
        if (ps.getHaving() != null) {
            Value having = expr(ps.getHaving(), scope, 0);
            use(having.flows(), UsePosition.FILTER);
            sql.append(" HAVING ").append(having.sql());
        }
        List<OrderByElement> orderBy = ps.getOrderByElements();
        if (orderBy != null && !orderBy.isEmpty()) {
            List<String> keys = new ArrayList<>();
            for (OrderByElement o : orderBy) {
                if (o.getWithFill() != null || o.isMysqlWithRollup()) {
                    throw unsafe("ORDER BY modifier");
                }
                keys.add(sortKey(o.getExpression(), scope, items, UsePosition.ORDERING).sql() + direction(o));
            }
            sql.append(" ORDER BY ").append(String.join(", ", keys));
        }
        sql.append(limit(ps, top));
        List<Out> outputs = new ArrayList<>();
        for (Item item : items) {
            outputs.add(new Out(item.label(), item.value().flows()));
        }
        return new Query(sql.toString(), outputs);
    }

    private static String direction(OrderByElement o) {
        String out = o.isAscDescPresent() ? (o.isAsc() ? " ASC" : " DESC") : "";
        if (o.getNullOrdering() != null) {
            out += o.getNullOrdering() == OrderByElement.NullOrdering.NULLS_FIRST ? " NULLS FIRST" : " NULLS LAST";
        }
        return out;
    }

    /**
     * An ORDER BY key as Trino reads it: a bare integer is a select-list
     * position, a bare name that is an output label is that output (before any input column),
     * anything else an expression over the input columns.
     */
    private Value sortKey(Expression e, Scope scope, List<Item> items, UsePosition position) {
        Optional<Integer> out = outputPosition(e, items);
        if (out.isPresent()) {
            Item item = items.get(out.get() - 1);
            use(item.value().flows(), position);
            return new Value(Integer.toString(out.get()), item.value().flows());
        }
        Value v = expr(e, scope, 0);
        use(v.flows(), position);
        return v;
    }

    /** The 1-based output position a bare integer or a bare output label names, if it names one. */
    private static Optional<Integer> outputPosition(Expression e, List<Item> items) {
        if (e != null && e.getClass() == LongValue.class) {
            String text = ((LongValue) e).getStringValue();
            if (!DIGITS.matcher(text).matches()) {
                throw unsafe("number literal");
            }
            BigInteger n = new BigInteger(text);
            if (n.signum() <= 0 || n.compareTo(BigInteger.valueOf(items.size())) > 0) {
                throw new GuardException(ErrorCode.SYNTAX_ERROR, "A position in ORDER BY or GROUP BY is not in the select list.");
            }
            return Optional.of(n.intValueExact());
        }
        if (e instanceof Column c && c.getTable() == null) {
            String name = TrinoQuoting.name(c.getColumnName());
            int match = -1;
            for (int i = 0; i < items.size(); i++) {
                if (items.get(i).label().equals(name)) {
                    if (match >= 0) {
                        throw new GuardException(ErrorCode.AMBIGUOUS_COLUMN, "More than one output column is named " + SafeText.identifier(name) + ".");
                    }
                    match = i;
                }
            }
            return match < 0 ? Optional.empty() : Optional.of(match + 1);
        }
        return Optional.empty();
    }

    private String groupBy(GroupByElement groupBy, Scope scope, List<Item> items) {
        if ((groupBy.getGroupingSets() != null && !groupBy.getGroupingSets().isEmpty()) || groupBy.isMysqlWithRollup()) {
            throw construct("GROUPING SETS, ROLLUP and CUBE are not allowed.");
        }
        ExpressionList<Expression> list = groupBy.getGroupByExpressionList();
        if (list == null || list.isEmpty()) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "GROUP BY needs at least one expression.");
        }
        List<String> out = new ArrayList<>();
        for (Expression e : list) {
            if (e instanceof ParenthesedExpressionList<?> p && p.size() != 1) {
                throw construct("GROUPING SETS, ROLLUP and CUBE are not allowed.");
            }
            // a bare name is an input column first, then an output label (Trino knows only the first; the rendered position is unambiguous); a bare integer a position
            boolean inputColumn = e instanceof Column c && c.getTable() == null && resolvesAsInput(TrinoQuoting.name(c.getColumnName()), scope);
            Optional<Integer> position = inputColumn ? Optional.empty() : outputPosition(e, items);
            if (position.isPresent()) {
                use(items.get(position.get() - 1).value().flows(), UsePosition.GROUPING);
                out.add(position.get().toString());
            } else {
                Value v = expr(e, scope, 0);
                use(v.flows(), UsePosition.GROUPING);
                out.add(v.sql());
            }
        }
        return String.join(", ", out);
    }

    private static boolean resolvesAsInput(String name, Scope scope) {
        for (Source s : scope.sources) {
            if (!s.find(name).isEmpty()) {
                return true;
            }
        }
        return false;
    }

    private String limit(Select s, boolean top) {
        long cap = (long) policy.limits().maxRows() + 1;
        Long rows = null;
        long offset = 0;
        Limit limit = s.getLimit();
        if (limit != null) {
            if (limit.getByExpressions() != null && !limit.getByExpressions().isEmpty()) {
                throw construct("LIMIT BY is not allowed.");
            }
            if (limit.getRowCount() != null && !limit.isLimitAll() && !limit.isLimitNull()) {
                rows = limitNumber(limit.getRowCount());
            }
            if (limit.getOffset() != null) {
                offset = limitNumber(limit.getOffset());
            }
        }
        Offset off = s.getOffset();
        if (off != null) {
            if (limit != null && limit.getOffset() != null) {
                throw construct("Write OFFSET once.");
            }
            if (off.getOffsetParam() != null && !off.getOffsetParam().equalsIgnoreCase("ROWS") && !off.getOffsetParam().equalsIgnoreCase("ROW")) {
                throw unsafe("OFFSET form");
            }
            offset = limitNumber(off.getOffset());
        }
        if (s.getFetch() != null) {
            throw construct("Use LIMIT instead of FETCH FIRST.");
        }
        if (top) {
            rows = rows == null ? cap : Math.min(rows, cap);
        }
        return (offset > 0 ? " OFFSET " + offset : "") + (rows == null ? "" : " LIMIT " + rows);
    }

    private static long limitNumber(Expression e) {
        if (!(e instanceof LongValue v) || e.getClass() != LongValue.class || !DIGITS.matcher(v.getStringValue()).matches()) {
            throw construct("LIMIT and OFFSET take plain numbers, not parameters or expressions.");
        }
        BigInteger value = new BigInteger(v.getStringValue());
        return value.bitLength() > 62 ? Long.MAX_VALUE / 2 : value.longValue();
    }

    // ------------------------------------------------------------------ statement level

    private static void checkSelectLevel(Select s) {
        if (s.getForMode() != null || s.getForUpdateTable() != null || (s.getForUpdateTables() != null && !s.getForUpdateTables().isEmpty())
                || s.getForUpdate() != null || s.getForClause() != null || s.getWait() != null || s.isSkipLocked() || s.isNoWait()) {
            throw construct("Locking clauses (FOR UPDATE, FOR SHARE, FOR KEY SHARE) are not allowed.");
        }
        if (s.getIsolation() != null || s.getOption() != null || s.getLimitBy() != null
                || (s.getInterpolate() != null && !s.getInterpolate().isEmpty()) || s.getMySqlProcedureAnalyse() != null
                || s.getPivot() != null || s.getUnPivot() != null || s.isOracleSiblings()) {
            throw construct("The query uses a clause that is not allowed on this source.");
        }
        if (s.getAlias() != null && !(s instanceof ParenthesedSelect)) {
            throw construct("The query uses a clause that is not allowed on this source.");
        }
    }

    private static void checkPlainSelectLevel(PlainSelect ps) {
        if (ps.getMySqlSelectIntoClause() != null || (ps.getIntoTables() != null && !ps.getIntoTables().isEmpty())
                || ps.getIntoTempTable() != null) {
            throw new GuardException(ErrorCode.STATEMENT_NOT_ALLOWED, "SELECT ... INTO creates a table and is not allowed.");
        }
        if (ps.getTop() != null || ps.getSkip() != null || ps.getFirst() != null || ps.getQualify() != null
                || ps.getPreWhere() != null || ps.getSampleClause() != null
                || (ps.getLateralViews() != null && !ps.getLateralViews().isEmpty())
                || (ps.getWindowDefinitions() != null && !ps.getWindowDefinitions().isEmpty())
                || ps.getOracleHierarchical() != null || ps.getOracleHint() != null || ps.getPreferringClause() != null
                || ps.getKsqlWindow() != null || (ps.getEmitMode() != null && ps.getEmitMode() != PlainSelect.EmitMode.NONE)
                || ps.isEmitChanges() || ps.getForXmlPath() != null
                || ps.getBigQuerySelectQualifier() != null || (ps.getSettings() != null && !ps.getSettings().isEmpty())
                || ps.getOptimizeFor() != null || ps.getMySqlSqlCalcFoundRows() || ps.getMySqlSqlCacheFlag() != null
                || ps.getMySqlHintStraightJoin() || ps.isUsingFinal() || ps.isUsingOnly() || ps.isUseWithNoLog()) {
            throw construct("The query uses a clause that is not allowed on this source.");
        }
    }

    // ------------------------------------------------------------------ FROM and joins

    private String from(PlainSelect ps, Scope scope) {
        FromItem first = ps.getFromItem();
        if (first == null) {
            if (ps.getJoins() != null && !ps.getJoins().isEmpty()) {
                throw new GuardException(ErrorCode.SYNTAX_ERROR, "A join needs a FROM clause.");
            }
            return null;
        }
        StringBuilder out = new StringBuilder(fromItem(first, scope));
        if (ps.getJoins() != null) {
            for (Join join : ps.getJoins()) {
                out.append(join(join, scope));
            }
        }
        return out.toString();
    }

    private String join(Join join, Scope scope) {
        if (join.isNatural() || join.isSemi() || join.isApply() || join.isStraight() || join.isWindowJoin() || join.isAsOf()
                || join.isGlobal() || join.isAny() || join.isAll() || join.isArray() || join.isFetch()
                || join.getJoinHint() != null || join.getJoinWindow() != null) {
            throw new GuardException(ErrorCode.JOIN_NOT_ALLOWED, "Only INNER, LEFT, RIGHT, FULL and CROSS joins are allowed (no NATURAL or LATERAL).");
        }
        if (join.getUsingColumns() != null && !join.getUsingColumns().isEmpty()) {
            throw new GuardException(ErrorCode.JOIN_NOT_ALLOWED, "JOIN ... USING is not allowed; use JOIN ... ON.");
        }
        boolean hasOn = join.getOnExpressions() != null && !join.getOnExpressions().isEmpty();
        String right = fromItem(join.getRightItem(), scope);
        if (join.isSimple() || join.isCross()) {
            if (hasOn) {
                throw new GuardException(ErrorCode.SYNTAX_ERROR, "A cross join takes no ON condition.");
            }
            return " CROSS JOIN " + right;
        }
        if (!hasOn || join.getOnExpressions().size() != 1) {
            throw new GuardException(ErrorCode.JOIN_NOT_ALLOWED, "Every join needs exactly one ON condition.");
        }
        String kind;
        if (join.isLeft()) {
            kind = " LEFT JOIN ";
        } else if (join.isRight()) {
            kind = " RIGHT JOIN ";
        } else if (join.isFull()) {
            kind = " FULL JOIN ";
        } else {
            kind = " INNER JOIN ";
        }
        Value on = expr(join.getOnExpressions().iterator().next(), scope, 0);
        use(on.flows(), UsePosition.JOIN);
        return kind + right + " ON " + on.sql();
    }

    private String fromItem(FromItem item, Scope scope) {
        if (item.getClass() == Table.class) {
            return table((Table) item, scope);
        }
        if (item.getClass() == ParenthesedSelect.class) {
            ParenthesedSelect p = (ParenthesedSelect) item;
            if (p.getPivot() != null || p.getUnPivot() != null || p.getSampleClause() != null) {
                throw construct("Table clauses are not allowed on a subquery.");
            }
            if (p.getAlias() == null) {
                throw new GuardException(ErrorCode.SYNTAX_ERROR, "A subquery in FROM needs an alias.");
            }
            String visible = alias(p.getAlias().getName(), p.getAlias().getAliasColumns() != null);
            Query q = query(p.getSelect(), scope.parent, scope, false);
            requireUniqueLabels(q);
            String rendered = "t" + (++aliases);
            List<Col> cols = new ArrayList<>();
            for (Out o : q.outputs()) {
                cols.add(new Col(o.label(), o.flows(), false));
            }
            addSource(scope, new Source(visible, Optional.empty(), rendered, cols));
            return "(" + q.sql() + ") AS " + TrinoQuoting.identifier(rendered);
        }
        if (item.getClass() == net.sf.jsqlparser.statement.select.TableFunction.class) {
            return series((net.sf.jsqlparser.statement.select.TableFunction) item, scope);
        }
        if (item instanceof net.sf.jsqlparser.statement.select.TableFunction) {
            throw new GuardException(ErrorCode.TABLE_FUNCTION_NOT_ALLOWED, "Table functions are not allowed in FROM on this source.");
        }
        throw construct("Only allowlisted tables, common table expressions and subqueries with an alias may appear in FROM.");
    }

    /** A table function in FROM: always refused. */
    private String series(net.sf.jsqlparser.statement.select.TableFunction tf, Scope scope) {
        // Trino's table functions (sequence via UNNEST, exclude_columns, system.query, ...) reach data or SQL that
        // no checked tree shows: none stands in FROM
        throw new GuardException(ErrorCode.TABLE_FUNCTION_NOT_ALLOWED, "Table functions are not allowed on this source.");
    }

    private static final Pattern INTERVAL_STEP = Pattern.compile("'\\s*([0-9]{1,6})\\s*(day|days|week|weeks|month|months|mons?|year|years|hour|hours)\\s*'",
            Pattern.CASE_INSENSITIVE);

    /** How many values a date or timestamp series with a one-unit interval step yields, roughly (never fewer). */
    private static Optional<Long> dateSeriesLength(List<Expression> args) {
        if (args.size() != 3 || !(args.get(0) instanceof DateTimeLiteralExpression a) || !(args.get(1) instanceof DateTimeLiteralExpression b)
                || !(args.get(2) instanceof IntervalExpression step) || step.getParameter() == null) {
            return Optional.empty();
        }
        Matcher m = INTERVAL_STEP.matcher(step.getParameter());
        if (!m.matches()) {
            return Optional.empty();
        }
        try {
            java.time.LocalDate from = java.time.LocalDate.parse(a.getValue().substring(1, 11));
            java.time.LocalDate to = java.time.LocalDate.parse(b.getValue().substring(1, 11));
            long n = Long.parseLong(m.group(1));
            if (n == 0) {
                return Optional.empty();
            }
            String unit = m.group(2).toLowerCase(Locale.ROOT);
            long days = Math.max(0, java.time.temporal.ChronoUnit.DAYS.between(from, to)) + 1;
            long perStep = unit.startsWith("hour") ? 0 : unit.startsWith("day") ? n : unit.startsWith("week") ? 7 * n
                    : unit.startsWith("mon") ? 28 * n : 365 * n;
            return Optional.of(perStep == 0 ? days * 24 / n + 1 : days / perStep + 1);
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private String table(Table table, Scope scope) {
        if (table.getNameParts().size() > 2) {
            throw Refusals.unknownTable(table.getFullyQualifiedName().replace("\"", ""));
        }
        if (table.getIndexHint() != null || table.getSqlServerHints() != null || table.getPivot() != null
                || table.getUnPivot() != null || table.getSampleClause() != null || table.getTimeTravel() != null
                || table.getTimeTravelStrAfterAlias() != null || table.isTableVariable()) {
            throw construct("Table hints, samples and similar table clauses are not allowed.");
        }
        String name = TrinoQuoting.name(table.getName());
        Optional<String> schemaName = table.getSchemaName() == null ? Optional.empty() : Optional.of(TrinoQuoting.name(table.getSchemaName()));
        boolean hasAliasColumns = table.getAlias() != null && table.getAlias().getAliasColumns() != null;
        if (schemaName.isEmpty() && scope.cte(name).isPresent()) {
            Query cte = scope.cteQuery(name);
            String visible = table.getAlias() != null ? alias(table.getAlias().getName(), hasAliasColumns) : name;
            String rendered = "t" + (++aliases);
            List<Col> cols = new ArrayList<>();
            for (Out o : cte.outputs()) {
                cols.add(new Col(o.label(), o.flows(), false));
            }
            addSource(scope, new Source(visible, Optional.empty(), rendered, cols));
            return TrinoQuoting.identifier(scope.cteRendered(name)) + " AS " + TrinoQuoting.identifier(rendered);
        }
        String shown = schemaName.map(s -> s + ".").orElse("") + name;
        if (schemaName.isPresent() && schemaName.get().equals("information_schema")) {
            throw Refusals.unknownTable(shown);
        }
        Optional<TableInfo> info = schema.find(schemaName, name);
        if (info.isEmpty() || !policy.tables().allowsTable(info.get().ref())) {
            throw Refusals.unknownTable(shown);
        }
        TableInfo t = info.get();
        String visible = table.getAlias() != null ? alias(table.getAlias().getName(), hasAliasColumns) : t.name();
        String rendered = "t" + (++aliases);
        List<Col> cols = new ArrayList<>();
        for (ColumnInfo c : t.columns()) {
            ColumnRef ref = new ColumnRef(t.ref(), c.name());
            cols.add(new Col(c.name(), List.of(new Flow(ref, List.of())), !policy.tables().allowsColumn(t.ref(), c.name())));
        }
        addSource(scope, new Source(visible, table.getAlias() == null ? Optional.of(t.schema()) : Optional.empty(), rendered, cols));
        tables.add(t.ref());
        return TrinoQuoting.identifier(schema.catalog()) + "." + TrinoQuoting.identifier(t.schema()) + "." + TrinoQuoting.identifier(t.name())
                + " AS " + TrinoQuoting.identifier(rendered);
    }

    private static void addSource(Scope scope, Source source) {
        for (Source s : scope.sources) {
            if (s.visibleName().equals(source.visibleName())) {
                throw new GuardException(ErrorCode.AMBIGUOUS_COLUMN, "The name " + SafeText.identifier(source.visibleName())
                        + " is used for two tables; give each an alias.");
            }
        }
        scope.sources.add(source);
    }

    private static String alias(String raw, boolean hasColumns) {
        if (hasColumns) {
            throw construct("Alias column lists are not allowed.");
        }
        return TrinoQuoting.name(raw);
    }

    // ------------------------------------------------------------------ select list

    private void selectItem(SelectItem<?> item, Scope scope, List<Item> items) {
        Expression e = item.getExpression();
        if (e instanceof AllColumns || e instanceof AllTableColumns) {
            if (item.getAlias() != null) {
                throw new GuardException(ErrorCode.SYNTAX_ERROR, "A * cannot have an alias.");
            }
            expand(e, scope, items);
            return;
        }
        Value v = expr(e, scope, 0);
        String label = item.getAlias() != null ? alias(item.getAlias().getName(), item.getAlias().getAliasColumns() != null) : label(e, items.size());
        TrinoQuoting.identifier(label);
        items.add(new Item(label, v, e));
    }

    private void expand(Expression star, Scope scope, List<Item> items) {
        List<Source> sources;
        if (star.getClass() == AllColumns.class) {
            if (!"*".equals(star.toString().strip())) {
                throw unsafe("star modifier");
            }
            sources = scope.sources;
            if (sources.isEmpty()) {
                throw new GuardException(ErrorCode.SYNTAX_ERROR, "SELECT * needs a FROM clause.");
            }
        } else if (star.getClass() == AllTableColumns.class) {
            AllTableColumns a = (AllTableColumns) star;
            if (a.getExceptColumns() != null || a.getReplaceExpressions() != null) {
                throw unsafe("star modifier");
            }
            sources = List.of(qualifier(a.getTable(), scope.sources));
        } else {
            throw unsafe("star modifier");
        }
        for (Source s : sources) {
            for (Col c : s.columns()) {
                if (c.hidden()) {
                    throw Refusals.hiddenColumnRead();
                }
                items.add(new Item(c.name(), new Value(TrinoQuoting.identifier(s.renderedAlias()) + "." + TrinoQuoting.identifier(c.name()), c.flows()), null));
            }
        }
    }

    /** Trino's own name for an unaliased output column: a column's name, else {@code _colN} by 0-based position. */
    private static String label(Expression e, int position) {
        if (e instanceof Column c) {
            return TrinoQuoting.name(c.getColumnName());
        }
        if (e instanceof ParenthesedExpressionList<?> p && p.size() == 1 && p.get(0) instanceof Column c) {
            return TrinoQuoting.name(c.getColumnName());
        }
        return "_col" + position;
    }

    // ------------------------------------------------------------------ expressions

    private Value expr(Expression e, Scope scope, int depth) {
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
            return Value.literal(TrinoQuoting.string(s.getNotExcapedValue()));
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
            return Value.literal(interval((IntervalExpression) e));
        }
        if (k == TimeKeyExpression.class) {
            return Value.literal(timeKey((TimeKeyExpression) e));
        }
        if (k == ParenthesedExpressionList.class) {
            ParenthesedExpressionList<?> list = (ParenthesedExpressionList<?>) e;
            if (list.size() != 1) {
                throw construct("Row constructors are not allowed.");
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
            String type = castType(c.getColDataType());
            boolean toText = type.equals("text") || type.startsWith("varchar") || type.startsWith("char");
            FlowStep step = toText ? FlowStep.total("cast") : FlowStep.partial("cast");
            return new Value("CAST(" + inner.sql() + " AS " + type + ")", inner.flows()).then(step);
        }
        if (k == ExtractExpression.class) {
            ExtractExpression x = (ExtractExpression) e;
            String field = x.getName() == null ? "" : x.getName().toLowerCase(Locale.ROOT).strip();
            if (!EXTRACT_FIELDS.contains(field)) {
                throw construct("EXTRACT supports YEAR, QUARTER, MONTH, WEEK, DAY, DAY_OF_WEEK (DOW), DAY_OF_YEAR (DOY), YEAR_OF_WEEK, HOUR, MINUTE and SECOND.");
            }
            allow("extract");
            Value inner = expr(x.getExpression(), scope, d);
            return new Value("EXTRACT(" + field.toUpperCase(Locale.ROOT) + " FROM " + inner.sql() + ")", inner.flows())
                    .then(FlowStep.total("extract"));
        }
        if (k == Function.class) {
            return function((Function) e, scope, d);
        }
        if (k == AnalyticExpression.class) {
            return analytic((AnalyticExpression) e, scope, d);
        }
        if (k == AnyComparisonExpression.class) {
            throw construct("Write ANY or ALL with a subquery as IN (subquery) or EXISTS.");
        }
        if (e instanceof AllColumns) {
            throw new GuardException(ErrorCode.WILDCARD_NOT_ALLOWED, "Only count(*) may use * inside an expression.");
        }
        if (k.getSimpleName().contains("Variable") || k.getSimpleName().contains("NamedParameter") || k.getSimpleName().contains("Bind")) {
            throw new GuardException(ErrorCode.VARIABLE_NOT_ALLOWED);
        }
        throw unsafe(k.getSimpleName());
    }

    private Query subquery(ParenthesedSelect ps, Scope scope) {
        if (ps.getAlias() != null || ps.getPivot() != null || ps.getUnPivot() != null) {
            throw unsafe("subquery alias");
        }
        return query(ps.getSelect(), scope, false);
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

    private Value in(InExpression in, Scope scope, int d) {
        if (in.isGlobal() || in.getOldOracleJoinSyntax() != 0) {
            throw unsafe("IN form");
        }
        Expression left = in.getLeftExpression();
        if (left instanceof ParenthesedExpressionList<?> l && l.size() != 1) {
            throw construct("Row constructors are not allowed.");
        }
        Value l = expr(left, scope, d);
        Expression right = in.getRightExpression();
        if (right instanceof ParenthesedSelect ps) {
            Query q = subquery(ps, scope);
            if (q.outputs().size() != 1) {
                throw new GuardException(ErrorCode.SYNTAX_ERROR, "IN (subquery) needs a subquery that returns one column.");
            }
            use(l.flows(), UsePosition.SUBQUERY_PREDICATE);
            use(q.outputs().get(0).flows(), UsePosition.SUBQUERY_PREDICATE);
            return Value.literal("(" + l.sql() + (in.isNot() ? " NOT IN (" : " IN (") + q.sql() + "))");
        }
        if (right == null || right.getClass() != ParenthesedExpressionList.class || ((ParenthesedExpressionList<?>) right).isEmpty()) {
            throw unsafe("IN without a value list");
        }
        List<Value> values = new ArrayList<>();
        values.add(l);
        List<String> texts = new ArrayList<>();
        for (Expression v : (ParenthesedExpressionList<?>) right) {
            Value rendered = expr(v, scope, d);
            values.add(rendered);
            texts.add(rendered.sql());
        }
        return new Value("(" + l.sql() + (in.isNot() ? " NOT IN (" : " IN (") + String.join(", ", texts) + "))",
                Flows.merge(values, FlowStep.partial("in")));
    }

    private Value like(LikeExpression like, Scope scope, int d) {
        LikeExpression.KeyWord word = like.getLikeKeyWord();
        if (word != LikeExpression.KeyWord.LIKE || like.isUseBinary()) {
            throw construct("Only LIKE is allowed for pattern matching (no ILIKE, SIMILAR TO or regular expressions); use lower(x) LIKE ...");
        }
        Value l = expr(like.getLeftExpression(), scope, d);
        Value r = expr(like.getRightExpression(), scope, d);
        String keyword = "LIKE";
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

    private static final Pattern CAST_TYPE = Pattern.compile(
            "(int|integer|bigint|smallint|tinyint|real|double|double precision|float|date|boolean|timestamp|time|text)"
            + "|(numeric|decimal)( \\(([0-9]{1,2})(, ?([0-9]{1,2}))?\\))?"
            + "|(varchar|character varying|char|character)( \\(([0-9]{1,5})\\))?");

    private static String castType(ColDataType type) {
        if (type == null || type.getCharacterSet() != null || (type.getArrayData() != null && !type.getArrayData().isEmpty())) {
            throw unsafe("cast type");
        }
        StringBuilder name = new StringBuilder(type.getDataType().toLowerCase(Locale.ROOT).strip().replaceAll("\\s+", " "));
        if (type.getArgumentsStringList() != null && !type.getArgumentsStringList().isEmpty()) {
            name.append(" (").append(String.join(", ", type.getArgumentsStringList())).append(')');
        }
        Matcher m = CAST_TYPE.matcher(name.toString());
        if (!m.matches()) {
            throw construct("CAST supports integer, bigint, smallint, tinyint, decimal(p,s), real, double, varchar(n), char(n), "
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

    private String functionName(List<String> parts, boolean escaped) {
        if (parts == null || parts.isEmpty() || parts.size() > 2 || escaped) {
            throw new GuardException(ErrorCode.FUNCTION_NOT_ALLOWED, "Qualified or escaped function names are not allowed.");
        }
        if (parts.size() != 1) {
            throw new GuardException(ErrorCode.FUNCTION_NOT_ALLOWED, "Only built-in functions may be called, by their bare names.");
        }
        String raw = parts.get(parts.size() - 1);
        if (raw.startsWith("\"")) {
            throw new GuardException(ErrorCode.FUNCTION_NOT_ALLOWED, "Quoted function names are not allowed.");
        }
        String name = TrinoQuoting.name(raw);
        if (!FUNCTION_NAME.matcher(name).matches()) {
            throw new GuardException(ErrorCode.FUNCTION_NOT_ALLOWED, "Quoted function names are not allowed.");
        }
        allow(name);
        return name;
    }

    /** Refuses a function that is never allowed, not allowlisted or not classified; records it. */
    private CostClass allow(String name) {
        if (FunctionCatalog.never(name)) {
            throw FunctionCatalog.refusal(name);
        }
        Optional<GuardException> absent = FunctionCatalog.absent(name);
        if (absent.isPresent()) {
            throw absent.get();
        }
        Optional<CostClass> cost = FunctionCatalog.costClass(name);
        if (!functionAllowlist.contains(name) || cost.isEmpty()) {
            throw new GuardException(ErrorCode.FUNCTION_NOT_ALLOWED, "The function " + SafeText.identifier(name)
                    + " is not allowlisted on this source.");
        }
        functions.add(name);
        return cost.get();
    }

    private static String qualified(String name) {
        return name;
    }

    private Value function(Function f, Scope scope, int d) {
        String name = functionName(f.getMultipartName(), f.isEscaped());
        if (f.getKeep() != null || f.getHavingClause() != null || f.getLimit() != null || f.getNullHandling() != null || f.isIgnoreNulls()
                || f.isIgnoreNullsOutside() || f.getNamedParameters() != null || f.getChainedParameters() != null
                || f.getAttribute() != null || f.getAttributeColumn() != null || f.getExtraKeyword() != null
                || (f.getKeywordArguments() != null && !f.getKeywordArguments().isEmpty()) || f.getOnOverflowTruncate() != null
                || f.isUnique()) {
            throw construct("The function call uses a clause that is not allowed.");
        }
        CostClass cost = FunctionCatalog.costClass(name).orElseThrow();
        ExpressionList<?> params = f.getParameters();
        boolean star = f.isAllColumns() || (params != null && params.size() == 1 && params.get(0) instanceof AllColumns a
                && a.getClass() == AllColumns.class && "*".equals(a.toString().strip()));
        if (star) {
            if (!name.equals("count") || f.isDistinct() || (f.getOrderByElements() != null && !f.getOrderByElements().isEmpty())) {
                throw new GuardException(ErrorCode.WILDCARD_NOT_ALLOWED, "Only count(*) may use *.");
            }
            return Value.literal("count(*)");
        }
        if (params == null && !ZERO_ARGUMENTS.contains(name)) {
            throw unsafe("function call form");
        }
        List<Value> args = new ArrayList<>();
        if (params != null) {
            for (Expression p : params) {
                args.add(expr(p, scope, d));
            }
        }
        boolean aggregate = FunctionCatalog.AGGREGATES.contains(name);
        if ((f.isDistinct() || (f.getOrderByElements() != null && !f.getOrderByElements().isEmpty())) && !aggregate) {
            throw construct("DISTINCT and ORDER BY inside a call are allowed for aggregates only.");
        }
        if (FunctionCatalog.WINDOW.contains(name)) {
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
        if (name.equals("concat") || name.equals("concat_ws")) {
            copies(name, out);
        }
        return out;
    }

    /** The flows of a call's arguments, each after the step its position takes ({@link FunctionCatalog#argumentClass}). */
    private static List<Flow> through(String name, CostClass cost, List<Value> args) {
        List<Flow> out = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            out.addAll(Flows.merge(List.of(args.get(i)), new FlowStep(name, FunctionCatalog.argumentClass(name, i, cost))));
        }
        return out;
    }

    /**
     * A concatenation builds as many data values as flow into it: {@code x || x} through nested
     * CTEs doubles at every level. Recorded as a relative amplification by that count.
     */
    private void copies(String name, Value value) {
        if (value.flows().size() > 1) {
            record(Amplification.relative(name, value.flows().size()));
        }
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
        if (a.getKeep() != null || a.isIgnoreNulls() || a.isIgnoreNullsOutside() || a.getWindowName() != null
                || a.getHavingClause() != null || a.getNullHandling() != null
                || a.getLimit() != null || (a.getKeywordArguments() != null && !a.getKeywordArguments().isEmpty())
                || a.isUnique() || a.getOnOverflowTruncate() != null || (a.getFuncOrderBy() != null && !a.getFuncOrderBy().isEmpty())) {
            throw construct("The window or aggregate call uses a clause that is not allowed (named windows, IGNORE NULLS, KEEP).");
        }
        CostClass cost = FunctionCatalog.costClass(name).orElseThrow();
        AnalyticType type = a.getType();
        boolean aggregate = FunctionCatalog.AGGREGATES.contains(name);
        boolean window = FunctionCatalog.WINDOW.contains(name);
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
        List<Value> args = new ArrayList<>();
        String argSql;
        if (a.getExpression() instanceof AllColumns all && all.getClass() == AllColumns.class && "*".equals(all.toString().strip())) {
            if (!name.equals("count") || a.isDistinct()) {
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
            if (args.isEmpty() && !ZERO_ARGUMENTS.contains(name)) {
                throw unsafe("function call form");
            }
            if (a.isDistinct()) {
                if (!aggregate || args.isEmpty()) {
                    throw construct("DISTINCT inside a call is allowed for aggregates with an argument only.");
                }
                args.forEach(v -> use(v.flows(), UsePosition.DISTINCT));
            }
            argSql = (a.isDistinct() ? "DISTINCT " : "") + String.join(", ", args.stream().map(Value::sql).toList());
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
        if (type == AnalyticType.OVER) {
            sql.append(" OVER (");
            List<String> parts = new ArrayList<>();
            ExpressionList<?> partition = a.getPartitionExpressionList();
            if (partition != null && !partition.isEmpty()) {
                List<String> keys = new ArrayList<>();
                for (Expression p : partition) {
                    Value v = expr(p, scope, d);
                    use(v.flows(), UsePosition.WINDOW);
                    keys.add(v.sql());
                }
                parts.add("PARTITION BY " + String.join(", ", keys));
            }
            if (a.getOrderByElements() != null && !a.getOrderByElements().isEmpty()) {
                parts.add("ORDER BY " + innerOrderBy(a.getOrderByElements(), scope, UsePosition.WINDOW));
            }
            if (a.getWindowElement() != null) {
                parts.add(frame(a.getWindowElement()));
            }
            sql.append(String.join(" ", parts)).append(')');
        } else if (type != AnalyticType.FILTER_ONLY) {
            throw unsafe("window form");
        }
        if (cost == CostClass.AMPLIFYING) {
            throw construct("Amplifying functions cannot be used as window functions.");
        }
        return new Value(sql.toString(), flows);
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

    private static String bound(WindowOffset o) {
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

    // ------------------------------------------------------------------ amplification

    private void amplification(String name, List<Expression> args, List<Value> values) {
        boolean nested = values.stream().flatMap(v -> v.flows().stream()).flatMap(f -> f.chain().stream())
                .anyMatch(step -> step.costClass() == CostClass.AMPLIFYING);
        long copies = Math.max(1, values.isEmpty() ? 1 : values.get(0).flows().size());
        Amplification call;
        switch (name) {
            case "repeat" -> {
                Optional<Long> n = args.size() == 2 ? integer(args.get(1)) : Optional.empty();
                Optional<String> s = args.isEmpty() ? Optional.empty() : string(args.get(0));
                call = n.isEmpty() || nested ? Amplification.unbounded(name) : s.isPresent()
                        ? Amplification.absolute(name, Math.max(0, n.get()) * s.get().length())
                        : Amplification.relative(name, Math.max(0, n.get()) * copies);
            }
            case "lpad", "rpad" -> {
                Optional<Long> n = args.size() >= 2 ? integer(args.get(1)) : Optional.empty();
                call = n.isEmpty() ? Amplification.unbounded(name) : Amplification.absolute(name, Math.max(0, n.get()));
            }
            case "replace" -> {
                Optional<String> from = args.size() == 3 ? string(args.get(1)) : Optional.empty();
                Optional<String> to = args.size() == 3 ? string(args.get(2)) : Optional.empty();
                call = from.isEmpty() || to.isEmpty() || from.get().isEmpty() || nested ? Amplification.unbounded(name)
                        : Amplification.relative(name, copies * Math.max(1, (to.get().length() + from.get().length() - 1) / from.get().length()));
            }
            case "generate_series" -> call = seriesLength(args).map(n -> Amplification.absolute(name, n))
                    .orElseGet(() -> Amplification.unbounded(name));
            default -> call = Amplification.unbounded(name);
        }
        record(call);
    }

    /** Keeps, per function and kind, the call that could build the most. */
    private void record(Amplification call) {
        String key = call.function() + (call.relative() ? "/relative" : "/absolute");
        Amplification known = amplifications.get(key);
        if (known == null || call.bound().isEmpty()
                || (known.bound().isPresent() && call.bound().getAsLong() > known.bound().getAsLong())) {
            amplifications.put(key, call);
        }
    }

    private static Optional<Long> seriesLength(List<Expression> args) {
        if (args.size() < 2 || args.size() > 3) {
            return Optional.empty();
        }
        Optional<Long> start = integer(args.get(0));
        Optional<Long> stop = integer(args.get(1));
        Optional<Long> step = args.size() == 3 ? integer(args.get(2)) : Optional.of(1L);
        if (start.isEmpty() || stop.isEmpty() || step.isEmpty() || step.get() == 0) {
            return Optional.empty();
        }
        BigInteger span = BigInteger.valueOf(stop.get()).subtract(BigInteger.valueOf(start.get()));
        BigInteger count = span.divide(BigInteger.valueOf(step.get()));
        if (count.signum() < 0) {
            return Optional.of(0L);
        }
        BigInteger n = count.add(BigInteger.ONE);
        return Optional.of(n.bitLength() > 62 ? Long.MAX_VALUE : n.longValue());
    }

    private static Optional<Long> integer(Expression e) {
        Expression inner = e;
        boolean negative = false;
        if (inner instanceof SignedExpression s && s.getClass() == SignedExpression.class && (s.getSign() == '-' || s.getSign() == '+')) {
            negative = s.getSign() == '-';
            inner = s.getExpression();
        }
        if (inner != null && inner.getClass() == LongValue.class) {
            String text = ((LongValue) inner).getStringValue();
            if (DIGITS.matcher(text).matches()) {
                BigInteger v = new BigInteger(text);
                if (v.bitLength() < 62) {
                    return Optional.of(negative ? -v.longValue() : v.longValue());
                }
                return Optional.of(negative ? Long.MIN_VALUE / 2 : Long.MAX_VALUE / 2);
            }
        }
        if (inner != null && inner.getClass() == DoubleValue.class && !negative) {
            BigDecimal v = new BigDecimal(inner.toString());
            return Optional.of(v.compareTo(BigDecimal.valueOf(Long.MAX_VALUE / 2)) > 0 ? Long.MAX_VALUE / 2 : v.longValue() + 1);
        }
        return Optional.empty();
    }

    private static Optional<String> string(Expression e) {
        return e != null && e.getClass() == StringValue.class ? Optional.of(((StringValue) e).getNotExcapedValue()) : Optional.empty();
    }

    // ------------------------------------------------------------------ columns

    private Value column(Column c, Scope scope) {
        if (c.getArrayConstructor() != null || c.getCommentText() != null) {
            throw unsafe("column form");
        }
        String name = TrinoQuoting.name(c.getColumnName());
        Table qualifier = c.getTable();
        if (qualifier != null && qualifier.getName() != null) {
            if (qualifier.getNameParts().size() > 2) {
                throw Refusals.unknownColumn(name);
            }
            Optional<String> schemaName = qualifier.getSchemaName() == null ? Optional.empty() : Optional.of(TrinoQuoting.name(qualifier.getSchemaName()));
            String tableName = TrinoQuoting.name(qualifier.getName());
            for (Scope s = scope; s != null; s = s.parent) {
                List<Source> hits = new ArrayList<>();
                for (Source source : s.sources) {
                    boolean hit = source.visibleName().equals(tableName)
                            && (schemaName.isEmpty() || source.baseSchema().equals(schemaName));
                    if (hit) {
                        hits.add(source);
                    }
                }
                if (hits.size() > 1) {
                    throw new GuardException(ErrorCode.AMBIGUOUS_COLUMN, "The table name " + SafeText.identifier(tableName) + " is ambiguous; use aliases.");
                }
                if (hits.size() == 1) {
                    return read(hits.get(0), name);
                }
            }
            throw new GuardException(ErrorCode.UNKNOWN_COLUMN, "The qualifier " + SafeText.identifier(tableName)
                    + " does not name a table of this query (use the alias when a table has one).");
        }
        if (!c.getColumnName().startsWith("\"") && SQL_VALUE_KEYWORDS.contains(name)) {
            // Trino reads these unquoted words as functions (current_user, session_user, ...), never as columns
            if (TIME_KEYS.contains(name)) {
                return Value.literal(timeKeyword(name));
            }
            throw FunctionCatalog.refusal(name);
        }
        // unqualified: a column of the innermost level that has one, else a whole-row reference (PostgreSQL) or an error (Trino)
        for (Scope s = scope; s != null; s = s.parent) {
            boolean namesASource = s.sources.stream().anyMatch(src -> src.visibleName().equals(name));
            List<Source> hits = new ArrayList<>();
            for (Source source : s.sources) {
                if (!source.find(name).isEmpty()) {
                    hits.add(source);
                }
            }
            if (hits.size() > 1) {
                if (hits.stream().anyMatch(h -> h.find(name).get(0).hidden())) {
                    throw Refusals.unknownColumn(name);
                }
                throw new GuardException(ErrorCode.AMBIGUOUS_COLUMN, "The column " + SafeText.identifier(name)
                        + " exists in more than one table; qualify it.");
            }
            if (hits.size() == 1) {
                return read(hits.get(0), name);
            }
            if (namesASource) {
                for (Scope outer = s.parent; outer != null; outer = outer.parent) {
                    if (outer.sources.stream().anyMatch(src -> !src.find(name).isEmpty())) {
                        // engines read this differently (the outer column, the whole row, an error): fail closed
                        throw new GuardException(ErrorCode.AMBIGUOUS_COLUMN, "The name " + SafeText.identifier(name)
                                + " names a table of this query and a column of an outer query; qualify it.");
                    }
                }
                throw Refusals.hiddenColumnRead();
            }
        }
        for (Scope s = scope; s != null; s = s.parent) {
            for (Source source : s.sources) {
                if (source.visibleName().equals(name)) {
                    throw Refusals.hiddenColumnRead();
                }
            }
        }
        throw Refusals.unknownColumn(name);
    }

    private Value read(Source source, String name) {
        List<Col> cols = source.find(name);
        if (cols.isEmpty()) {
            throw Refusals.unknownColumn(name);
        }
        if (cols.size() > 1) {
            throw new GuardException(ErrorCode.AMBIGUOUS_COLUMN, "The column " + SafeText.identifier(name) + " is ambiguous.");
        }
        Col col = cols.get(0);
        if (col.hidden()) {
            throw Refusals.unknownColumn(name);
        }
        return new Value(TrinoQuoting.identifier(source.renderedAlias()) + "." + TrinoQuoting.identifier(col.name()), col.flows());
    }

    private static Source qualifier(Table t, List<Source> sources) {
        if (t == null || t.getName() == null || t.getNameParts().size() > 2) {
            throw unsafe("star qualifier");
        }
        String name = TrinoQuoting.name(t.getName());
        Optional<String> schemaName = t.getSchemaName() == null ? Optional.empty() : Optional.of(TrinoQuoting.name(t.getSchemaName()));
        for (Source s : sources) {
            if (s.visibleName().equals(name) && (schemaName.isEmpty() || s.baseSchema().equals(schemaName))) {
                return s;
            }
        }
        throw new GuardException(ErrorCode.UNKNOWN_COLUMN, "The qualifier " + SafeText.identifier(name) + " does not name a table of this query.");
    }

    // ------------------------------------------------------------------ literals

    private String timeKey(TimeKeyExpression e) {
        String key = e.getStringValue().strip().toLowerCase(Locale.ROOT);
        if (key.endsWith("()")) {
            throw unsafe("time keyword");
        }
        if (!TIME_KEYS.contains(key)) {
            if (SQL_VALUE_KEYWORDS.contains(key)) {
                throw FunctionCatalog.refusal(key);
            }
            throw unsafe("time keyword");
        }
        return timeKeyword(key);
    }

    private String timeKeyword(String key) {
        allow(key);
        return key.toUpperCase(Locale.ROOT);
    }

    private static String number(LongValue v) {
        String text = v.getStringValue();
        if (!DIGITS.matcher(text).matches()) {
            throw unsafe("number literal");
        }
        return text;
    }

    private static String dateTime(DateTimeLiteralExpression e) {
        String value = e.getValue();
        return switch (e.getType()) {
            case DATE -> checked("DATE ", value, DATE);
            case TIME -> checked("TIME ", value, TIME);
            case TIMESTAMP -> checked("TIMESTAMP ", value, TIMESTAMP);
            default -> throw unsafe("date or time literal");
        };
    }

    private static String interval(IntervalExpression e) {
        // JSqlParser 5.4 puts the unit of INTERVAL '3' DAY in the interval qualifier
        Object qualifier = e.getIntervalQualifier();
        String written = e.getIntervalType() != null ? e.getIntervalType() : qualifier == null ? "" : qualifier.toString();
        String unit = written.strip().toUpperCase(Locale.ROOT);
        if (!e.isUsingIntervalKeyword() || e.getExpression() != null || (e.getIntervalType() != null && qualifier != null)
                || !INTERVAL_UNITS.contains(unit)) {
            throw construct("Write intervals as INTERVAL '3' DAY (a whole number and one of YEAR, MONTH, DAY, HOUR, MINUTE, SECOND).");
        }
        return checked("INTERVAL ", e.getParameter(), INTERVAL) + " " + unit;
    }

    private static String checked(String keyword, String value, Pattern pattern) {
        if (value == null || !pattern.matcher(value).matches()) {
            throw unsafe("date or time literal");
        }
        return keyword + value;
    }

    // ------------------------------------------------------------------ facts and parameters

    private void use(List<Flow> flows, UsePosition position) {
        for (Flow f : flows) {
            uses.add(new ColumnUse(f.column(), position, f.chain()));
        }
    }

    /** Replaces the parameter markers by {@code ?} in text order and checks that order is the parser's. */
    private String bindMarkers(String sql) {
        StringBuilder out = new StringBuilder(sql.length());
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == MARK) {
                int end = sql.indexOf(MARK, i + 1);
                parameterIndices.add(Integer.parseInt(sql.substring(i + 1, end)));
                out.append('?');
                i = end + 1;
            } else {
                out.append(c);
                i++;
            }
        }
        for (int k = 0; k < parameterIndices.size(); k++) {
            if (parameterIndices.get(k) != k + 1) {
                throw construct("Parameters could not be matched to their positions; use plain ? placeholders.");
            }
        }
        return out.toString();
    }

    // ------------------------------------------------------------------ errors

    private static GuardException construct(String message) {
        return new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, message);
    }

    private static GuardException unsafe(String what) {
        String shown = what.length() <= 40 && what.chars().allMatch(ch -> Character.isLetterOrDigit(ch) || ch == ' ')
                ? what : "this construct";
        return new GuardException(ErrorCode.UNSAFE_SYNTAX, "The query uses syntax this source cannot check and render safely (" + shown + ").");
    }
}
