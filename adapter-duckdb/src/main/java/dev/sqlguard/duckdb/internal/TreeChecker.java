package dev.sqlguard.duckdb.internal;

import java.util.ArrayList;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.OutputColumn;
import dev.sqlguard.domain.Refusals;
import dev.sqlguard.domain.SafeText;
import dev.sqlguard.domain.Suggestions;
import dev.sqlguard.domain.TableRef;

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

    private static final Set<String> OPERATOR_TYPES = Set.of(
            "OPERATOR_NOT", "OPERATOR_IS_NULL", "OPERATOR_IS_NOT_NULL", "COMPARE_IN", "COMPARE_NOT_IN",
            "ARRAY_EXTRACT", "ARRAY_SLICE", "STRUCT_EXTRACT", "OPERATOR_COALESCE", "ARRAY_CONSTRUCTOR",
            "OPERATOR_TRY", "OPERATOR_NULLIF", "GROUPING_FUNCTION");

    private static final Set<String> COMPARISON_TYPES = Set.of(
            "COMPARE_EQUAL", "COMPARE_NOTEQUAL", "COMPARE_LESSTHAN", "COMPARE_GREATERTHAN",
            "COMPARE_LESSTHANOREQUALTO", "COMPARE_GREATERTHANOREQUALTO", "COMPARE_DISTINCT_FROM",
            "COMPARE_NOT_DISTINCT_FROM");

    /** The statistics SUMMARIZE reports after column_name and column_type, in DuckDB's order. */
    private static final List<String> SUMMARY_STATS = List.of(
            "min", "max", "approx_unique", "avg", "std", "q25", "q50", "q75", "count", "null_percentage");

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
    private record Source(String alias, Optional<DuckDbCatalog.Table> table, List<Col> columns) {
    }

    /** What a FROM clause binds: its sources, and the columns {@code *} expands to. */
    private record From(List<Source> sources, List<Col> star) {
        static final From EMPTY = new From(List.of(), List.of());
    }

    /** Name resolution context of one query level. */
    private static final class Scope {
        final Scope parent;
        final List<Source> sources;
        final List<Col> star;
        final Map<String, Lineage> selectAliases = new HashMap<>();
        final Map<String, Lineage> lambdaParameters;

        Scope(Scope parent, From from, Map<String, Lineage> lambdaParameters) {
            this.parent = parent;
            this.sources = from.sources();
            this.star = from.star();
            this.lambdaParameters = lambdaParameters;
        }
    }

    /** A CTE definition and its columns once analyzed. */
    private static final class Cte {
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

    private record Ctes(Ctes parent, Map<String, Cte> entries) {
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

    /** The outcome of a check. */
    record Result(Set<TableRef> tables, Set<ColumnRef> columns, Set<String> functions, List<OutputColumn> outputs,
                  int parameterCount, Inspection inspection) {
    }

    private final DuckDbCatalog catalog;
    private final Set<String> functions;
    private final Set<String> tableFunctions;
    private final boolean restricted;
    private final ConstantFolding folding;
    /** Whether the walk is inside a constant function call that {@link #folding} already checked. */
    private boolean insideConstant;

    private final IdentityHashMap<JsonNode, Boolean> visited = new IdentityHashMap<>();
    private final Set<TableRef> tables = new LinkedHashSet<>();
    private final Set<ColumnRef> columns = new LinkedHashSet<>();
    private final Set<String> calledFunctions = new TreeSet<>();
    private final Set<Integer> parameters = new TreeSet<>();
    /** Collectors of every column referenced while analyzing a subquery expression. */
    private final Deque<Set<ColumnRef>> referenceCollectors = new ArrayDeque<>();
    private int depth;
    /** What kind of schema inspection the statement is, if any. */
    private Inspection inspection = Inspection.NONE;

    TreeChecker(DuckDbCatalog catalog, Set<String> functions, Set<String> tableFunctions, boolean restricted, Limits limits) {
        this.folding = new ConstantFolding(limits);
        this.catalog = catalog;
        this.functions = functions;
        this.tableFunctions = tableFunctions;
        this.restricted = restricted;
    }

    /** Checks one statement ({@code {"node": ..., "named_param_map": ...}}). */
    Result check(JsonNode statement) {
        visit(statement);
        List<Col> out = node(field(statement, "node"), null, new Ctes(null, Map.of()));
        checkParameterMap(statement.path("named_param_map"));
        requireAllVisited(statement);
        List<OutputColumn> outputs = new ArrayList<>(out.size());
        for (Col col : out) {
            outputs.add(new OutputColumn(col.name(), col.lineage(), col.complete()));
        }
        int count = parameters.isEmpty() ? 0 : ((TreeSet<Integer>) parameters).last();
        return new Result(tables, columns, calledFunctions, outputs, count, inspection);
    }

    // ---------------------------------------------------------------- query nodes

    private List<Col> node(JsonNode node, Scope outer, Ctes env) {
        enter();
        try {
            visit(node);
            String type = text(node, "type");
            return switch (type) {
                case "SELECT_NODE" -> selectNode(node, outer, env);
                case "SET_OPERATION_NODE" -> setOperation(node, outer, env);
                default -> throw construct("The query uses a construct that is not supported here.");
            };
        } finally {
            depth--;
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
            JsonNode value = field(entry, "value");
            if (!value.path("key_targets").isEmpty() || !value.path("payload_aggregates").isEmpty()) {
                throw construct("This form of WITH is not supported here.");
            }
            entries.put(name, new Cte(value, inner));
        }
        return inner;
    }

    private List<Col> cteColumns(String name, Cte cte, Scope outer) {
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
        enter();
        try {
            visit(query);
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
            depth--;
        }
    }

    /** One column of two queries a set operation (or WITH RECURSIVE) stacks. */
    private static Col combine(Col a, Col b) {
        Lineage l = Lineage.of(a).plus(Lineage.of(b));
        return new Col(a.name(), l.refs(), l.complete(), null);
    }

    private static List<Col> rename(List<Col> cols, List<String> aliases) {
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

    private List<Col> selectNode(JsonNode node, Scope outer, Ctes env) {
        Ctes inner = withCtes(node, env);
        visit(node.path("cte_map"));
        From from = from(field(node, "from_table"), outer, inner);
        Scope scope = new Scope(outer, from, Map.of());
        List<Col> out = new ArrayList<>();
        expandStarsOverHiddenColumns(node, scope);
        for (JsonNode item : array(node, "select_list")) {
            if ("STAR".equals(item.path("class").asText())) {
                out.addAll(star(item, scope, inner));
                continue;
            }
            Lineage lineage = expression(item, scope, inner);
            String name = outputName(item);
            out.add(new Col(name, lineage.refs(), lineage.complete(), null));
            String alias = item.path("alias").asText("");
            if (!alias.isEmpty()) {
                scope.selectAliases.put(fold(alias), lineage);
            }
        }
        optionalExpression(node.get("where_clause"), scope, inner);
        for (JsonNode group : array(node, "group_expressions")) {
            expression(group, scope, inner);
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
        optionalExpression(node.get("having"), scope, inner);
        optionalExpression(node.get("qualify"), scope, inner);
        sample(node.get("sample"));
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
            visit(modifier);
            switch (text(modifier, "type")) {
                case "ORDER_MODIFIER" -> orders(modifier, context);
                case "LIMIT_MODIFIER", "LIMIT_PERCENT_MODIFIER" -> {
                    requireContext(context);
                    optionalExpression(modifier.get("limit"), context.scope(), context.env());
                    optionalExpression(modifier.get("offset"), context.scope(), context.env());
                }
                case "DISTINCT_MODIFIER" -> {
                    requireContext(context);
                    for (JsonNode target : array(modifier, "distinct_on_targets")) {
                        expression(target, context.scope(), context.env());
                    }
                }
                default -> throw construct("The query uses a clause that is not supported here.");
            }
        }
    }

    private static void requireContext(ModifierContext context) {
        if (context == null) {
            throw construct("The query uses a clause that is not supported here.");
        }
    }

    private void orders(JsonNode modifier, ModifierContext context) {
        for (JsonNode order : array(modifier, "orders")) {
            visit(order);
            requireContext(context);
            JsonNode expression = field(order, "expression");
            if ("STAR".equals(expression.path("class").asText())) {
                // ORDER BY ALL: sorts by the output columns, which were checked already
                requireEmptyStar(expression, true);
                visit(expression);
                continue;
            }
            expression(expression, context.scope(), context.env());
        }
    }

    private List<Col> setOperation(JsonNode node, Scope outer, Ctes env) {
        Ctes inner = withCtes(node, env);
        visit(node.path("cte_map"));
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
                    byName.merge(fold(c.name()), c, TreeChecker::combine);
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

    // ---------------------------------------------------------------- FROM

    private From from(JsonNode ref, Scope outer, Ctes env) {
        enter();
        try {
            visit(ref);
            sample(ref.get("sample"));
            String type = text(ref, "type");
            return switch (type) {
                case "EMPTY" -> From.EMPTY;
                case "BASE_TABLE" -> baseTable(ref, outer, env);
                case "JOIN" -> join(ref, outer, env);
                case "SUBQUERY" -> {
                    JsonNode subquery = field(ref, "subquery");
                    visit(subquery);
                    checkParameterMap(subquery.path("named_param_map"));
                    // a derived table: its columns carry their lineage to wherever the outer query uses them
                    List<Col> cols = rename(node(field(subquery, "node"), outer, env),
                            strings(ref.path("column_name_alias")));
                    yield single(ref.path("alias").asText(""), Optional.empty(), cols);
                }
                case "TABLE_FUNCTION" -> tableFunction(ref, outer, env);
                case "EXPRESSION_LIST" -> values(ref, outer, env);
                case "SHOW_REF" -> show(ref, outer, env);
                case "PIVOT" -> pivot(ref, outer, env);
                default -> throw construct("The query uses a FROM construct that is not supported here.");
            };
        } finally {
            depth--;
        }
    }

    private static From single(String alias, Optional<DuckDbCatalog.Table> table, List<Col> cols) {
        return new From(List.of(new Source(fold(alias), table, cols)), cols);
    }

    private From baseTable(JsonNode ref, Scope outer, Ctes env) {
        if (!ref.path("at_clause").isNull() && !ref.path("at_clause").isMissingNode()) {
            throw construct("AT (time travel) is not supported here.");
        }
        String catalogName = ref.path("catalog_name").asText("");
        String schema = ref.path("schema_name").asText("");
        String name = text(ref, "table_name");
        String alias = ref.path("alias").asText("");
        List<String> renames = strings(ref.path("column_name_alias"));
        boolean namesCte = catalogName.isEmpty() && schema.isEmpty() && env.find(fold(name)).isPresent();
        if (!renames.isEmpty() && restricted && !namesCte) {
            // renaming a table's columns by position would tell how many columns it has
            throw construct("Rename columns in the select list; a column-alias list on a table is not supported for this source.");
        }
        if (catalogName.isEmpty() && schema.isEmpty()) {
            Optional<Cte> cte = env.find(fold(name));
            if (cte.isPresent()) {
                List<Col> cols = rename(cteColumns(fold(name), cte.get(), outer), renames);
                return single(alias.isEmpty() ? name : alias, Optional.empty(), cols);
            }
        }
        Optional<DuckDbCatalog.Table> found = catalog.find(catalogName, schema, name);
        if (found.isEmpty() || !catalog.allowsTable(found.get())) {
            throw Refusals.unknownTable(name);
        }
        DuckDbCatalog.Table table = found.get();
        tables.add(table.ref());
        List<Col> cols = new ArrayList<>();
        for (DuckDbCatalog.Column column : table.columns()) {
            cols.add(new Col(column.name(), Set.of(new ColumnRef(table.ref(), column.name())), true, table));
        }
        cols = rename(cols, renames);
        return single(alias.isEmpty() ? table.name() : alias, Optional.of(table), cols);
    }

    private From join(JsonNode ref, Scope outer, Ctes env) {
        From left = from(field(ref, "left"), outer, env);
        // the right side may refer to the left one (LATERAL)
        Scope lateral = new Scope(outer, left, Map.of());
        From right = from(field(ref, "right"), lateral, env);
        String joinType = text(ref, "join_type");
        String refType = text(ref, "ref_type");
        if (!Set.of("INNER", "LEFT", "RIGHT", "OUTER", "FULL", "SEMI", "ANTI").contains(joinType)
                || !Set.of("REGULAR", "CROSS", "NATURAL", "ASOF", "POSITIONAL").contains(refType)) {
            throw new GuardException(ErrorCode.JOIN_NOT_ALLOWED, "This kind of join is not supported here.");
        }
        JsonNode ranking = ref.get("ranking_expression");
        if (ranking != null && !ranking.isNull()) {
            throw new GuardException(ErrorCode.JOIN_NOT_ALLOWED, "This kind of join is not supported here.");
        }
        if (!ref.path("duplicate_eliminated_columns").isEmpty()) {
            throw construct("Unexpected join form.");
        }
        List<Source> sources = new ArrayList<>(left.sources());
        sources.addAll(right.sources());
        From both = new From(sources, concat(left.star(), right.star()));
        optionalExpression(ref.get("condition"), new Scope(outer, both, Map.of()), env);
        Set<String> using = new LinkedHashSet<>();
        for (String column : strings(ref.path("using_columns"))) {
            using.add(fold(column));
            // each USING column must be a visible column of both sides, or it is refused like a missing one
            for (From side : List.of(left, right)) {
                Col col = findColumn(side.star(), fold(column));
                if (col == null || !visible(col)) {
                    throw Refusals.unknownColumn(column);
                }
            }
        }
        if ("NATURAL".equals(refType) && restricted) {
            // which columns a NATURAL join compares depends on columns an agent may not see
            throw new GuardException(ErrorCode.JOIN_NOT_ALLOWED,
                    "Name the join columns with USING (...) or ON; NATURAL joins are not supported for this source.");
        }
        if ("NATURAL".equals(refType)) {
            Set<String> leftNames = new LinkedHashSet<>();
            left.star().forEach(c -> leftNames.add(fold(c.name())));
            for (Col c : right.star()) {
                if (leftNames.contains(fold(c.name()))) {
                    using.add(fold(c.name()));
                }
            }
        }
        for (Col c : concat(left.star(), right.star())) {
            if (using.contains(fold(c.name()))) {
                record(c);
            }
        }
        if (Set.of("SEMI", "ANTI").contains(joinType)) {
            return new From(left.sources(), left.star());
        }
        if (using.isEmpty()) {
            return both;
        }
        List<Col> star = new ArrayList<>();
        for (Col c : left.star()) {
            if (using.contains(fold(c.name()))) {
                Lineage merged = Lineage.of(c);
                for (Col r : right.star()) {
                    if (fold(r.name()).equals(fold(c.name()))) {
                        merged = merged.plus(Lineage.of(r));
                    }
                }
                star.add(new Col(c.name(), merged.refs(), merged.complete(), c.table()));
            } else {
                star.add(c);
            }
        }
        for (Col c : right.star()) {
            if (!using.contains(fold(c.name()))) {
                star.add(c);
            }
        }
        return new From(sources, star);
    }

    private From tableFunction(JsonNode ref, Scope outer, Ctes env) {
        JsonNode function = field(ref, "function");
        visit(function);
        if (!"FUNCTION".equals(function.path("class").asText())) {
            throw construct("Unexpected table function form.");
        }
        String name = fold(text(function, "function_name"));
        if (!function.path("schema").asText("").isEmpty() || !function.path("catalog").asText("").isEmpty()
                || FunctionDefaults.isNever(name) || !tableFunctions.contains(name)) {
            throw new GuardException(ErrorCode.TABLE_FUNCTION_NOT_ALLOWED,
                    "The table function " + SafeText.identifier(name) + " is not allowlisted.");
        }
        calledFunctions.add(name);
        JsonNode orderBys = function.get("order_bys");
        if (orderBys != null && !orderBys.isNull()) {
            visit(orderBys);
            if (!orderBys.path("orders").isEmpty()) {
                throw construct("Unexpected table function form.");
            }
        }
        JsonNode filter = function.get("filter");
        if ((filter != null && !filter.isNull()) || function.path("distinct").asBoolean(false)
                || function.path("export_state").asBoolean(false)) {
            throw construct("Unexpected table function form.");
        }
        for (JsonNode argument : array(function, "arguments")) {
            if (!argument.path("name").asText("").isEmpty()) {
                throw new GuardException(ErrorCode.TABLE_FUNCTION_NOT_ALLOWED, "Named arguments of table functions are not allowed.");
            }
        }
        // the arguments decide how many rows the table function returns
        Lineage args = functionArguments(function, outer == null ? new Scope(null, From.EMPTY, Map.of()) : outer, env, false);
        String ordinality = ref.path("with_ordinality").asText("WITHOUT_ORDINALITY");
        List<Col> cols = new ArrayList<>();
        cols.add(Col.derived(name, args));
        if ("WITH_ORDINALITY".equals(ordinality)) {
            cols.add(Col.derived("ordinality", Lineage.EMPTY));
        } else if (!"WITHOUT_ORDINALITY".equals(ordinality)) {
            throw construct("Unexpected table function form.");
        }
        boolean knownShape = FunctionDefaults.TABLE_FUNCTIONS.contains(name);
        if (!knownShape) {
            cols.set(0, new Col(name, args.refs(), false, null));
        }
        cols = rename(cols, strings(ref.path("column_name_alias")));
        String alias = ref.path("alias").asText("");
        return single(alias.isEmpty() ? name : alias, Optional.empty(), cols);
    }

    private From values(JsonNode ref, Scope outer, Ctes env) {
        if (!ref.path("expected_names").isEmpty() || !ref.path("expected_types").isEmpty()) {
            throw construct("Unexpected VALUES form.");
        }
        Scope scope = outer == null ? new Scope(null, From.EMPTY, Map.of()) : outer;
        List<Lineage> byColumn = new ArrayList<>();
        for (JsonNode row : array(ref, "values")) {
            int i = 0;
            for (JsonNode value : row) {
                Lineage l = expression(value, scope, env);
                if (i < byColumn.size()) {
                    byColumn.set(i, byColumn.get(i).plus(l));
                } else {
                    byColumn.add(l);
                }
                i++;
            }
        }
        List<Col> cols = new ArrayList<>();
        for (int i = 0; i < byColumn.size(); i++) {
            cols.add(Col.derived("col" + i, byColumn.get(i)));
        }
        String alias = ref.path("alias").asText("");
        return single(alias, Optional.empty(), cols);
    }

    /**
     * PIVOT and UNPIVOT in FROM (the statement forms parse to these too). The columns named here
     * are the parse view, for resolving outer names and for the reads DuckDB's plan must agree
     * with: DuckDB plans a PIVOT as an aggregate with one FILTER per value, an UNPIVOT as an unnest.
     */
    private From pivot(JsonNode ref, Scope outer, Ctes env) {
        From source = from(field(ref, "source"), outer, env);
        Scope scope = new Scope(outer, source, Map.of());
        List<JsonNode> aggregates = new ArrayList<>();
        array(ref, "aggregates").forEach(aggregates::add);
        List<String> valueNames = strings(ref.path("unpivot_names"));
        List<JsonNode> pivots = new ArrayList<>();
        array(ref, "pivots").forEach(pivots::add);
        if (pivots.size() != 1) {
            throw construct("PIVOT over more than one set of columns is not supported here.");
        }
        JsonNode pivot = pivots.get(0);
        if (!pivot.path("pivot_enum").asText("").isEmpty()) {
            throw construct("PIVOT over an ENUM type is not supported here; list the values with IN (...).");
        }
        List<String> nameColumns = strings(pivot.path("unpivot_names"));
        Set<String> consumed = new LinkedHashSet<>();
        List<Col> out = new ArrayList<>();
        if (aggregates.isEmpty()) {
            // UNPIVOT: the listed columns become one name column and one value column per value name
            Lineage values = Lineage.EMPTY;
            for (JsonNode entry : array(pivot, "entries")) {
                visit(entry);
                JsonNode column = field(entry, "star_expr");
                if (!"COLUMN_REF".equals(column.path("class").asText()) || array(entry, "values").iterator().hasNext()) {
                    throw construct("UNPIVOT lists columns by name only here.");
                }
                values = values.plus(expression(column, scope, env));
                JsonNode parts = column.path("column_names");
                consumed.add(fold(parts.get(parts.size() - 1).asText()));
            }
            if (nameColumns.size() != 1 || valueNames.isEmpty()) {
                throw construct("This UNPIVOT form is not supported here.");
            }
            for (Col col : source.star()) {
                if (!consumed.contains(fold(col.name()))) {
                    out.add(col);
                }
            }
            out.add(Col.derived(nameColumns.get(0), Lineage.EMPTY));
            for (String value : valueNames) {
                out.add(Col.derived(value, values));
            }
        } else {
            if (!valueNames.isEmpty() || !nameColumns.isEmpty()) {
                throw construct("This PIVOT form is not supported here.");
            }
            Lineage pivotLineage = Lineage.EMPTY;
            for (JsonNode e : array(pivot, "pivot_expressions")) {
                pivotLineage = pivotLineage.plus(expression(e, scope, env));
                if ("COLUMN_REF".equals(e.path("class").asText())) {
                    JsonNode parts = e.path("column_names");
                    consumed.add(fold(parts.get(parts.size() - 1).asText()));
                }
            }
            Lineage aggregated = Lineage.EMPTY;
            List<String> aggregateNames = new ArrayList<>();
            for (JsonNode aggregate : aggregates) {
                aggregated = aggregated.plus(expression(aggregate, scope, env));
                for (JsonNode argument : array(aggregate, "arguments")) {
                    JsonNode arg = argument.path("expression");
                    if ("COLUMN_REF".equals(arg.path("class").asText())) {
                        JsonNode parts = arg.path("column_names");
                        consumed.add(fold(parts.get(parts.size() - 1).asText()));
                    }
                }
                aggregateNames.add(aggregate.path("alias").asText(""));
            }
            List<String> groups = strings(ref.path("groups"));
            if (groups.isEmpty()) {
                for (Col col : source.star()) {
                    if (!consumed.contains(fold(col.name()))) {
                        requireAllowed(col);
                        record(col);
                        out.add(col);
                    }
                }
            } else {
                for (String group : groups) {
                    Col col = findColumn(source.star(), fold(group));
                    if (col == null) {
                        throw Refusals.unknownColumn(group);
                    }
                    requireNamedVisible(col, List.of(group));
                    record(col);
                    out.add(col);
                }
            }
            Lineage values = aggregated.plus(pivotLineage);
            boolean suffixed = aggregates.size() > 1 || aggregateNames.stream().anyMatch(n -> !n.isEmpty());
            for (JsonNode entry : array(pivot, "entries")) {
                visit(entry);
                String entryName = entryName(entry, scope, env);
                for (int i = 0; i < aggregates.size(); i++) {
                    String suffix = aggregateNames.get(i).isEmpty() ? aggregates.get(i).path("function_name").asText("") : aggregateNames.get(i);
                    out.add(Col.derived(suffixed ? entryName + "_" + suffix : entryName, values));
                }
            }
        }
        List<Col> cols = rename(out, strings(ref.path("column_name_alias")));
        return single(ref.path("alias").asText(""), Optional.empty(), cols);
    }

    /** The column name a PIVOT value gets: its alias, else its literal text (several joined by '_'). */
    private String entryName(JsonNode entry, Scope scope, Ctes env) {
        String alias = entry.path("alias").asText("");
        List<String> texts = new ArrayList<>();
        List<JsonNode> values = new ArrayList<>();
        JsonNode star = entry.get("star_expr");
        if (star != null && !star.isNull()) {
            values.add(star);
        }
        for (JsonNode value : array(entry, "values")) {
            if (value.isObject()) {
                values.add(value);
            } else {
                visitSubtree(value);
                texts.add(value.path("value").asText(value.asText()));
            }
        }
        for (JsonNode value : values) {
            if (!"CONSTANT".equals(value.path("class").asText())) {
                throw construct("PIVOT ... IN lists constants only here.");
            }
            expression(value, scope, env);
            texts.add(value.path("literal").path("text").asText(""));
        }
        return alias.isEmpty() ? String.join("_", texts) : alias;
    }

    /** SHOW, DESCRIBE and SUMMARIZE: schema inspection of allowlisted tables and checked queries. */
    private From show(JsonNode ref, Scope outer, Ctes env) {
        String showType = text(ref, "show_type");
        String tableName = ref.path("table_name").asText("");
        JsonNode query = ref.get("query");
        inspection = "SUMMARY".equals(showType) && (query == null || query.isNull() || isWholeTable(query))
                ? Inspection.SUMMARY_OF_TABLE : Inspection.SCHEMA;
        List<Col> inspected;
        if (query != null && !query.isNull()) {
            inspected = node(query, outer, env);
        } else if ("SHOW_SPECIAL".equals(showType)) {
            if (restricted) {
                throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED,
                        "Listing every table is not allowed for this source; ask for the allowlisted schema instead.");
            }
            if ("\"tables\"".equals(tableName)) {
                return single("", Optional.empty(), metadata("name"));
            }
            if ("__show_tables_expanded".equals(tableName)) {
                return single("", Optional.empty(),
                        metadata("database", "schema", "name", "column_names", "column_types", "temporary"));
            }
            throw construct("This SHOW form is not supported here.");
        } else {
            Optional<DuckDbCatalog.Table> table = catalog.find(ref.path("catalog_name").asText(""),
                    ref.path("schema_name").asText(""), tableName);
            if (table.isEmpty() || !catalog.allowsTable(table.get())) {
                throw Refusals.unknownTable(tableName);
            }
            tables.add(table.get().ref());
            inspected = new ArrayList<>();
            for (DuckDbCatalog.Column column : table.get().columns()) {
                inspected.add(new Col(column.name(), Set.of(new ColumnRef(table.get().ref(), column.name())), true, table.get()));
            }
        }
        for (Col col : inspected) {
            requireAllowed(col);
        }
        switch (showType) {
            case "SHOW", "DESCRIBE" -> {
                return single("", Optional.empty(), metadata("column_name", "column_type", "null", "key", "default", "extra"));
            }
            case "SUMMARY" -> {
                Lineage all = Lineage.EMPTY;
                for (Col col : inspected) {
                    all = all.plus(Lineage.of(col));
                }
                List<Col> cols = new ArrayList<>(metadata("column_name", "column_type"));
                for (String stat : SUMMARY_STATS) {
                    cols.add(Col.derived(stat, all)); // every statistic derives from the values summarized
                }
                return single("", Optional.empty(), cols);
            }
            default -> throw construct("This SHOW form is not supported here.");
        }
    }

    /** Whether a query node is exactly {@code SELECT * FROM <table>} (how DuckDB parses SUMMARIZE of a table). */
    private static boolean isWholeTable(JsonNode query) {
        JsonNode list = query.path("select_list");
        JsonNode from = query.path("from_table");
        return "SELECT_NODE".equals(query.path("type").asText()) && list.size() == 1
                && "STAR".equals(list.get(0).path("class").asText()) && list.get(0).path("relation_name").asText("").isEmpty()
                && list.get(0).path("exclude_list").isEmpty() && list.get(0).path("replace_list").isEmpty()
                && list.get(0).path("rename_list").isEmpty() && !list.get(0).path("columns").asBoolean(false)
                && (list.get(0).get("expr") == null || list.get(0).get("expr").isNull())
                && "BASE_TABLE".equals(from.path("type").asText()) && from.path("column_name_alias").isEmpty()
                && query.path("modifiers").isEmpty() && query.path("cte_map").path("map").isEmpty()
                && query.path("group_expressions").isEmpty() && isNullField(query, "where_clause")
                && isNullField(query, "having") && isNullField(query, "qualify") && isNullField(query, "sample")
                && isNullField(from, "sample") && isNullField(from, "at_clause");
    }

    private static boolean isNullField(JsonNode node, String name) {
        JsonNode value = node.get(name);
        return value == null || value.isNull();
    }

    private static List<Col> metadata(String... names) {
        List<Col> cols = new ArrayList<>();
        for (String name : names) {
            cols.add(Col.derived(name, Lineage.EMPTY));
        }
        return cols;
    }

    private void sample(JsonNode sample) {
        if (sample == null || sample.isNull()) {
            return;
        }
        Set<String> known = Set.of("sample_size", "is_percentage", "method", "seed", "repeatable", "sample_rate");
        for (Iterator<String> it = sample.fieldNames(); it.hasNext(); ) {
            if (!known.contains(it.next())) {
                throw construct("Unexpected SAMPLE form.");
            }
        }
        JsonNode size = field(sample, "sample_size");
        if (!size.path("value").isNumber()) {
            throw construct("Unexpected SAMPLE form.");
        }
        visitSubtree(sample);
    }

    // ---------------------------------------------------------------- select list

    private List<Col> star(JsonNode item, Scope scope, Ctes env) {
        visit(item);
        requireEmptyStar(item, false);
        List<Col> base = starBase(item, scope);
        Set<String> excluded = excluded(item, base);
        List<Col> out = new ArrayList<>();
        for (Col col : base) {
            if (excluded.contains(fold(col.name()))) {
                continue;
            }
            requireAllowed(col);
            record(col);
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
            if (col == null || !visible(col)) {
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

    /**
     * A {@code *} over a table with columns the policy hides expands, in the tree that will run, to
     * the visible columns named one by one ({@code alias.column}): the result is the same whether or
     * not hidden columns exist, and DuckDB is left no column to add.
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
            if (base.stream().allMatch(this::visible)) {
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
                throw Refusals.hiddenColumnRead();
            }
            List<JsonNode> named = new ArrayList<>();
            for (Source source : sources) {
                for (Col col : source.columns()) {
                    if (!visible(col) || excluded.contains(fold(col.name()))) {
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

    private static void requireEmptyStar(JsonNode star, boolean allowColumns) {
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

    // ---------------------------------------------------------------- expressions

    private void optionalExpression(JsonNode node, Scope scope, Ctes env) {
        if (node != null && !node.isNull()) {
            expression(node, scope, env);
        }
    }

    private Lineage expression(JsonNode node, Scope scope, Ctes env) {
        enter();
        try {
            visit(node);
            String cls = text(node, "class");
            String type = text(node, "type");
            return switch (cls) {
                case "COLUMN_REF" -> columnRef(node, scope);
                case "CONSTANT" -> {
                    if (!"VALUE_CONSTANT".equals(type)) {
                        throw construct("Unexpected constant.");
                    }
                    yield Lineage.EMPTY;
                }
                case "PARAMETER" -> parameter(node);
                case "FUNCTION" -> function(node, scope, env);
                case "WINDOW" -> window(node, scope, env);
                case "CASE" -> {
                    Lineage l = Lineage.EMPTY;
                    for (JsonNode check : array(node, "case_checks")) {
                        l = l.plus(expression(field(check, "when_expr"), scope, env));
                        l = l.plus(expression(field(check, "then_expr"), scope, env));
                    }
                    JsonNode otherwise = node.get("else_expr");
                    yield otherwise == null || otherwise.isNull() ? l : l.plus(expression(otherwise, scope, env));
                }
                case "CAST" -> {
                    castType(field(node, "type_expr"), scope, env);
                    yield expression(field(node, "child"), scope, env);
                }
                case "COMPARISON" -> {
                    if (!COMPARISON_TYPES.contains(type)) {
                        throw construct("Unexpected comparison.");
                    }
                    yield expression(field(node, "left"), scope, env).plus(expression(field(node, "right"), scope, env));
                }
                case "CONJUNCTION" -> {
                    if (!Set.of("CONJUNCTION_AND", "CONJUNCTION_OR").contains(type)) {
                        throw construct("Unexpected conjunction.");
                    }
                    yield children(node, scope, env);
                }
                case "OPERATOR" -> {
                    if (!OPERATOR_TYPES.contains(type)) {
                        throw construct("The query uses an operator that is not supported here.");
                    }
                    yield children(node, scope, env);
                }
                case "BETWEEN" -> expression(field(node, "input"), scope, env)
                        .plus(expression(field(node, "lower"), scope, env))
                        .plus(expression(field(node, "upper"), scope, env));
                case "SUBQUERY" -> subquery(node, scope, env);
                case "COLLATE" -> expression(field(node, "child"), scope, env);
                case "POSITIONAL_REFERENCE" -> {
                    if (restricted) {
                        // a position past a hidden column would tell that the column exists
                        throw construct("Refer to columns by name; #n positions are not supported for this source.");
                    }
                    // DuckDB counts every column of every joined table, a USING key twice
                    List<Col> all = new ArrayList<>();
                    scope.sources.forEach(source -> all.addAll(source.columns()));
                    int index = field(node, "index").asInt(0);
                    if (index < 1 || index > all.size()) {
                        throw Refusals.hiddenColumnRead();
                    }
                    Col col = all.get(index - 1);
                    requireAllowed(col);
                    record(col);
                    yield Lineage.of(col);
                }
                case "STAR" -> {
                    requireEmptyStar(node, false);
                    Lineage l = Lineage.EMPTY;
                    for (Col col : star(node, scope, env)) {
                        l = l.plus(Lineage.of(col));
                    }
                    yield l;
                }
                default -> throw construct("The query uses an expression that is not supported here.");
            };
        } finally {
            depth--;
        }
    }

    private Lineage children(JsonNode node, Scope scope, Ctes env) {
        Lineage l = Lineage.EMPTY;
        for (JsonNode child : array(node, "children")) {
            l = l.plus(expression(child, scope, env));
        }
        return l;
    }

    private void castType(JsonNode type, Scope scope, Ctes env) {
        visit(type);
        if (!"TYPE".equals(type.path("class").asText())) {
            throw construct("Unexpected CAST form.");
        }
        for (JsonNode child : array(type, "children")) {
            if (child.has("class")) {
                Lineage l = expression(child, scope, env);
                if (!l.refs().isEmpty()) {
                    throw construct("Unexpected CAST form.");
                }
            } else {
                castType(child, scope, env);
            }
        }
    }

    private Lineage parameter(JsonNode node) {
        if (!"VALUE_PARAMETER".equals(text(node, "type"))) {
            throw construct("Unexpected parameter form.");
        }
        String identifier = text(node, "identifier");
        int index;
        try {
            index = Integer.parseInt(identifier);
        } catch (NumberFormatException e) {
            throw new GuardException(ErrorCode.UNSUPPORTED_PARAMETER, "Use ? or $1, $2, ... for parameters; named parameters are not supported.");
        }
        if (index < 1 || index > 1000) {
            throw new GuardException(ErrorCode.UNSUPPORTED_PARAMETER, "Parameter numbers must be between 1 and 1000.");
        }
        parameters.add(index);
        return Lineage.EMPTY;
    }

    private void checkParameterMap(JsonNode map) {
        if (map.isMissingNode() || map.isNull()) {
            return;
        }
        for (JsonNode entry : map) {
            try {
                Integer.parseInt(entry.path("key").asText(""));
            } catch (NumberFormatException e) {
                throw new GuardException(ErrorCode.UNSUPPORTED_PARAMETER, "Use ? or $1, $2, ... for parameters; named parameters are not supported.");
            }
        }
    }

    private Lineage function(JsonNode node, Scope scope, Ctes env) {
        if (!"FUNCTION".equals(text(node, "type"))) {
            throw construct("Unexpected function form.");
        }
        String name = fold(text(node, "function_name"));
        boolean operator = node.path("is_operator").asBoolean(false);
        if (!node.path("schema").asText("").isEmpty() || !node.path("catalog").asText("").isEmpty()) {
            throw new GuardException(ErrorCode.FUNCTION_NOT_ALLOWED, "Call functions without a schema or catalog name.");
        }
        if (operator) {
            if (!FunctionDefaults.OPERATORS.contains(name)) {
                throw new GuardException(ErrorCode.FUNCTION_NOT_ALLOWED, "The query uses an operator that is not allowed.");
            }
        } else {
            requireFunction(name);
        }
        if (node.path("export_state").asBoolean(false)) {
            throw construct("EXPORT_STATE is not supported here.");
        }
        boolean outermostConstant = !insideConstant && ConstantFolding.isConstant(node, scope.lambdaParameters.keySet());
        if (!outermostConstant) {
            return functionBody(node, scope, env);
        }
        // DuckDB's binder may evaluate this call while it binds: bound its cost first
        folding.check(node);
        insideConstant = true;
        try {
            return functionBody(node, scope, env);
        } finally {
            insideConstant = false;
        }
    }

    private Lineage functionBody(JsonNode node, Scope scope, Ctes env) {
        Lineage l = functionArguments(node, scope, env, true);
        JsonNode filter = node.get("filter");
        if (filter != null && !filter.isNull()) {
            l = l.plus(expression(filter, scope, env));
        }
        JsonNode orderBys = node.get("order_bys");
        if (orderBys != null && !orderBys.isNull()) {
            visit(orderBys);
            if (!"ORDER_MODIFIER".equals(text(orderBys, "type"))) {
                throw construct("Unexpected function form.");
            }
            for (JsonNode order : array(orderBys, "orders")) {
                visit(order);
                l = l.plus(expression(field(order, "expression"), scope, env));
            }
        }
        return l;
    }

    private void requireFunction(String called) {
        // count(*) parses as count_star: it is the function count
        String name = "count_star".equals(called) ? "count" : called;
        if (FunctionDefaults.isNever(name) || !functions.contains(name)) {
            throw new GuardException(ErrorCode.FUNCTION_NOT_ALLOWED, "The function " + SafeText.identifier(name)
                    + " is not allowlisted." + Suggestions.didYouMean(name, functions));
        }
        calledFunctions.add(name);
    }

    /** The arguments of a function; a lambda's parameters stand for the values of the other arguments. */
    private Lineage functionArguments(JsonNode function, Scope scope, Ctes env, boolean lambdasAllowed) {
        Lineage plain = Lineage.EMPTY;
        List<JsonNode> lambdas = new ArrayList<>();
        for (JsonNode argument : array(function, "arguments")) {
            JsonNode expression = field(argument, "expression");
            if ("LAMBDA".equals(expression.path("class").asText())) {
                if (!lambdasAllowed) {
                    throw construct("Unexpected lambda.");
                }
                lambdas.add(expression);
            } else {
                plain = plain.plus(expression(expression, scope, env));
            }
        }
        Lineage l = plain;
        for (JsonNode lambda : lambdas) {
            l = l.plus(lambda(lambda, plain, scope, env));
        }
        return l;
    }

    private Lineage lambda(JsonNode lambda, Lineage parameterLineage, Scope scope, Ctes env) {
        enter();
        try {
            visit(lambda);
            JsonNode lhs = field(lambda, "lhs");
            visit(lhs);
            List<JsonNode> names = new ArrayList<>();
            if ("COLUMN_REF".equals(lhs.path("class").asText())) {
                names.add(lhs);
            } else if ("FUNCTION".equals(lhs.path("class").asText()) && "row".equals(lhs.path("function_name").asText())) {
                if (!lhs.path("order_bys").isMissingNode()) {
                    visit(lhs.get("order_bys"));
                }
                for (JsonNode argument : array(lhs, "arguments")) {
                    names.add(field(argument, "expression"));
                }
            } else {
                throw construct("Unexpected lambda form.");
            }
            Map<String, Lineage> parameters = new HashMap<>(scope.lambdaParameters);
            for (JsonNode name : names) {
                visit(name);
                JsonNode parts = name.path("column_names");
                if (!"COLUMN_REF".equals(name.path("class").asText()) || parts.size() != 1) {
                    throw construct("Unexpected lambda form.");
                }
                parameters.put(fold(parts.get(0).asText()), parameterLineage);
            }
            Scope inner = new Scope(scope, new From(scope.sources, scope.star), parameters);
            inner.selectAliases.putAll(scope.selectAliases);
            return expression(field(lambda, "expr"), inner, env);
        } finally {
            depth--;
        }
    }

    private Lineage window(JsonNode node, Scope scope, Ctes env) {
        String name = fold(text(node, "function_name"));
        if (!node.path("schema").asText("").isEmpty() || !node.path("catalog").asText("").isEmpty()) {
            throw new GuardException(ErrorCode.FUNCTION_NOT_ALLOWED, "Call functions without a schema or catalog name.");
        }
        requireFunction(name);
        Lineage l = functionArguments(node, scope, env, false);
        for (JsonNode child : array(node, "children")) {
            l = l.plus(expression(child, scope, env));
        }
        for (JsonNode partition : array(node, "partitions")) {
            l = l.plus(expression(partition, scope, env));
        }
        for (String orderField : List.of("orders", "arg_orders")) {
            for (JsonNode order : array(node, orderField)) {
                visit(order);
                l = l.plus(expression(field(order, "expression"), scope, env));
            }
        }
        for (String f : List.of("start_expr", "end_expr", "offset_expr", "default_expr", "filter_expr")) {
            JsonNode e = node.get(f);
            if (e != null && !e.isNull()) {
                l = l.plus(expression(e, scope, env));
            }
        }
        return l;
    }

    private Lineage subquery(JsonNode node, Scope scope, Ctes env) {
        String kind = text(node, "subquery_type");
        if (!Set.of("SCALAR", "EXISTS", "NOT_EXISTS", "ANY").contains(kind)) {
            throw construct("This kind of subquery is not supported here.");
        }
        Lineage l = Lineage.EMPTY;
        JsonNode child = node.get("child");
        if (child != null && !child.isNull()) {
            l = l.plus(expression(child, scope, env));
        }
        JsonNode statement = field(node, "subquery");
        visit(statement);
        checkParameterMap(statement.path("named_param_map"));
        // the value of a subquery depends on every column it reads, filters included
        Set<ColumnRef> collector = new LinkedHashSet<>();
        referenceCollectors.push(collector);
        List<Col> out;
        try {
            out = node(field(statement, "node"), scope, env);
        } finally {
            referenceCollectors.pop();
        }
        for (Set<ColumnRef> outerCollector : referenceCollectors) {
            outerCollector.addAll(collector);
        }
        for (Col col : out) {
            l = l.plus(Lineage.of(col));
        }
        return l.plus(new Lineage(collector, true));
    }

    // ---------------------------------------------------------------- column resolution

    private Lineage columnRef(JsonNode node, Scope scope) {
        if (!"COLUMN_REF".equals(text(node, "type"))) {
            throw construct("Unexpected column reference.");
        }
        List<String> parts = new ArrayList<>();
        for (JsonNode part : array(node, "column_names")) {
            parts.add(fold(part.asText()));
        }
        if (parts.isEmpty()) {
            throw construct("Unexpected column reference.");
        }
        for (Scope s = scope; s != null; s = s.parent) {
            Lineage found = resolveIn(s, parts);
            if (found != null) {
                return found;
            }
        }
        if (parts.size() == 1 && FunctionDefaults.SQL_VALUE_NAMES.contains(parts.get(0))) {
            return Lineage.EMPTY;
        }
        throw Refusals.unknownColumn(String.join(".", parts));
    }

    private Lineage resolveIn(Scope scope, List<String> parts) {
        if (parts.size() == 1 && scope.lambdaParameters.containsKey(parts.get(0))) {
            return scope.lambdaParameters.get(parts.get(0));
        }
        // qualified: [alias, column, fields...], [schema, table, column, ...], [catalog, schema, table, column, ...]
        for (int prefix = Math.min(3, parts.size() - 1); prefix >= 1; prefix--) {
            String column = parts.get(prefix);
            for (Source source : scope.sources) {
                if (matches(source, parts.subList(0, prefix))) {
                    Col col = findColumn(source.columns(), column);
                    if (col != null) {
                        requireNamedVisible(col, parts);
                        record(col);
                        return Lineage.of(col);
                    }
                }
            }
        }
        // unqualified: [column, fields...]
        String column = parts.get(0);
        Lineage found = null;
        for (Source source : scope.sources) {
            Col col = findColumn(source.columns(), column);
            if (col != null) {
                requireNamedVisible(col, parts);
                record(col);
                found = found == null ? Lineage.of(col) : found.plus(Lineage.of(col));
            }
        }
        if (found != null) {
            return found;
        }
        if (parts.size() == 1 && scope.selectAliases.containsKey(column)) {
            return scope.selectAliases.get(column);
        }
        return null;
    }

    private static boolean matches(Source source, List<String> qualifier) {
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

    private static Col findColumn(List<Col> cols, String name) {
        Col found = null;
        for (Col col : cols) {
            if (fold(col.name()).equals(name)) {
                found = found == null ? col : Col.derived(found.name(), Lineage.of(found).plus(Lineage.of(col)));
            }
        }
        return found;
    }

    /** A column the query names: one it may not see is refused exactly like one that does not exist. */
    private void requireNamedVisible(Col col, List<String> parts) {
        if (!visible(col)) {
            throw Refusals.unknownColumn(String.join(".", parts));
        }
    }

    /** A column the query reads without naming it ({@code *}, {@code #n}, DESCRIBE): the refusal names no column. */
    private void requireAllowed(Col col) {
        if (!visible(col)) {
            throw Refusals.hiddenColumnRead();
        }
    }

    private boolean visible(Col col) {
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

    private void record(Col col) {
        columns.addAll(col.lineage());
        for (Set<ColumnRef> collector : referenceCollectors) {
            collector.addAll(col.lineage());
        }
    }

    // ---------------------------------------------------------------- fail-closed bookkeeping

    private void visit(JsonNode node) {
        if (node != null && node.isObject()) {
            visited.put(node, Boolean.TRUE);
        }
    }

    private void visitSubtree(JsonNode node) {
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

    private void enter() {
        if (++depth > MAX_DEPTH) {
            throw new GuardException(ErrorCode.QUERY_TOO_COMPLEX, "The query is nested too deeply.");
        }
    }

    private static Iterable<JsonNode> array(JsonNode node, String name) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            return List.of();
        }
        if (!value.isArray()) {
            throw construct("Unexpected tree shape.");
        }
        return value;
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array == null || array.isMissingNode() || array.isNull()) {
            return out;
        }
        for (JsonNode value : array) {
            if (!value.isTextual()) {
                throw construct("Unexpected tree shape.");
            }
            out.add(value.asText());
        }
        return out;
    }

    private static JsonNode field(JsonNode node, String name) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            throw construct("Unexpected tree shape.");
        }
        return value;
    }

    private static String text(JsonNode node, String name) {
        JsonNode value = node.get(name);
        if (value == null || !value.isTextual()) {
            throw construct("Unexpected tree shape.");
        }
        return value.asText();
    }

    private static String fold(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    private static GuardException construct(String message) {
        return new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, message);
    }

    private static List<Col> concat(List<Col> a, List<Col> b) {
        List<Col> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
