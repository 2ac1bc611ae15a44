package dev.sqlguard.jdbc.ansi;

import static dev.sqlguard.jdbc.ansi.RenderFacts.MARK;
import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.sqlguard.domain.Amplification;
import dev.sqlguard.domain.Bindings;
import dev.sqlguard.domain.ColumnUse;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.OutputColumn;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.domain.UsePosition;
import dev.sqlguard.jdbc.ansi.RenderScope.Out;
import dev.sqlguard.jdbc.ansi.RenderScope.Query;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.TableInfo;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.Select;

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
 *
 * <p>This class parses, renders and masks; the rendering itself is split by concern into package-private
 * parts that share one {@link RenderContext} per instance: {@link QueryRenderer} (query levels, the select
 * list, grouping, ordering and the row bound), {@link WithClauses} (common table expressions, recursive ones
 * included), {@link RelationRenderer} (FROM and joins), {@link AnsiExpressions} (value expressions and calls),
 * {@link RenderScope} (name resolution), {@link RenderFacts} (the facts recorded), {@link Amplifications} and
 * {@link AnsiLiterals}.
 */
@SuppressWarnings({"deprecation", "removal"})
public final class AnsiRenderer {
    private final AnsiDialect dialect;
    private final AnsiDialect.Lexicon lexicon;
    private final AnsiNames naming;
    private final SchemaSnapshot schema;
    private final GuardrailPolicy policy;
    /** The parts of this instance's one rendering and what they share ({@link QueryRenderer}, {@link RelationRenderer}, ...). */
    private final RenderContext ctx;
    private final RenderFacts facts;
    /** What the parse quotes before JSqlParser reads the text. */
    private final KeywordNames.Words words;
    /** The one rendering of this instance, once {@link #render} has run. */
    private Rendered rendered;

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

    /** The derived table under which {@link #render} masks sensitive outputs. */
    static final String RESULT_ALIAS = "sqlguard_result";

    /**
     * @param dialect what the engine renders differently
     * @param schema the tables as they exist on the server
     * @param policy the policy whose table and column allowlist and row limit apply, and whose function
     *     decision ({@link GuardrailPolicy#requireFunction}) the renderer asks of every call it reads: the
     *     configured policy with the engine's defaults filled in ({@link GuardrailPolicy#effective})
     */
    public AnsiRenderer(AnsiDialect dialect, SchemaSnapshot schema, GuardrailPolicy policy) {
        this(dialect, schema, policy, KeywordNames.Words.of(dialect, schema, policy));
    }

    /** @param words what the parse quotes ({@link KeywordNames.Words}), computed once per source by the caller */
    AnsiRenderer(AnsiDialect dialect, SchemaSnapshot schema, GuardrailPolicy policy, KeywordNames.Words words) {
        this.words = requireNonNull(words, "words is null");
        this.ctx = new RenderContext(dialect, schema, policy);
        this.dialect = ctx.dialect;
        this.lexicon = ctx.lexicon;
        this.naming = ctx.naming;
        this.schema = ctx.schema;
        this.policy = ctx.policy;
        this.facts = ctx.facts;
    }

    /**
     * Parses, checks and renders {@code sql}, the one SELECT of a request: the plan with its facts and
     * null parameters, for the policy to decide on ({@link GuardrailPolicy#authorize}, which the caller
     * runs once, before any cross-check with the engine). One call per instance.
     *
     * @throws GuardException the first refusal: the parser's or the renderer's
     */
    public QueryPlan plan(String sourceId, String sql) {
        if (!(parseOne(words.quote(sql), dialect) instanceof Select select)) {
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
        Query q = ctx.queries.query(select, null, true);
        List<OutputColumn> outputs = new ArrayList<>();
        for (Out out : q.outputs()) {
            facts.use(out.flows(), UsePosition.OUTPUT);
            outputs.add(OutputColumn.traced(out.label(), Flows.lineage(out.flows())));
        }
        Set<Integer> masked = policy.outputsToMask(outputs);
        String sql = masked(naming, facts.bindMarkers(facts.filled(q.sql(), false), null), outputs, masked);
        Optional<String> filtered = Optional.empty();
        Bindings bindings = Bindings.parameters(facts.parameterIndices.size());
        if (!facts.slots.isEmpty()) {
            // rendered last: everything before (facts, policy, the engine's cross-checks) reads the text as written
            Bindings.Builder slotsInOrder = Bindings.builder();
            filtered = Optional.of(masked(naming, facts.bindMarkers(facts.filled(q.sql(), true), slotsInOrder), outputs, masked));
            bindings = slotsInOrder.build();
        }
        rendered = new Rendered(sql, outputs, facts.tables, facts.uses, facts.functions, facts.tableFunctions, facts.amplifications.list(), facts.parameterIndices.size(), masked,
                filtered, bindings);
        return rendered;
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

    /**
     * {@code SELECT <columns, masked> FROM <qualified> [WHERE (<filter>)]} for a governed table, each
     * attribute placeholder written as {@code marker.apply(name)}.
     */
    static String governedSelect(AnsiNames naming, String qualified, TableInfo t, GuardrailPolicy policy,
                                 java.util.function.Function<String, String> marker) {
        return RelationRenderer.governedSelect(naming, qualified, t, policy, marker);
    }
}
