package dev.sqlguard.mysql.internal;

import static java.util.Objects.requireNonNull;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.sqlguard.domain.Amplification;
import dev.sqlguard.domain.Bindings;
import dev.sqlguard.domain.ColumnUse;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Names;
import dev.sqlguard.domain.OutputColumn;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.SafeText;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.domain.UsePosition;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot;
import dev.sqlguard.mysql.internal.ExpressionRenderer.Clause;
import dev.sqlguard.mysql.internal.ExpressionRenderer.Ctx;
import dev.sqlguard.mysql.internal.Scope.Item;
import dev.sqlguard.mysql.internal.Scope.RelColumn;
import dev.sqlguard.mysql.internal.Scope.Relation;
import net.sf.jsqlparser.expression.DateUnitExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.Distinct;
import net.sf.jsqlparser.statement.select.ExceptOp;
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
import net.sf.jsqlparser.statement.select.WithItem;

/**
 * Checks one parsed SELECT against the allowlists and renders it back as the only SQL text the
 * server will run: query blocks, set operations, CTEs and subqueries. The renderer is an allowlist:
 * it emits a node only when it knows the node's exact meaning on a MySQL-compatible server, fully
 * parenthesised, with backtick-quoted identifiers, every column qualified by an alias it generated,
 * its own string escaping and no comments. A node it does not know is refused ({@code UNSAFE_SYNTAX});
 * a field of the tree it does not read never reaches the server.
 *
 * <p>It decides nothing about sensitive columns: it reports every use of every base column, with its
 * position and the steps it passes through ({@link Facts}), and the domain decides
 * ({@link GuardrailPolicy#authorize}). FROM clauses are rendered by {@link FromRenderer}, expressions
 * by {@link ExpressionRenderer}, names resolved by {@link Scope}, literals by {@link Literals}.
 * Not thread-safe: one instance per validation.
 *
 * <p>Deprecated JSqlParser accessors are read on purpose: a clause the parser still fills must be
 * refused even if the parser plans to drop its accessor.
 */
@SuppressWarnings({"deprecation", "removal"})
final class SelectRenderer {
    private static final Pattern LABEL_UNSAFE = Pattern.compile("[\\p{Cntrl}`\\\\]");
    /** A label that a bare name in HAVING may stand for (see {@link #onlyTheItemIsNamed}). */
    private static final Pattern PLAIN_LABEL = Pattern.compile("[A-Za-z0-9_$]{1,64}");
    private static final Pattern ASCII = Pattern.compile("[\\x20-\\x7e]*");
    private static final Pattern OVER = Pattern.compile("\\bOVER\\b", Pattern.CASE_INSENSITIVE);
    /** Query blocks per statement at most. */
    private static final int MAX_BLOCKS = 64;

    /**
     * The rendering of one statement: its text and the facts the domain decides on.
     *
     * @param bindings what each placeholder of {@code sql} takes: the caller's parameters, and the caller's
     *     attributes that the row filters of governed tables need ({@link GovernedTables})
     * @param masked the 0-based positions of the outputs {@code sql} replaces by a constant inside the server
     */
    record Rendered(String sql, List<OutputColumn> outputs, Set<TableRef> tables, Set<ColumnUse> uses,
                    Set<String> functions, List<Amplification> amplifications, Bindings bindings, Set<Integer> masked) {
    }

    /** The common table expression under which {@link #render} masks sensitive outputs. */
    static final String RESULT_NAME = "sqlguard_result";
    /**
     * Where the statement's first block takes the optimizer hint while it is rendered: the hint goes
     * there, or to the masking query around the statement (MySQL reads the hint in the outermost query
     * block only). NUL never appears in a name or literal sqlguard renders.
     */
    private static final String HINT_SLOT = "\u0000hint\u0000";

    /**
     * A rendered query (block, set operation or CTE body): its text and its output columns.
     *
     * @param mergedNames when MariaDB may merge the query into the block that reads it as a derived table or CTE (a
     *     plain block without DISTINCT, GROUP BY, HAVING, LIMIT, aggregate or window function), the folded names of the
     *     visible columns of the base tables merged with it, at any depth; else none
     * @param grouped whether the query's outputs come from a block with GROUP BY (a set operation's: any branch's)
     */
    record Query(String sql, List<String> labels, List<Value> values, Set<String> mergedNames, boolean grouped) {
        Query {
            mergedNames = Set.copyOf(mergedNames);
        }

        /** A query MariaDB does not merge into the block that reads it. */
        Query(String sql, List<String> labels, List<Value> values, boolean grouped) {
            this(sql, labels, values, Set.of(), grouped);
        }
    }

    private final GuardrailPolicy policy;
    private final Optional<Long> hintMillis;
    private final GovernedTables governed;
    private final boolean exactTableNames;
    private final Facts facts = new Facts();
    private final ExpressionRenderer expressions;
    private final FromRenderer from;
    private int aliases;
    /**
     * Whether some block has a WHERE, ON or HAVING, a subquery in an expression or a GROUP BY ... WITH ROLLUP (then
     * governed tables are not merged: {@link GovernedTables#BARRIER}). Merged, a governed table under WITH ROLLUP gave
     * the grand total row a grouped column's last value where the base table gives NULL (measured on MariaDB 10.11,
     * {@code SELECT DISTINCT id, created, min(id) ... GROUP BY 1, created WITH ROLLUP}: tenant seed 7694).
     */
    private boolean conditions;
    private int ctes;
    private int blocks;

    /**
     * @param governed the tables whose references are rendered as the caller's rows (row filters and masks)
     * @param hintMillis a MAX_EXECUTION_TIME optimizer hint to render (MySQL), or empty (MariaDB
     *     ignores the hint; its limit is the pinned session's {@code max_statement_time})
     */
    SelectRenderer(SchemaSnapshot schema, GuardrailPolicy policy, GovernedTables governed, Optional<Long> hintMillis) {
        this(schema, policy, governed, hintMillis, false);
    }

    /**
     * @param exactTableNames table names, schema names and table aliases are compared exactly, as a server with
     *     {@code lower_case_table_names = 0} compares them ({@link ServerReading})
     */
    SelectRenderer(SchemaSnapshot schema, GuardrailPolicy policy, GovernedTables governed, Optional<Long> hintMillis,
            boolean exactTableNames) {
        requireNonNull(schema, "schema is null");
        this.exactTableNames = exactTableNames;
        this.policy = requireNonNull(policy, "policy is null");
        this.hintMillis = requireNonNull(hintMillis, "hintMillis is null");
        this.governed = requireNonNull(governed, "governed is null");
        this.expressions = new ExpressionRenderer(this, facts, policy, new ParameterMarkers());
        this.from = new FromRenderer(this, schema, policy, governed, facts, exactTableNames);
    }

    Rendered render(Select select) {
        if (select.getClass() == ParenthesedSelect.class) {
            throw construct("Parenthesised queries are not allowed at the top level.");
        }
        Query q = query(select, Scope.root(exactTableNames), true);
        for (int i = 0; i < q.labels().size(); i++) {
            facts.output(q.labels().get(i), q.values().get(i));
        }
        Set<Integer> masked = policy.outputsToMask(facts.outputs());
        String hint = hintMillis.map(ms -> "/*+ MAX_EXECUTION_TIME(" + ms + ") */ ").orElse("");
        String sql = masked.isEmpty() && !(q.grouped() && repeatsAValue(q.values())) ? q.sql().replace(HINT_SLOT, hint)
                : masked(q.sql().replace(HINT_SLOT, ""), hint, q.labels(), masked, (long) policy.limits().maxRows() + 1);
        ParameterMarkers.Bound bound = ParameterMarkers.bind(GovernedTables.barriers(sql, conditions));
        return new Rendered(bound.sql(), facts.outputs(), facts.tables(), facts.uses(), facts.functions(),
                facts.amplifications(), bound.bindings(), masked);
    }

    /**
     * Whether two outputs of the statement are written alike (parentheses aside). MariaDB 10.11 labels such
     * outputs unreliably in a grouped query: {@code SELECT s.x AS a, s.x AS b ... GROUP BY 1} over a derived table
     * whose {@code x} is {@code abs(0)} labels both columns {@code b} (measured; without GROUP BY, with DISTINCT, and
     * aggregating without GROUP BY, the labels were right), so the result no longer shows which output is which.
     * Such a grouped statement runs under the query of {@link #masked} (masking nothing), whose outer select list
     * names each output once. Only a grouped one: that query stores the statement's rows in a temporary table, whose
     * columns MariaDB types from the outputs, and it types some too narrow ({@code 30000.50 * nullif(50, 7)} as
     * DECIMAL(8,2), so -1,500,025.00 came back -999,999.99; MySQL differential seed 4,008,499, an ungrouped
     * {@code SELECT regions.*, ..., region}); a query that repeats an output without grouping runs as written.
     */
    private static boolean repeatsAValue(List<Value> values) {
        Set<String> seen = new java.util.HashSet<>();
        for (Value v : values) {
            if (!seen.add(v.sql().replace("(", "").replace(")", ""))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The statement under a query that masks the outputs at {@code masked}: {@code WITH `sqlguard_result`
     * (`c1`, `c2`, ...) AS (statement) SELECT `sqlguard_result`.`c1` AS `label1`, CASE WHEN 1 = 0 THEN
     * `sqlguard_result`.`c2` END AS `label2`, ... FROM `sqlguard_result` LIMIT n}. The statement keeps its
     * own DISTINCT, grouping, ordering, set operations and row bound; the outer query returns its rows one
     * for one, in order, each masked output a NULL of the output's own type under its own label, so that
     * no byte of the value leaves the server. The column list names the statement's columns by position
     * (MariaDB refuses two columns of one name in a derived table, and a WITH column list is what both
     * MariaDB and MySQL 8 accept); the optimizer hint, when there is one, moves to the outer query.
     */
    private static String masked(String sql, String hint, List<String> labels, Set<Integer> masked, long cap) {
        String table = MySqlQuoting.identifier(RESULT_NAME);
        List<String> columns = new ArrayList<>();
        List<String> items = new ArrayList<>();
        for (int i = 0; i < labels.size(); i++) {
            String column = MySqlQuoting.identifier("c" + (i + 1));
            columns.add(column);
            String value = table + "." + column;
            items.add((masked.contains(i) ? "CASE WHEN 1 = 0 THEN " + value + " END" : value) + " AS " + MySqlQuoting.identifier(labels.get(i)));
        }
        return "WITH " + table + " (" + String.join(", ", columns) + ") AS (" + sql + ") SELECT " + hint + String.join(", ", items)
                + " FROM " + table + " LIMIT " + cap;
    }

    /**
     * The statement a plan runs under its masking query ({@link #masked}; without the optimizer hint,
     * which the masking query carries), or the plan's text when it masks nothing: what the renderer made
     * of the model's SQL.
     *
     * @throws IllegalArgumentException when the text is not the masking of the plan's outputs
     */
    static String unmasked(QueryPlan plan, Optional<Long> hintMillis) {
        if (plan.maskedOutputs().isEmpty()) {
            return plan.executableSql();
        }
        List<String> labels = plan.outputs().stream().map(OutputColumn::name).toList();
        String hint = hintMillis.map(ms -> "/*+ MAX_EXECUTION_TIME(" + ms + ") */ ").orElse("");
        String around = masked(HINT_SLOT, hint, labels, plan.maskedOutputs(), (long) plan.limits().maxRows() + 1);
        String prefix = around.substring(0, around.indexOf(HINT_SLOT));
        String suffix = around.substring(around.indexOf(HINT_SLOT) + HINT_SLOT.length());
        String sql = plan.executableSql();
        if (sql.length() <= prefix.length() + suffix.length() || !sql.startsWith(prefix) || !sql.endsWith(suffix)) {
            throw new IllegalArgumentException("not a masked text of the plan's outputs");
        }
        return sql.substring(prefix.length(), sql.length() - suffix.length());
    }

    ExpressionRenderer expressions() {
        return expressions;
    }

    int nextAlias() {
        return ++aliases;
    }

    /** Notes a WHERE, ON or HAVING condition of the statement. */
    void condition() {
        conditions = true;
    }

    /**
     * A subquery in an expression (scalar, IN, EXISTS, ANY/ALL): it sees the enclosing blocks. It counts as
     * a condition ({@link #condition}): the server turns a quantified one into a condition of the subquery
     * (IN to EXISTS), beside the row filters of the tables it reads.
     */
    Query subquery(ParenthesedSelect p, Scope scope) {
        condition();
        checkParenthesed(p);
        return query(p.getSelect(), scope, false);
    }

    /** A derived table's query. */
    Query derivedQuery(ParenthesedSelect p, Scope scope) {
        if (p.getPivot() != null || p.getUnPivot() != null || p.getSampleClause() != null) {
            throw construct("PIVOT, UNPIVOT and samples are not allowed.");
        }
        return query(p.getSelect(), scope, false);
    }

    private static void checkParenthesed(ParenthesedSelect p) {
        if (p.getAlias() != null || p.getPivot() != null || p.getUnPivot() != null || p.getSampleClause() != null) {
            throw construct("A subquery in an expression takes no alias.");
        }
    }

    // ------------------------------------------------------------------ queries

    /** A query: an optional WITH, then a block, a set operation or a parenthesised query. */
    private Query query(Select s, Scope parent, boolean top) {
        if (++blocks > MAX_BLOCKS) {
            throw new GuardException(ErrorCode.QUERY_TOO_COMPLEX, "The query has too many SELECT blocks.");
        }
        checkSelectLevel(s);
        Scope scope = new Scope(parent);
        String with = with(s, scope);
        Query body;
        if (s.getClass() == PlainSelect.class) {
            body = block((PlainSelect) s, scope, top);
        } else if (s.getClass() == SetOperationList.class) {
            body = setOperation((SetOperationList) s, scope, top);
        } else if (s.getClass() == ParenthesedSelect.class && !top) {
            ParenthesedSelect p = (ParenthesedSelect) s;
            checkParenthesed(p);
            Query inner = query(p.getSelect(), scope, false);
            StringBuilder tail = new StringBuilder();
            if (p.getOrderByElements() != null && !p.getOrderByElements().isEmpty()) {
                tail.append(" ORDER BY ").append(positionsOrderBy(p.getOrderByElements(), inner));
            }
            if (p.getLimit() != null || p.getOffset() != null) {
                tail.append(limit(p.getLimit(), p.getOffset(), false));
            }
            body = new Query("(" + inner.sql() + ")" + tail, inner.labels(), inner.values(), inner.mergedNames(), inner.grouped());
        } else {
            throw construct("Only SELECT queries, set operations (UNION, INTERSECT, EXCEPT) and WITH are allowed;"
                    + " no VALUES, TABLE or parenthesised top-level query.");
        }
        return with.isEmpty() ? body : new Query(with + body.sql(), body.labels(), body.values(), body.mergedNames(), body.grouped());
    }

    private String with(Select s, Scope scope) {
        List<WithItem<?>> items = s.getWithItemsList();
        if (items == null || items.isEmpty()) {
            return "";
        }
        boolean recursive = false;
        List<String> parts = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        for (WithItem<?> w : items) {
            if (w.getClass() != WithItem.class || w.getWithFunctionDeclaration() != null || w.getSearchClause() != null
                    || w.getCycleClause() != null || w.isMaterialized() || w.isUsingNot() || w.getSelect() == null
                    || w.getSelect().getClass() != ParenthesedSelect.class) {
                throw construct("A WITH item must be name [(columns)] AS (SELECT ...).");
            }
            recursive |= w.isRecursive();
            String name = FromRenderer.label(w.getAliasName());
            governed.checkWithName(name);
            if (seen.contains(Names.fold(name))) {
                throw new GuardException(ErrorCode.AMBIGUOUS_COLUMN, "Two WITH items are named " + SafeText.identifier(name) + ".");
            }
            seen.add(Names.fold(name));
            List<String> columnNames = new ArrayList<>();
            if (w.getWithItemList() != null) {
                for (SelectItem<?> c : w.getWithItemList()) {
                    if (!(c.getExpression() instanceof Column col) || col.getTable() != null || c.getAlias() != null) {
                        throw construct("A WITH column list names columns only.");
                    }
                    columnNames.add(FromRenderer.label(col.getColumnName()));
                }
            }
            String rendered = "cte" + (++ctes);
            ParenthesedSelect body = w.getSelect();
            checkParenthesed(body);
            Query q = recursive && body.getSelect().getClass() == SetOperationList.class
                    ? recursiveCte(name, rendered, columnNames, (SetOperationList) body.getSelect(), scope)
                    : query(body.getSelect(), scope, false);
            List<String> names = columnNames.isEmpty() ? q.labels() : columnNames;
            if (names.size() != q.values().size()) {
                throw new GuardException(ErrorCode.SYNTAX_ERROR, "The WITH column list and the query have different numbers of columns.");
            }
            requireDistinct(names);
            scope.addCte(name, new Scope.Cte(rendered, names, q.values(), q.mergedNames()));
            List<String> quoted = names.stream().map(MySqlQuoting::identifier).toList();
            parts.add(MySqlQuoting.identifier(rendered) + " (" + String.join(", ", quoted) + ") AS (" + q.sql() + ")");
        }
        return "WITH " + (recursive ? "RECURSIVE " : "") + String.join(", ", parts) + " ";
    }

    /**
     * A recursive CTE: its columns carry the flows of the anchor and of every recursive step, so the
     * whole body is rendered again until the flows no longer grow.
     */
    private Query recursiveCte(String name, String rendered, List<String> columnNames, SetOperationList body, Scope scope) {
        Query first = query(body.getSelects().get(0), scope, false);
        List<String> names = columnNames.isEmpty() ? first.labels() : columnNames;
        if (names.size() != first.values().size()) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "The WITH column list and the query have different numbers of columns.");
        }
        List<Value> values = first.values();
        for (int round = 0; round < 4; round++) {
            Scope inner = new Scope(scope);
            inner.addCte(name, new Scope.Cte(rendered, names, values, Set.of()));
            Query q = query(body, inner, false);
            List<Value> merged = merge(List.of(values, q.values()));
            if (keys(merged).equals(keys(values))) {
                return q;
            }
            values = merged;
        }
        throw new GuardException(ErrorCode.QUERY_TOO_COMPLEX, "The recursive WITH item could not be traced.");
    }

    private static List<Object> keys(List<Value> values) {
        List<Object> out = new ArrayList<>();
        for (Value v : values) {
            out.add(v.flows().stream().map(Value.Flow::key).toList());
        }
        return out;
    }

    /** Per output position, the flows of every branch. */
    private static List<Value> merge(List<List<Value>> branches) {
        List<Value> out = new ArrayList<>();
        for (int i = 0; i < branches.get(0).size(); i++) {
            List<Value> column = new ArrayList<>();
            for (List<Value> b : branches) {
                column.add(b.get(i));
            }
            out.add(Value.combine(column.get(0).sql(), null, column));
        }
        return out;
    }

    private Query setOperation(SetOperationList list, Scope scope, boolean top) {
        List<Select> selects = list.getSelects();
        List<SetOperation> ops = list.getOperations();
        if (selects == null || ops == null || selects.size() < 2 || ops.size() != selects.size() - 1) {
            throw Literals.unsafe("set operation form");
        }
        List<Query> branches = new ArrayList<>();
        StringBuilder sql = new StringBuilder();
        boolean compares = false;
        for (int i = 0; i < selects.size(); i++) {
            if (i > 0) {
                SetOperation op = ops.get(i - 1);
                String keyword;
                if (op.getClass() == UnionOp.class) {
                    keyword = "UNION";
                } else if (op.getClass() == IntersectOp.class) {
                    keyword = "INTERSECT";
                } else if (op.getClass() == ExceptOp.class) {
                    keyword = "EXCEPT";
                } else {
                    throw construct("Only UNION, INTERSECT and EXCEPT are allowed.");
                }
                if (op.isAll()) {
                    keyword += " ALL";
                } else {
                    compares = true;
                    if (op.isDistinct()) {
                        keyword += " DISTINCT";
                    } else if (op.getModifier() != null && !op.getModifier().isBlank()) {
                        throw Literals.unsafe("set operation modifier");
                    }
                }
                sql.append(' ').append(keyword).append(' ');
            }
            // the hint, when there is one, goes in the first block of the statement
            Query q = query(selects.get(i), scope, top && i == 0 && selects.get(i).getClass() == PlainSelect.class && hintMillis.isPresent()
                    ? TopHint.FIRST_BLOCK : TopHint.NONE);
            if (!branches.isEmpty() && q.values().size() != branches.get(0).values().size()) {
                throw new GuardException(ErrorCode.SYNTAX_ERROR, "The SELECTs of a set operation return different numbers of columns.");
            }
            branches.add(q);
            sql.append(selects.get(i).getClass() == PlainSelect.class ? "(" + q.sql() + ")" : q.sql());
        }
        if (compares) {
            for (Query b : branches) {
                b.values().forEach(v -> facts.use(v, UsePosition.SET_COMPARISON));
            }
        }
        List<List<Value>> columns = new ArrayList<>();
        branches.forEach(b -> columns.add(b.values()));
        Query merged = new Query(sql.toString(), branches.get(0).labels(), merge(columns), branches.stream().anyMatch(Query::grouped));
        if (list.getOrderByElements() != null && !list.getOrderByElements().isEmpty()) {
            sql.append(" ORDER BY ").append(positionsOrderBy(list.getOrderByElements(), merged));
        }
        if (top || list.getLimit() != null || list.getOffset() != null) {
            sql.append(limit(list.getLimit(), list.getOffset(), top));
        }
        return new Query(sql.toString(), merged.labels(), merged.values(), merged.grouped());
    }

    /** Where the optimizer hint goes. */
    private enum TopHint { NONE, FIRST_BLOCK }

    private Query query(Select s, Scope parent, TopHint hint) {
        if (hint == TopHint.NONE) {
            return query(s, parent, false);
        }
        checkSelectLevel(s);
        if (++blocks > MAX_BLOCKS) {
            throw new GuardException(ErrorCode.QUERY_TOO_COMPLEX, "The query has too many SELECT blocks.");
        }
        if (s.getWithItemsList() != null && !s.getWithItemsList().isEmpty()) {
            throw construct("Put WITH before the whole set operation.");
        }
        return block((PlainSelect) s, new Scope(parent), true, false);
    }

    /** ORDER BY over a set operation or parenthesised query: output names and positions only. */
    private String positionsOrderBy(List<OrderByElement> elements, Query q) {
        List<String> out = new ArrayList<>();
        for (OrderByElement o : elements) {
            if (o.getNullOrdering() != null || o.getWithFill() != null || o.isMysqlWithRollup()) {
                throw construct("NULLS FIRST, NULLS LAST and WITH ROLLUP are not allowed in ORDER BY.");
            }
            Expression e = o.getExpression();
            int position;
            if (e != null && e.getClass() == LongValue.class) {
                position = new BigInteger(Literals.integer((LongValue) e)).min(BigInteger.valueOf(Integer.MAX_VALUE)).intValue();
            } else if (bareName(e).isPresent()) {
                position = labelPosition(q.labels(), bareName(e).get())
                        .orElseThrow(() -> new GuardException(ErrorCode.UNKNOWN_COLUMN, "Order a set operation by its output names or positions."));
            } else {
                throw construct("Order a set operation by its output names or positions.");
            }
            if (position < 1 || position > q.values().size()) {
                throw new GuardException(ErrorCode.UNKNOWN_COLUMN, "ORDER BY position " + position + " is not in the select list.");
            }
            facts.use(q.values().get(position - 1), UsePosition.ORDERING);
            out.add(position + (o.isAscDescPresent() ? (o.isAsc() ? " ASC" : " DESC") : ""));
        }
        return String.join(", ", out);
    }

    private static Optional<String> bareName(Expression e) {
        if (e != null && e.getClass() == Column.class && (((Column) e).getTable() == null || ((Column) e).getTable().getName() == null)) {
            return Optional.of(MySqlQuoting.unquote(((Column) e).getColumnName()));
        }
        if (e != null && e.getClass() == DateUnitExpression.class) {
            return Optional.of(((DateUnitExpression) e).getType().name().toLowerCase(java.util.Locale.ROOT));
        }
        return Optional.empty();
    }

    private static Optional<Integer> labelPosition(List<String> labels, String name) {
        int match = -1;
        for (int i = 0; i < labels.size(); i++) {
            if (Names.fold(labels.get(i)).equals(Names.fold(name))) {
                if (match >= 0) {
                    throw new GuardException(ErrorCode.AMBIGUOUS_COLUMN, "More than one output column is named " + SafeText.identifier(name) + ".");
                }
                match = i;
            }
        }
        return match < 0 ? Optional.empty() : Optional.of(match + 1);
    }

    // ------------------------------------------------------------------ one query block

    private Query block(PlainSelect ps, Scope scope, boolean top) {
        return block(ps, scope, top, top);
    }

    /**
     * @param hint whether to render the optimizer hint
     * @param bound whether the block is the statement's outermost and takes the row bound
     */
    private Query block(PlainSelect ps, Scope scope, boolean hint, boolean bound) {
        checkPlainSelectLevel(ps);
        StringBuilder sql = new StringBuilder("SELECT ");
        if (hint && hintMillis.isPresent()) {
            sql.append(HINT_SLOT);
        }
        Distinct distinct = ps.getDistinct();
        int distinctAt = -1;
        if (distinct != null) {
            if (distinct.getOnSelectItems() != null || distinct.isUseUnique() || distinct.getClass() != Distinct.class) {
                throw construct("Only plain DISTINCT is allowed.");
            }
            distinctAt = sql.length();
            sql.append("DISTINCT ");
        }
        // FROM first: select items resolve against it
        String fromSql = from.render(ps, scope);
        scope.showAll();
        if (ps.getWindowDefinitions() != null) {
            // WINDOW w AS (...): each OVER w is rendered with the definition written out, which is what it means
            ps.getWindowDefinitions().forEach(scope::defineWindow);
        }
        List<SelectItem<?>> selectItems = ps.getSelectItems();
        if (selectItems == null || selectItems.isEmpty()) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "The SELECT list is empty.");
        }
        // items with a window function last: a window may name the alias of any item, even a later one (MariaDB
        // finds it), and sees the items rendered before it; the text keeps the items in their written order
        List<List<Item>> byItem = new ArrayList<>();
        for (SelectItem<?> item : selectItems) {
            byItem.add(null);
            if (item.getAlias() != null && mayHoldWindow(item)) {
                scope.windowLabel(FromRenderer.alias(item.getAlias()));
            }
        }
        for (boolean windows : new boolean[] {false, true}) {
            for (int k = 0; k < selectItems.size(); k++) {
                if (mayHoldWindow(selectItems.get(k)) == windows) {
                    List<Item> items = selectItem(selectItems.get(k), k + 1, scope);
                    byItem.set(k, items);
                    scope.items().addAll(items);
                }
            }
        }
        scope.items().clear();
        List<String> rendered = new ArrayList<>();
        for (List<Item> items : byItem) {
            for (Item i : items) {
                scope.items().add(i);
                rendered.add(i.value().sql() + " AS " + MySqlQuoting.identifier(i.label()));
            }
        }
        for (Item i : scope.items()) {
            // every block's items are computed, used or not: a failing step there is an oracle too
            facts.use(i.value(), UsePosition.OUTPUT);
            if (distinct != null) {
                facts.use(i.value(), UsePosition.DISTINCT);
            }
        }
        sql.append(String.join(", ", rendered));
        if (fromSql != null) {
            sql.append(" FROM ").append(fromSql);
        }
        if (ps.getWhere() != null) {
            condition();
            Value where = expressions.render(ps.getWhere(), new Ctx(scope, Clause.WHERE, 0));
            facts.use(where, UsePosition.FILTER);
            sql.append(" WHERE ").append(where.sql());
        }
        GroupByElement groupBy = ps.getGroupBy();
        int groupByAt = sql.length();
        if (groupBy != null) {
            sql.append(" GROUP BY ").append(groupBy(groupBy, scope));
        }
        if (ps.getHaving() != null) {
            condition();
            Value having = expressions.render(ps.getHaving(), new Ctx(scope, Clause.HAVING, 0));
            facts.use(having, UsePosition.FILTER);
            sql.append(" HAVING ").append(having.sql());
        }
        if (groupBy != null && groupBy.isMysqlWithRollup() && scope.hasDistinctAggregate()) {
            // MariaDB 10.11 gives the rolled-up rows the sum of the groups' distinct counts and sums: count(DISTINCT region)
            // 4 over four groups of one region each (tenant seed 3237, HAVING count(DISTINCT 'APPROVED') >= 10 kept the
            // grand total row as written and dropped it as rendered); checked after HAVING, which may hold one too
            throw construct("With WITH ROLLUP, use no DISTINCT inside an aggregate; count or sum the distinct values in a"
                    + " derived table first.");
        }
        // no DISTINCT, GROUP BY or HAVING: with no aggregate either, the block's rows are its FROM rows
        boolean ungrouped = distinct == null && groupBy == null && ps.getHaving() == null;
        List<OrderByElement> orderBy = ps.getOrderByElements();
        if (orderBy != null && !orderBy.isEmpty()) {
            scope.orderingRows(ungrouped && scope.aggregates() == 0);
            sql.append(" ORDER BY ").append(orderBy(orderBy, scope));
        }
        if (ps.getHaving() != null && scope.hasValueKeepingAggregate() && scope.hasWindowFunction()) {
            // MariaDB 10.11 drops groups that pass the HAVING when the block also has a window function and an aggregate
            // that keeps its group's values (over DISTINCT values, or group_concat, json_arrayagg and json_objectagg in any
            // form), depending on its plan: SELECT region, count(DISTINCT amount), count(*) OVER () FROM claims JOIN
            // regions USING (region) GROUP BY 1 HAVING count(*) > 0 gives no row over one region's 15 claims (tenant seed
            // 745 of the fourth wave), and so does group_concat(region) in place of the count (tenant seed 208063, fresh
            // seeds of 2026-12-07; sum, avg, min, max, std, bit_and and count answer); checked after ORDER BY, which may
            // hold the window function
            throw construct("With HAVING, use no window function beside group_concat or an aggregate over DISTINCT values in"
                    + " the same query block; compute the grouped rows in a derived table and apply the window function outside it.");
        }
        if (bound || ps.getLimit() != null || ps.getOffset() != null) {
            sql.append(limit(ps.getLimit(), ps.getOffset(), bound));
        }
        boolean offset = ps.getOffset() != null || ps.getLimit() != null && ps.getLimit().getOffset() != null;
        if (distinct != null && offset && groupBy == null && scope.aggregates() == 0 && !scope.hasWindowFunction()) {
            // MariaDB 10.11 skips the OFFSET of a SELECT DISTINCT whose items it finds constant (literals, or columns of a
            // one-row table, as a tenant's filtered table can be): SELECT DISTINCT TRUE, 0 FROM claims LIMIT 6 OFFSET 3
            // gives a row (tenant seed 541 of the fourth wave). Grouped by every item, the same rows skip the OFFSET as
            // written; the later position first, so that the earlier one still holds
            List<String> positions = new ArrayList<>();
            for (int i = 1; i <= rendered.size(); i++) {
                positions.add(Integer.toString(i));
            }
            sql.insert(groupByAt, " GROUP BY " + String.join(", ", positions));
            sql.delete(distinctAt, distinctAt + "DISTINCT ".length());
        }
        if (!scope.unusedWindows().isEmpty()) {
            // the server checks a window no function uses; dropping it could run what the server refuses
            throw construct("Every window of the WINDOW clause must be used by a window function of the same query block.");
        }
        List<String> labels = new ArrayList<>();
        List<Value> values = new ArrayList<>();
        for (Item i : scope.items()) {
            labels.add(i.label());
            values.add(i.value());
        }
        // counted again here: an aggregate of the ORDER BY groups the block too
        boolean mergeable = ungrouped && scope.aggregates() == 0 && !scope.hasWindowFunction() && ps.getLimit() == null
                && ps.getOffset() == null && ps.getFetch() == null;
        return new Query(sql.toString(), labels, values, mergeable ? scope.mergedNames() : Set.of(), groupBy != null);
    }

    /** Whether a select item may call a window function (any {@code OVER} in its text; a false alarm only reorders rendering). */
    private static boolean mayHoldWindow(SelectItem<?> item) {
        return item.getExpression() != null && OVER.matcher(item.getExpression().toString()).find();
    }

    private List<Item> selectItem(SelectItem<?> item, int ordinal, Scope scope) {
        Expression e = item.getExpression();
        if (e != null && e.getClass() == AllColumns.class) {
            AllColumns all = (AllColumns) e;
            if (item.getAlias() != null || !"*".equals(all.toString().strip())) {
                throw new GuardException(ErrorCode.WILDCARD_NOT_ALLOWED, "Write * or t.* without modifiers.");
            }
            if (scope.relations().isEmpty()) {
                throw new GuardException(ErrorCode.SYNTAX_ERROR, "* needs a FROM clause.");
            }
            return expand(scope.starSlots().stream().map(slot -> new RelColumn(slot.name(), slot.value().orElseThrow())).toList());
        }
        if (e != null && e.getClass() == AllTableColumns.class) {
            AllTableColumns all = (AllTableColumns) e;
            if (item.getAlias() != null || all.getTable() == null || all.getTable().getNameParts().size() > 2
                    || !all.toString().strip().endsWith(".*") || all.getExceptColumns() != null || all.getReplaceExpressions() != null) {
                throw new GuardException(ErrorCode.WILDCARD_NOT_ALLOWED, "Write * or t.* without modifiers.");
            }
            Optional<String> schemaName = all.getTable().getSchemaName() == null ? Optional.empty()
                    : Optional.of(MySqlQuoting.unquote(all.getTable().getSchemaName()));
            String qualifier = MySqlQuoting.unquote(all.getTable().getName());
            Relation r = scope.relation(schemaName, qualifier).orElseThrow(() -> new GuardException(ErrorCode.UNKNOWN_COLUMN,
                    "The qualifier " + SafeText.identifier(qualifier) + " does not name a table of this query."));
            return expand(r.columns());
        }
        if (e instanceof AllColumns) {
            throw new GuardException(ErrorCode.WILDCARD_NOT_ALLOWED, "Write * or t.* without modifiers.");
        }
        int aggregatesBefore = scope.aggregates();
        Value value = expressions.render(e, new Ctx(scope, Clause.SELECT, 0));
        boolean aggregate = scope.aggregates() > aggregatesBefore;
        String label;
        Optional<String> bare = bareName(e);
        if (item.getAlias() != null) {
            label = FromRenderer.alias(item.getAlias());
        } else if (e instanceof Column c) {
            label = MySqlQuoting.unquote(c.getColumnName());
        } else if (bare.isPresent()) {
            label = bare.get();
        } else {
            label = derivedLabel(e, ordinal);
        }
        boolean column = e instanceof Column || e instanceof DateUnitExpression;
        return List.of(new Item(label, value, column ? Optional.of(value.sql()) : Optional.empty(), false, aggregate));
    }

    /** {@code *} or {@code t.*}: the visible (allowlisted) columns, never a hidden one. */
    private static List<Item> expand(List<RelColumn> columns) {
        List<Item> out = new ArrayList<>();
        for (RelColumn c : columns) {
            out.add(new Item(c.name(), c.value(), Optional.of(c.value().sql()), false));
        }
        if (out.isEmpty()) {
            throw new GuardException(ErrorCode.WILDCARD_NOT_ALLOWED, "No column of these tables is visible.");
        }
        return out;
    }

    private static String derivedLabel(Expression e, int ordinal) {
        String text = LABEL_UNSAFE.matcher(e.toString()).replaceAll("").replaceAll("\\s+", " ").strip();
        if (text.length() > 64) {
            text = text.substring(0, 64).strip();
        }
        return text.isEmpty() ? "col_" + ordinal : text;
    }

    private static void requireDistinct(List<String> names) {
        for (int i = 0; i < names.size(); i++) {
            for (int j = i + 1; j < names.size(); j++) {
                if (Names.fold(names.get(i)).equals(Names.fold(names.get(j)))) {
                    throw new GuardException(ErrorCode.AMBIGUOUS_COLUMN, "Two columns are named " + SafeText.identifier(names.get(i))
                            + "; give them different aliases.");
                }
            }
        }
    }

    // ------------------------------------------------------------------ aliases, GROUP BY, ORDER BY, LIMIT

    /**
     * A bare name in HAVING or ORDER BY that the server reads as a select-list alias, with the item's
     * flows. In HAVING, outside the arguments of an aggregate, the alias of an expression item is
     * rendered as that alias when only the item can carry the name ({@link #onlyTheItemIsNamed}):
     * there the server looks the name up in the select list and in the GROUP BY list only, never in
     * the FROM tables, and the item's expression written out again would name columns that HAVING
     * cannot see (MariaDB 1054 "Unknown column 'k' in 'HAVING'" for {@code k + 1 AS kk ... HAVING kk > 2}).
     * Everywhere else the item's expression is rendered again: in an ORDER BY expression and in an
     * aggregate's arguments the server reads a bare name as a FROM column first (measured on MariaDB 10.11),
     * so an alias there could mean a column that is not allowlisted. Empty when the name is a column of
     * the FROM tables instead.
     */
    Optional<Value> aliasReference(String name, Ctx ctx) {
        return aliasReference(name, ctx, false, false);
    }

    /**
     * {@link #aliasReference(String, Ctx)}, also in a window's PARTITION BY and ORDER BY, where MariaDB
     * looks a name up among the FROM columns and then among the select items' aliases.
     *
     * @param whole whether the name is a whole window key (parentheses aside) rather than part of an expression:
     *     inside an expression MariaDB refuses the alias of an item that calls an aggregate (1247 "Reference 's'
     *     not supported (reference to group function)", in ORDER BY as in a window), so the guard refuses it too
     *     instead of answering with the aggregate written out
     * @param windowOrder whether the name is one of a window's ORDER BY keys: whole, it is the select item of that name
     *     whatever the tables hold (ExpressionRenderer.windowKey)
     */
    Optional<Value> aliasReference(String name, Ctx ctx, boolean whole, boolean windowOrder) {
        if (ctx.clause() != Clause.HAVING && ctx.clause() != Clause.HAVING_AGGREGATE && ctx.clause() != Clause.ORDER_BY
                && ctx.clause() != Clause.ORDER_BY_AGGREGATE && ctx.clause() != Clause.WINDOW && ctx.clause() != Clause.WINDOW_AGGREGATE) {
            return Optional.empty();
        }
        if ((ctx.clause() == Clause.HAVING_AGGREGATE || ctx.clause() == Clause.ORDER_BY_AGGREGATE || ctx.clause() == Clause.WINDOW_AGGREGATE)
                && ctx.scope().local(name).isPresent()) {
            // inside an aggregate's arguments the server reads a column of the block's FROM tables before an alias
            // (ExpressionRenderer.aggregateArguments): the column, rendered qualified
            return Optional.empty();
        }
        // past that, an aggregate's arguments in ORDER BY and in a window follow their clause's rules, as before
        Clause clause = ctx.clause() == Clause.ORDER_BY_AGGREGATE ? Clause.ORDER_BY
                : ctx.clause() == Clause.WINDOW_AGGREGATE ? Clause.WINDOW : ctx.clause();
        ctx = new Ctx(ctx.scope(), clause, ctx.depth());
        if (ctx.clause() == Clause.WINDOW && ctx.scope().isWindowLabel(name)) {
            // MariaDB reads such a name as the window function's item (4016 "Window function is not allowed in window
            // specification", measured with rank() OVER (ORDER BY id) AS id over a table with a column id), except
            // inside an expression, where it reads a column of that name first
            if (ctx.scope().local(name).isPresent()) {
                throw new GuardException(ErrorCode.AMBIGUOUS_COLUMN, SafeText.identifier(name)
                        + " names both a window function of the select list and a table column; rename the alias.");
            }
            throw construct(SafeText.identifier(name) + " names a window function of the select list, and a window cannot be"
                    + " partitioned or ordered by a window function.");
        }
        if (ctx.clause() == Clause.ORDER_BY && !whole && ctx.scope().ordersRows() && ctx.scope().local(name).isPresent()) {
            // inside an ORDER BY expression MariaDB looks the name up among the FROM columns first and finds the
            // column (measured on MariaDB 10.11: SELECT 0 - id AS id FROM t ORDER BY id + 0, also over a derived table,
            // a CTE and a USING join; in two joined tables 1052 "ambiguous"); over plain rows that is one value a row
            return Optional.empty();
        }
        if (ctx.clause() == Clause.HAVING) {
            Optional<Integer> shadowing = havingLabelOverAColumn(name, ctx.scope());
            if (shadowing.isPresent()) {
                Item item = ctx.scope().items().get(shadowing.get() - 1);
                return Optional.of(new Value(MySqlQuoting.identifier(item.label()), item.value().flows(), Optional.empty(),
                        item.value().mayFail(), item.value().weight()));
            }
        }
        // a whole window ORDER BY key is the select item of that name whatever the tables hold, as a whole ORDER BY item is
        Shadowing shadowing = whole && windowOrder && ctx.clause() == Clause.WINDOW ? Shadowing.ALIAS_FIRST : Shadowing.REFUSED;
        Optional<Integer> position = aliasPosition(name, ctx.scope(), shadowing);
        if (position.isEmpty()) {
            return Optional.empty();
        }
        Item item = ctx.scope().items().get(position.get() - 1);
        if (!whole && item.aggregate() && (ctx.clause() == Clause.ORDER_BY || ctx.clause() == Clause.WINDOW)) {
            throw construct("The alias " + SafeText.identifier(name) + " stands for an aggregate, and MariaDB does not read such an"
                    + " alias inside an ORDER BY or window expression; write the aggregate itself there, or order by the alias alone.");
        }
        String sql = ctx.clause() == Clause.HAVING && item.bareColumn().isEmpty() && onlyTheItemIsNamed(position.get(), ctx.scope())
                ? MySqlQuoting.identifier(item.label())
                : "(" + item.value().sql() + ")";
        return Optional.of(new Value(sql, item.value().flows(), Optional.empty(), item.value().mayFail(), item.value().weight()));
    }

    /**
     * Whether the label of the item at {@code position}, written as a bare name in this block's HAVING,
     * can only mean that item on the server. The server (MariaDB's {@code resolve_ref_in_select_and_group})
     * looks such a name up among the select items' names and among the GROUP BY items that are bare
     * columns (where a GROUP BY column wins over an alias); it compares names with the system collation.
     * So the label must be a plain ASCII name (ASCII names compare equal there exactly when they are equal
     * ignoring case), and no other select item and no visible column of this block or of an enclosing one
     * (the only columns a rendered GROUP BY can name) may carry a name that could compare equal to it:
     * any name that is not ASCII counts as one that could. A column that is not allowlisted never appears
     * in a rendered GROUP BY and is not looked at, so its name changes nothing here.
     */
    private static boolean onlyTheItemIsNamed(int position, Scope scope) {
        String label = scope.items().get(position - 1).label();
        if (!noOtherItemIsNamed(position, scope.items())) {
            return false;
        }
        for (Scope s = scope; s != null; s = s.parent()) {
            for (Relation r : s.relations()) {
                for (RelColumn c : r.columns()) {
                    if (mayEqual(c.name(), label)) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /**
     * The position of the select item a bare name in this block's HAVING (outside an aggregate's arguments) means
     * when the name is also a column of the block's FROM items, and only where the item's label, written back, can
     * only mean that item: MariaDB looks the name up among the select items' names and the GROUP BY items that are
     * columns, never among the FROM columns ({@code resolve_ref_in_select_and_group}; measured: {@code SELECT k + 1 AS
     * ssn ... GROUP BY 1 HAVING ssn > 2} reads the alias beside a column {@code ssn}), so {@code SELECT status,
     * sum(amount) AS amount ... GROUP BY status HAVING amount > 100} is the sum. Empty (and the name refused as
     * before) when a GROUP BY item could be a column of that name, whose reading would then win, when another item
     * could carry the name, or when the item is a column itself.
     */
    private static Optional<Integer> havingLabelOverAColumn(String name, Scope scope) {
        if (scope.relationsWithColumn(name).isEmpty() || !PLAIN_LABEL.matcher(name).matches()) {
            return Optional.empty();
        }
        List<Item> items = scope.items();
        for (int i = 0; i < items.size(); i++) {
            if (mayEqual(items.get(i).label(), name)) {
                boolean alone = items.get(i).bareColumn().isEmpty() && noOtherItemIsNamed(i + 1, items)
                        && scope.groupedNames().stream().noneMatch(grouped -> mayEqual(grouped, name));
                return alone ? Optional.of(i + 1) : Optional.empty();
            }
        }
        return Optional.empty();
    }

    /** Whether the label of the item at {@code position} is a plain ASCII name that no other item's label could equal. */
    private static boolean noOtherItemIsNamed(int position, List<Item> items) {
        String label = items.get(position - 1).label();
        if (!PLAIN_LABEL.matcher(label).matches()) {
            return false;
        }
        for (int i = 0; i < items.size(); i++) {
            if (i != position - 1 && mayEqual(items.get(i).label(), label)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Every name a rendered GROUP BY key could carry as a column: each backquoted name in a key written as an expression,
     * and the column name of a selected item a key names by position. More than the server's GROUP BY columns, never fewer.
     */
    private static List<String> groupedNames(List<String> keys, Scope scope) {
        List<String> names = new ArrayList<>();
        for (String key : keys) {
            if (POSITION.matcher(key).matches()) {
                int p = Integer.parseInt(key);
                if (p <= scope.items().size()) {
                    scope.items().get(p - 1).bareColumn().map(String::valueOf).ifPresent(c -> quotedNames(c, names));
                }
            } else {
                quotedNames(key, names);
            }
        }
        return names;
    }

    /** Each backquoted name in {@code sql}, unquoted, added to {@code out}. */
    private static void quotedNames(String sql, List<String> out) {
        Matcher m = QUOTED_NAME.matcher(sql);
        while (m.find()) {
            out.add(MySqlQuoting.unquote(m.group()));
        }
    }

    /** A backquoted name in rendered SQL. */
    private static final Pattern QUOTED_NAME = Pattern.compile("`(?:[^`]|``)*`");

    /** Whether the server could read {@code name} and the plain ASCII {@code label} as the same name. */
    private static boolean mayEqual(String name, String label) {
        return !ASCII.matcher(name).matches() || name.strip().equalsIgnoreCase(label);
    }

    private String groupBy(GroupByElement groupBy, Scope scope) {
        if (groupBy.getGroupingSets() != null && !groupBy.getGroupingSets().isEmpty()) {
            throw construct("GROUPING SETS are not allowed; MariaDB and MySQL write super-aggregates as GROUP BY ... WITH ROLLUP.");
        }
        ExpressionList<Expression> list = groupBy.getGroupByExpressionList();
        if (list == null || list.isEmpty()) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "GROUP BY needs at least one expression.");
        }
        List<String> out = new ArrayList<>();
        for (Expression e : list) {
            out.add(wholeItem(e, Clause.GROUP_BY, scope, UsePosition.GROUPING));
        }
        scope.groupedNames(groupedNames(out, scope));
        // WITH ROLLUP adds the super-aggregate rows (grouped columns NULL); it reads no column the GROUP BY
        // does not already group by. Whether ORDER BY may follow is the server's decision (MariaDB refuses it, 1221).
        if (groupBy.isMysqlWithRollup()) {
            requireRollupAsWritten(list, out, scope);
            condition();
        }
        return String.join(", ", out) + (groupBy.isMysqlWithRollup() ? " WITH ROLLUP" : "");
    }

    /** A rendered GROUP BY key that is a select-list position (an alias is rendered as its position too). */
    private static final Pattern POSITION = Pattern.compile("[1-9][0-9]{0,8}");
    /** The last backquoted name of a rendered column reference ({@code `t1`.`amount`}: {@code amount}). */
    private static final Pattern LAST_NAME = Pattern.compile("`([^`]+)`$");

    /**
     * Which select-list values MariaDB nulls in the rolled-up rows of {@code WITH ROLLUP}, and how it labels them,
     * depends on how the keys and the items are written, so the rendered text must leave it no choice (each measured
     * on MariaDB 10.11, the seed that found it named):
     * <ul>
     *   <li>a key is a column, or the position or name of a selected item, never an expression:
     *   {@code GROUP BY upper(region), 2 WITH ROLLUP} kept {@code upper(region)} in the rows that roll region up, and
     *   the same query as rendered nulled it (tenant seeds 2949 and 4893);</li>
     *   <li>each column is grouped once and selected bare once: {@code SELECT x1 AS x2, x1 AS x1 ... GROUP BY x1 WITH
     *   ROLLUP} nulled the second copy as written and the first as rendered (seed 16513);</li>
     *   <li>no output is labelled with another grouped column's name: {@code SELECT s2.amount AS x0, s2.x0 AS amount
     *   ... GROUP BY s2.amount, s2.x0 WITH ROLLUP} came back labelled amount, amount (seed 1360962);</li>
     *   <li>no window function in the block: {@code SELECT c.region, count(*), count(*) OVER () FROM claims c JOIN
     *   (SELECT 4 AS i UNION ALL SELECT 8) r ON r.i = c.id GROUP BY 1 WITH ROLLUP HAVING count(*) > 1} gave no row
     *   where it has two, and the same query over a recursive CTE gave both rows or none by plan (tenant seed 22).
     *   The items are rendered before the GROUP BY, so the scope knows.</li>
     * </ul>
     *
     * @param written the GROUP BY keys as written
     * @param rendered the same keys as rendered
     */
    private static void requireRollupAsWritten(List<Expression> written, List<String> rendered, Scope scope) {
        if (scope.hasWindowFunction()) {
            throw construct("With WITH ROLLUP, use no window function in the same SELECT; compute the window over the rolled-up"
                    + " rows in an outer query instead.");
        }
        Set<Object> grouped = new java.util.HashSet<>();
        for (int i = 0; i < rendered.size(); i++) {
            String key = rendered.get(i);
            Optional<Item> item = selectedAt(key, scope);
            if (!POSITION.matcher(key).matches() && !(ExpressionRenderer.unwrap(written.get(i)) instanceof Column)) {
                throw construct("With WITH ROLLUP, group by columns or by the positions or names of selected items, not by expressions.");
            }
            Object column = item.flatMap(Item::bareColumn).orElse(key);
            if (!grouped.add(column)) {
                throw construct("With WITH ROLLUP, group by each column once.");
            }
        }
        Set<Object> selected = new java.util.HashSet<>();
        for (Item item : scope.items()) {
            if (item.bareColumn().isPresent() && !selected.add(item.bareColumn().get())) {
                throw construct("With WITH ROLLUP, select each grouped column once.");
            }
        }
        for (Item item : scope.items()) {
            for (Object column : grouped) {
                java.util.regex.Matcher name = LAST_NAME.matcher(String.valueOf(column));
                if (name.find() && Names.fold(name.group(1)).equals(Names.fold(item.label()))
                        && !item.bareColumn().map(column::equals).orElse(false)) {
                    throw construct("With WITH ROLLUP, label no output with the name of another grouped column.");
                }
            }
        }
    }

    /** The select-list item a rendered GROUP BY key stands for, when the key is its position. */
    private static Optional<Item> selectedAt(String key, Scope scope) {
        if (!POSITION.matcher(key).matches()) {
            return Optional.empty();
        }
        int n = Integer.parseInt(key);
        return n <= scope.items().size() ? Optional.of(scope.items().get(n - 1)) : Optional.empty();
    }

    private String orderBy(List<OrderByElement> elements, Scope scope) {
        List<String> out = new ArrayList<>();
        for (OrderByElement o : elements) {
            if (o.getNullOrdering() != null || o.getWithFill() != null || o.isMysqlWithRollup()) {
                throw construct("NULLS FIRST, NULLS LAST and WITH ROLLUP are not allowed in ORDER BY.");
            }
            out.add(wholeItem(o.getExpression(), Clause.ORDER_BY, scope, UsePosition.ORDERING)
                    + (o.isAscDescPresent() ? (o.isAsc() ? " ASC" : " DESC") : ""));
        }
        return String.join(", ", out);
    }

    /** A GROUP BY or ORDER BY item: a select-list alias or position becomes a position, anything else an expression. */
    private String wholeItem(Expression e, Clause clause, Scope scope, UsePosition position) {
        // MariaDB reads (name) as it reads name here (measured: ORDER BY (s) with s the alias of sum(a) runs)
        Optional<String> bare = bareName(ExpressionRenderer.unwrap(e));
        if (bare.isPresent()) {
            Optional<Integer> alias = aliasPosition(bare.get(), scope, clause == Clause.ORDER_BY ? Shadowing.ALIAS_FIRST : Shadowing.COLUMN_FIRST);
            if (alias.isPresent()) {
                facts.use(scope.items().get(alias.get() - 1).value(), position);
                return alias.get().toString();
            }
        }
        Optional<LongValue> literal = Literals.positionLiteral(e);
        if (literal.isPresent()) {
            // the server reads a bare integer as a select-list position; fail closed for parenthesised ones too
            String text = Literals.integer(literal.get());
            BigInteger n = new BigInteger(text);
            if (Literals.negativePosition(e)) {
                // a negative position: the server refuses it, and nothing is read
                return "-" + text;
            }
            if (n.signum() > 0 && n.compareTo(BigInteger.valueOf(scope.items().size())) <= 0) {
                facts.use(scope.items().get(n.intValueExact() - 1).value(), position);
                return String.valueOf(n.intValueExact());
            }
            // outside the select list: the server refuses it, and nothing is read
            return text;
        }
        Value v = expressions.render(e, new Ctx(scope, clause, 0));
        facts.use(v, position);
        return v.sql();
    }

    /**
     * How a bare name is read that is both the label of a select item (not that very column) and a column of the block's
     * tables. MariaDB and MySQL decide a whole GROUP BY or ORDER BY item in {@code find_order_in_list}: a whole ORDER BY
     * item is the select item, whatever the tables hold (measured on MariaDB 10.11: {@code SELECT 0 - id AS id FROM claims
     * ORDER BY id} orders by the alias, also with {@code id} in two joined tables). A whole GROUP BY item is looked up in
     * the block's tables too ({@code find_field_in_tables}, ignoring errors): found in exactly one, it is that column
     * (warning 1052); found in more than one (two joined tables, or the two sides of a USING or NATURAL join, whose merged
     * column is still a column of each table there), the lookup fails and it is the select item ("Can't group on 'region'"
     * for an aggregate's alias; differential seeds 341, 1108, 1347, 1503 of a first trial that read every such name as the
     * column). Only visible columns are counted, so a hidden column changes nothing. The guard reads such a name as the
     * column only where the answer cannot depend on which row of a group MariaDB picks: every FROM item of the block is
     * a base table (a derived table's or CTE's column of literals reads no base column and still differs by row: seed
     * 779832, {@code r.i AS status ... GROUP BY status} over a recursive CTE {@code r}), the select item is no window
     * function and reads no column but the grouped one (a label over another column, grouped by the column, would show
     * any row's value: seeds 11250, 11306, 400945); anywhere else it is refused, as it is inside an expression, a HAVING
     * or a window, where the reading differs again.
     */
    private enum Shadowing {
        ALIAS_FIRST, COLUMN_FIRST, REFUSED
    }

    /** The 1-based position of the select item labelled {@code name}, when the name means that item. */
    private static Optional<Integer> aliasPosition(String name, Scope scope, Shadowing shadowing) {
        List<Item> items = scope.items();
        int match = -1;
        for (int i = 0; i < items.size(); i++) {
            if (Names.fold(items.get(i).label()).equals(Names.fold(name))) {
                if (match >= 0) {
                    if (items.get(i).value().sql().equals(items.get(match).value().sql())) {
                        continue;
                    }
                    throw new GuardException(ErrorCode.AMBIGUOUS_COLUMN, "More than one output column is named " + SafeText.identifier(name) + ".");
                }
                match = i;
            }
        }
        if (match < 0) {
            return Optional.empty();
        }
        if (shadowing == Shadowing.ALIAS_FIRST && !isItsOwnColumn(items.get(match))) {
            return Optional.of(match + 1); // whatever the tables hold, measured with the name in two of them too
        }
        if (shadowing == Shadowing.COLUMN_FIRST && !isItsOwnColumn(items.get(match))) {
            List<Scope.Relation> offering = scope.relationsWithColumn(name);
            if (offering.size() > 1) {
                return Optional.of(match + 1);
            }
            if (offering.size() == 1 && scope.relations().stream().allMatch(Scope.Relation::base) && !scope.isWindowLabel(name)
                    && offering.get(0).column(name).orElseThrow().value().lineage().containsAll(items.get(match).value().lineage())) {
                return Optional.empty();
            }
        }
        Optional<Value> column = scope.local(name);
        if (column.isPresent()) {
            // the name is also a table column: fine only when the item is that very column
            if (items.get(match).bareColumn().equals(Optional.of(column.get().sql()))) {
                return Optional.empty();
            }
            throw new GuardException(ErrorCode.AMBIGUOUS_COLUMN, SafeText.identifier(name)
                    + " names both an output column and a table column; rename the alias.");
        }
        return Optional.of(match + 1);
    }

    /** Whether a select item is a column written bare under its own name ({@code region}, {@code c.region}). */
    private static boolean isItsOwnColumn(Item item) {
        return item.bareColumn().filter(c -> String.valueOf(c).endsWith("." + MySqlQuoting.identifier(item.label()))).isPresent();
    }

    private String limit(Limit limit, Offset off, boolean bound) {
        long cap = (long) policy.limits().maxRows() + 1;
        Long rows = bound ? cap : null;
        long offset = 0;
        if (limit != null) {
            if (limit.getByExpressions() != null && !limit.getByExpressions().isEmpty()) {
                throw construct("LIMIT BY is not allowed.");
            }
            if (limit.getRowCount() != null && !limit.isLimitAll() && !limit.isLimitNull()) {
                long n = Literals.limitNumber(limit.getRowCount());
                rows = bound ? Math.min(cap, n) : n;
            }
            if (limit.getOffset() != null) {
                offset = Literals.limitNumber(limit.getOffset());
            }
        }
        if (off != null) {
            if (off.getOffsetParam() != null || limit != null && limit.getOffset() != null) {
                throw construct("Write OFFSET once, as LIMIT n OFFSET m.");
            }
            offset = Literals.limitNumber(off.getOffset());
        }
        if (rows == null) {
            if (offset == 0) {
                return "";
            }
            rows = Long.MAX_VALUE / 2;
        }
        return " LIMIT " + rows + (offset > 0 ? " OFFSET " + offset : "");
    }

    // ------------------------------------------------------------------ statement level

    private static void checkSelectLevel(Select s) {
        if (s.getForMode() != null || s.getForUpdateTable() != null || (s.getForUpdateTables() != null && !s.getForUpdateTables().isEmpty())
                || s.getForUpdate() != null || s.getForClause() != null || s.getWait() != null || s.isSkipLocked() || s.isNoWait()) {
            throw construct("Locking clauses (FOR UPDATE, FOR SHARE, LOCK IN SHARE MODE) are not allowed.");
        }
        if (s.getIsolation() != null || s.getOption() != null || s.getLimitBy() != null || s.getFetch() != null
                || (s.getInterpolate() != null && !s.getInterpolate().isEmpty()) || s.getMySqlProcedureAnalyse() != null
                || s.isOracleSiblings()
                || (s.getClass() != ParenthesedSelect.class && (s.getPivot() != null || s.getUnPivot() != null || s.getAlias() != null))) {
            throw construct("The query uses a clause that is not allowed on this source.");
        }
    }

    private static void checkPlainSelectLevel(PlainSelect ps) {
        if (ps.getMySqlSelectIntoClause() != null || (ps.getIntoTables() != null && !ps.getIntoTables().isEmpty())
                || ps.getIntoTempTable() != null) {
            throw new GuardException(ErrorCode.EXTERNAL_ACCESS_DENIED, "SELECT ... INTO (files, variables or tables) is not allowed.");
        }
        if (ps.isUseBrackets()) {
            throw construct("Parenthesised queries are not allowed.");
        }
        if (ps.getTop() != null || ps.getSkip() != null || ps.getFirst() != null || ps.getQualify() != null
                || ps.getPreWhere() != null || ps.getSampleClause() != null
                || (ps.getLateralViews() != null && !ps.getLateralViews().isEmpty())
                || ps.getOracleHierarchical() != null || ps.getOracleHint() != null || ps.getPreferringClause() != null
                || ps.getKsqlWindow() != null || (ps.getEmitMode() != null && ps.getEmitMode() != PlainSelect.EmitMode.NONE) || ps.isEmitChanges() || ps.getForXmlPath() != null
                || ps.getBigQuerySelectQualifier() != null || (ps.getSettings() != null && !ps.getSettings().isEmpty())
                || ps.getOptimizeFor() != null || ps.getMySqlSqlCalcFoundRows() || ps.getMySqlSqlCacheFlag() != null
                || ps.getMySqlHintStraightJoin() || ps.isUsingFinal() || ps.isUsingOnly() || ps.isUseWithNoLog()) {
            throw construct("The query uses a clause that is not allowed on this source.");
        }
    }

    static GuardException construct(String message) {
        return new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, message);
    }
}
