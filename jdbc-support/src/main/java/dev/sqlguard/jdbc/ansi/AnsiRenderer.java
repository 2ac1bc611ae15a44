package dev.sqlguard.jdbc.ansi;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
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
import dev.sqlguard.domain.Bindings;
import dev.sqlguard.domain.ColumnMask;
import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.ColumnUse;
import dev.sqlguard.domain.CostClass;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.FlowStep;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.OutputColumn;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.Refusals;
import dev.sqlguard.domain.RowFilter;
import dev.sqlguard.domain.SafeText;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.domain.UsePosition;
import dev.sqlguard.domain.port.WorstAmplifications;
import dev.sqlguard.jdbc.ansi.Flows.Flow;
import dev.sqlguard.jdbc.ansi.Flows.Value;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.ColumnInfo;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.TableInfo;
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
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
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
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.Distinct;
import net.sf.jsqlparser.statement.select.ExceptOp;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Fetch;
import net.sf.jsqlparser.statement.select.GroupByElement;
import net.sf.jsqlparser.statement.select.IntersectOp;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.LateralSubSelect;
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
 * the engine, fully parenthesised, with every table (catalog- and) schema-qualified under a generated
 * alias, every column qualified by that alias, every function qualified as the {@link AnsiDialect}
 * says (PostgreSQL's {@code pg_catalog.}, or a bare built-in name), every literal re-quoted and no
 * comments. A node it does not know is refused ({@code UNSAFE_SYNTAX}); a field of the tree it does
 * not read never reaches the server. What differs between engines (names, literals, casts, labels,
 * LIMIT, the optional constructs) is asked of the dialect; nothing else is. Shared by the PostgreSQL
 * and Trino adapters, and meant for any engine that reads ANSI-style SQL with double-quoted
 * identifiers. Not thread-safe: one instance per validation.
 */
@SuppressWarnings({"deprecation", "removal"})
public final class AnsiRenderer {
    private static final int MAX_EXPRESSION_DEPTH = 64;
    private static final int MAX_QUERY_DEPTH = 16;
    private static final char MARK = '\u0001';
    /** Around the index of a governed table reference in {@link #slots}, until the text is filled in. */
    private static final char SLOT = '\u0002';
    /** After {@link #MARK}: the marker stands for a caller attribute, whose name follows. */
    private static final char ATTRIBUTE = '@';
    private static final Pattern FUNCTION_NAME = Pattern.compile("[a-z_][a-z0-9_]*");
    private static final Pattern DIGITS = Pattern.compile("[0-9]{1,30}");
    private static final Pattern DECIMAL = Pattern.compile("[0-9]{0,30}(\\.[0-9]{0,30})?([eE][+-]?[0-9]{1,3})?");
    private static final Set<String> TIME_KEYS = Set.of("current_date", "current_timestamp", "localtimestamp");

    /**
     * The rendering of one statement and its facts.
     *
     * @param sql the only text the server runs, with {@code ?} for each parameter in order
     * @param outputs the output columns with their lineage
     * @param tables the base tables read
     * @param uses every use of a base column, with its position and the steps its value passed through
     * @param functions the scalar, aggregate and window functions called
     * @param tableFunctions the table functions called in FROM
     * @param amplifications the amplifying calls, the largest per function and kind
     * @param parameterCount how many parameters the text takes
     * @param masked the 0-based positions of the outputs {@code sql} replaces by a constant inside the engine
     * @param filtered {@code sql} with every reference to a table the policy's row policy governs rendered as
     *     its filtered (and masked) derived table ({@link #filtered(QueryPlan)}); empty when the statement
     *     reads no governed table
     * @param bindings what each {@code ?} of {@code filtered} takes, in text order (of {@code sql} when
     *     it is empty: the caller's parameters only)
     */
    public record Rendered(String sql, List<OutputColumn> outputs, Set<TableRef> tables, Set<ColumnUse> uses, Set<String> functions,
                    Set<String> tableFunctions, List<Amplification> amplifications, int parameterCount, Set<Integer> masked, Optional<String> filtered,
                    Bindings bindings) {
        public Rendered {
            requireNonNull(filtered, "filtered is null");
            requireNonNull(bindings, "bindings is null");
        }
    }

    /**
     * A reference to a governed table: its text as written ({@code "s"."t" AS "tN"}) and as executed
     * ({@code (SELECT ... FROM "s"."t" WHERE (filter)) AS "tN"}).
     */
    private record Slot(String plain, String filtered) {
    }

    /** The derived table under which {@link #render} masks sensitive outputs. */
    static final String RESULT_ALIAS = "sqlguard_result";

    /** One output column of a query: its label and the flows into it. */
    private record Out(String label, List<Flow> flows) {
    }

    /** A rendered query: its text and its outputs. */
    private record Query(String sql, List<Out> outputs) {
    }

    /**
     * A column a FROM item offers: its name, its rendered expression ({@code "tN"."name"}, or the merged
     * value of a {@code USING} column), the flows of its value, and whether it is hidden by the allowlist.
     */
    private record Col(String name, String sql, List<Flow> flows, boolean hidden) {
        Value value() {
            return new Value(sql, flows);
        }
    }

    /**
     * A FROM item: the name the query may use for it (null for the unnamed result of a {@code USING}
     * or {@code NATURAL} join), the alias sqlguard renders, its columns, and whether a bare column
     * name may reach them (not once a {@code USING}/{@code NATURAL} join took the item in: PostgreSQL
     * then reads bare names from the join's own columns, and {@code alias.column} still from the item).
     */
    private record Source(String visibleName, Optional<String> baseSchema, String renderedAlias, List<Col> columns,
                          boolean columnsVisible) {
        Source(String visibleName, Optional<String> baseSchema, String renderedAlias, List<Col> columns) {
            this(visibleName, baseSchema, renderedAlias, columns, true);
        }

        /**
         * The columns a name reaches: only allowlisted ones. A hidden column is absent for name
         * resolution (a bare or qualified name, USING, NATURAL, GROUP BY and ORDER BY names), so that a
         * query cannot tell it from a column that exists nowhere; every name is rendered qualified, so
         * the engine reads what this resolution chose, and its own reading is cross-checked.
         */
        List<Col> find(String name) {
            return columns.stream().filter(c -> c.name().equals(name) && !c.hidden()).toList();
        }

        boolean named() {
            return visibleName != null;
        }

        Source absorbed() {
            return new Source(visibleName, baseSchema, renderedAlias, columns, false);
        }
    }

    /** A column of a FROM item rendered as {@code "tN"."name"}. */
    private Col col(String renderedAlias, String name, List<Flow> flows, boolean hidden) {
        return new Col(name, naming.identifier(renderedAlias) + "." + naming.identifier(name), flows, hidden);
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
        /** Names of a {@code WITH RECURSIVE} list not defined yet: a reference to one is refused, not read as a table. */
        final Set<String> pendingCtes = new java.util.HashSet<>();
        /**
         * While an ORDER BY key of this level renders, on an engine that reads names there as output
         * columns first (Trino): the output labels that are not the input column of that name, written
         * bare. A name read at this level that is one of them reads otherwise on the engine.
         */
        Set<String> outputsReadFirst = Set.of();

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

        boolean pendingCte(String name) {
            for (Scope s = this; s != null; s = s.cteParent) {
                if (s.cteNames.containsKey(name)) {
                    return false;
                }
                if (s.pendingCtes.contains(name)) {
                    return true;
                }
            }
            return false;
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

    private final AnsiDialect dialect;
    private final AnsiDialect.Lexicon lexicon;
    private final AnsiNames naming;
    private final FunctionRules rules;
    private final SchemaSnapshot schema;
    private final GuardrailPolicy policy;

    private final Set<TableRef> tables = new LinkedHashSet<>();
    private final Set<ColumnUse> uses = new LinkedHashSet<>();
    private final Set<String> functions = new TreeSet<>();
    private final Set<String> tableFunctions = new TreeSet<>();
    private final WorstAmplifications amplifications = new WorstAmplifications();
    private final List<Integer> parameterIndices = new ArrayList<>();
    /** Every reference to a governed table rendered so far, by the index its {@link #SLOT} marker holds. */
    private final List<Slot> slots = new ArrayList<>();
    /** The one rendering of this instance, once {@link #render} has run. */
    private Rendered rendered;
    private int aliases;
    private int queryDepth;
    /** The recursive common table expression whose recursive term is being rendered, if any. */
    private Recursion recursion;

    /** What the renderer learns about one recursive term while it renders it. */
    private static final class Recursion {
        final Query self;
        final PlainSelect term;
        final List<Optional<Long>> anchorLiterals;
        String selfAlias;
        List<Col> selfColumns;
        Long depth;

        Recursion(Query self, PlainSelect term, List<Optional<Long>> anchorLiterals) {
            this.self = self;
            this.term = term;
            this.anchorLiterals = anchorLiterals;
        }
    }

    /** The facts recorded so far, to undo a rendering pass whose facts are not the final ones. */
    private record State(int aliases, Set<TableRef> tables, Set<ColumnUse> uses, Set<String> functions,
                         Set<String> tableFunctions, WorstAmplifications amplifications) {
    }

    /**
     * @param dialect what the engine renders differently
     * @param schema the tables as they exist on the server
     * @param policy the policy whose table and column allowlist and row limit apply, and whose function
     *     decision ({@link GuardrailPolicy#requireFunction}) the renderer asks of every call it reads: the
     *     configured policy with the engine's defaults filled in ({@link GuardrailPolicy#effective})
     */
    public AnsiRenderer(AnsiDialect dialect, SchemaSnapshot schema, GuardrailPolicy policy) {
        this.dialect = requireNonNull(dialect, "dialect is null");
        this.lexicon = requireNonNull(dialect.lexicon(), "lexicon is null");
        this.naming = lexicon.names();
        this.rules = lexicon.functions();
        this.schema = requireNonNull(schema, "schema is null");
        this.policy = requireNonNull(policy, "policy is null").orEngineFunctions(rules.functionClasses());
    }

    /**
     * Parses, checks and renders {@code sql}, the one SELECT of a request: the plan with its facts and
     * null parameters, for the policy to decide on ({@link GuardrailPolicy#authorize}, which the caller
     * runs once, before any cross-check with the engine). One call per instance.
     *
     * @throws GuardException the first refusal: the parser's or the renderer's
     */
    public QueryPlan plan(String sourceId, String sql) {
        if (!(parseOne(KeywordNames.quote(sql, columnNames(), keywords()), dialect) instanceof Select select)) {
            throw new GuardException(ErrorCode.STATEMENT_NOT_ALLOWED);
        }
        Rendered r = render(select);
        return new QueryPlan(sourceId, sql, r.sql(), Collections.nCopies(r.parameterCount(), null), r.tables(),
                r.uses(), r.functions(), r.outputs(), r.amplifications(), policy.limits(), r.masked(),
                Bindings.parameters(r.parameterCount()), Map.of(), r.tableFunctions());
    }

    /**
     * The plan that {@link #plan} returned, to be executed: where the statement reads a table that the
     * policy's row policy governs ({@link dev.sqlguard.domain.RowPolicy#governs}), its text is the one
     * in which every such reference is the table's filtered and masked derived table, under the same
     * alias, and its {@link Bindings} say which placeholder takes which of the caller's parameters and
     * attributes; otherwise the plan itself. The facts stay those of the statement as written, and
     * every cross-check with the engine reads {@link #plan}'s text: this is the last step of a check.
     *
     * @throws IllegalStateException when {@code plan} is not this instance's rendering
     */
    public QueryPlan filtered(QueryPlan plan) {
        if (rendered == null || !plan.executableSql().equals(rendered.sql())) {
            throw new IllegalStateException("not this renderer's plan");
        }
        if (rendered.filtered().isEmpty()) {
            return plan;
        }
        return new QueryPlan(plan.sourceId(), plan.originalSql(), rendered.filtered().get(), plan.parameters(), plan.tables(),
                plan.uses(), plan.functions(), plan.outputs(), plan.amplifications(), plan.limits(), plan.maskedOutputs(),
                rendered.bindings(), Map.of(), plan.tableFunctions());
    }

    /** The lower-case names of the schema's columns, for {@link KeywordNames}. */
    private Set<String> columnNames() {
        Set<String> names = new HashSet<>();
        for (SchemaSnapshot.TableInfo t : schema.tables().values()) {
            for (SchemaSnapshot.ColumnInfo c : t.columns()) {
                names.add(c.name().toLowerCase(Locale.ROOT));
            }
        }
        return names;
    }

    /** The words the engine never reads as a bare column name: its reserved words and its SQL value keywords. */
    private Set<String> keywords() {
        Set<String> words = new HashSet<>(lexicon.reservedWords());
        words.addAll(lexicon.sqlValueKeywords());
        return words;
    }

    /**
     * The one statement of {@code sql} as JSqlParser reads it: plain parsing first, then complex
     * parsing (which some valid SELECTs need); on the caller's thread, so a deep input fails with
     * {@code StackOverflowError} there.
     *
     * @throws GuardException SYNTAX_ERROR naming the engine, EMPTY_QUERY or MULTIPLE_STATEMENTS
     */
    public static Statement parseOne(String sql, AnsiDialect dialect) {
        return OneStatement.parse(sql, "The SQL could not be parsed as a " + dialect.lexicon().engine() + " SELECT.");
    }

    /**
     * Checks and renders one SELECT; the facts are those of this statement only (one call per instance).
     * Each output the policy redacts ({@link GuardrailPolicy#outputsToMask}) is masked in the text: the
     * query runs as rendered, under an outer projection that replaces such an output by a constant of its
     * type and label ({@link #masked}), so that no byte of its values leaves the engine. A query without
     * one is rendered exactly as before.
     */
    public Rendered render(Select select) {
        Query q = query(select, null, true);
        List<OutputColumn> outputs = new ArrayList<>();
        for (Out out : q.outputs()) {
            use(out.flows(), UsePosition.OUTPUT);
            outputs.add(OutputColumn.traced(out.label(), Flows.lineage(out.flows())));
        }
        Set<Integer> masked = policy.outputsToMask(outputs);
        String sql = masked(naming, bindMarkers(filled(q.sql(), false), null), outputs, masked);
        Optional<String> filtered = Optional.empty();
        Bindings bindings = Bindings.parameters(parameterIndices.size());
        if (!slots.isEmpty()) {
            // rendered last: everything before (facts, policy, the engine's cross-checks) reads the text as written
            Bindings.Builder slotsInOrder = Bindings.builder();
            filtered = Optional.of(masked(naming, bindMarkers(filled(q.sql(), true), slotsInOrder), outputs, masked));
            bindings = slotsInOrder.build();
        }
        rendered = new Rendered(sql, outputs, tables, uses, functions, tableFunctions, amplifications.list(), parameterIndices.size(), masked,
                filtered, bindings);
        return rendered;
    }

    /** {@code sql} with each governed table's {@link #SLOT} marker replaced by its text as written or as executed. */
    private String filled(String sql, boolean filtered) {
        if (slots.isEmpty()) {
            return sql;
        }
        StringBuilder out = new StringBuilder(sql.length() + 256);
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == SLOT) {
                int end = sql.indexOf(SLOT, i + 1);
                Slot slot = slots.get(Integer.parseInt(sql.substring(i + 1, end)));
                out.append(filtered ? slot.filtered() : slot.plain());
                i = end + 1;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /**
     * {@code sql} itself when nothing is masked; else {@code SELECT "sqlguard_result"."c1" AS "label1",
     * CASE WHEN 1 = 0 THEN "sqlguard_result"."c2" END AS "label2", ... FROM (sql) AS "sqlguard_result"
     * ("c1", "c2", ...)}: after the query's own DISTINCT, grouping, ordering, set operations and row
     * bound, one row out per row in, in the same order, each masked output a NULL of its own type (the
     * engine folds the never-true branch to a constant, so the value is never sent) under its own label.
     * The derived column list names the columns by position, so outputs with the same label stay apart.
     */
    private static String masked(AnsiNames naming, String sql, List<OutputColumn> outputs, Set<Integer> masked) {
        if (masked.isEmpty()) {
            return sql;
        }
        String table = naming.identifier(RESULT_ALIAS);
        List<String> items = new ArrayList<>();
        List<String> columns = new ArrayList<>();
        for (int i = 0; i < outputs.size(); i++) {
            String column = naming.identifier("c" + (i + 1));
            columns.add(column);
            String value = table + "." + column;
            items.add((masked.contains(i) ? "CASE WHEN 1 = 0 THEN " + value + " END" : value)
                    + " AS " + naming.identifier(outputs.get(i).name()));
        }
        return "SELECT " + String.join(", ", items) + " FROM (" + sql + ") AS " + table + " (" + String.join(", ", columns) + ")";
    }

    /**
     * The statement a plan of this renderer runs under its masking projection: its executable text
     * without the projection ({@link #masked}), the text itself when the plan masks nothing. That
     * statement is what the renderer reads back as itself (its fixpoint): the projection adds no name,
     * function or clause of the model's.
     *
     * @throws IllegalArgumentException when the text is not this renderer's masking of the plan's outputs
     */
    public static String unmasked(AnsiDialect dialect, QueryPlan plan) {
        if (plan.maskedOutputs().isEmpty()) {
            return plan.executableSql();
        }
        String hole = String.valueOf(MARK);
        String around = masked(dialect.lexicon().names(), hole, plan.outputs(), plan.maskedOutputs());
        String prefix = around.substring(0, around.indexOf(MARK));
        String suffix = around.substring(around.indexOf(MARK) + 1);
        String sql = plan.executableSql();
        if (sql.length() <= prefix.length() + suffix.length() || !sql.startsWith(prefix) || !sql.endsWith(suffix)) {
            throw new IllegalArgumentException("not a masked text of the plan's outputs");
        }
        return sql.substring(prefix.length(), sql.length() - suffix.length());
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
                renderedName = "q" + (++aliases);
                q = recursiveCte(name, renderedName, union, columns, scope);
            } else {
                q = renamed(query(ps.getSelect(), scope, false), columns);
                renderedName = "q" + (++aliases);
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
        Recursion outer = recursion;
        try {
            // pass 0: markers, to see how the term transforms the previous level's values
            List<List<Flow>> markers = new ArrayList<>();
            for (int i = 0; i < width; i++) {
                markers.add(List.of(new Flow(new ColumnRef(TableRef.of("sqlguard_recursion", "previous_level"), "c" + i), List.of())));
            }
            State before = snapshot();
            Query probe = term(name, term, scope, labels, markers, plainTerm, literals);
            restore(before);
            if (recursion.selfAlias == null) {
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
            if (recursion.depth == null) {
                throw construct("A recursive common table expression must count its depth: start a column at an integer literal,"
                        + " add a positive literal to it in the recursive term and bound it there with WHERE name.column < literal"
                        + " (for example WITH RECURSIVE r(n, depth) AS (SELECT x, 1 ... UNION ALL SELECT ..., r.depth + 1 FROM r ... WHERE r.depth < 20)).");
            }
            long max = Amplification.maxAbsolute(policy.limits());
            if (recursion.depth > max) {
                throw new GuardException(ErrorCode.UNBOUNDED_COST, "The recursive common table expression may run " + recursion.depth
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
            recursion = outer;
        }
    }

    /** Renders the recursive term once, with the self-reference's columns carrying {@code flows}. */
    private Query term(String name, Select term, Scope scope, List<String> labels, List<List<Flow>> flows, PlainSelect plainTerm,
                       List<Optional<Long>> literals) {
        List<Out> outs = new ArrayList<>();
        for (int i = 0; i < labels.size(); i++) {
            outs.add(new Out(labels.get(i), flows.get(i)));
        }
        Query self = new Query("", outs);
        scope.ctes.put(name, self);
        recursion = new Recursion(self, plainTerm, literals);
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
    private Long depthBound(PlainSelect ps, Scope scope, List<Item> items) {
        Recursion r = recursion;
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

    private State snapshot() {
        return new State(aliases, new LinkedHashSet<>(tables), new LinkedHashSet<>(uses), new TreeSet<>(functions),
                new TreeSet<>(tableFunctions), new WorstAmplifications(amplifications));
    }

    private void restore(State s) {
        aliases = s.aliases();
        tables.clear();
        tables.addAll(s.tables());
        uses.clear();
        uses.addAll(s.uses());
        functions.clear();
        functions.addAll(s.functions());
        tableFunctions.clear();
        tableFunctions.addAll(s.tableFunctions());
        amplifications.restore(s.amplifications());
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
        if (recursion != null && recursion.term == ps && recursion.selfColumns != null) {
            recursion.depth = depthBound(ps, scope, items);
        }
        List<Out> outputs = new ArrayList<>();
        for (Item item : items) {
            // an output computed from no column still counts its copies downstream (Flows.constant)
            List<Flow> flows = item.value().flows();
            outputs.add(new Out(item.label(), flows.isEmpty() ? List.of(Flows.constant()) : flows));
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
                scope.outputsReadFirst = Set.of();
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
     * column of that name, that is every label whose output is not that very input column, written bare.
     * {@link #column} refuses such a name with advice where it resolves at the ORDER BY's level.
     */
    private Set<String> outputsReadOtherwise(List<Item> items) {
        Set<String> out = new java.util.HashSet<>();
        for (Item item : items) {
            String name = item.label();
            if (!(item.node() instanceof Column ic && ic.getTable() == null && naming.name(ic.getColumnName()).equals(name))) {
                out.add(name);
            }
        }
        return out;
    }

    private static GuardException outputReadFirst(String name) {
        return construct("In an ORDER BY expression this engine reads " + SafeText.identifier(name)
                + " as the output column of that name, not the input column: order by the output's position or"
                + " name alone, qualify the input column (t." + name + "), or give the output another name.");
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
                ExpressionList<?> args = ((Function) e).getParameters();
                List<String> parts = new ArrayList<>();
                if (args.getClass() == ParenthesedExpressionList.class) {
                    // CUBE ((a, b)): the parser hands the one parenthesised unit over as the argument list itself
                    parts.add("(" + groupingList(args, scope, items) + ")");
                } else {
                    for (Expression a : args) {
                        // ROLLUP ((a, b), c): a parenthesised list is one unit of the construct
                        parts.add(a instanceof ParenthesedExpressionList<?> unit && unit.size() != 1
                                ? "(" + groupingList(unit, scope, items) + ")" : groupingElement(a, scope, items));
                    }
                }
                out.add(construct.get() + " (" + String.join(", ", parts) + ")");
            } else {
                out.add(groupingElement(e, scope, items));
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

    /** Whether a call carries any clause besides its arguments (ORDER BY, KEEP, named arguments, ...). */
    private static boolean hasClauses(Function f) {
        return (f.getOrderByElements() != null && !f.getOrderByElements().isEmpty()) || f.getKeep() != null || f.getHavingClause() != null
                || f.getLimit() != null || f.getNullHandling() != null || f.isIgnoreNulls() || f.isIgnoreNullsOutside()
                || f.getNamedParameters() != null || f.getChainedParameters() != null || f.getAttribute() != null
                || f.getAttributeColumn() != null || f.getExtraKeyword() != null
                || (f.getKeywordArguments() != null && !f.getKeywordArguments().isEmpty()) || f.getOnOverflowTruncate() != null || f.isUnique();
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
            out.add(groupingElement(e, scope, items));
        }
        return String.join(", ", out);
    }

    /** One grouping expression: a bare name is an input column first, then an output label; a bare integer a position. */
    private String groupingElement(Expression e, Scope scope, List<Item> items) {
        boolean inputColumn = e instanceof Column c && c.getTable() == null && resolvesAsInput(naming.name(c.getColumnName()), scope);
        boolean bareName = e instanceof Column c2 && c2.getTable() == null;
        Optional<Integer> position = inputColumn || (bareName && !dialect.outputNamesInGroupBy()) ? Optional.empty() : outputPosition(e, items);
        if (position.isPresent()) {
            use(items.get(position.get() - 1).value().flows(), UsePosition.GROUPING);
            return position.get().toString();
        }
        Value v = expr(e, scope, 0);
        use(v.flows(), UsePosition.GROUPING);
        return v.sql();
    }

    private static boolean resolvesAsInput(String name, Scope scope) {
        for (Source s : scope.sources) {
            if (s.columnsVisible() && !s.find(name).isEmpty()) {
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

    private String join(Join join, Scope scope, int group) {
        if (join.isSemi() || join.isApply() || join.isStraight() || join.isWindowJoin() || join.isAsOf()
                || join.isGlobal() || join.isAny() || join.isAll() || join.isArray() || join.isFetch()
                || join.getJoinHint() != null || join.getJoinWindow() != null || (join.isNatural() && !dialect.joinUsing())) {
            throw new GuardException(ErrorCode.JOIN_NOT_ALLOWED, dialect.joinUsing() ? "Only INNER, LEFT, RIGHT, FULL and CROSS joins are allowed."
                    : "Only INNER, LEFT, RIGHT, FULL and CROSS joins are allowed (no NATURAL or LATERAL).");
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
            return kind + right + " ON " + on.sql();
        }
        if (!hasOn || join.getOnExpressions().size() != 1) {
            throw new GuardException(ErrorCode.JOIN_NOT_ALLOWED, dialect.joinUsing() ? "Every join needs exactly one ON condition (or USING, or NATURAL)."
                    : "Every join needs exactly one ON condition.");
        }
        Value on = expr(join.getOnExpressions().iterator().next(), scope, 0);
        use(on.flows(), UsePosition.JOIN);
        return kind + right + " ON " + on.sql();
    }

    /**
     * {@code JOIN ... USING (k, ...)} and {@code NATURAL JOIN}, as PostgreSQL defines them
     * (transformFromClauseItem): the join condition is {@code left.k = right.k} for each common
     * column, and the join offers one merged column per common name, first and in order, then the
     * left input's other columns, then the right item's. PostgreSQL's merged value (buildMergedJoinVar)
     * has the common type of {@code (left.k, right.k)}, in that order, and is {@code COALESCE(left.k,
     * right.k)} for FULL JOIN, the left column for INNER and LEFT JOIN, the right one for RIGHT JOIN.
     * Rendered as {@code COALESCE(left.k, right.k)} (equal to the left column wherever the join keeps
     * a row, with the same type resolution), and for RIGHT JOIN as {@code CASE WHEN TRUE THEN right.k
     * ELSE left.k END}: CASE resolves its type from the ELSE branch first, so the order stays (left,
     * right); {@code COALESCE(right.k, left.k)} would give {@code char(4)} where the server gives
     * {@code text} (the honest corpus caught it). The condition is rendered as {@code ON} with every
     * column explicit; the items it joins keep their
     * columns for {@code alias.column} and {@code alias.*}. A column hidden by the allowlist is absent
     * here: NATURAL does not join on it, and USING refuses it as a column that does not exist.
     *
     * @param group the index of the first source of the join's left input
     * @param rightIndex the index of the right item's source
     * @return the rendered join condition, with its flows
     */
    private Value merge(Join join, Scope scope, int group, int rightIndex) {
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
        boolean rightJoin = join.isRight();
        CostClass coalesce = names.isEmpty() || rightJoin ? CostClass.TOTAL : allow("coalesce");
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
            merged.add(rightJoin
                    ? new Col(name, "(CASE WHEN TRUE THEN " + rv.sql() + " ELSE " + lv.sql() + " END)", Flows.merge(List.of(rv, lv), null), false)
                    : new Col(name, qualified("coalesce") + "(" + lv.sql() + ", " + rv.sql() + ")",
                            Flows.merge(List.of(lv, rv), new FlowStep("coalesce", coalesce)), false));
        }
        List<Col> columns = new ArrayList<>(merged);
        leftColumns.stream().filter(c -> !taken.contains(c)).forEach(columns::add);
        right.columns().stream().filter(c -> !taken.contains(c)).forEach(columns::add);
        for (int i = group; i <= rightIndex; i++) {
            scope.sources.set(i, scope.sources.get(i).absorbed());
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
        String visible = p.getAlias() == null ? "\0subquery" + (aliases + 1) : relationAlias(p.getAlias());
        Query q = query(p.getSelect(), outer, scope, false);
        requireUniqueLabels(q);
        // as for a CTE: under a plain UNION PostgreSQL computes every column of a derived table, read or not
        q.outputs().forEach(o -> use(o.flows(), UsePosition.OUTPUT));
        String rendered = "t" + (++aliases);
        List<Col> cols = new ArrayList<>();
        for (Out o : q.outputs()) {
            cols.add(col(rendered, o.label(), o.flows(), false));
        }
        addSource(scope, new Source(visible, Optional.empty(), rendered, cols));
        return prefix + "(" + q.sql() + ") AS " + naming.identifier(rendered);
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
        tableFunctions.add(name);
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
        String rendered = "t" + (++aliases);
        addSource(scope, new Source(visible, Optional.empty(), rendered, List.of(col(rendered, column, List.of(), false))));
        return qualified(name) + "(" + String.join(", ", args) + ") AS " + naming.identifier(rendered)
                + "(" + naming.identifier(column) + ")";
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
        String name = naming.name(table.getName());
        Optional<String> schemaName = table.getSchemaName() == null ? Optional.empty() : Optional.of(naming.name(table.getSchemaName()));
        if (schemaName.isEmpty() && scope.pendingCte(name)) {
            throw construct("In WITH RECURSIVE a common table expression may refer to itself only after UNION [ALL], and to the ones before it.");
        }
        if (schemaName.isEmpty() && scope.cte(name).isPresent()) {
            Query cte = scope.cteQuery(name);
            String visible = table.getAlias() != null ? relationAlias(table.getAlias()) : name;
            String rendered = "t" + (++aliases);
            List<Col> cols = new ArrayList<>();
            for (Out o : cte.outputs()) {
                cols.add(col(rendered, o.label(), o.flows(), false));
            }
            if (recursion != null && cte == recursion.self) {
                recursion.selfAlias = rendered;
                recursion.selfColumns = cols;
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
        String rendered = "t" + (++aliases);
        List<Col> cols = new ArrayList<>();
        for (ColumnInfo c : t.columns()) {
            ColumnRef ref = new ColumnRef(t.ref(), c.name());
            cols.add(col(rendered, c.name(), List.of(new Flow(ref, List.of())), !policy.tables().allowsColumn(t.ref(), c.name())));
        }
        addSource(scope, new Source(visible, table.getAlias() == null ? Optional.of(t.schema()) : Optional.empty(), rendered, cols));
        tables.add(t.ref());
        String plain = qualifiedTable(t) + " AS " + naming.identifier(rendered);
        if (!policy.rows().governs(t.ref())) {
            return plain;
        }
        slots.add(new Slot(plain, governed(t, rendered)));
        return SLOT + Integer.toString(slots.size() - 1) + SLOT;
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
     * filter's attribute placeholders as markers that {@link #bindMarkers} binds (no WHERE when the
     * table only has masks). The filter and the masks are the operator's SQL, checked against the
     * catalog when the engine started ({@link RowPolicyCheck}); their bare column names resolve to the
     * table, the only one in the derived table's FROM.
     */
    private String governed(TableInfo t, String rendered) {
        return "(" + governedSelect(naming, qualifiedTable(t), t, policy, a -> MARK + (ATTRIBUTE + a) + MARK) + ") AS "
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

    private static void addSource(Scope scope, Source source) {
        for (Source s : scope.sources) {
            if (s.named() && s.visibleName().equals(source.visibleName())) {
                throw new GuardException(ErrorCode.AMBIGUOUS_COLUMN, "The name " + SafeText.identifier(source.visibleName())
                        + " is used for two tables; give each an alias.");
            }
        }
        scope.sources.add(source);
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

    private String alias(String raw, boolean hasColumns) {
        if (hasColumns) {
            throw construct("Alias column lists are not allowed.");
        }
        return naming.name(raw);
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

    private String functionName(List<String> parts, boolean escaped) {
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
    private Value grouping(Function f, Scope scope, int d) {
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

    /**
     * A call of {@code name}: a function this engine does not have is refused naming its nearest; the
     * policy decides on the others ({@link GuardrailPolicy#requireFunction}), before the engine sees the
     * text; one the policy allows and the catalog cannot classify gets the policy's own refusal. Records it.
     */
    private CostClass allow(String name) {
        if (!policy.engineFunctions().isNever(name)) {
            Optional<GuardException> absent = rules.absentRefusal(name);
            if (absent.isPresent()) {
                throw absent.get();
            }
        }
        policy.requireFunction(name);
        CostClass cost = rules.costClass(name).orElseThrow(() -> policy.functionRefusal(name));
        functions.add(name);
        return cost;
    }

    /** A function's name as rendered: in the dialect's function schema, unless written as a keyword. */
    private String qualified(String name) {
        return lexicon.functionSchema().filter(schema -> !rules.syntax().contains(name)).map(schema -> schema + "." + name).orElse(name);
    }

    /** Whether a function name's qualifier names the dialect's function schema. */
    private boolean inFunctionSchema(String rawQualifier) {
        return lexicon.functionSchema().isPresent() && naming.name(rawQualifier).equals(lexicon.functionSchema().get());
    }

    private Value function(Function f, Scope scope, int d) {
        if (dialect.groupingSets() && f.getMultipartName() != null && f.getMultipartName().size() == 1 && !f.isEscaped()
                && f.getMultipartName().get(0).equalsIgnoreCase("grouping")) {
            return grouping(f, scope, d);
        }
        String name = functionName(f.getMultipartName(), f.isEscaped());
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

    /**
     * Total functions that multiply their input by a fixed factor: {@code quote_ident} and
     * {@code quote_literal} double every quote (and backslash) and add two. Nested, the factors
     * multiply (measured on PostgreSQL 15: {@code quote_ident} 30 deep ran 35 s under a 3 s
     * statement_timeout and asked for 1.6 GB), so each call is recorded with the product of the
     * factors its value has passed, in the call's own arguments and through CTEs and subqueries.
     */
    private static final Map<String, Long> FIXED_FACTORS = Map.of("quote_ident", 2L, "quote_literal", 2L, "quote_nullable", 2L);

    private static long compounded(long factor, List<Expression> params, List<Value> args) {
        long product = factor;
        for (Value v : args) {
            for (Flow flow : v.flows()) {
                long p = factor;
                for (FlowStep step : flow.chain()) {
                    p = times(p, FIXED_FACTORS.getOrDefault(step.operation(), 1L));
                }
                product = Math.max(product, p);
            }
        }
        for (Expression p : params) {
            product = Math.max(product, times(factor, nestedFactor(p)));
        }
        return product;
    }

    /** The product of the fixed factors of the calls nested in an expression, along its deepest path. */
    private static long nestedFactor(Expression e) {
        if (e instanceof Function f) {
            long inner = 1;
            if (f.getParameters() != null) {
                for (Expression p : f.getParameters()) {
                    inner = Math.max(inner, nestedFactor(p));
                }
            }
            List<String> parts = f.getMultipartName();
            String name = parts == null || parts.isEmpty() ? "" : parts.get(parts.size() - 1).toLowerCase(java.util.Locale.ROOT);
            return times(inner, FIXED_FACTORS.getOrDefault(name, 1L));
        }
        if (e instanceof BinaryExpression b) {
            return Math.max(nestedFactor(b.getLeftExpression()), nestedFactor(b.getRightExpression()));
        }
        if (e instanceof CastExpression c) {
            return nestedFactor(c.getLeftExpression());
        }
        if (e instanceof ParenthesedExpressionList<?> list) {
            long most = 1;
            for (Expression item : list) {
                most = Math.max(most, nestedFactor(item));
            }
            return most;
        }
        return 1;
    }

    private static long times(long a, long b) {
        return a > Long.MAX_VALUE / 4 / Math.max(1, b) ? Long.MAX_VALUE / 4 : a * b;
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

    /**
     * A call's size arguments ({@link FunctionRules#sizeArguments}): an integer literal there multiplies
     * the output by at most its value, anything else leaves it unbounded (measured on PostgreSQL 15:
     * {@code round(1, 100000)} builds 100,002 characters).
     */
    private void sizeArguments(String name, List<Expression> params) {
        for (int position : rules.sizeArguments().getOrDefault(name, Set.of())) {
            if (position < params.size()) {
                Optional<Long> n = integer(params.get(position));
                record(n.map(v -> Amplification.relative(name, Math.max(1, v == Long.MIN_VALUE ? Long.MAX_VALUE : Math.abs(v))))
                        .orElseGet(() -> Amplification.unbounded(name)));
            }
        }
    }

    /** The flows of a call's arguments, each after the step its position takes ({@link FunctionRules#argumentClass}). */
    private List<Flow> through(String name, CostClass cost, List<Value> args) {
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
        if (a.getKeep() != null || a.isIgnoreNulls() || a.isIgnoreNullsOutside() || a.getWindowName() != null
                || a.getHavingClause() != null || a.getNullHandling() != null
                || a.getLimit() != null || (a.getKeywordArguments() != null && !a.getKeywordArguments().isEmpty())
                || a.isUnique() || a.getOnOverflowTruncate() != null || (a.getFuncOrderBy() != null && !a.getFuncOrderBy().isEmpty())) {
            throw construct("The window or aggregate call uses a clause that is not allowed (named windows, IGNORE NULLS, KEEP).");
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
        amplifications.add(call);
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
        String name = naming.name(c.getColumnName());
        Table qualifier = c.getTable();
        if (qualifier != null && qualifier.getName() != null) {
            if (qualifier.getNameParts().size() > 2) {
                throw Refusals.unknownColumn(name);
            }
            Optional<String> schemaName = qualifier.getSchemaName() == null ? Optional.empty() : Optional.of(naming.name(qualifier.getSchemaName()));
            String tableName = naming.name(qualifier.getName());
            for (Scope s = scope; s != null; s = s.parent) {
                List<Source> hits = new ArrayList<>();
                for (Source source : s.sources) {
                    boolean hit = source.named() && source.visibleName().equals(tableName)
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
        if (!c.getColumnName().startsWith("\"") && lexicon.sqlValueKeywords().contains(name)) {
            // PostgreSQL reads these unquoted words as functions (current_user, session_user, ...), never as columns
            if (TIME_KEYS.contains(name)) {
                return Value.literal(timeKeyword(name));
            }
            throw rules.refusal(name);
        }
        // unqualified: a column of the innermost level that has one, else (PostgreSQL) a whole-row reference
        for (Scope s = scope; s != null; s = s.parent) {
            if (s.outputsReadFirst.contains(name)) {
                throw outputReadFirst(name); // no level inside reads the name: the engine reads this level's output
            }
            boolean namesASource = s.sources.stream().anyMatch(src -> src.named() && src.visibleName().equals(name));
            List<Source> hits = new ArrayList<>();
            for (Source source : s.sources) {
                if (source.columnsVisible() && !source.find(name).isEmpty()) {
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
                    if (outer.sources.stream().anyMatch(src -> src.columnsVisible() && !src.find(name).isEmpty())) {
                        // PostgreSQL would read the outer column; DuckDB reads the whole row here: fail closed
                        throw new GuardException(ErrorCode.AMBIGUOUS_COLUMN, "The name " + SafeText.identifier(name)
                                + " names a table of this query and a column of an outer query; qualify it.");
                    }
                }
                throw Refusals.hiddenColumnRead();
            }
        }
        for (Scope s = scope; s != null; s = s.parent) {
            for (Source source : s.sources) {
                if (source.named() && source.visibleName().equals(name)) {
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
            if (cols.stream().anyMatch(Col::hidden)) {
                throw Refusals.unknownColumn(name);
            }
            throw new GuardException(ErrorCode.AMBIGUOUS_COLUMN, "The column " + SafeText.identifier(name) + " is ambiguous.");
        }
        Col col = cols.get(0);
        if (col.hidden()) {
            throw Refusals.unknownColumn(name);
        }
        return col.value();
    }

    private Source qualifier(Table t, List<Source> sources) {
        if (t == null || t.getName() == null || t.getNameParts().size() > 2) {
            throw unsafe("star qualifier");
        }
        String name = naming.name(t.getName());
        Optional<String> schemaName = t.getSchemaName() == null ? Optional.empty() : Optional.of(naming.name(t.getSchemaName()));
        for (Source s : sources) {
            if (s.named() && s.visibleName().equals(name) && (schemaName.isEmpty() || s.baseSchema().equals(schemaName))) {
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
            if (lexicon.sqlValueKeywords().contains(key)) {
                throw rules.refusal(key);
            }
            throw unsafe("time keyword");
        }
        return timeKeyword(key);
    }

    /** A DATE, TIME, TIMESTAMP (or other) literal of a kind the engine takes, its text in the engine's form. */
    private String dateTime(DateTimeLiteralExpression e) {
        Pattern form = lexicon.dateTimeLiterals().get(e.getType());
        if (form == null) {
            throw unsafe("date or time literal");
        }
        return AnsiErrors.checkedLiteral(e.getType().name() + " ", e.getValue(), form);
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

    // ------------------------------------------------------------------ facts and parameters

    private void use(List<Flow> flows, UsePosition position) {
        for (Flow f : flows) {
            if (Flows.isConstant(f)) {
                continue; // reads nothing
            }
            uses.add(new ColumnUse(f.column(), position, f.chain()));
        }
    }

    /**
     * Replaces the parameter and attribute markers by {@code ?} in text order and checks that the caller's
     * parameters keep the parser's order among themselves. Without {@code bindings} (the text as written,
     * which holds no attribute) the parameters' positions are recorded; with it, each placeholder's slot.
     */
    private String bindMarkers(String sql, Bindings.Builder bindings) {
        StringBuilder out = new StringBuilder(sql.length());
        List<Integer> indices = new ArrayList<>();
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == MARK) {
                int end = sql.indexOf(MARK, i + 1);
                String marker = sql.substring(i + 1, end);
                if (marker.charAt(0) == ATTRIBUTE) {
                    if (bindings == null) {
                        throw new IllegalStateException("an attribute marker in the text as written");
                    }
                    bindings.attribute(marker.substring(1));
                } else {
                    indices.add(Integer.parseInt(marker));
                    if (bindings != null) {
                        bindings.parameter();
                    }
                }
                out.append('?');
                i = end + 1;
            } else {
                out.append(c);
                i++;
            }
        }
        for (int k = 0; k < indices.size(); k++) {
            if (indices.get(k) != k + 1) {
                throw construct("Parameters could not be matched to their positions; use plain ? placeholders.");
            }
        }
        if (bindings == null) {
            parameterIndices.addAll(indices);
        }
        return out.toString();
    }

    // ------------------------------------------------------------------ errors

    private static GuardException construct(String message) {
        return AnsiErrors.construct(message);
    }

    private static GuardException unsafe(String what) {
        return AnsiErrors.unsafe(what);
    }
}
