package dev.sqlguard.duckdb.internal;

import static dev.sqlguard.duckdb.internal.ParseScope.combine;
import static dev.sqlguard.duckdb.internal.ParseScope.findColumn;
import static dev.sqlguard.duckdb.internal.ParseScope.rename;
import static dev.sqlguard.duckdb.internal.ParseTrees.array;
import static dev.sqlguard.duckdb.internal.ParseTrees.construct;
import static dev.sqlguard.duckdb.internal.ParseTrees.field;
import static dev.sqlguard.duckdb.internal.ParseTrees.fold;
import static dev.sqlguard.duckdb.internal.ParseTrees.strings;
import static dev.sqlguard.duckdb.internal.ParseTrees.text;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.OutputColumn;
import dev.sqlguard.domain.Refusals;
import dev.sqlguard.domain.SafeText;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.duckdb.internal.ParseScope.Col;
import dev.sqlguard.duckdb.internal.ParseScope.Cte;
import dev.sqlguard.duckdb.internal.ParseScope.Ctes;
import dev.sqlguard.duckdb.internal.ParseScope.From;
import dev.sqlguard.duckdb.internal.ParseScope.Lineage;
import dev.sqlguard.duckdb.internal.ParseScope.Scope;
import dev.sqlguard.duckdb.internal.ParseScope.Source;

/**
 * The gate before anything binds a statement: walks the parse tree DuckDB itself produced
 * ({@code json_serialize_sql}) and refuses what must never reach DuckDB's binder (binding runs
 * table-function binders, which can touch files): anything but one SELECT, tables that are not
 * allowlisted base tables, functions and table functions off the allowlists or on the never-list,
 * constructs sqlguard does not support, named parameters. It also reports the tables and columns the
 * text names, which DuckDB's bound plan must agree with, the output names and the parameter count.
 *
 * <p>It decides nothing about lineage, sensitive values or cost: those come from DuckDB's own bound
 * plan ({@link BoundPlanReader}), not from a second guess of how DuckDB resolves names. Names it
 * cannot see, or that are not allowlisted, are refused with one message, so a hidden name cannot be
 * told from a missing one.
 *
 * <p>Fail closed: every object of the tree that carries a {@code class} or {@code type} must have
 * been handled by a rule here, or the statement is refused ({@link #requireAllVisited}). Not thread-safe:
 * one instance per statement.
 */
final class TreeChecker {
    /** Nesting depth of query nodes, table references and expressions, together. */
    static final int MAX_DEPTH = 200;

    /** The outcome of a check. */
    record Result(Set<TableRef> tables, Set<ColumnRef> columns, Set<String> functions, Set<String> tableFunctions,
                  List<OutputColumn> outputs,
                  int parameterCount, Inspection inspection, Set<DuckDbCatalog.Table> summarized,
                  Map<JsonNode, DuckDbCatalog.Table> baseTables, Map<JsonNode, CheckState.QualifiedColumn> qualifiedColumns,
                  Map<JsonNode, JsonNode> relabelled, boolean unbindableAlias) {
    }

    private final CheckState state;
    /** The stars this checker told DuckDB to expand without their hidden columns (a qualified EXCLUDE it added). */
    private final Set<JsonNode> narrowedStars = Collections.newSetFromMap(new IdentityHashMap<>());
    private final FunctionRules functionRules;
    private final ExpressionChecks expressions;
    private final FromChecks relations;

    TreeChecker(DuckDbCatalog catalog, GuardrailPolicy policy, boolean restricted, Limits limits,
                GovernedTables governed) {
        this.state = new CheckState(catalog, policy, restricted, new ConstantFolding(limits), governed);
        this.functionRules = new FunctionRules(state);
        this.expressions = new ExpressionChecks(state, this, functionRules);
        this.relations = new FromChecks(state, this, expressions, functionRules);
    }

    /** Checks one statement ({@code {"node": ..., "named_param_map": ...}}). */
    Result check(JsonNode statement) {
        state.visit(statement);
        List<Col> out = node(field(statement, "node"), null, new Ctes(null, Map.of()));
        expressions.checkParameterMap(statement.path("named_param_map"));
        state.requireAllVisited(statement);
        boolean listing = isCatalogListing(field(statement, "node"));
        List<OutputColumn> outputs = new ArrayList<>(out.size());
        for (Col col : out) {
            outputs.add(listing ? OutputColumn.catalogListing(col.name())
                    : new OutputColumn(col.name(), col.lineage(), col.complete()));
        }
        int count = state.parameters.isEmpty() ? 0 : ((TreeSet<Integer>) state.parameters).last();
        return new Result(state.tables, state.columns, state.calledFunctions, state.calledTableFunctions, outputs, count,
                state.inspection, state.summarized, state.baseTables, state.qualifiedColumns, state.relabelled,
                state.unbindableAlias);
    }

    /**
     * Whether the statement is exactly {@code SHOW TABLES}, {@code SHOW t} or {@code DESCRIBE t} (or
     * {@code DESCRIBE} of a query) and nothing else: DuckDB parses each as {@code SELECT * FROM
     * <show ref>}. Its outputs are then catalog names and types of allowlisted tables, which
     * {@link FromChecks#show} has already required (a listing of every table only on an unrestricted
     * source, a table's columns only when all of them are allowed). SUMMARIZE computes on values and is
     * never a listing.
     */
    static boolean isCatalogListing(JsonNode node) {
        JsonNode list = node.path("select_list");
        JsonNode from = node.path("from_table");
        String showType = from.path("show_type").asText("");
        return "SELECT_NODE".equals(node.path("type").asText())
                && list.size() == 1 && "STAR".equals(list.get(0).path("class").asText())
                && list.get(0).path("relation_name").asText("").isEmpty()
                && list.get(0).path("exclude_list").isEmpty() && list.get(0).path("replace_list").isEmpty()
                && list.get(0).path("rename_list").isEmpty() && !list.get(0).path("columns").asBoolean(false)
                && "SHOW_REF".equals(from.path("type").asText())
                && ("SHOW".equals(showType) || "DESCRIBE".equals(showType) || "SHOW_SPECIAL".equals(showType))
                && isNullOrEmpty(node.path("where_clause")) && node.path("groups").path("group_expressions").isEmpty()
                && isNullOrEmpty(node.path("having")) && isNullOrEmpty(node.path("qualify"))
                && isNullOrEmpty(node.path("sample")) && node.path("modifiers").isEmpty()
                && node.path("cte_map").path("map").isEmpty();
    }

    private static boolean isNullOrEmpty(JsonNode node) {
        return node.isMissingNode() || node.isNull() || node.isEmpty() && !node.isValueNode();
    }

    // ---------------------------------------------------------------- query nodes

    List<Col> node(JsonNode node, Scope outer, Ctes env) {
        state.enter();
        try {
            state.visit(node);
            String type = text(node, "type");
            return switch (type) {
                case "SELECT_NODE" -> selectNode(node, outer, env);
                case "SET_OPERATION_NODE" -> setOperation(node, outer, env);
                default -> throw construct("The query uses a construct that is not supported here.");
            };
        } finally {
            state.depth--;
        }
    }

    private Ctes withCtes(JsonNode node, Ctes env) {
        JsonNode map = node.path("cte_map").path("map");
        if (!map.isArray() || map.isEmpty()) {
            return env;
        }
        Map<String, Cte> entries = new LinkedHashMap<>();
        Ctes inner = new Ctes(env, entries);
        for (JsonNode entry : map) {
            String name = fold(text(entry, "key"));
            state.governed.namedLike(name).ifPresent(table -> {
                // a WITH query of that name would stand for the table wherever the query names it unqualified
                throw construct("A WITH query is named like the table " + SafeText.identifier(table)
                        + ", whose rows are filtered per caller; give it another name.");
            });
            JsonNode value = field(entry, "value");
            if (!value.path("key_targets").isEmpty() || !value.path("payload_aggregates").isEmpty()) {
                throw construct("This form of WITH is not supported here.");
            }
            entries.put(name, new Cte(value, inner));
        }
        return inner;
    }

    List<Col> cteColumns(String name, Cte cte, Scope outer) {
        if (cte.columns != null) {
            return cte.columns;
        }
        if (cte.inProgress) {
            if (cte.provisional == null) {
                throw construct("A WITH query refers to itself without RECURSIVE.");
            }
            return cte.provisional;
        }
        cte.inProgress = true;
        try {
            JsonNode query = field(cte.definition, "query_node");
            List<String> aliases = strings(cte.definition.path("aliases"));
            List<Col> result = "RECURSIVE_CTE_NODE".equals(text(query, "type"))
                    ? recursiveCte(query, cte, outer, aliases)
                    : rename(node(query, outer, cte.env), aliases);
            cte.columns = result;
            return result;
        } finally {
            cte.inProgress = false;
        }
    }

    /** Lineage of a recursive CTE: the anchor's, grown until the recursive part adds nothing (a fixpoint). */
    private List<Col> recursiveCte(JsonNode query, Cte cte, Scope outer, List<String> aliases) {
        state.enter();
        try {
            state.visit(query);
            strings(query.path("aliases"));
            if (!query.path("key_targets").isEmpty()) {
                throw construct("This form of WITH RECURSIVE is not supported here.");
            }
            visitModifiers(query, null);
            List<Col> current = rename(node(field(query, "left"), outer, cte.env), aliases);
            for (int round = 0; round < 8; round++) {
                cte.provisional = current;
                List<Col> step = node(field(query, "right"), outer, cte.env);
                if (step.size() != current.size()) {
                    throw construct("Both sides of WITH RECURSIVE must have the same number of columns.");
                }
                List<Col> merged = new ArrayList<>();
                boolean grew = false;
                for (int i = 0; i < current.size(); i++) {
                    Col a = current.get(i);
                    Lineage l = Lineage.of(a).plus(Lineage.of(step.get(i)));
                    grew |= !l.refs().equals(a.lineage()) || l.complete() != a.complete();
                    merged.add(combine(a, step.get(i)));
                }
                current = merged;
                if (!grew) {
                    return current;
                }
            }
            List<Col> untraced = new ArrayList<>();
            for (Col c : current) {
                untraced.add(new Col(c.name(), c.lineage(), false, null));
            }
            return untraced;
        } finally {
            state.depth--;
        }
    }

    private List<Col> selectNode(JsonNode node, Scope outer, Ctes env) {
        Ctes inner = withCtes(node, env);
        state.visit(node.path("cte_map"));
        From from = relations.from(field(node, "from_table"), outer, inner);
        Scope scope = new Scope(outer, from, Map.of());
        List<Col> out = new ArrayList<>();
        for (JsonNode group : array(node, "group_expressions")) {
            JsonNode names = group.path("column_names");
            String kind = group.path("class").asText();
            if ("COLUMN_REF".equals(kind) && names.size() >= 1) {
                scope.groupedColumns.add(fold(names.path(names.size() - 1).asText()));
            }
            if ("COLUMN_REF".equals(kind) && names.size() == 1) {
                scope.groupedNames.add(fold(names.path(0).asText()));
            } else if ("CONSTANT".equals(kind) && "INTEGER".equals(group.path("literal").path("kind").asText())) {
                try {
                    scope.groupedPositions.add(Integer.parseInt(group.path("literal").path("text").asText()));
                } catch (NumberFormatException e) {
                    // no select-list position: DuckDB refuses it as out of range
                }
            }
        }
        scope.grouped = !node.path("group_expressions").isEmpty();
        for (JsonNode item : array(node, "select_list")) {
            String alias = item.path("alias").asText("");
            if (!alias.isEmpty()) {
                scope.outputAliases.add(fold(alias));
            }
        }
        expandStarsOverHiddenColumns(node, scope);
        int position = 0;
        for (JsonNode item : array(node, "select_list")) {
            position++;
            if ("STAR".equals(item.path("class").asText())) {
                out.addAll(star(item, scope, inner));
                continue;
            }
            // GROUP BY reads a name as an input column before an alias (probe seed 37030: GROUP BY ssn is l.ssn, not the item)
            String itemAlias = fold(item.path("alias").asText(""));
            scope.itemGrouped = scope.groupedPositions.contains(position)
                    || !itemAlias.isEmpty() && scope.groupedNames.contains(itemAlias) && !namesVisibleColumn(scope, itemAlias);
            String name = outputName(item);
            JsonNode savedItem = state.labelItem;
            JsonNode savedOriginal = state.labelOriginal;
            boolean unaliased = item.path("alias").asText("").isEmpty();
            state.labelItem = unaliased ? item : null;
            state.labelOriginal = null;
            scope.selectClause = true;
            Lineage lineage;
            try {
                lineage = expressions.expression(item, scope, inner);
            } finally {
                scope.selectClause = false;
                scope.itemGrouped = false;
            }
            if (state.inlinedAliases.contains(item) && unaliased) {
                // a bare name that was an alias's expression written in its place keeps the name it gave the output
                ((ObjectNode) item).put("alias", name);
            } else if (state.labelOriginal != null && unaliased) {
                // an expression holding one keeps DuckDB's label of it as written (the validator names it so)
                state.relabelled.put(item, state.labelOriginal);
            }
            state.labelItem = savedItem;
            state.labelOriginal = savedOriginal;
            out.add(new Col(name, lineage.refs(), lineage.complete(), null));
            String alias = item.path("alias").asText("");
            if (!alias.isEmpty()) {
                scope.selectAliases.put(fold(alias), lineage);
                scope.aliasExpressions.put(fold(alias), item);
                scope.aliasPositions.put(fold(alias), out.size());
            }
        }
        expressions.optionalExpression(node.get("where_clause"), scope, inner);
        for (JsonNode group : array(node, "group_expressions")) {
            state.groupKeys.add(group);
            expressions.expression(group, scope, inner);
        }
        for (JsonNode set : array(node, "group_sets")) {
            for (JsonNode index : set) {
                if (!index.isIntegralNumber()) {
                    throw construct("Unexpected GROUP BY form.");
                }
            }
        }
        String handling = text(node, "aggregate_handling");
        if (!Set.of("STANDARD_HANDLING", "FORCE_AGGREGATES", "NO_AGGREGATES_ALLOWED").contains(handling)) {
            throw construct("Unexpected aggregate form.");
        }
        scope.havingClause = true;
        try {
            expressions.optionalExpression(node.get("having"), scope, inner);
        } finally {
            scope.havingClause = false;
        }
        scope.qualifyClause = true;
        try {
            expressions.optionalExpression(node.get("qualify"), scope, inner);
        } finally {
            scope.qualifyClause = false;
        }
        relations.sample(node.get("sample"));
        visitModifiers(node, new ModifierContext(scope, inner, out));
        checkUnusedCtes(inner, env, outer);
        return out;
    }

    /** CTEs no query referenced are checked too: the policy holds for every part of the text. */
    private void checkUnusedCtes(Ctes inner, Ctes env, Scope outer) {
        if (inner == env) {
            return;
        }
        for (Map.Entry<String, Cte> entry : inner.entries().entrySet()) {
            if (entry.getValue().columns == null) {
                cteColumns(entry.getKey(), entry.getValue(), outer);
            }
        }
    }

    private record ModifierContext(Scope scope, Ctes env, List<Col> outputs) {
    }

    private void visitModifiers(JsonNode node, ModifierContext context) {
        for (JsonNode modifier : array(node, "modifiers")) {
            state.visit(modifier);
            switch (text(modifier, "type")) {
                case "ORDER_MODIFIER" -> orders(modifier, context);
                case "LIMIT_MODIFIER", "LIMIT_PERCENT_MODIFIER" -> {
                    requireContext(context);
                    expressions.optionalExpression(modifier.get("limit"), context.scope(), context.env());
                    expressions.optionalExpression(modifier.get("offset"), context.scope(), context.env());
                }
                case "DISTINCT_MODIFIER" -> {
                    requireContext(context);
                    for (JsonNode target : array(modifier, "distinct_on_targets")) {
                        aliasFirst(target); // DuckDB reads a bare name here as an output alias first
                        context.scope().selectClause = true; // and binds the target as a select-list expression
                        try {
                            expressions.expression(target, context.scope(), context.env());
                        } finally {
                            context.scope().selectClause = false;
                        }
                    }
                }
                default -> throw construct("The query uses a clause that is not supported here.");
            }
        }
    }

    /** An ORDER BY or DISTINCT ON item, and the child of a COLLATE item: DuckDB's OrderBinder looks both up as aliases. */
    private void aliasFirst(JsonNode item) {
        state.aliasFirst.add(item);
        if ("COLLATE".equals(item.path("class").asText()) && item.has("child")) {
            state.aliasFirst.add(item.get("child"));
        }
    }

    private static void requireContext(ModifierContext context) {
        if (context == null) {
            throw construct("The query uses a clause that is not supported here.");
        }
    }

    private void orders(JsonNode modifier, ModifierContext context) {
        for (JsonNode order : array(modifier, "orders")) {
            state.visit(order);
            requireContext(context);
            JsonNode expression = field(order, "expression");
            if ("STAR".equals(expression.path("class").asText())) {
                // ORDER BY ALL: sorts by the output columns, which were checked already
                requireEmptyStar(expression, true);
                state.visit(expression);
                continue;
            }
            aliasFirst(expression); // DuckDB reads a bare name here as an output alias first
            context.scope().selectClause = true;
            try {
                expressions.expression(expression, context.scope(), context.env());
            } finally {
                context.scope().selectClause = false;
            }
        }
    }

    private List<Col> setOperation(JsonNode node, Scope outer, Ctes env) {
        Ctes inner = withCtes(node, env);
        state.visit(node.path("cte_map"));
        String op = text(node, "setop_type");
        if (!Set.of("UNION", "EXCEPT", "INTERSECT", "UNION_BY_NAME").contains(op)) {
            throw construct("The query uses a set operation that is not supported here.");
        }
        List<JsonNode> children = new ArrayList<>();
        for (JsonNode child : array(node, "children")) {
            children.add(child);
        }
        for (String side : List.of("left", "right")) {
            JsonNode child = node.get(side);
            if (child != null && !child.isNull()) {
                children.add(child);
            }
        }
        if (children.size() < 2) {
            throw construct("A set operation needs two queries.");
        }
        List<List<Col>> results = new ArrayList<>();
        boolean all = node.path("setop_all").asBoolean(false);
        for (JsonNode child : children) {
            results.add(node(child, outer, inner));
        }
        List<Col> out;
        if ("UNION_BY_NAME".equals(op)) {
            Map<String, Col> byName = new LinkedHashMap<>();
            for (List<Col> result : results) {
                for (Col c : result) {
                    byName.merge(fold(c.name()), c, ParseScope::combine);
                }
            }
            out = new ArrayList<>(byName.values());
        } else {
            out = new ArrayList<>(results.get(0));
            for (List<Col> result : results.subList(1, results.size())) {
                if (result.size() != out.size()) {
                    throw new GuardException(ErrorCode.QUERY_FAILED, "Each side of a set operation must have the same number of columns.");
                }
                for (int i = 0; i < out.size(); i++) {
                    Col a = out.get(i);
                    out.set(i, combine(a, result.get(i)));
                }
            }
        }
        Scope scope = new Scope(outer, new From(List.of(new Source("", Optional.empty(), out)), out), Map.of());
        visitModifiers(node, new ModifierContext(scope, inner, out));
        checkUnusedCtes(inner, env, outer);
        return out;
    }

    // ---------------------------------------------------------------- select list

    List<Col> star(JsonNode item, Scope scope, Ctes env) {
        state.visit(item);
        boolean narrowed = narrowedStars.contains(item);
        if (!narrowed) {
            requireEmptyStar(item, false);
        }
        List<Col> base = starBase(item, scope);
        Set<String> excluded = excluded(item, base);
        List<Col> out = new ArrayList<>();
        for (Col col : base) {
            if (excluded.contains(fold(col.name())) || narrowed && !state.visible(col)) {
                // left out by the query's EXCLUDE, or by the one naming each hidden column (expandStarsOverHiddenColumns)
                continue;
            }
            state.requireAllowed(col);
            state.record(col);
            out.add(col);
        }
        if (out.isEmpty()) {
            throw new GuardException(ErrorCode.QUERY_FAILED, "The * selects no column.");
        }
        return out;
    }

    /** The EXCLUDE names of a star: each must be a visible column it expands to, or it is refused like a missing one. */
    private Set<String> excluded(JsonNode star, List<Col> base) {
        Set<String> excluded = new LinkedHashSet<>();
        for (JsonNode name : array(star, "exclude_list")) {
            String column = name.isTextual() ? name.asText() : text(name, "name");
            Col col = findColumn(base, fold(column));
            if (col == null || !state.visible(col)) {
                throw Refusals.unknownColumn(column);
            }
            excluded.add(fold(column));
        }
        return excluded;
    }

    /** The columns a star expands to, before EXCLUDE. */
    private static List<Col> starBase(JsonNode item, Scope scope) {
        String relation = fold(item.path("relation_name").asText(""));
        if (relation.isEmpty()) {
            return scope.star;
        }
        List<Col> base = null;
        for (Source source : scope.sources) {
            if (source.alias().equals(relation)) {
                base = source.columns();
            }
        }
        if (base == null) {
            throw new GuardException(ErrorCode.UNKNOWN_COLUMN, "The query uses " + SafeText.identifier(relation) + ".* but no table has that name.");
        }
        return base;
    }

    /** Whether a visible column of {@code scope}'s FROM has the (folded) name {@code name}. */
    private boolean namesVisibleColumn(Scope scope, String name) {
        for (Source source : scope.sources) {
            for (Col col : source.columns()) {
                if (fold(col.name()).equals(name) && state.visible(col)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * A {@code *} over a table with columns the policy hides expands, in the tree that will run, to
     * the visible columns named one by one ({@code alias.column}): the result is the same whether or
     * not hidden columns exist, and DuckDB is left no column to add. Over a {@code USING} join the
     * merged keys cannot be named through one table (DuckDB takes a key from the left side, the right
     * one, or coalesces both, by join type), so the {@code *} stays and DuckDB expands it itself, told
     * by a qualified {@code EXCLUDE} to leave out each hidden column of each table by name
     * ({@link #excludeHidden}). A key is never hidden: {@code USING} a hidden column is refused as a
     * missing one.
     */
    private void expandStarsOverHiddenColumns(JsonNode node, Scope scope) {
        JsonNode list = node.get("select_list");
        if (!(list instanceof ArrayNode items)) {
            return;
        }
        for (int i = items.size() - 1; i >= 0; i--) {
            JsonNode item = items.get(i);
            if (!"STAR".equals(item.path("class").asText())) {
                continue;
            }
            requireEmptyStar(item, false);
            List<Col> base = starBase(item, scope);
            Set<String> excluded = excluded(item, base);
            if (base.stream().allMatch(state::visible)) {
                continue;
            }
            String relation = fold(item.path("relation_name").asText(""));
            List<Source> sources = new ArrayList<>();
            for (Source source : scope.sources) {
                if (relation.isEmpty() || source.alias().equals(relation)) {
                    sources.add(source);
                }
            }
            List<Col> columns = new ArrayList<>();
            sources.forEach(source -> columns.addAll(source.columns()));
            if (!columns.equals(base)) {
                // merged USING keys: the columns cannot all be named through one table
                excludeHidden((ObjectNode) item, sources);
                continue;
            }
            List<JsonNode> named = new ArrayList<>();
            for (Source source : sources) {
                for (Col col : source.columns()) {
                    if (!state.visible(col) || excluded.contains(fold(col.name()))) {
                        continue;
                    }
                    if (source.alias().isEmpty()) {
                        throw Refusals.hiddenColumnRead();
                    }
                    ObjectNode ref = JsonNodeFactory.instance.objectNode();
                    ref.put("class", "COLUMN_REF");
                    ref.put("type", "COLUMN_REF");
                    ref.put("alias", col.name());
                    ref.set("query_location", item.path("query_location"));
                    ref.put("query_location_length", 0);
                    ref.putArray("column_names").add(source.alias()).add(col.name());
                    named.add(ref);
                }
            }
            if (named.isEmpty()) {
                throw Refusals.hiddenColumnRead();
            }
            items.remove(i);
            for (int j = named.size() - 1; j >= 0; j--) {
                items.insert(i, named.get(j));
            }
        }
    }

    /**
     * Adds to a {@code *} (whose own qualified EXCLUDE list was checked to be empty) one qualified
     * EXCLUDE entry per hidden column of each table it expands, in the form DuckDB's parser gives
     * {@code * EXCLUDE (alias.column)}: DuckDB then expands the star as it would, minus exactly those
     * columns (measured on DuckDB 2.0.0: {@code SELECT * EXCLUDE (a.ssn) FROM a JOIN b USING (k)} is
     * {@code k, x, y, ssn} with {@code b.ssn} kept, for inner, left, right and full joins).
     */
    private void excludeHidden(ObjectNode star, List<Source> sources) {
        ArrayNode qualified = JsonNodeFactory.instance.arrayNode();
        for (Source source : sources) {
            for (Col col : source.columns()) {
                if (state.visible(col)) {
                    continue;
                }
                if (source.alias().isEmpty()) {
                    throw Refusals.hiddenColumnRead();
                }
                ObjectNode name = qualified.addObject();
                name.put("catalog", "");
                name.put("schema", "");
                name.put("table", source.alias());
                name.put("column", col.name());
            }
        }
        star.set("qualified_exclude_list", qualified);
        narrowedStars.add(star);
    }

    static void requireEmptyStar(JsonNode star, boolean allowColumns) {
        if (!star.path("replace_list").isEmpty() || !star.path("rename_list").isEmpty()
                || !star.path("qualified_exclude_list").isEmpty()
                || (star.path("columns").asBoolean(false) && !allowColumns)
                || (star.get("expr") != null && !star.get("expr").isNull())) {
            throw construct("COLUMNS(...), * REPLACE and * RENAME are not supported here; name the columns instead.");
        }
    }

    private static String outputName(JsonNode item) {
        String alias = item.path("alias").asText("");
        if (!alias.isEmpty()) {
            return alias;
        }
        if ("COLUMN_REF".equals(item.path("class").asText())) {
            JsonNode names = item.path("column_names");
            return names.get(names.size() - 1).asText();
        }
        if (item.has("function_name")) {
            return item.path("function_name").asText();
        }
        return "expr";
    }
}
