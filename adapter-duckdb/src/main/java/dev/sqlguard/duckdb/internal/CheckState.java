package dev.sqlguard.duckdb.internal;

import static dev.sqlguard.duckdb.internal.ParseTrees.construct;
import static dev.sqlguard.duckdb.internal.ParseTrees.text;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Refusals;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.duckdb.internal.ParseScope.Col;

/**
 * What one run of the parse-tree gate has seen and decided so far: the tables, columns, functions and
 * parameters the text names, the nodes visited (fail closed on the rest), the nesting depth, and the
 * column visibility rules. One instance per statement; not thread-safe.
 */
final class CheckState {
    final DuckDbCatalog catalog;
    /** The policy whose function decision the gate asks before DuckDB binds anything. */
    final GuardrailPolicy policy;
    final boolean restricted;
    final ConstantFolding folding;
    /** The tables a row policy governs (multi-tenancy); {@link GovernedTables#NONE} without one. */
    final GovernedTables governed;

    /** Whether the walk is inside a constant function call that {@link #folding} already checked. */
    boolean insideConstant;

    final IdentityHashMap<JsonNode, Boolean> visited = new IdentityHashMap<>();
    final Set<TableRef> tables = new LinkedHashSet<>();
    final Set<ColumnRef> columns = new LinkedHashSet<>();
    final Set<String> calledFunctions = new TreeSet<>();
    final Set<String> calledTableFunctions = new TreeSet<>();
    final Set<Integer> parameters = new TreeSet<>();

    /** Collectors of every column referenced while analyzing a subquery expression. */
    final Deque<Set<ColumnRef>> referenceCollectors = new ArrayDeque<>();

    /**
     * The bare names DuckDB reads as an output alias before an input column: an ORDER BY or DISTINCT ON item that is a
     * name alone, or a name alone under {@code COLLATE} (DuckDB's OrderBinder looks the child of a collation up in the
     * aliases too). Everywhere else it reads an input column first ({@link ExpressionChecks#resolveIn}).
     */
    final Set<JsonNode> aliasFirst = java.util.Collections.newSetFromMap(new IdentityHashMap<>());

    /**
     * The GROUP BY items (each entry of a SELECT's group expressions, ROLLUP, CUBE and GROUPING SETS keys included):
     * DuckDB reads an integer literal there as the position of a select-list item.
     */
    final Set<JsonNode> groupKeys = java.util.Collections.newSetFromMap(new IdentityHashMap<>());

    /**
     * The FROM item of each derived table written without a name, by the source it binds: where a bare name must be
     * qualified with such a table, the table is given a name in the tree that runs ({@code derivedNames} counts them).
     */
    final Map<ParseScope.Source, ObjectNode> unnamedDerivedTables = new IdentityHashMap<>();
    int derivedNames;

    /** The column references this gate replaced by the expression of the output alias they name. */
    final Set<JsonNode> inlinedAliases = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    /** The length of the JSON of those expressions' copies, together. */
    long inlinedChars;
    /**
     * An output alias whose expression holds a subquery, inlined where DuckDB binds select-list expressions, or a
     * subquery's name DuckDB would read as a grouped query's column outside its group (ExpressionChecks
     * readsUngroupedColumn): DuckDB refuses the query when it binds it, and so does the validator then.
     */
    boolean unbindableAlias;
    /** The select item without an alias being checked, and its tree before an alias was first inlined into it. */
    JsonNode labelItem;
    JsonNode labelOriginal;
    /** Each select item without an alias that holds an inlined alias, with its tree as written (its label's source). */
    final java.util.Map<JsonNode, JsonNode> relabelled = new IdentityHashMap<>();

    int depth;

    /** What kind of schema inspection the statement is, if any. */
    Inspection inspection = Inspection.NONE;

    /** The tables the statement SUMMARIZEs whole, wherever it does (a subquery, a CTE, a join). */
    final Set<DuckDbCatalog.Table> summarized = new LinkedHashSet<>();

    /** Each {@code BASE_TABLE} node of the tree that names a catalog table (not a WITH query), with that table. */
    final IdentityHashMap<JsonNode, DuckDbCatalog.Table> baseTables = new IdentityHashMap<>();

    /**
     * Each column reference that names its table with a schema or catalog ({@code main.claims.id}), with how
     * many leading names qualify the table: once that table is a derived table they become its name alone.
     */
    final IdentityHashMap<JsonNode, QualifiedColumn> qualifiedColumns = new IdentityHashMap<>();

    /** A column reference {@code [catalog.]schema.table.column...}: its table and how many leading names qualify it. */
    record QualifiedColumn(DuckDbCatalog.Table table, int prefix) {
    }

    CheckState(DuckDbCatalog catalog, GuardrailPolicy policy, boolean restricted, ConstantFolding folding,
               GovernedTables governed) {
        this.catalog = catalog;
        this.governed = governed;
        this.policy = policy;
        this.restricted = restricted;
        this.folding = folding;
    }

    /** A column the query names: one it may not see is refused exactly like one that does not exist. */
    void requireNamedVisible(Col col, List<String> parts) {
        if (!visible(col)) {
            throw Refusals.unknownColumn(String.join(".", parts));
        }
    }

    /** A column the query reads without naming it ({@code *}, {@code #n}, DESCRIBE): the refusal names no column. */
    void requireAllowed(Col col) {
        if (!visible(col)) {
            throw Refusals.hiddenColumnRead();
        }
    }

    boolean visible(Col col) {
        if (col.table() != null && !catalog.allowsColumn(col.table(), col.name())) {
            return false;
        }
        for (ColumnRef ref : col.lineage()) {
            Optional<DuckDbCatalog.Table> table = catalog.find("", ref.table().schema().orElse(""), ref.table().table());
            if (table.isPresent() && !catalog.allowsColumn(table.get(), ref.column())) {
                return false;
            }
        }
        return true;
    }

    void record(Col col) {
        columns.addAll(col.lineage());
        for (Set<ColumnRef> collector : referenceCollectors) {
            collector.addAll(col.lineage());
        }
    }

    // ---------------------------------------------------------------- fail-closed bookkeeping

    void visit(JsonNode node) {
        if (node != null && node.isObject()) {
            visited.put(node, Boolean.TRUE);
        }
    }

    void visitSubtree(JsonNode node) {
        visit(node);
        for (JsonNode child : node) {
            visitSubtree(child);
        }
    }

    /** Refuses the statement if any typed object of the tree escaped the rules above. */
    void requireAllVisited(JsonNode root) {
        Deque<JsonNode> stack = new ArrayDeque<>();
        stack.push(root);
        while (!stack.isEmpty()) {
            JsonNode node = stack.pop();
            if (node.isObject() && (node.has("class") || node.has("type")) && !visited.containsKey(node)) {
                throw construct("The query uses a construct that is not supported here.");
            }
            for (JsonNode child : node) {
                if (child.isContainerNode()) {
                    stack.push(child);
                }
            }
        }
    }

    void enter() {
        if (++depth > TreeChecker.MAX_DEPTH) {
            throw new GuardException(ErrorCode.QUERY_TOO_COMPLEX, "The query is nested too deeply.");
        }
    }
}
