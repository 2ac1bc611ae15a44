package dev.sqlguard.jdbc.ansi;

import static dev.sqlguard.jdbc.ansi.Amplifications.FIXED_FACTORS;
import static dev.sqlguard.jdbc.ansi.AnsiErrors.construct;
import static dev.sqlguard.jdbc.ansi.AnsiLiterals.integer;
import static dev.sqlguard.jdbc.ansi.AnsiLiterals.number;
import static dev.sqlguard.jdbc.ansi.QueryRenderer.hasTail;
import static dev.sqlguard.jdbc.ansi.QueryRenderer.requireUniqueLabels;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.sqlguard.domain.Amplification;
import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.CostClass;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.SafeText;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.domain.UsePosition;
import dev.sqlguard.jdbc.ansi.Flows.Flow;
import dev.sqlguard.jdbc.ansi.Flows.Value;
import dev.sqlguard.jdbc.ansi.RenderFacts.State;
import dev.sqlguard.jdbc.ansi.RenderScope.Col;
import dev.sqlguard.jdbc.ansi.RenderScope.Item;
import dev.sqlguard.jdbc.ansi.RenderScope.Out;
import dev.sqlguard.jdbc.ansi.RenderScope.Query;
import dev.sqlguard.jdbc.ansi.RenderScope.Recursion;
import dev.sqlguard.jdbc.ansi.RenderScope.Scope;
import net.sf.jsqlparser.expression.BinaryExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.relational.GreaterThan;
import net.sf.jsqlparser.expression.operators.relational.GreaterThanEquals;
import net.sf.jsqlparser.expression.operators.relational.MinorThan;
import net.sf.jsqlparser.expression.operators.relational.MinorThanEquals;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.SetOperation;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.UnionOp;
import net.sf.jsqlparser.statement.select.WithItem;

/**
 * The WITH list of a query: common table expressions, and recursive ones, whose depth must be bounded and whose
 * facts run through the recursion until they settle.
 */
@SuppressWarnings({"deprecation", "removal"})
final class WithClauses {
    private final RenderContext ctx;
    private final AnsiDialect dialect;
    private final AnsiNames naming;
    private final GuardrailPolicy policy;
    private final RenderFacts facts;

    WithClauses(RenderContext ctx) {
        this.ctx = ctx;
        this.dialect = ctx.dialect;
        this.naming = ctx.naming;
        this.policy = ctx.policy;
        this.facts = ctx.facts;
    }

    String with(Select select, Scope scope) {
        List<WithItem<?>> items = select.getWithItemsList();
        if (items == null || items.isEmpty()) {
            return "";
        }
        // RECURSIVE is written once and applies to the whole list (JSqlParser marks the first item only)
        boolean recursive = items.stream().anyMatch(WithItem::isRecursive);
        if (recursive && !dialect.recursiveCtes()) {
            throw construct("Recursive common table expressions are not allowed.");
        }
        for (WithItem<?> item : items) {
            requireNotGovernedName(naming.name(item.getAlias().getName()));
        }
        if (recursive) {
            for (WithItem<?> item : items) {
                String name = naming.name(item.getAlias().getName());
                if (!scope.pendingCtes.add(name)) {
                    throw new GuardException(ErrorCode.AMBIGUOUS_COLUMN, "The name " + SafeText.identifier(name) + " is used for two common table expressions.");
                }
            }
        }
        List<String> rendered = new ArrayList<>();
        for (WithItem<?> item : items) {
            if (item.isMaterialized() || item.isUsingNot() || item.getSearchClause() != null
                    || item.getCycleClause() != null || item.getWithFunctionDeclaration() != null
                    || (item.getWithItemList() != null && !dialect.cteColumnLists())) {
                throw construct(dialect.cteColumnLists() ? "A common table expression may only be written name [(columns)] AS (SELECT ...)."
                        : "A common table expression may only be written name AS (SELECT ...).");
            }
            if (!(item.getParenthesedStatement() instanceof ParenthesedSelect ps) || ps.getAlias() != null) {
                throw new GuardException(ErrorCode.STATEMENT_NOT_ALLOWED, "A common table expression must be a SELECT.");
            }
            String name = naming.name(item.getAlias().getName());
            if (scope.cteNames.containsKey(name)) {
                throw new GuardException(ErrorCode.AMBIGUOUS_COLUMN, "The name " + SafeText.identifier(name) + " is used for two common table expressions.");
            }
            Optional<List<String>> columns = cteColumns(item);
            Query q;
            String renderedName;
            if (recursive && ps.getSelect() instanceof SetOperationList union && union.getOperations() != null
                    && union.getOperations().stream().allMatch(op -> op.getClass() == UnionOp.class)) {
                renderedName = "q" + (++facts.aliases);
                q = recursiveCte(name, renderedName, union, columns, scope);
            } else {
                q = renamed(query(ps.getSelect(), scope, false), columns);
                renderedName = "q" + (++facts.aliases);
            }
            requireUniqueLabels(q);
            // the engine may compute a column nobody reads (PostgreSQL materializes a CTE read twice):
            // each is checked as an output, so a partial step on a sensitive value fails nowhere unseen
            q.outputs().forEach(o -> use(o.flows(), UsePosition.OUTPUT));
            scope.pendingCtes.remove(name);
            scope.ctes.put(name, q);
            scope.cteNames.put(name, renderedName);
            String list = columns.isPresent() || recursive
                    ? "(" + String.join(", ", q.outputs().stream().map(o -> naming.identifier(o.label())).toList()) + ")" : "";
            rendered.add(naming.identifier(renderedName) + list + " AS (" + q.sql() + ")");
        }
        return (recursive ? "WITH RECURSIVE " : "WITH ") + String.join(", ", rendered) + " ";
    }

    /**
     * Refuses a common table expression named like a table whose rows are filtered per caller (or
     * whose columns are masked): a reference to it reads the WITH query, never the table, yet a
     * reader of the text, or a later change of scoping, could take one for the other.
     */
    private void requireNotGovernedName(String name) {
        for (TableRef governed : policy.rows().governedTables()) {
            if (governed.table().equalsIgnoreCase(name)) {
                throw construct("A WITH query is named like the table " + governed.table()
                        + ", whose rows are filtered per caller; give it another name.");
            }
        }
    }

    /** The column names of {@code name (a, b) AS (...)}, if written. */
    private Optional<List<String>> cteColumns(WithItem<?> item) {
        if (item.getWithItemList() == null) {
            return Optional.empty();
        }
        List<String> columns = new ArrayList<>();
        for (SelectItem<?> c : item.getWithItemList()) {
            if (c.getAlias() != null || !(c.getExpression() instanceof Column col) || col.getClass() != Column.class || col.getTable() != null) {
                throw new GuardException(ErrorCode.SYNTAX_ERROR, "A common table expression's column list takes bare names.");
            }
            String name = naming.name(col.getColumnName());
            naming.identifier(name);
            columns.add(name);
        }
        return Optional.of(columns);
    }

    /** A query's outputs under the names of a column list (as many as it returns). */
    private static Query renamed(Query q, Optional<List<String>> columns) {
        if (columns.isEmpty()) {
            return q;
        }
        if (columns.get().size() != q.outputs().size()) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "A common table expression's column list must name each of its "
                    + q.outputs().size() + " columns.");
        }
        List<Out> outs = new ArrayList<>();
        for (int i = 0; i < columns.get().size(); i++) {
            outs.add(new Out(columns.get().get(i), q.outputs().get(i).flows()));
        }
        return new Query(q.sql(), outs);
    }

    /** How many passes over a recursive term may be needed for its flows to settle before the query counts as too complex. */
    private static final int MAX_RECURSION_PASSES = 8;

    private static final Set<String> COPYING = Set.of("||", "concat", "concat_ws");

    /**
     * {@code WITH RECURSIVE name [(columns)] AS (anchor UNION [ALL] term)}. PostgreSQL has no
     * recursion limit, so the term must count its depth: one output column starts at an integer
     * literal in every anchor, the term computes it as {@code name.col + k} (a positive literal) and
     * its WHERE has {@code name.col < L} (or {@code <=}) as a top-level conjunct. The depth is then at
     * most {@code (L - start) / k + 1} levels, refused beyond {@link Amplification#maxAbsolute}.
     *
     * <p>Facts run through the recursion: the term is rendered with the self-reference's columns
     * carrying the anchor's flows, then again with what the term added, until the flows settle
     * (a step repeated in one chain counts once, so they do settle); only the last pass's facts are
     * kept. A first pass with one marker flow per column refuses a term that copies a value of the
     * previous level more than once through a concatenation or passes it through an amplifying call:
     * such values grow exponentially with the depth.
     */
    private Query recursiveCte(String name, String renderedName, SetOperationList union, Optional<List<String>> columns, Scope scope) {
        List<Select> selects = union.getSelects();
        List<SetOperation> ops = union.getOperations();
        if (selects == null || selects.size() < 2 || ops == null || ops.size() != selects.size() - 1) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "A set operation needs two or more queries.");
        }
        boolean all = ops.get(0).isAll();
        for (SetOperation op : ops) {
            if (op.getClass() != UnionOp.class || op.isAll() != all
                    || (op.getModifier() != null && !op.getModifier().isBlank() && !op.isAll() && !op.isDistinct())) {
                throw construct("A recursive common table expression is written anchor UNION [ALL] recursive term, with one kind of UNION.");
            }
        }
        if (hasTail(union) || union.getWithItemsList() != null && !union.getWithItemsList().isEmpty()) {
            throw construct("A recursive common table expression takes no ORDER BY, LIMIT or WITH of its own.");
        }
        List<Query> anchors = new ArrayList<>();
        List<Optional<Long>> literals = null;
        for (Select s : selects.subList(0, selects.size() - 1)) {
            Query a = query(s, new Scope(scope, scope), false);
            if (!anchors.isEmpty() && a.outputs().size() != anchors.get(0).outputs().size()) {
                throw new GuardException(ErrorCode.SYNTAX_ERROR, "Each query of a set operation must return the same number of columns.");
            }
            anchors.add(a);
            List<Optional<Long>> own = integerLiterals(s, a.outputs().size());
            if (literals == null) {
                literals = own;
            } else {
                for (int i = 0; i < own.size(); i++) {
                    Optional<Long> mine = own.get(i);
                    Optional<Long> known = literals.get(i);
                    literals.set(i, mine.isPresent() && known.isPresent() ? Optional.of(Math.min(mine.get(), known.get())) : Optional.empty());
                }
            }
        }
        int width = anchors.get(0).outputs().size();
        List<String> labels = columns.orElseGet(() -> anchors.get(0).outputs().stream().map(Out::label).toList());
        if (labels.size() != width) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "A common table expression's column list must name each of its " + width + " columns.");
        }
        List<List<Flow>> anchorFlows = new ArrayList<>();
        for (int i = 0; i < width; i++) {
            List<Flow> flows = new ArrayList<>();
            for (Query a : anchors) {
                flows.addAll(a.outputs().get(i).flows());
            }
            anchorFlows.add(flows);
        }
        Select term = selects.get(selects.size() - 1);
        Select inner = term;
        while (inner instanceof ParenthesedSelect p && p.getClass() == ParenthesedSelect.class && p.getAlias() == null && !hasTail(p)) {
            inner = p.getSelect();
        }
        PlainSelect plainTerm = inner.getClass() == PlainSelect.class ? (PlainSelect) inner : null;
        scope.pendingCtes.remove(name);
        scope.cteNames.put(name, renderedName);
        Recursion outer = ctx.recursion;
        try {
            // pass 0: markers, to see how the term transforms the previous level's values
            List<List<Flow>> markers = new ArrayList<>();
            for (int i = 0; i < width; i++) {
                markers.add(List.of(new Flow(new ColumnRef(TableRef.of("sqlguard_recursion", "previous_level"), "c" + i), List.of())));
            }
            State before = snapshot();
            Query probe = term(name, term, scope, labels, markers, plainTerm, literals);
            restore(before);
            if (ctx.recursion.selfAlias == null) {
                // no self-reference: an ordinary UNION under a WITH RECURSIVE list
                Query t = term(name, term, scope, labels, anchorFlows, plainTerm, literals);
                return unionOf(anchors, t, labels, all);
            }
            for (Out o : probe.outputs()) {
                List<Flow> previous = o.flows().stream().filter(f -> f.column().table().table().equals("previous_level")).toList();
                boolean amplified = previous.stream().anyMatch(f -> f.chain().stream().anyMatch(st -> st.costClass() == CostClass.AMPLIFYING
                        || FIXED_FACTORS.containsKey(st.operation())));
                boolean copied = previous.size() > 1 && previous.stream().anyMatch(f -> f.chain().stream().anyMatch(st -> COPYING.contains(st.operation())));
                if (amplified || copied) {
                    throw new GuardException(ErrorCode.UNBOUNDED_COST, "The recursive term builds a value from the previous level's value more than once"
                            + " (or through an amplifying function): it would grow exponentially with the depth.");
                }
            }
            if (ctx.recursion.depth == null) {
                throw construct("A recursive common table expression must count its depth: start a column at an integer literal,"
                        + " add a positive literal to it in the recursive term and bound it there with WHERE name.column < literal"
                        + " (for example WITH RECURSIVE r(n, depth) AS (SELECT x, 1 ... UNION ALL SELECT ..., r.depth + 1 FROM r ... WHERE r.depth < 20)).");
            }
            long max = Amplification.maxAbsolute(policy.limits());
            if (ctx.recursion.depth > max) {
                throw new GuardException(ErrorCode.UNBOUNDED_COST, "The recursive common table expression may run " + ctx.recursion.depth
                        + " levels deep; at most " + max + " are allowed here: lower the literal bound.");
            }
            List<List<Flow>> flows = settle(anchorFlows);
            for (int pass = 0; ; pass++) {
                if (pass >= MAX_RECURSION_PASSES) {
                    throw new GuardException(ErrorCode.QUERY_TOO_COMPLEX, "The recursive common table expression is too complex to check.");
                }
                State start = snapshot();
                Query t = term(name, term, scope, labels, flows, plainTerm, literals);
                List<List<Flow>> next = new ArrayList<>();
                for (int i = 0; i < width; i++) {
                    List<Flow> both = new ArrayList<>(anchorFlows.get(i));
                    both.addAll(t.outputs().get(i).flows());
                    next.add(both);
                }
                next = settle(next);
                if (next.equals(flows)) {
                    return unionOf(anchors, t, labels, all);
                }
                restore(start);
                flows = next;
            }
        } finally {
            ctx.recursion = outer;
        }
    }

    /** Renders the recursive term once, with the self-reference's columns carrying {@code flows}. */
    Query term(String name, Select term, Scope scope, List<String> labels, List<List<Flow>> flows, PlainSelect plainTerm,
                       List<Optional<Long>> literals) {
        List<Out> outs = new ArrayList<>();
        for (int i = 0; i < labels.size(); i++) {
            outs.add(new Out(labels.get(i), flows.get(i)));
        }
        Query self = new Query("", outs);
        scope.ctes.put(name, self);
        ctx.recursion = new Recursion(self, plainTerm, literals);
        Query t = query(term, new Scope(scope, scope), false);
        if (t.outputs().size() != labels.size()) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "Each query of a set operation must return the same number of columns.");
        }
        return t;
    }

    private Query unionOf(List<Query> anchors, Query term, List<String> labels, boolean all) {
        List<Query> branches = new ArrayList<>(anchors);
        branches.add(term);
        List<Out> outs = new ArrayList<>();
        for (int i = 0; i < labels.size(); i++) {
            List<Flow> flows = new ArrayList<>();
            for (Query b : branches) {
                flows.addAll(b.outputs().get(i).flows());
            }
            outs.add(new Out(labels.get(i), settle(List.of(flows)).get(0)));
            if (!all) {
                use(flows, UsePosition.SET_COMPARISON);
            }
        }
        StringBuilder sql = new StringBuilder();
        for (int i = 0; i < branches.size(); i++) {
            if (i > 0) {
                sql.append(all ? " UNION ALL " : " UNION ");
            }
            String b = branches.get(i).sql();
            sql.append(b.startsWith("(") ? b : "(" + b + ")");
        }
        return new Query(sql.toString(), outs);
    }

    /** Each column's flows without duplicates, each chain with a repeated step kept once (the classes it passed through stay the same). */
    private static List<List<Flow>> settle(List<List<Flow>> columns) {
        List<List<Flow>> out = new ArrayList<>();
        for (List<Flow> flows : columns) {
            Set<Flow> unique = new LinkedHashSet<>();
            for (Flow f : flows) {
                unique.add(new Flow(f.column(), List.copyOf(new LinkedHashSet<>(f.chain()))));
            }
            out.add(List.copyOf(unique));
        }
        return out;
    }

    /** For each output of an anchor query, the integer literal it is, if it is one. */
    private static List<Optional<Long>> integerLiterals(Select anchor, int width) {
        Select s = anchor;
        while (s instanceof ParenthesedSelect p && p.getClass() == ParenthesedSelect.class) {
            s = p.getSelect();
        }
        List<Optional<Long>> out = new ArrayList<>();
        List<SelectItem<?>> items = s.getClass() == PlainSelect.class ? ((PlainSelect) s).getSelectItems() : null;
        for (int i = 0; i < width; i++) {
            out.add(items != null && items.size() == width ? integer(unwrap(items.get(i).getExpression())) : Optional.empty());
        }
        return out;
    }

    private static Expression unwrap(Expression e) {
        Expression out = e;
        while (out instanceof ParenthesedExpressionList<?> p && p.getClass() == ParenthesedExpressionList.class && p.size() == 1) {
            out = p.get(0);
        }
        return out;
    }

    /**
     * The depth bound of a recursive term: the least {@code (L - start) / k + 1} over the WHERE
     * conjuncts {@code self.col < L} / {@code self.col <= L} (either way round) whose column the term
     * computes as {@code self.col + k} and every anchor starts at an integer literal.
     */
    Long depthBound(PlainSelect ps, Scope scope, List<Item> items) {
        Recursion r = ctx.recursion;
        List<Expression> conjuncts = new ArrayList<>();
        List<Expression> todo = new ArrayList<>();
        if (ps.getWhere() != null) {
            todo.add(ps.getWhere());
        }
        while (!todo.isEmpty()) {
            Expression e = unwrap(todo.remove(todo.size() - 1));
            if (e.getClass() == AndExpression.class) {
                todo.add(((AndExpression) e).getLeftExpression());
                todo.add(((AndExpression) e).getRightExpression());
            } else {
                conjuncts.add(e);
            }
        }
        Long best = null;
        for (Expression c : conjuncts) {
            Expression column;
            Expression limit;
            boolean inclusive;
            if (c.getClass() == MinorThan.class || c.getClass() == MinorThanEquals.class) {
                column = unwrap(((BinaryExpression) c).getLeftExpression());
                limit = unwrap(((BinaryExpression) c).getRightExpression());
                inclusive = c.getClass() == MinorThanEquals.class;
            } else if (c.getClass() == GreaterThan.class || c.getClass() == GreaterThanEquals.class) {
                column = unwrap(((BinaryExpression) c).getRightExpression());
                limit = unwrap(((BinaryExpression) c).getLeftExpression());
                inclusive = c.getClass() == GreaterThanEquals.class;
            } else {
                continue;
            }
            Optional<Long> bound = integer(limit);
            if (column.getClass() != Column.class || bound.isEmpty()) {
                continue;
            }
            String sql = column((Column) column, scope).sql();
            for (int i = 0; i < r.selfColumns.size() && i < items.size(); i++) {
                Col self = r.selfColumns.get(i);
                Optional<Long> start = r.anchorLiterals == null ? Optional.empty() : r.anchorLiterals.get(i);
                if (!self.sql().equals(sql) || start.isEmpty()) {
                    continue;
                }
                Matcher m = Pattern.compile("\\(" + Pattern.quote(sql) + " \\+ ([0-9]{1,9})\\)|\\(([0-9]{1,9}) \\+ " + Pattern.quote(sql) + "\\)")
                        .matcher(items.get(i).value().sql());
                if (!m.matches()) {
                    continue;
                }
                long step = Long.parseLong(m.group(1) != null ? m.group(1) : m.group(2));
                if (step <= 0) {
                    continue;
                }
                long span = Math.max(0, Math.subtractExact(bound.get(), start.get()) + (inclusive ? 1 : 0));
                long depth = span / step + 2;
                best = best == null ? depth : Math.min(best, depth);
            }
        }
        return best;
    }

    // ------------------------------------------------------------------ the other parts

    private Query query(Select select, Scope outer, boolean top) {
        return ctx.queries.query(select, outer, top);
    }

    private void use(List<Flow> flows, UsePosition position) {
        facts.use(flows, position);
    }

    private State snapshot() {
        return facts.snapshot();
    }

    private void restore(State s) {
        facts.restore(s);
    }

    private Value column(Column c, Scope scope) {
        return ctx.names.column(c, scope);
    }
}
