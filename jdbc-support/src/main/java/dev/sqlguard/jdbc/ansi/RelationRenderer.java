package dev.sqlguard.jdbc.ansi;

import static dev.sqlguard.jdbc.ansi.Amplifications.dateSeriesLength;
import static dev.sqlguard.jdbc.ansi.Amplifications.seriesLength;
import static dev.sqlguard.jdbc.ansi.AnsiErrors.construct;
import static dev.sqlguard.jdbc.ansi.AnsiErrors.unsafe;
import static dev.sqlguard.jdbc.ansi.QueryRenderer.requireUniqueLabels;
import static dev.sqlguard.jdbc.ansi.RenderFacts.ATTRIBUTE;
import static dev.sqlguard.jdbc.ansi.RenderFacts.MARK;
import static dev.sqlguard.jdbc.ansi.RenderFacts.SLOT;
import static dev.sqlguard.jdbc.ansi.RenderScope.addSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.sqlguard.domain.Amplification;
import dev.sqlguard.domain.ColumnMask;
import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.CostClass;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.FlowStep;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Refusals;
import dev.sqlguard.domain.RowFilter;
import dev.sqlguard.domain.SafeText;
import dev.sqlguard.domain.UsePosition;
import dev.sqlguard.jdbc.ansi.Flows.Flow;
import dev.sqlguard.jdbc.ansi.Flows.Value;
import dev.sqlguard.jdbc.ansi.RenderFacts.Slot;
import dev.sqlguard.jdbc.ansi.RenderScope.Col;
import dev.sqlguard.jdbc.ansi.RenderScope.Out;
import dev.sqlguard.jdbc.ansi.RenderScope.Query;
import dev.sqlguard.jdbc.ansi.RenderScope.Scope;
import dev.sqlguard.jdbc.ansi.RenderScope.Source;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.ColumnInfo;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.TableInfo;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.LateralSubSelect;
import net.sf.jsqlparser.statement.select.ParenthesedFromItem;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.Values;

/**
 * The FROM clause of the {@link AnsiRenderer}: tables (governed ones as slots), common table expressions,
 * subqueries, {@code generate_series} and joins, including {@code USING} and {@code NATURAL}.
 */
@SuppressWarnings({"deprecation", "removal"})
final class RelationRenderer {
    private final RenderContext ctx;
    private final AnsiDialect dialect;
    private final AnsiDialect.Lexicon lexicon;
    private final AnsiNames naming;
    private final SchemaSnapshot schema;
    private final GuardrailPolicy policy;
    private final RenderFacts facts;

    RelationRenderer(RenderContext ctx) {
        this.ctx = ctx;
        this.dialect = ctx.dialect;
        this.lexicon = ctx.lexicon;
        this.naming = ctx.naming;
        this.schema = ctx.schema;
        this.policy = ctx.policy;
        this.facts = ctx.facts;
    }

    String from(PlainSelect ps, Scope scope) {
        FromItem first = ps.getFromItem();
        if (first == null) {
            if (ps.getJoins() != null && !ps.getJoins().isEmpty()) {
                throw new GuardException(ErrorCode.SYNTAX_ERROR, "A join needs a FROM clause.");
            }
            return null;
        }
        if (first instanceof LateralSubSelect && dialect.lateral()) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "LATERAL needs a FROM item before it to refer to.");
        }
        StringBuilder out = new StringBuilder(fromItem(first, scope, null));
        // the FROM items since the last comma: an explicit join's left input (a comma binds loosest)
        int group = 0;
        if (ps.getJoins() != null) {
            for (Join join : ps.getJoins()) {
                if (join.isSimple()) {
                    group = scope.sources.size();
                }
                out.append(join(join, scope, group));
            }
        }
        return out.toString();
    }

    String join(Join join, Scope scope, int group) {
        if (join.isSemi() || join.isApply() || join.isStraight() || join.isWindowJoin() || join.isAsOf()
                || join.isGlobal() || join.isAny() || join.isAll() || join.isArray() || join.isFetch()
                || join.getJoinHint() != null || join.getJoinWindow() != null || (join.isNatural() && !dialect.naturalJoin())) {
            throw new GuardException(ErrorCode.JOIN_NOT_ALLOWED, dialect.naturalJoin() ? "Only INNER, LEFT, RIGHT, FULL and CROSS joins are allowed."
                    : "Only INNER, LEFT, RIGHT, FULL and CROSS joins are allowed (no NATURAL" + (dialect.lateral() ? ")." : " or LATERAL)."));
        }
        boolean natural = join.isNatural();
        boolean using = join.getUsingColumns() != null && !join.getUsingColumns().isEmpty();
        if (using && !dialect.joinUsing()) {
            throw new GuardException(ErrorCode.JOIN_NOT_ALLOWED, "JOIN ... USING is not allowed; use JOIN ... ON.");
        }
        boolean hasOn = join.getOnExpressions() != null && !join.getOnExpressions().isEmpty();
        boolean lateral = dialect.lateral() && join.getRightItem() instanceof LateralSubSelect;
        Scope lateralScope = null;
        if (lateral) {
            if (join.isRight() || join.isFull()) {
                throw new GuardException(ErrorCode.JOIN_NOT_ALLOWED, "A LATERAL subquery may only be joined with INNER, LEFT or CROSS JOIN.");
            }
            // after a comma it sees every FROM item before it; in an explicit join only the join's left input
            lateralScope = new Scope(scope.parent, scope.cteParent);
            lateralScope.sources.addAll(join.isSimple() ? scope.sources : scope.sources.subList(group, scope.sources.size()));
        }
        int left = scope.sources.size();
        String right = fromItem(join.getRightItem(), scope, lateralScope);
        if (join.isSimple() || join.isCross()) {
            if (hasOn || using || natural) {
                throw new GuardException(ErrorCode.SYNTAX_ERROR, dialect.joinUsing() ? "A cross join takes no ON, USING or NATURAL."
                        : "A cross join takes no ON condition.");
            }
            return " CROSS JOIN " + right;
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
        if (using || natural) {
            if (hasOn || (using && natural)) {
                throw new GuardException(ErrorCode.SYNTAX_ERROR, "A join takes one of ON, USING and NATURAL.");
            }
            Value on = merge(join, scope, group, left);
            use(on.flows(), UsePosition.JOIN);
            facts.filtersRows();
            return kind + right + " ON " + on.sql();
        }
        if (!hasOn || join.getOnExpressions().size() != 1) {
            throw new GuardException(ErrorCode.JOIN_NOT_ALLOWED, dialect.joinUsing() ? "Every join needs exactly one ON condition (or USING, or NATURAL)."
                    : "Every join needs exactly one ON condition.");
        }
        Value on = expr(join.getOnExpressions().iterator().next(), scope, 0);
        use(on.flows(), UsePosition.JOIN);
        facts.filtersRows();
        return kind + right + " ON " + on.sql();
    }

    /**
     * {@code JOIN ... USING (k, ...)} and {@code NATURAL JOIN}, as PostgreSQL defines them
     * (transformFromClauseItem): the join condition is {@code left.k = right.k} for each common
     * column, and the join offers one merged column per common name, first and in order, then the
     * left input's other columns, then the right item's. PostgreSQL's merged value (buildMergedJoinVar)
     * has the common type of {@code (left.k, right.k)}, in that order, and is {@code COALESCE(left.k,
     * right.k)} for FULL JOIN, the left column for INNER and LEFT JOIN, the right one for RIGHT JOIN.
     * Rendered for FULL JOIN as {@code COALESCE(left.k, right.k)}, for INNER and LEFT JOIN as
     * {@code CASE WHEN FALSE THEN right.k ELSE left.k END} and for RIGHT JOIN as {@code CASE WHEN TRUE
     * THEN right.k ELSE left.k END}: CASE resolves its type from the ELSE branch first, so the order
     * stays (left, right) ({@code COALESCE(right.k, left.k)} would give {@code char(4)} where the server
     * gives {@code text}; the honest corpus caught it), and the planner folds the constant branch away,
     * so the server's plan of the rendered text carries the same column as its plan of the text as
     * written (a COALESCE for an inner join did not fold: with a constant on the right, differential
     * seed 400063, {@code regions NATURAL JOIN (SELECT 'north' AS region) p}, the plans differed and
     * the query was refused). The condition is rendered as {@code ON} with every
     * column explicit; the items it joins keep their columns for {@code alias.column} and {@code alias.*},
     * except the joined ones where the dialect says they leave their tables
     * ({@link AnsiDialect#usingColumnsLeaveTheirTables()}). A column hidden by the allowlist is absent
     * here: NATURAL does not join on it, and USING refuses it as a column that does not exist.
     *
     * @param group the index of the first source of the join's left input
     * @param rightIndex the index of the right item's source
     * @return the rendered join condition, with its flows
     */
    Value merge(Join join, Scope scope, int group, int rightIndex) {
        if (rightIndex != scope.sources.size() - 1) {
            throw unsafe("join right item");
        }
        Source right = scope.sources.get(rightIndex);
        List<Col> leftColumns = new ArrayList<>();
        for (Source s : scope.sources.subList(group, rightIndex)) {
            if (s.columnsVisible()) {
                leftColumns.addAll(s.columns());
            }
        }
        List<String> names = new ArrayList<>();
        if (join.isNatural()) {
            for (Col c : leftColumns) {
                if (!c.hidden() && !right.find(c.name()).isEmpty() && !names.contains(c.name())) {
                    names.add(c.name());
                }
            }
        } else {
            for (Column c : join.getUsingColumns()) {
                if (c.getTable() != null || c.getArrayConstructor() != null) {
                    throw new GuardException(ErrorCode.SYNTAX_ERROR, "USING takes bare column names.");
                }
                String name = naming.name(c.getColumnName());
                if (names.contains(name)) {
                    throw new GuardException(ErrorCode.SYNTAX_ERROR, "The column " + SafeText.identifier(name) + " appears twice in USING.");
                }
                names.add(name);
            }
        }
        facts.joinsUsing();
        boolean rightJoin = join.isRight();
        boolean fullJoin = join.isFull();
        CostClass coalesce = fullJoin && !names.isEmpty() ? allow("coalesce") : CostClass.TOTAL;
        List<Col> merged = new ArrayList<>();
        Set<Col> taken = new java.util.HashSet<>();
        Value on = null;
        for (String name : names) {
            List<Col> l = leftColumns.stream().filter(c -> c.name().equals(name) && !c.hidden()).toList();
            List<Col> r = right.find(name);
            if (l.isEmpty() || r.isEmpty()) {
                throw Refusals.unknownColumn(name);
            }
            if (l.size() > 1 || r.size() > 1) {
                throw new GuardException(ErrorCode.AMBIGUOUS_COLUMN, "The join column " + SafeText.identifier(name)
                        + " appears more than once on one side of the join; join with ON.");
            }
            Value lv = l.get(0).value();
            Value rv = r.get(0).value();
            taken.add(l.get(0));
            taken.add(r.get(0));
            Value equal = new Value("(" + lv.sql() + " = " + rv.sql() + ")", Flows.merge(List.of(lv, rv), FlowStep.partial("=")));
            on = on == null ? equal : new Value("(" + on.sql() + " AND " + equal.sql() + ")",
                    Flows.merge(List.of(on, equal), FlowStep.partial("and")));
            merged.add(fullJoin
                    ? new Col(name, qualified("coalesce") + "(" + lv.sql() + ", " + rv.sql() + ")",
                            Flows.merge(List.of(lv, rv), new FlowStep("coalesce", coalesce)), false)
                    : new Col(name, "(CASE WHEN " + (rightJoin ? "TRUE" : "FALSE") + " THEN " + rv.sql() + " ELSE " + lv.sql() + " END)",
                            Flows.merge(List.of(rv, lv), null), false));
        }
        List<Col> columns = new ArrayList<>(merged);
        leftColumns.stream().filter(c -> !taken.contains(c)).forEach(columns::add);
        right.columns().stream().filter(c -> !taken.contains(c)).forEach(columns::add);
        for (int i = group; i <= rightIndex; i++) {
            Source item = scope.sources.get(i);
            scope.sources.set(i, dialect.usingColumnsLeaveTheirTables() ? item.absorbedWithout(taken) : item.absorbed());
        }
        scope.sources.add(new Source(null, Optional.empty(), null, columns, true));
        return on == null ? Value.literal("TRUE") : on;
    }

    private String fromItem(FromItem item, Scope scope, Scope lateral) {
        if (item.getClass() == LateralSubSelect.class && dialect.lateral()) {
            LateralSubSelect p = (LateralSubSelect) item;
            if (lateral == null || !"LATERAL".equalsIgnoreCase(p.getPrefix())) {
                throw construct("LATERAL subqueries may only follow another FROM item.");
            }
            return subqueryItem(p, scope, lateral, "LATERAL ");
        }
        if (item.getClass() == Table.class) {
            return table((Table) item, scope);
        }
        if (item.getClass() == ParenthesedSelect.class) {
            return subqueryItem((ParenthesedSelect) item, scope, scope.parent, "");
        }
        if (item.getClass() == net.sf.jsqlparser.statement.select.TableFunction.class) {
            return series((net.sf.jsqlparser.statement.select.TableFunction) item, scope);
        }
        if (item instanceof net.sf.jsqlparser.statement.select.TableFunction) {
            throw new GuardException(ErrorCode.TABLE_FUNCTION_NOT_ALLOWED, "Table functions are not allowed in FROM on this source.");
        }
        if (item.getClass() == ParenthesedFromItem.class) {
            ParenthesedFromItem p = (ParenthesedFromItem) item;
            boolean alone = p.getJoins() == null || p.getJoins().isEmpty();
            if (alone && p.getFromItem() != null && p.getFromItem().getClass() == Values.class) {
                return valuesItem(p, (Values) p.getFromItem(), scope);
            }
            if (alone && p.getFromItem() instanceof Table) {
                // JSqlParser 5.4 reads (TABLE t) AS x as a table named TABLE under the alias t, in parentheses
                throw construct("A table in parentheses, such as (TABLE t), may not stand in FROM; write (SELECT * FROM t) AS alias,"
                        + " or name the table itself.");
            }
        }
        throw construct("Only allowlisted tables, common table expressions and subqueries with an alias may appear in FROM.");
    }

    /**
     * A subquery in FROM. A plain one sees the columns of the enclosing query's outer levels only; a
     * {@code LATERAL} one also the FROM items before it ({@code outer}), and its references to them
     * are rendered qualified by their aliases like any other column.
     */
    private String subqueryItem(ParenthesedSelect p, Scope scope, Scope outer, String prefix) {
        if (p.getPivot() != null || p.getUnPivot() != null || p.getSampleClause() != null) {
            throw construct("Table clauses are not allowed on a subquery.");
        }
        if (p.getAlias() == null && !dialect.unaliasedSubqueries()) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "A subquery in FROM needs an alias.");
        }
        // without an alias its columns are visible unqualified only: a name no query can write (NUL) stands for it
        String visible = p.getAlias() == null ? "\0subquery" + (facts.aliases + 1) : relationAlias(p.getAlias());
        Query q = query(p.getSelect(), outer, scope, false);
        requireUniqueLabels(q);
        // as for a CTE: under a plain UNION PostgreSQL computes every column of a derived table, read or not
        q.outputs().forEach(o -> use(o.flows(), UsePosition.OUTPUT));
        String rendered = "t" + (++facts.aliases);
        List<Col> cols = new ArrayList<>();
        for (Out o : q.outputs()) {
            cols.add(col(rendered, o.label(), o.flows(), false));
        }
        addSource(scope, new Source(visible, Optional.empty(), rendered, cols));
        return prefix + "(" + q.sql() + ") AS " + naming.identifier(rendered);
    }

    /**
     * {@code (VALUES (1, 'a'), (2, 'b')) AS t [(id, name)]} in FROM, rendered {@code (VALUES ...) AS "tN" ("id",
     * "name")} with every column named, so the engine has no name to choose. The alias list names the first
     * columns; a column it does not name keeps the engine's own name ({@link AnsiDialect#valuesColumnName}), and
     * where the engine gives it none the list must name each. Like a subquery in FROM the values see the
     * enclosing query's outer levels only, and every column is checked as an output.
     */
    private String valuesItem(ParenthesedFromItem p, Values values, Scope scope) {
        if (p.getPivot() != null || p.getUnPivot() != null || p.getSampleClause() != null) {
            throw construct("Table clauses are not allowed on VALUES.");
        }
        if (p.getAlias() == null) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "VALUES in FROM needs an alias: (VALUES (1, 'a')) AS t (id, name).");
        }
        String visible = relationName(p.getAlias());
        List<String> named = new ArrayList<>();
        if (p.getAlias().getAliasColumns() != null) {
            for (Alias.AliasColumn c : p.getAlias().getAliasColumns()) {
                if (c.colDataType != null) {
                    throw new GuardException(ErrorCode.SYNTAX_ERROR, "The column list of VALUES takes names without types.");
                }
                String name = naming.name(c.name);
                naming.identifier(name);
                named.add(name);
            }
        }
        Query q = ctx.queries.values(values, scope.parent, scope);
        if (named.size() > q.outputs().size()) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "The alias " + SafeText.identifier(visible) + " names " + named.size()
                    + " columns of a VALUES list that has " + q.outputs().size() + ".");
        }
        List<Out> outputs = new ArrayList<>();
        for (int i = 0; i < q.outputs().size(); i++) {
            int position = i;
            String name = i < named.size() ? named.get(i) : dialect.valuesColumnName(i).orElseThrow(() -> new GuardException(
                    ErrorCode.SYNTAX_ERROR, "Name each column of VALUES in its alias: (VALUES (1, 'a')) AS t (id, name); column "
                            + (position + 1) + " has no name."));
            outputs.add(new Out(name, q.outputs().get(i).flows()));
        }
        Query renamed = new Query(q.sql(), outputs);
        requireUniqueLabels(renamed);
        // as for a subquery in FROM: every column is computed, read or not
        outputs.forEach(o -> use(o.flows(), UsePosition.OUTPUT));
        String rendered = "t" + (++facts.aliases);
        List<Col> cols = new ArrayList<>();
        for (Out o : outputs) {
            cols.add(col(rendered, o.label(), o.flows(), false));
        }
        addSource(scope, new Source(visible, Optional.empty(), rendered, cols));
        return "(" + q.sql() + ") AS " + naming.identifier(rendered) + " ("
                + String.join(", ", outputs.stream().map(o -> naming.identifier(o.label())).toList()) + ")";
    }

    /**
     * {@code generate_series(start, stop[, step])} in FROM, with literal arguments only (numbers, or
     * dates and timestamps with an interval step), bounded like the scalar call. PostgreSQL names
     * its one column after the alias, or after the column alias when one is given.
     */
    private String series(net.sf.jsqlparser.statement.select.TableFunction tf, Scope scope) {
        if (!dialect.generateSeries()) {
            // other table functions reach data or SQL that no checked tree shows: none stands in FROM
            throw new GuardException(ErrorCode.TABLE_FUNCTION_NOT_ALLOWED, "Table functions are not allowed on this source.");
        }
        Function f = tf.getFunction();
        if (tf.getPrefix() != null || tf.getWithClause() != null || tf.isRowsFrom() || tf.getPivot() != null
                || tf.getUnPivot() != null || tf.getSampleClause() != null || f == null) {
            throw new GuardException(ErrorCode.TABLE_FUNCTION_NOT_ALLOWED, "Only generate_series(...) AS alias may stand in FROM.");
        }
        String name = naming.name(f.getMultipartName().get(f.getMultipartName().size() - 1));
        if (!name.equals("generate_series") || f.getMultipartName().size() > 2
                || (f.getMultipartName().size() == 2 && !inFunctionSchema(f.getMultipartName().get(0)))) {
            throw new GuardException(ErrorCode.TABLE_FUNCTION_NOT_ALLOWED, "Only generate_series(...) AS alias may stand in FROM.");
        }
        policy.requireTableFunction(name);
        facts.tableFunctions.add(name);
        allow(name);
        ExpressionList<?> params = f.getParameters();
        if (params == null || params.size() < 2 || params.size() > 3 || f.isDistinct() || f.getOrderByElements() != null) {
            throw construct("generate_series takes a start, a stop and an optional step.");
        }
        List<String> args = new ArrayList<>();
        for (Expression p : params) {
            Value v = expr(p, scope.parent == null ? new Scope(null, scope) : scope.parent, 1);
            if (!v.flows().isEmpty() || v.sql().indexOf(MARK) >= 0) {
                throw construct("generate_series in FROM takes literal arguments only.");
            }
            args.add(v.sql());
        }
        Optional<Long> count = seriesLength(List.copyOf(params)).or(() -> dateSeriesLength(List.copyOf(params)));
        record(count.map(n -> Amplification.absolute(name, n)).orElseGet(() -> Amplification.unbounded(name)));
        String visible = tf.getAlias() == null ? name : relationName(tf.getAlias());
        String column = visible;
        if (tf.getAlias() != null && tf.getAlias().getAliasColumns() != null) {
            if (tf.getAlias().getAliasColumns().size() != 1 || tf.getAlias().getAliasColumns().get(0).colDataType != null) {
                throw construct("generate_series returns one column: alias it as name(column).");
            }
            column = naming.name(tf.getAlias().getAliasColumns().get(0).name);
        }
        String rendered = "t" + (++facts.aliases);
        addSource(scope, new Source(visible, Optional.empty(), rendered, List.of(col(rendered, column, List.of(), false))));
        return qualified(name) + "(" + String.join(", ", args) + ") AS " + naming.identifier(rendered)
                + "(" + naming.identifier(column) + ")";
    }

    String table(Table table, Scope scope) {
        if (table.getNameParts().size() > 2) {
            throw Refusals.unknownTable(table.getFullyQualifiedName().replace("\"", ""));
        }
        if (table.getIndexHint() != null || table.getSqlServerHints() != null || table.getPivot() != null
                || table.getUnPivot() != null || table.getSampleClause() != null || table.getTimeTravel() != null
                || table.getTimeTravelStrAfterAlias() != null || table.isTableVariable()) {
            throw construct("Table hints, samples and similar table clauses are not allowed.");
        }
        String name = naming.name(table.getName());
        Optional<String> schemaName = table.getSchemaName() == null ? Optional.empty() : Optional.of(naming.name(table.getSchemaName()));
        if (schemaName.isEmpty() && scope.pendingCte(name)) {
            throw construct("In WITH RECURSIVE a common table expression may refer to itself only after UNION [ALL], and to the ones before it.");
        }
        if (schemaName.isEmpty() && scope.cte(name).isPresent()) {
            Query cte = scope.cteQuery(name);
            String visible = table.getAlias() != null ? relationAlias(table.getAlias()) : name;
            String rendered = "t" + (++facts.aliases);
            List<Col> cols = new ArrayList<>();
            for (Out o : cte.outputs()) {
                cols.add(col(rendered, o.label(), o.flows(), false));
            }
            if (ctx.recursion != null && cte == ctx.recursion.self) {
                ctx.recursion.selfAlias = rendered;
                ctx.recursion.selfColumns = cols;
            }
            addSource(scope, new Source(visible, Optional.empty(), rendered, cols));
            return naming.identifier(scope.cteRendered(name)) + " AS " + naming.identifier(rendered);
        }
        String shown = schemaName.map(s -> s + ".").orElse("") + name;
        if (schemaName.isPresent() && lexicon.hiddenSchemas().contains(schemaName.get())) {
            throw Refusals.unknownTable(shown);
        }
        Optional<TableInfo> info = schema.find(schemaName, name);
        if (info.isEmpty() || !policy.tables().allowsTable(info.get().ref())) {
            throw Refusals.unknownTable(shown);
        }
        TableInfo t = info.get();
        String visible = table.getAlias() != null ? relationAlias(table.getAlias()) : t.name();
        String rendered = "t" + (++facts.aliases);
        List<Col> cols = new ArrayList<>();
        for (ColumnInfo c : t.columns()) {
            ColumnRef ref = new ColumnRef(t.ref(), c.name());
            cols.add(col(rendered, c.name(), List.of(new Flow(ref, List.of())), !policy.tables().allowsColumn(t.ref(), c.name())));
        }
        addSource(scope, new Source(visible, table.getAlias() == null ? Optional.of(t.schema()) : Optional.empty(), rendered, cols));
        facts.tables.add(t.ref());
        String plain = qualifiedTable(t) + " AS " + naming.identifier(rendered);
        if (!policy.rows().governs(t.ref())) {
            return plain;
        }
        String filtered = governed(t, rendered, "");
        String fence = dialect.filteredTableFence();
        facts.slots.add(new Slot(plain, filtered, fence.isEmpty() ? filtered : governed(t, rendered, fence)));
        return SLOT + Integer.toString(facts.slots.size() - 1) + SLOT;
    }

    /** The table's name as the engine reads it: {@code "catalog"."schema"."table"} or {@code "schema"."table"}. */
    private String qualifiedTable(TableInfo t) {
        return schema.catalog().map(c -> naming.identifier(c) + ".").orElse("") + naming.identifier(t.schema()) + "."
                + naming.identifier(t.name());
    }

    /**
     * A reference to a governed table as executed: {@code (SELECT "c1", (mask) AS "c2", ... FROM "s"."t"
     * WHERE (filter)) AS "tN"}, every column of the table in catalog order under its own name (so that
     * every rendered {@code "tN"."column"} still resolves), a masked one computed by its mask, and the
     * filter's attribute placeholders as markers that {@link RenderFacts#bindMarkers} binds (no WHERE when the
     * table only has masks). The filter and the masks are the operator's SQL, checked against the
     * catalog when the engine started ({@link RowPolicyCheck}); their bare column names resolve to the
     * table, the only one in the derived table's FROM.
     */
    String governed(TableInfo t, String rendered, String fence) {
        return "(" + governedSelect(naming, qualifiedTable(t), t, policy, a -> MARK + (ATTRIBUTE + a) + MARK) + fence + ") AS "
                + naming.identifier(rendered);
    }

    /**
     * {@code SELECT <columns, masked> FROM <qualified> [WHERE (<filter>)]} for a governed table, each
     * attribute placeholder written as {@code marker.apply(name)}.
     */
    static String governedSelect(AnsiNames naming, String qualified, TableInfo t, GuardrailPolicy policy,
                                 java.util.function.Function<String, String> marker) {
        Map<String, ColumnMask> masks = policy.rows().masksOf(t.ref());
        List<String> columns = new ArrayList<>();
        for (ColumnInfo c : t.columns()) {
            ColumnMask mask = masks.get(c.name().toLowerCase(Locale.ROOT));
            columns.add(mask == null ? naming.identifier(c.name()) : "(" + mask.expression() + ") AS " + naming.identifier(c.name()));
        }
        Optional<RowFilter> filter = policy.rows().filterOf(t.ref());
        return "SELECT " + String.join(", ", columns) + " FROM " + qualified
                + filter.map(f -> " WHERE (" + f.render(marker) + ")").orElse("");
    }

    /** The name a table, subquery or table function is known by under its alias ({@code AS} or not), without alias columns. */
    private String relationAlias(net.sf.jsqlparser.expression.Alias alias) {
        if (alias.getAliasColumns() != null) {
            throw construct("Alias column lists are not allowed.");
        }
        return relationName(alias);
    }

    /**
     * The name under an alias, refusing an unquoted reserved word: the engine rejects one there, and
     * JSqlParser 5.4 takes one for an alias where it should not ({@code a LEFT NATURAL JOIN b} is read
     * as {@code a} aliased {@code LEFT}, then an inner {@code NATURAL JOIN}).
     */
    private String relationName(net.sf.jsqlparser.expression.Alias alias) {
        String raw = alias.getName();
        if (raw != null && !raw.startsWith("\"") && lexicon.reservedWords().contains(raw.toLowerCase(Locale.ROOT))) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "The reserved word " + SafeText.identifier(raw.toUpperCase(Locale.ROOT))
                    + " cannot name a table here; check the join keywords, or quote the alias.");
        }
        return naming.name(raw);
    }

    // ------------------------------------------------------------------ the other parts

    private Value expr(Expression e, Scope scope, int depth) {
        return ctx.expressions.expr(e, scope, depth);
    }

    private Query query(Select select, Scope outer, Scope cteOuter, boolean top) {
        return ctx.queries.query(select, outer, cteOuter, top);
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

    private Col col(String renderedAlias, String name, List<Flow> flows, boolean hidden) {
        return ctx.names.col(renderedAlias, name, flows, hidden);
    }
}
