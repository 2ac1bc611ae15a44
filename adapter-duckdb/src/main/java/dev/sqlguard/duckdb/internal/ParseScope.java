package dev.sqlguard.duckdb.internal;

import static dev.sqlguard.duckdb.internal.ParseTrees.construct;
import static dev.sqlguard.duckdb.internal.ParseTrees.fold;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.sqlguard.domain.ColumnRef;

/**
 * Scopes and resolution records of the parse-tree gate: the columns each FROM item exposes under
 * the name queries use for it, with the base columns each derives from (the parse view of reads,
 * which DuckDB's bound plan must agree with).
 */
final class ParseScope {
    private ParseScope() {
    }

    /** A column a relation exposes, with the base columns its value derives from. */
    record Col(String name, Set<ColumnRef> lineage, boolean complete, DuckDbCatalog.Table table) {
        Col {
            lineage = Set.copyOf(lineage);
        }

        static Col derived(String name, Lineage lineage) {
            return new Col(name, lineage.refs(), lineage.complete(), null);
        }
    }

    /** The base columns an expression derives from. */
    record Lineage(Set<ColumnRef> refs, boolean complete) {
        static final Lineage EMPTY = new Lineage(Set.of(), true);

        Lineage plus(Lineage other) {
            if (other.refs.isEmpty() && other.complete) {
                return this;
            }
            Set<ColumnRef> all = new LinkedHashSet<>(refs);
            all.addAll(other.refs);
            return new Lineage(all, complete && other.complete);
        }

        static Lineage of(Col col) {
            return new Lineage(col.lineage(), col.complete());
        }
    }

    /** One relation of a FROM clause under the name queries use for it. */
    record Source(String alias, Optional<DuckDbCatalog.Table> table, List<Col> columns) {
    }

    /** What a FROM clause binds: its sources, and the columns {@code *} expands to. */
    record From(List<Source> sources, List<Col> star) {
        static final From EMPTY = new From(List.of(), List.of());
    }

    /** Name resolution context of one query level. */
    static final class Scope {
        final Scope parent;
        final List<Source> sources;
        final List<Col> star;
        final Map<String, Lineage> selectAliases = new HashMap<>();
        /** The expression of each select-list alias, as checked (the node of the tree, not a copy). */
        final Map<String, JsonNode> aliasExpressions = new HashMap<>();
        /** The position of each select-list alias among the outputs (from 1, stars expanded), as DuckDB numbers them. */
        final Map<String, Integer> aliasPositions = new HashMap<>();
        /**
         * The names and the select-list positions written alone as GROUP BY items: DuckDB reads an alias so grouped as
         * its group wherever the query names it.
         */
        final Set<String> groupedNames = new java.util.HashSet<>();
        final Set<Integer> groupedPositions = new java.util.HashSet<>();
        /** Whether the select item being checked is itself a GROUP BY key (by its alias or its position). */
        boolean itemGrouped;
        /** The last name of each column reference written alone as a GROUP BY item ({@code ssn}, {@code l.ssn}). */
        final Set<String> groupedColumns = new java.util.HashSet<>();
        /** Whether the expression being checked is the query's HAVING clause. */
        boolean havingClause;
        /** Whether the expression being checked is the query's QUALIFY clause. */
        boolean qualifyClause;
        /** Whether the query has GROUP BY items (ROLLUP, CUBE and GROUPING SETS included; not GROUP BY ALL). */
        boolean grouped;
        /** Every output alias of the select list, known before any item is checked (DuckDB's alias map). */
        final Set<String> outputAliases = new java.util.HashSet<>();
        /** How many aggregate calls (not windows) enclose the expression being checked, at this query level. */
        int aggregateArguments;
        /** Whether the expressions being checked are bound by DuckDB as select-list expressions (the list, ORDER BY, DISTINCT ON). */
        boolean selectClause;
        final Map<String, Lineage> lambdaParameters;

        Scope(Scope parent, From from, Map<String, Lineage> lambdaParameters) {
            this.parent = parent;
            this.sources = from.sources();
            this.star = from.star();
            this.lambdaParameters = lambdaParameters;
        }
    }

    /** A CTE definition and its columns once analyzed. */
    static final class Cte {
        final JsonNode definition;
        final Ctes env;
        List<Col> columns;
        boolean inProgress;
        List<Col> provisional;

        Cte(JsonNode definition, Ctes env) {
            this.definition = definition;
            this.env = env;
        }
    }

    record Ctes(Ctes parent, Map<String, Cte> entries) {
        Optional<Cte> find(String name) {
            for (Ctes e = this; e != null; e = e.parent) {
                Cte cte = e.entries.get(name);
                if (cte != null) {
                    return Optional.of(cte);
                }
            }
            return Optional.empty();
        }
    }

    /** One column of two queries a set operation (or WITH RECURSIVE) stacks. */
    static Col combine(Col a, Col b) {
        Lineage l = Lineage.of(a).plus(Lineage.of(b));
        return new Col(a.name(), l.refs(), l.complete(), null);
    }

    static List<Col> rename(List<Col> cols, List<String> aliases) {
        if (aliases.isEmpty()) {
            return cols;
        }
        if (aliases.size() > cols.size()) {
            throw construct("More column aliases than columns.");
        }
        List<Col> out = new ArrayList<>(cols.size());
        for (int i = 0; i < cols.size(); i++) {
            Col c = cols.get(i);
            out.add(i < aliases.size() ? new Col(aliases.get(i), c.lineage(), c.complete(), c.table()) : c);
        }
        return out;
    }

    static From single(String alias, Optional<DuckDbCatalog.Table> table, List<Col> cols) {
        return new From(List.of(new Source(fold(alias), table, cols)), cols);
    }

    static List<Col> metadata(String... names) {
        List<Col> cols = new ArrayList<>();
        for (String name : names) {
            cols.add(Col.derived(name, Lineage.EMPTY));
        }
        return cols;
    }

    static boolean matches(Source source, List<String> qualifier) {
        if (qualifier.size() == 1) {
            return source.alias().equals(qualifier.get(0));
        }
        if (source.table().isEmpty() || !source.alias().equals(fold(source.table().get().name()))) {
            return false;
        }
        DuckDbCatalog.Table table = source.table().get();
        if (qualifier.size() == 2) {
            return fold(table.schema()).equals(qualifier.get(0)) && fold(table.name()).equals(qualifier.get(1));
        }
        return fold(table.database()).equals(qualifier.get(0)) && fold(table.schema()).equals(qualifier.get(1))
                && fold(table.name()).equals(qualifier.get(2));
    }

    static Col findColumn(List<Col> cols, String name) {
        Col found = null;
        for (Col col : cols) {
            if (fold(col.name()).equals(name)) {
                found = found == null ? col : Col.derived(found.name(), Lineage.of(found).plus(Lineage.of(col)));
            }
        }
        return found;
    }

    static List<Col> concat(List<Col> a, List<Col> b) {
        List<Col> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
