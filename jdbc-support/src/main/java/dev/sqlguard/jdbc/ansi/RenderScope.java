package dev.sqlguard.jdbc.ansi;

import static dev.sqlguard.jdbc.ansi.AnsiErrors.construct;
import static dev.sqlguard.jdbc.ansi.AnsiErrors.unsafe;
import static dev.sqlguard.jdbc.ansi.AnsiLiterals.TIME_KEYS;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.Refusals;
import dev.sqlguard.domain.SafeText;
import dev.sqlguard.jdbc.ansi.Flows.Flow;
import dev.sqlguard.jdbc.ansi.Flows.Value;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.PlainSelect;

/**
 * Name resolution of the {@link AnsiRenderer}: the queries, FROM items, columns and levels it renders against
 * ({@link Scope}), the recursive term being rendered ({@link Recursion}), and how a column name or a
 * qualifier resolves to exactly one allowlisted column.
 */
@SuppressWarnings({"deprecation", "removal"})
final class RenderScope {
    private final RenderContext ctx;
    private final AnsiDialect.Lexicon lexicon;
    private final AnsiNames naming;
    private final FunctionRules rules;

    RenderScope(RenderContext ctx) {
        this.ctx = ctx;
        this.lexicon = ctx.lexicon;
        this.naming = ctx.naming;
        this.rules = ctx.rules;
    }

    /** One output column of a query: its label and the flows into it. */
    record Out(String label, List<Flow> flows) {
    }

    /** A rendered query: its text and its outputs. */
    record Query(String sql, List<Out> outputs) {
    }

    /**
     * A column a FROM item offers: its name, its rendered expression ({@code "tN"."name"}, or the merged
     * value of a {@code USING} column), the flows of its value, and whether it is hidden by the allowlist.
     */
    record Col(String name, String sql, List<Flow> flows, boolean hidden) {
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
    record Source(String visibleName, Optional<String> baseSchema, String renderedAlias, List<Col> columns,
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

        /** {@link #absorbed()}, without {@code merged}: the columns a USING join took for itself. */
        Source absorbedWithout(Set<Col> merged) {
            return new Source(visibleName, baseSchema, renderedAlias, columns.stream().filter(c -> !merged.contains(c)).toList(), false);
        }
    }

    /** A column of a FROM item rendered as {@code "tN"."name"}. */
    Col col(String renderedAlias, String name, List<Flow> flows, boolean hidden) {
        return new Col(name, naming.identifier(renderedAlias) + "." + naming.identifier(name), flows, hidden);
    }

    /** A rendered select-list item. */
    record Item(String label, Value value, Expression node) {
    }

    /** The names visible at one query level, and the common table expressions in scope. */
    static final class Scope {
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
         * bare, each with the output's value when one output alone has the label. A name read at this level
         * that is one of them is that output, and is written as the output's expression, which leaves the
         * engine no other reading; read from a subquery of the key, or where two outputs have the label, it
         * is refused.
         */
        Map<String, Optional<Value>> outputsReadFirst = Map.of();
        /**
         * The windows this SELECT's WINDOW clause names, by the name the engine reads, each with the name it is
         * rendered under, for its {@code OVER w}: looked up at this level only, as the engines do.
         */
        Map<String, String> windows = Map.of();
        /** While this SELECT's WINDOW clause renders: a window call inside a definition is refused. */
        boolean renderingWindows;
        /**
         * The text each subquery expression of this level rendered to, by its text as written: a subquery written
         * twice at one level is rendered twice as one text, because each rendering names its relations anew, and an
         * engine that matches expressions by their trees would no longer see the one in the other (PostgreSQL reads
         * {@code dense_rank() OVER (ORDER BY (SELECT ...))} as the grouped key of {@code GROUP BY CUBE ((SELECT ...))}
         * and the aliases {@code t2} and {@code t3} told them apart: differential seed 126143; Trino 483 refused a
         * selected subquery grouped by as "Every selected column must be in GROUP BY": seed 300190).
         */
        final Map<String, String> subqueryTexts = new HashMap<>();

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

    /** What the renderer learns about one recursive term while it renders it. */
    static final class Recursion {
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

    private static GuardException outputReadFirst(String name) {
        return construct("In an ORDER BY expression this engine reads " + SafeText.identifier(name)
                + " as the output column of that name: order by the output's position or name alone, qualify an"
                + " input column (t." + name + "), or give the output another name.");
    }

    static boolean resolvesAsInput(String name, Scope scope) {
        for (Source s : scope.sources) {
            if (s.columnsVisible() && !s.find(name).isEmpty()) {
                return true;
            }
        }
        return false;
    }

    static void addSource(Scope scope, Source source) {
        for (Source s : scope.sources) {
            if (s.named() && s.visibleName().equals(source.visibleName())) {
                throw new GuardException(ErrorCode.AMBIGUOUS_COLUMN, "The name " + SafeText.identifier(source.visibleName())
                        + " is used for two tables; give each an alias.");
            }
        }
        scope.sources.add(source);
    }

    Value column(Column c, Scope scope) {
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
            Optional<Value> output = s.outputsReadFirst.get(name);
            if (output != null) {
                // no level inside reads the name: the engine reads this level's output
                if (s == scope && output.isPresent()) {
                    return new Value("(" + output.get().sql() + ")", output.get().flows());
                }
                throw outputReadFirst(name);
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

    Value read(Source source, String name) {
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

    Source qualifier(Table t, List<Source> sources) {
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

    // ------------------------------------------------------------------ the other parts

    private String timeKeyword(String key) {
        return ctx.literals.timeKeyword(key);
    }
}
