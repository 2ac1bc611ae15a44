package dev.sqlguard.jdbc.ansi;

import static dev.sqlguard.jdbc.ansi.AnsiErrors.construct;
import static dev.sqlguard.jdbc.ansi.AnsiErrors.unsafe;
import static dev.sqlguard.jdbc.ansi.AnsiExpressions.hasClauses;
import static dev.sqlguard.jdbc.ansi.AnsiLiterals.DIGITS;
import static dev.sqlguard.jdbc.ansi.AnsiLiterals.number;
import static dev.sqlguard.jdbc.ansi.RenderScope.resolvesAsInput;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Refusals;
import dev.sqlguard.domain.SafeText;
import dev.sqlguard.domain.UsePosition;
import dev.sqlguard.jdbc.ansi.Flows.Flow;
import dev.sqlguard.jdbc.ansi.Flows.Value;
import dev.sqlguard.jdbc.ansi.RenderScope.Col;
import dev.sqlguard.jdbc.ansi.RenderScope.Item;
import dev.sqlguard.jdbc.ansi.RenderScope.Out;
import dev.sqlguard.jdbc.ansi.RenderScope.Query;
import dev.sqlguard.jdbc.ansi.RenderScope.Scope;
import dev.sqlguard.jdbc.ansi.RenderScope.Source;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.WindowDefinition;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.Distinct;
import net.sf.jsqlparser.statement.select.ExceptOp;
import net.sf.jsqlparser.statement.select.Fetch;
import net.sf.jsqlparser.statement.select.GroupByElement;
import net.sf.jsqlparser.statement.select.IntersectOp;
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
import net.sf.jsqlparser.statement.select.Values;

/**
 * The query level of the {@link AnsiRenderer}: a SELECT, a set operation or a parenthesised query with its
 * WITH list ({@link WithClauses}), the select list, DISTINCT, GROUP BY, HAVING, ORDER BY and the row bound.
 */
@SuppressWarnings({"deprecation", "removal"})
final class QueryRenderer {
    private int queryDepth;

    private final RenderContext ctx;
    private final AnsiDialect dialect;
    private final AnsiDialect.Lexicon lexicon;
    private final AnsiNames naming;
    private final FunctionRules rules;
    private final GuardrailPolicy policy;
    private final RenderFacts facts;

    QueryRenderer(RenderContext ctx) {
        this.ctx = ctx;
        this.dialect = ctx.dialect;
        this.lexicon = ctx.lexicon;
        this.naming = ctx.naming;
        this.rules = ctx.rules;
        this.policy = ctx.policy;
        this.facts = ctx.facts;
    }

    private static final int MAX_QUERY_DEPTH = 16;

    Query query(Select select, Scope outer, boolean top) {
        return query(select, outer, outer, top);
    }

    /**
     * @param outer the level whose columns the query may reference (correlation)
     * @param cteOuter the level whose common table expressions the query sees
     */
    Query query(Select select, Scope outer, Scope cteOuter, boolean top) {
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
            } else if (select.getClass() == Values.class) {
                throw construct("VALUES may stand in FROM, as (VALUES (1, 'a'), (2, 'b')) AS t (id, name), or after IN or a comparison"
                        + " with ANY or ALL; elsewhere write a SELECT.");
            } else {
                throw construct("Only SELECT queries are allowed (no VALUES, TABLE or other statements).");
            }
            return new Query(with + body.sql(), body.outputs());
        } finally {
            queryDepth--;
        }
    }

    /**
     * {@code VALUES (a, b), (c, d)} where the kit reads one: a FROM item ({@link RelationRenderer}) or the list of
     * {@code IN} and of a quantified comparison ({@link AnsiExpressions}), never a query of its own (the engines
     * label its columns differently). Rendered {@code VALUES (a, b), (c, d)}: every row in parentheses with as many
     * values as the first, each a value expression over the levels of {@code outer} (a VALUES has no FROM of its
     * own), so the engine resolves the column types from the same texts. The outputs are {@code column1},
     * {@code column2}, ... (PostgreSQL's names), each carrying the flows of its values in every row, as a
     * {@code UNION ALL} of its rows would.
     *
     * @param outer the level whose columns the values may reference (correlation)
     * @param cteOuter the level whose common table expressions a subquery among the values sees
     */
    Query values(Values values, Scope outer, Scope cteOuter) {
        if (++queryDepth > MAX_QUERY_DEPTH) {
            throw new GuardException(ErrorCode.QUERY_TOO_COMPLEX, "The query nests subqueries too deeply.");
        }
        try {
            checkSelectLevel(values);
            if ((values.getWithItemsList() != null && !values.getWithItemsList().isEmpty()) || hasTail(values) || values.getAlias() != null
                    || values.getPivot() != null || values.getUnPivot() != null || values.getSampleClause() != null) {
                throw construct("VALUES takes rows of values only: (VALUES (1, 'a'), (2, 'b')) AS t (id, name).");
            }
            Scope scope = new Scope(outer, cteOuter);
            List<String> rows = new ArrayList<>();
            List<List<Flow>> columns = new ArrayList<>();
            for (ExpressionList<?> row : valuesRows(values)) {
                if (row.isEmpty()) {
                    throw new GuardException(ErrorCode.SYNTAX_ERROR, "A row of VALUES needs at least one value.");
                }
                if (!columns.isEmpty() && row.size() != columns.size()) {
                    throw new GuardException(ErrorCode.SYNTAX_ERROR, "Each row of VALUES must have the same number of values.");
                }
                List<String> cells = new ArrayList<>();
                for (int i = 0; i < row.size(); i++) {
                    Value v = expr(row.get(i), scope, 0);
                    if (columns.size() <= i) {
                        columns.add(new ArrayList<>());
                    }
                    columns.get(i).addAll(v.flows());
                    cells.add(v.sql());
                }
                rows.add("(" + String.join(", ", cells) + ")");
            }
            List<Out> outputs = new ArrayList<>();
            for (int i = 0; i < columns.size(); i++) {
                // a column of constants still counts its copies downstream (Flows.constant), as a select-list output does
                outputs.add(new Out("column" + (i + 1), columns.get(i).isEmpty() ? List.of(Flows.constant()) : List.copyOf(columns.get(i))));
            }
            return new Query("VALUES " + String.join(", ", rows), outputs);
        } finally {
            queryDepth--;
        }
    }

    /**
     * The rows of a VALUES list as JSqlParser 5.4 reads them: several rows are a plain list of parenthesised
     * lists, one row is a parenthesised list itself ({@code VALUES (1, 2)} one row of two values, {@code VALUES
     * ((1), (2))} too, as the engines read them). A row not in parentheses is refused.
     */
    private static List<ExpressionList<?>> valuesRows(Values values) {
        ExpressionList<?> list = values.getExpressions();
        if (list == null || list.isEmpty()) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "VALUES needs at least one row.");
        }
        if (list.getClass() == ParenthesedExpressionList.class) {
            return List.of(list);
        }
        if (list.getClass() != ExpressionList.class) {
            throw unsafe("VALUES form");
        }
        List<ExpressionList<?>> rows = new ArrayList<>();
        for (Expression e : list) {
            if (e == null || e.getClass() != ParenthesedExpressionList.class) {
                throw construct("Write each row of VALUES in parentheses: VALUES (1, 'a'), (2, 'b').");
            }
            rows.add((ParenthesedExpressionList<?>) e);
        }
        return rows;
    }

    static boolean hasTail(Select s) {
        return (s.getOrderByElements() != null && !s.getOrderByElements().isEmpty()) || s.getLimit() != null
                || s.getOffset() != null || s.getFetch() != null;
    }

    static void requireUniqueLabels(Query q) {
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
        boolean mixed = false;
        for (SetOperation op : ops) {
            mixed |= op.getClass() != kind;
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
        if (mixed) {
            sql.append(mixedSetOperations(branches, ops));
        }
        for (int i = 0; i < branches.size() && !mixed; i++) {
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

    /**
     * UNION, INTERSECT and EXCEPT mixed without parentheses, with the parentheses of the reading the
     * engines of this renderer share (the SQL standard's): INTERSECT binds tighter than UNION and EXCEPT,
     * which apply left to right. {@code a UNION b INTERSECT c EXCEPT d} is rendered
     * {@code ((a) UNION ((b) INTERSECT (c))) EXCEPT (d)}, so no engine is left a choice.
     */
    private static String mixedSetOperations(List<Query> branches, List<SetOperation> ops) {
        List<String> terms = new ArrayList<>();
        List<SetOperation> between = new ArrayList<>();
        String term = parenthesized(branches.get(0).sql());
        for (int i = 1; i < branches.size(); i++) {
            SetOperation op = ops.get(i - 1);
            String b = parenthesized(branches.get(i).sql());
            if (op.getClass() == IntersectOp.class) {
                term = "(" + term + " INTERSECT" + (op.isAll() ? " ALL " : " ") + b + ")";
            } else {
                terms.add(term);
                between.add(op);
                term = b;
            }
        }
        terms.add(term);
        String sql = terms.get(0);
        for (int i = 1; i < terms.size(); i++) {
            SetOperation op = between.get(i - 1);
            String word = op.getClass() == UnionOp.class ? "UNION" : "EXCEPT";
            sql = (i > 1 ? "(" + sql + ")" : sql) + " " + word + (op.isAll() ? " ALL " : " ") + terms.get(i);
        }
        return sql;
    }

    private static String parenthesized(String sql) {
        return sql.startsWith("(") ? sql : "(" + sql + ")";
    }

    Query plain(PlainSelect ps, Scope scope, boolean top) {
        checkPlainSelectLevel(ps);
        String from = from(ps, scope);
        String window = windows(ps, scope);
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
                throw construct(dialect.distinctOn() ? "Only DISTINCT and DISTINCT ON (...) are allowed." : "Only DISTINCT is allowed.");
            }
            if (distinct.getOnSelectItems() != null && !distinct.getOnSelectItems().isEmpty()) {
                if (!dialect.distinctOn()) {
                    throw construct("DISTINCT ON does not exist on " + lexicon.engine() + "; use row_number() OVER (PARTITION BY ...) in a subquery.");
                }
                List<String> keys = new ArrayList<>();
                for (SelectItem<?> on : distinct.getOnSelectItems()) {
                    if (on.getAlias() != null) {
                        throw new GuardException(ErrorCode.SYNTAX_ERROR, "DISTINCT ON takes expressions without aliases.");
                    }
                    Value key = sortKey(on.getExpression(), scope, items, UsePosition.DISTINCT);
                    keys.add(key.sql());
                }
                sql.append("DISTINCT ON (").append(String.join(", ", keys)).append(") ");
            } else {
                for (Item item : items) {
                    use(item.value().flows(), UsePosition.DISTINCT);
                }
                sql.append("DISTINCT ");
            }
        }
        List<String> rendered = new ArrayList<>();
        for (Item item : items) {
            rendered.add(item.value().sql() + " AS " + naming.identifier(item.label()));
        }
        sql.append(String.join(", ", rendered));
        if (from != null) {
            sql.append(" FROM ").append(from);
        }
        if (ps.getWhere() != null) {
            Value where = expr(ps.getWhere(), scope, 0);
            use(where.flows(), UsePosition.FILTER);
            facts.filtersRows();
            sql.append(" WHERE ").append(where.sql());
        }
        GroupByElement groupBy = ps.getGroupBy();
        if (groupBy != null) {
            sql.append(" GROUP BY ").append(groupBy(groupBy, scope, items));
        }
        if (ps.getHaving() != null) {
            Value having = expr(ps.getHaving(), scope, 0);
            use(having.flows(), UsePosition.FILTER);
            facts.filtersRows();
            sql.append(" HAVING ").append(having.sql());
        }
        sql.append(window);
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
        if (ctx.recursion != null && ctx.recursion.term == ps && ctx.recursion.selfColumns != null) {
            ctx.recursion.depth = depthBound(ps, scope, items);
        }
        List<Out> outputs = new ArrayList<>();
        for (Item item : items) {
            // an output computed from no column still counts its copies downstream (Flows.constant)
            List<Flow> flows = item.value().flows();
            outputs.add(new Out(item.label(), flows.isEmpty() ? List.of(Flows.constant()) : flows));
        }
        return new Query(sql.toString(), outputs);
    }

    /**
     * The SELECT's WINDOW clause, with a leading space (empty for none): every definition, used or not, in the
     * order written, its names read over the input columns as the engine reads them and rendered qualified, under
     * a generated name ({@code "w1"}, ...) that each {@code OVER w} of this level is rendered with
     * ({@link Scope#windows}). Kept as a clause rather than written inline at each call: PostgreSQL plans the
     * windows in the order of the clause, and plans an unused definition's keys as well (measured on 15: inline
     * copies change the order of the WindowAgg nodes and drop those keys, a different plan from the text as written).
     */
    private String windows(PlainSelect ps, Scope scope) {
        List<WindowDefinition> definitions = ps.getWindowDefinitions();
        if (definitions == null || definitions.isEmpty()) {
            return "";
        }
        if (!dialect.namedWindows()) {
            throw construct("Named windows (WINDOW w AS ...) are not allowed on this source; write each window inline: OVER (...).");
        }
        Map<String, String> named = new LinkedHashMap<>();
        List<String> rendered = new ArrayList<>();
        for (WindowDefinition w : definitions) {
            if (w.getWindowName() == null) {
                throw new GuardException(ErrorCode.SYNTAX_ERROR, "A window in the WINDOW clause needs a name.");
            }
            String name = naming.name(w.getWindowName());
            String generated = naming.identifier("w" + (named.size() + 1));
            if (named.putIfAbsent(name, generated) != null) {
                throw construct("The window " + SafeText.identifier(name) + " is defined twice in the WINDOW clause.");
            }
            rendered.add(generated + " AS " + ctx.expressions.windowDefinition(w, scope));
        }
        scope.windows = Map.copyOf(named);
        return " WINDOW " + String.join(", ", rendered);
    }

    static String direction(OrderByElement o) {
        String out = o.isAscDescPresent() ? (o.isAsc() ? " ASC" : " DESC") : "";
        if (o.getNullOrdering() != null) {
            out += o.getNullOrdering() == OrderByElement.NullOrdering.NULLS_FIRST ? " NULLS FIRST" : " NULLS LAST";
        }
        return out;
    }

    /**
     * An ORDER BY or DISTINCT ON key as PostgreSQL reads it: a bare integer is a select-list
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
        Value v;
        if (dialect.outputNamesFirstInOrderByExpressions()) {
            scope.outputsReadFirst = outputsReadOtherwise(items);
            try {
                v = expr(e, scope, 0);
            } finally {
                scope.outputsReadFirst = Map.of();
            }
        } else {
            v = expr(e, scope, 0);
        }
        use(v.flows(), position);
        return v;
    }

    /**
     * For an engine that reads a name inside an ORDER BY expression as an output column first (Trino),
     * subqueries of the expression included (their names that no level inside resolves reach the
     * ORDER BY's scope, outputs first): the output labels that would read otherwise than the input
     * column of that name, that is every label whose output is not that very input column, written bare,
     * each with that output's value when no other output has the label. {@link RenderScope#column} writes
     * such a name at the ORDER BY's own level as the output's expression ({@code SELECT amount * 2 AS d ...
     * ORDER BY d + 1} runs ordered by {@code (amount * 2) + 1}), and refuses it with advice from a subquery of
     * the key or where two outputs have the label.
     */
    private Map<String, Optional<Value>> outputsReadOtherwise(List<Item> items) {
        Map<String, Long> labelled = new java.util.HashMap<>();
        items.forEach(item -> labelled.merge(item.label(), 1L, Long::sum));
        Map<String, Optional<Value>> out = new java.util.HashMap<>();
        for (Item item : items) {
            String name = item.label();
            if (!(item.node() instanceof Column ic && ic.getTable() == null && naming.name(ic.getColumnName()).equals(name))) {
                // two outputs of the name: the engine calls it ambiguous, and the guard refuses
                out.put(name, labelled.get(name) == 1 ? Optional.of(item.value()) : Optional.empty());
            }
        }
        return out;
    }

    /** The 1-based output position a bare integer or a bare output label names, if it names one. */
    private Optional<Integer> outputPosition(Expression e, List<Item> items) {
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
            String name = naming.name(c.getColumnName());
            int match = -1;
            for (int i = 0; i < items.size(); i++) {
                if (items.get(i).label().equals(name)) {
                    if (match >= 0 && dialect.equalOutputsShareAName() && !items.get(i).value().sql().isEmpty()
                            && items.get(i).value().sql().equals(items.get(match).value().sql())) {
                        continue; // the same value under the same name: the engine reads the first
                    }
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
        if (!dialect.groupingSets() && (groupBy.isMysqlWithRollup() || (groupBy.getGroupingSets() != null && !groupBy.getGroupingSets().isEmpty()))) {
            throw construct("GROUPING SETS, ROLLUP and CUBE are not allowed.");
        }
        if (groupBy.isMysqlWithRollup() || groupBy.hasGroupBySortDirections()) {
            throw construct("WITH ROLLUP and ordered GROUP BY are not allowed; write ROLLUP (...).");
        }
        ExpressionList<Expression> list = groupBy.getGroupByExpressionList();
        boolean sets = groupBy.getGroupingSets() != null && !groupBy.getGroupingSets().isEmpty();
        boolean plain = list != null && !list.isEmpty();
        if (sets && plain) {
            // the parser keeps the two apart, so their order in the text is lost: refuse rather than guess
            throw construct("Write GROUPING SETS alone in GROUP BY, or combine the columns inside it.");
        }
        if (sets) {
            facts.groupsBySets();
            List<String> rendered = new ArrayList<>();
            for (ExpressionList<Expression> set : groupBy.getGroupingSets()) {
                if (set.getClass() != ParenthesedExpressionList.class) {
                    throw unsafe("grouping set form");
                }
                rendered.add("(" + groupingList(set, scope, items) + ")");
            }
            return "GROUPING SETS (" + String.join(", ", rendered) + ")";
        }
        if (!plain) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "GROUP BY needs at least one expression.");
        }
        List<String> out = new ArrayList<>();
        for (Expression e : list) {
            if (e instanceof ParenthesedExpressionList<?> p && p.size() != 1) {
                throw construct(dialect.groupingSets() ? "Group by a list of columns inside ROLLUP, CUBE or GROUPING SETS only."
                        : "GROUPING SETS, ROLLUP and CUBE are not allowed.");
            }
            Optional<String> construct = rollupOrCube(e);
            if (construct.isPresent()) {
                facts.groupsBySets();
                ExpressionList<?> args = ((Function) e).getParameters();
                List<String> parts = new ArrayList<>();
                if (args.getClass() == ParenthesedExpressionList.class) {
                    // CUBE ((a, b)): the parser hands the one parenthesised unit over as the argument list itself
                    parts.add("(" + groupingList(args, scope, items) + ")");
                } else {
                    for (Expression a : args) {
                        // ROLLUP ((a, b), c): a parenthesised list is one unit of the construct
                        parts.add(a instanceof ParenthesedExpressionList<?> unit && unit.size() != 1
                                ? "(" + groupingList(unit, scope, items) + ")" : groupingElement(a, scope, items, true));
                    }
                }
                out.add(construct.get() + " (" + String.join(", ", parts) + ")");
            } else {
                out.add(groupingElement(e, scope, items, false));
            }
        }
        return String.join(", ", out);
    }

    /** {@code ROLLUP} or {@code CUBE} when {@code e} is that construct written as the keyword (never a quoted function name). */
    private Optional<String> rollupOrCube(Expression e) {
        if (!dialect.groupingSets() || e.getClass() != Function.class) {
            return Optional.empty();
        }
        Function f = (Function) e;
        List<String> parts = f.getMultipartName();
        if (parts == null || parts.size() != 1 || f.isEscaped()) {
            return Optional.empty();
        }
        String raw = parts.get(0);
        if (!raw.equalsIgnoreCase("rollup") && !raw.equalsIgnoreCase("cube")) {
            return Optional.empty();
        }
        ExpressionList<?> params = f.getParameters();
        if (f.isDistinct() || f.isAllColumns() || params == null || params.isEmpty() || hasClauses(f)
                || (params.getClass() != ExpressionList.class && params.getClass() != ParenthesedExpressionList.class)) {
            throw unsafe("ROLLUP or CUBE form");
        }
        return Optional.of(raw.toUpperCase(Locale.ROOT));
    }

    private String groupingList(ExpressionList<?> list, Scope scope, List<Item> items) {
        List<String> out = new ArrayList<>();
        for (Expression e : list) {
            if (e instanceof ParenthesedExpressionList<?> p && p.size() != 1) {
                throw construct("Nest grouping lists one level deep at most.");
            }
            if (rollupOrCube(e).isPresent()) {
                throw construct("ROLLUP and CUBE inside GROUPING SETS are not allowed; list the sets.");
            }
            out.add(groupingElement(e, scope, items, true));
        }
        return String.join(", ", out);
    }

    /**
     * One grouping expression: a bare name is an input column first, then an output label; a bare integer a position.
     * Inside {@code ROLLUP}, {@code CUBE} and {@code GROUPING SETS} ({@code inSet}) a key that reads no column is
     * refused: it groups nothing, and PostgreSQL 15 answers such a rollup differently by plan (over the tenant's copy
     * the rolled-up row of {@code ROLLUP ('x', amount)} came back, through the filtered derived table it did not).
     */
    private String groupingElement(Expression e, Scope scope, List<Item> items, boolean inSet) {
        boolean inputColumn = e instanceof Column c && c.getTable() == null && resolvesAsInput(naming.name(c.getColumnName()), scope);
        boolean bareName = e instanceof Column c2 && c2.getTable() == null;
        Optional<Integer> position = inputColumn || (bareName && !dialect.outputNamesInGroupBy()) ? Optional.empty() : outputPosition(e, items);
        if (position.isPresent()) {
            groupingUse(items.get(position.get() - 1).value().flows(), inSet);
            return position.get().toString();
        }
        Value v = expr(e, scope, 0); // a subquery selected too is written as there (Scope#subqueryTexts)
        groupingUse(v.flows(), inSet);
        return v.sql();
    }

    private void groupingUse(List<Flow> flows, boolean inSet) {
        if (inSet && flows.stream().allMatch(Flows::isConstant)) {
            throw construct("Inside ROLLUP, CUBE or GROUPING SETS group by columns; a constant there groups nothing.");
        }
        use(flows, UsePosition.GROUPING);
    }

    String limit(Select s, boolean top) {
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
                // LIMIT m, n is MySQL's; the engines of this renderer refuse it, so the guard does not read it either
                throw construct(limit.getOffset() instanceof LongValue o && limit.getRowCount() instanceof LongValue n
                        ? "Write LIMIT " + n.getValue() + " OFFSET " + o.getValue() + ": " + lexicon.engine() + " does not take LIMIT m, n."
                        : "Write LIMIT n OFFSET m: " + lexicon.engine() + " does not take LIMIT m, n.");
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
            if (!dialect.fetchFirst()) {
                throw construct("Use LIMIT instead of FETCH FIRST.");
            }
            if (limit != null && limit.getRowCount() != null) {
                throw construct("Write LIMIT or FETCH FIRST, not both.");
            }
            rows = fetchRows(s.getFetch());
        }
        if (top && rows == null && offset == 0 && !dialect.capsGroupedAggregates() && isGroupedAggregate(s)) {
            return dialect.limitClause(null, 0);
        }
        if (top) {
            rows = rows == null ? cap : Math.min(rows, cap);
        }
        return dialect.limitClause(rows, offset);
    }

    /**
     * A plain SELECT with GROUP BY, without DISTINCT or ORDER BY, whose select list calls an
     * aggregate at its own level: its engine computes every group before it returns a row. (Without
     * an aggregate, a GROUP BY is a DISTINCT, which an engine can stop early under a LIMIT.)
     */
    private boolean isGroupedAggregate(Select s) {
        if (!(s instanceof PlainSelect ps) || ps.getGroupBy() == null || ps.getDistinct() != null
                || (ps.getOrderByElements() != null && !ps.getOrderByElements().isEmpty())) {
            return false;
        }
        boolean[] found = {false};
        ExpressionVisitorAdapter<Void> finder = new ExpressionVisitorAdapter<>() {
            @Override
            public <S> Void visit(Function f, S context) {
                found[0] |= rules.aggregates().contains(functionName(f.getMultipartName(), f.isEscaped()));
                return super.visit(f, context);
            }
        };
        for (SelectItem<?> item : ps.getSelectItems()) {
            item.getExpression().accept(finder, null);
        }
        return found[0];
    }

    /** {@code FETCH FIRST|NEXT [n] ROW|ROWS ONLY}: the same as {@code LIMIT n} (1 without n); {@code WITH TIES} and percentages are refused. */
    private static long fetchRows(Fetch fetch) {
        List<String> p = fetch.getFetchParameters();
        if (p == null || p.size() != 2 || !(p.get(0).equalsIgnoreCase("ROWS") || p.get(0).equalsIgnoreCase("ROW"))
                || !p.get(1).equalsIgnoreCase("ONLY") || fetch.getFetchJdbcParameter() != null) {
            throw construct("Write FETCH FIRST n ROWS ONLY (no WITH TIES, PERCENT or parameters).");
        }
        return fetch.getExpression() == null ? 1 : limitNumber(fetch.getExpression());
    }

    private static long limitNumber(Expression e) {
        if (!(e instanceof LongValue v) || e.getClass() != LongValue.class || !DIGITS.matcher(v.getStringValue()).matches()) {
            throw construct("LIMIT and OFFSET take plain numbers, not parameters or expressions.");
        }
        BigInteger value = new BigInteger(v.getStringValue());
        return value.bitLength() > 62 ? Long.MAX_VALUE / 2 : value.longValue();
    }

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
                || ps.getOracleHierarchical() != null || ps.getOracleHint() != null || ps.getPreferringClause() != null
                || ps.getKsqlWindow() != null || (ps.getEmitMode() != null && ps.getEmitMode() != PlainSelect.EmitMode.NONE)
                || ps.isEmitChanges() || ps.getForXmlPath() != null
                || ps.getBigQuerySelectQualifier() != null || (ps.getSettings() != null && !ps.getSettings().isEmpty())
                || ps.getOptimizeFor() != null || ps.getMySqlSqlCalcFoundRows() || ps.getMySqlSqlCacheFlag() != null
                || ps.getMySqlHintStraightJoin() || ps.isUsingFinal() || ps.isUsingOnly() || ps.isUseWithNoLog()) {
            throw construct("The query uses a clause that is not allowed on this source.");
        }
    }

    String alias(String raw, boolean hasColumns) {
        if (hasColumns) {
            throw construct("Alias column lists are not allowed.");
        }
        return naming.name(raw);
    }

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
        String label = item.getAlias() != null ? alias(item.getAlias().getName(), item.getAlias().getAliasColumns() != null) : dialect.label(e, items.size());
        naming.identifier(label);
        items.add(new Item(label, v, e));
    }

    private void expand(Expression star, Scope scope, List<Item> items) {
        List<Source> sources;
        if (star.getClass() == AllColumns.class) {
            if (!"*".equals(star.toString().strip())) {
                throw unsafe("star modifier");
            }
            sources = scope.sources.stream().filter(Source::columnsVisible).toList();
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
                items.add(new Item(c.name(), c.value(), null));
            }
        }
    }

    // ------------------------------------------------------------------ the other parts

    private Value expr(Expression e, Scope scope, int depth) {
        return ctx.expressions.expr(e, scope, depth);
    }

    private void use(List<Flow> flows, UsePosition position) {
        facts.use(flows, position);
    }

    private Source qualifier(Table t, List<Source> sources) {
        return ctx.names.qualifier(t, sources);
    }

    private String with(Select select, Scope scope) {
        return ctx.withs.with(select, scope);
    }

    private Long depthBound(PlainSelect ps, Scope scope, List<Item> items) {
        return ctx.withs.depthBound(ps, scope, items);
    }

    private String from(PlainSelect ps, Scope scope) {
        return ctx.relations.from(ps, scope);
    }

    private String functionName(List<String> parts, boolean escaped) {
        return ctx.expressions.functionName(parts, escaped);
    }
}
