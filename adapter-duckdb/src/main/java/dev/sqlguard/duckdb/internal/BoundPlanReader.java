package dev.sqlguard.duckdb.internal;

import static dev.sqlguard.duckdb.internal.BoundExpressions.array;
import static dev.sqlguard.duckdb.internal.BoundExpressions.field;
import static dev.sqlguard.duckdb.internal.BoundExpressions.fold;
import static dev.sqlguard.duckdb.internal.BoundExpressions.number;
import static dev.sqlguard.duckdb.internal.BoundExpressions.text;
import static dev.sqlguard.duckdb.internal.BoundExpressions.unsupported;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.FlowStep;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.SafeText;
import dev.sqlguard.domain.UsePosition;

/**
 * Reads DuckDB's own bound logical plan of the statement that will run
 * ({@code json_serialize_plan(sql, optimize := false)}) and derives what the domain decides on: the
 * base tables and columns DuckDB reads, where each column's value is used (output, filter, join,
 * grouping, ordering, window, DISTINCT, set comparison, subquery predicate, row count) through which
 * steps, each output column's lineage, and every amplifying call. Nothing here resolves a name: the
 * plan's references are DuckDB's own decisions (whole-row references appear as {@code struct_pack}
 * of every column, select-list aliases and positions as the expressions they stand for).
 *
 * <p>Fail closed: an operator type sqlguard does not know is refused. Not thread-safe: one instance
 * per plan.
 */
final class BoundPlanReader {
    /** Rounds of fixpoint iteration for a recursive CTE before its lineage is taken as final. */
    static final int RECURSION_ROUNDS = 8;

    /** Table functions that list the catalog, which SHOW TABLES plans; accepted only for it. */
    private static final Set<String> SHOW_FUNCTIONS = Set.of("duckdb_tables", "duckdb_views", "pragma_show");

    private final DuckDbCatalog catalog;
    private final GuardrailPolicy policy;
    private final boolean showStatement;
    private final FixedPrograms programs;
    private final PlanFacts facts = new PlanFacts();
    private final BoundExpressions expressions;
    /** Output values by table binding index ({@code BOUND_COLUMN_REF}). */
    private final Map<Long, List<PlanValue>> bindings = new HashMap<>();
    /** Output values of CTE definitions by their table index ({@code LOGICAL_CTE_REF.cte_index}). */
    private final Map<Long, List<PlanValue>> ctes = new HashMap<>();

    /**
     * @param policy the policy whose decision on table functions applies to those the plan calls
     * @param inspection whether the checked statement is SHOW, DESCRIBE or SUMMARIZE, whose plans
     *     read constant chunks or the catalog
     * @param literalChars the length of the statement's text: the most its literals can hold, so a
     *     value larger than that was built by the query (a constant doubled through CTEs)
     * @param programs DuckDB's own plans of the SUMMARIZE-of-a-table programs the statement holds
     */
    BoundPlanReader(DuckDbCatalog catalog, GuardrailPolicy policy, Inspection inspection, int literalChars,
                    FixedPrograms programs) {
        this.expressions = new BoundExpressions(facts, literalChars);
        this.catalog = catalog;
        this.policy = policy;
        this.showStatement = inspection != Inspection.NONE;
        this.programs = programs;
    }

    BoundPlanReader(DuckDbCatalog catalog, GuardrailPolicy policy, Inspection inspection, int literalChars) {
        this(catalog, policy, inspection, literalChars, FixedPrograms.NONE);
    }

    /** The text of a statement whose plan is DuckDB's SUMMARIZE program over {@code table}: planned alone, see {@link FixedPrograms}. */
    static String summaryStatement(DuckDbCatalog.Table table) {
        return "SUMMARIZE " + quoted(table.database()) + "." + quoted(table.schema()) + "." + quoted(table.name());
    }

    private static String quoted(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    /**
     * Reads a {@code json_serialize_plan} document of one statement whose output columns are named
     * {@code names} (from the parse-tree check), or {@code null} when only its reads and uses matter.
     */
    PlanFacts read(JsonNode document, List<String> names) {
        if (document.path("error").asBoolean(true)) {
            throw bindError(document);
        }
        JsonNode plans = document.path("plans");
        if (!plans.isArray() || plans.size() != 1) {
            throw unsupported("statement count");
        }
        List<PlanValue> out = operator(plans.get(0));
        if (names != null && out.size() != names.size()) {
            throw unsupported("output width " + out.size() + " vs " + names.size());
        }
        for (int i = 0; i < out.size(); i++) {
            facts.output(names == null ? "column" + i : names.get(i), out.get(i));
        }
        return facts;
    }

    /** DuckDB's bind error for a function it does not have (scalar, aggregate, table or macro): its name. */
    private static final java.util.regex.Pattern UNKNOWN_FUNCTION = java.util.regex.Pattern.compile(
            "Function with name \"?([A-Za-z_][A-Za-z0-9_]*)\"? does not exist");

    /** A bind error of an accepted parse tree: DuckDB's text stays out of the message (a function's name aside, checked). */
    static GuardException bindError(JsonNode document) {
        String message = document.path("error_message").asText("");
        if (message.contains("Referenced column") || message.contains("not found in FROM clause")) {
            return new GuardException(ErrorCode.UNKNOWN_COLUMN, "The query names a column that does not exist or is not visible.");
        }
        if (message.contains("ambiguous")) {
            return new GuardException(ErrorCode.AMBIGUOUS_COLUMN);
        }
        java.util.regex.Matcher function = UNKNOWN_FUNCTION.matcher(message);
        if (function.find()) {
            // before the table test: "Scalar Function with name iif does not exist" is no table
            return new GuardException(ErrorCode.FUNCTION_NOT_ALLOWED, "The function " + SafeText.operation(function.group(1).toLowerCase(
                    java.util.Locale.ROOT)) + " does not exist on this source.");
        }
        if (message.contains("Table with name") || message.contains("does not exist")) {
            return new GuardException(ErrorCode.TABLE_NOT_ALLOWED, "The query names a table that is not an allowlisted table of this source.");
        }
        if (message.contains("lambda arrow")) {
            return new GuardException(ErrorCode.SYNTAX_ERROR, "Write lambdas as lambda x: expression (the arrow form x -> expression is no longer accepted).");
        }
        return new GuardException(ErrorCode.QUERY_FAILED, "The query could not be bound; check its column names and the types of its operands.");
    }

    // ---------------------------------------------------------------- operators

    private List<PlanValue> operator(JsonNode node) {
        if (!programs.isEmpty() && programs.matches(node)) {
            return fixedProgram(node);
        }
        return operatorOf(node);
    }

    private List<PlanValue> operatorOf(JsonNode node) {
        String type = text(node, "type");
        List<JsonNode> children = array(node, "children");
        return switch (type) {
            case "LOGICAL_PROJECTION" -> {
                List<PlanValue> input = only(children);
                List<PlanValue> out = new ArrayList<>();
                for (JsonNode e : array(node, "expressions")) {
                    out.add(computed(expressions.value(e, scope(input))));
                }
                yield bind(node, "table_index", out);
            }
            case "LOGICAL_FILTER" -> {
                List<PlanValue> input = only(children);
                for (JsonNode e : array(node, "expressions")) {
                    facts.use(expressions.value(e, scope(input)), UsePosition.FILTER);
                }
                yield project(input, array(node, "projection_map"));
            }
            case "LOGICAL_AGGREGATE_AND_GROUP_BY" -> aggregate(node, only(children));
            case "LOGICAL_WINDOW" -> {
                List<PlanValue> input = only(children);
                List<PlanValue> windows = new ArrayList<>();
                for (JsonNode e : array(node, "expressions")) {
                    windows.add(computed(expressions.window(e, scope(input))));
                }
                bind(node, "window_index", windows);
                yield concat(input, windows);
            }
            case "LOGICAL_UNNEST" -> {
                List<PlanValue> input = only(children);
                List<PlanValue> unnested = new ArrayList<>();
                for (JsonNode e : array(node, "expressions")) {
                    if (!"BOUND_UNNEST".equals(text(e, "expression_class"))) {
                        throw unsupported("unnest expression");
                    }
                    JsonNode child = field(e, "child");
                    PlanValue list = expressions.value(child, scope(input));
                    if (!isListConstructor(child)) {
                        // unnest of a list built from k arguments yields k rows whatever they hold (SUMMARIZE)
                        facts.use(list, UsePosition.ROW_COUNT);
                    }
                    unnested.add(computed(list.through(FlowStep.total("unnest"))));
                }
                bind(node, "unnest_index", unnested);
                yield concat(input, unnested);
            }
            case "LOGICAL_ORDER_BY" -> {
                List<PlanValue> input = only(children);
                for (JsonNode order : array(node, "orders")) {
                    facts.use(expressions.value(field(order, "expression"), scope(input)), UsePosition.ORDERING);
                }
                yield project(input, array(node, "projections"));
            }
            case "LOGICAL_LIMIT" -> {
                List<PlanValue> input = only(children);
                for (String bound : List.of("limit_val", "offset_val")) {
                    JsonNode expression = node.path(bound).get("expression");
                    if (expression != null && !expression.isNull()) {
                        facts.use(expressions.value(expression, scope(input)), UsePosition.ROW_COUNT);
                    }
                }
                yield input;
            }
            case "LOGICAL_SAMPLE" -> only(children);
            case "LOGICAL_DISTINCT" -> {
                List<PlanValue> input = only(children);
                for (JsonNode target : array(node, "distinct_targets")) {
                    facts.use(expressions.value(target, scope(input)), UsePosition.DISTINCT);
                }
                expressions.orders(node.get("order_by"), scope(input), UsePosition.ORDERING);
                yield input;
            }
            case "LOGICAL_COMPARISON_JOIN", "LOGICAL_ASOF_JOIN", "LOGICAL_DELIM_JOIN" -> join(node, children);
            case "LOGICAL_ANY_JOIN" -> {
                List<PlanValue> left = operator(child(children, 0));
                List<PlanValue> right = operator(child(children, 1));
                List<PlanValue> both = concat(left, right);
                facts.use(expressions.value(field(node, "condition"), scope(both)), joinPosition(text(node, "join_type")));
                yield joined(text(node, "join_type"), left, right, null);
            }
            case "LOGICAL_CROSS_PRODUCT", "LOGICAL_POSITIONAL_JOIN" -> {
                if (children.size() != 2) {
                    throw unsupported(type);
                }
                yield concat(operator(children.get(0)), operator(children.get(1)));
            }
            case "LOGICAL_UNION", "LOGICAL_EXCEPT", "LOGICAL_INTERSECT" -> setOperation(node, type, children);
            case "LOGICAL_MATERIALIZED_CTE" -> {
                if (children.size() != 2) {
                    throw unsupported(type);
                }
                // DuckDB plans a correlated subquery as a CTE of the distinct correlated values: grouping
                // by them there is the subquery's correlation, not a GROUP BY of the query
                boolean correlation = node.path("ctename").asText("").startsWith("__duckdb_delim");
                UsePosition saved = facts.override(correlation ? UsePosition.SUBQUERY_PREDICATE : null);
                List<PlanValue> definition;
                try {
                    definition = operator(children.get(0));
                } finally {
                    facts.override(saved);
                }
                ctes.put(number(node, "table_index"), definition);
                yield operator(children.get(1));
            }
            case "LOGICAL_CTE_REF" -> {
                List<PlanValue> cte = ctes.get(number(node, "cte_index"));
                if (cte == null) {
                    throw unsupported("reference to an unknown CTE");
                }
                yield bind(node, "table_index", cte);
            }
            case "LOGICAL_RECURSIVE_CTE" -> recursive(node, children);
            case "LOGICAL_DUMMY_SCAN" -> bind(node, "table_index", List.of(PlanValue.NONE));
            case "LOGICAL_EXPRESSION_GET" -> values(node, children);
            case "LOGICAL_GET" -> get(node, children);
            case "LOGICAL_EMPTY_RESULT" -> {
                List<PlanValue> out = new ArrayList<>();
                array(node, "return_types").forEach(t -> out.add(PlanValue.NONE));
                yield out;
            }
            case "LOGICAL_CHUNK_GET" -> {
                if (!showStatement) {
                    throw unsupported(type);
                }
                // DESCRIBE's constant rows: column names and types of a table the parse tree checked
                List<PlanValue> out = new ArrayList<>();
                array(node, "chunk_types").forEach(t -> out.add(PlanValue.FIXED));
                yield bind(node, "table_index", out);
            }
            default -> throw unsupported(type);
        };
    }

    /**
     * DuckDB's own SUMMARIZE program over a table: its inner uses are all outputs (every statistic
     * comes back, redacted wherever one derives from a sensitive column). What leaves it carries the
     * columns each statistic derives from, as if read directly: a statistic of a sensitive column is
     * that column to the query around it, which may output it but not filter, join, group or order
     * on it, nor compute on it.
     */
    private List<PlanValue> fixedProgram(JsonNode node) {
        List<PlanValue> inner;
        facts.enterFixedProgram();
        try {
            inner = operatorOf(node);
        } finally {
            facts.leaveFixedProgram();
        }
        List<PlanValue> out = new ArrayList<>(inner.size());
        for (PlanValue value : inner) {
            out.add(value.restarted(FlowStep.total("summarize")));
        }
        for (String index : List.of("table_index", "unnest_index", "aggregate_index")) {
            if (node.has(index) && bindings.get(node.get(index).asLong()) == inner) {
                bind(node, index, out);
            }
        }
        return out;
    }

    /**
     * A value an operator computes: even when no later operator reads it, computing it runs every
     * step it passed, so its flows are recorded as feeding an output (a partial step on a sensitive
     * value is refused wherever the value goes).
     */
    private PlanValue computed(PlanValue value) {
        facts.use(value, UsePosition.OUTPUT);
        return value;
    }

    private List<PlanValue> aggregate(JsonNode node, List<PlanValue> input) {
        List<PlanValue> groups = new ArrayList<>();
        for (JsonNode group : array(node, "groups")) {
            PlanValue value = expressions.value(group, scope(input));
            facts.use(value, UsePosition.GROUPING);
            groups.add(value);
        }
        List<PlanValue> aggregates = new ArrayList<>();
        for (JsonNode e : array(node, "expressions")) {
            aggregates.add(computed(expressions.aggregate(e, scope(input))));
        }
        List<PlanValue> groupings = new ArrayList<>();
        for (JsonNode ignored : array(node, "grouping_functions")) {
            groupings.add(PlanValue.FIXED); // GROUPING(...) tells which keys a row aggregates over, not their values
        }
        bind(node, "group_index", groups);
        bind(node, "aggregate_index", aggregates);
        if (!groupings.isEmpty()) {
            bind(node, "groupings_index", groupings);
        }
        return concat(concat(groups, aggregates), groupings);
    }

    private List<PlanValue> join(JsonNode node, List<JsonNode> children) {
        String joinType = text(node, "join_type");
        List<PlanValue> left = operator(child(children, 0));
        List<PlanValue> right = operator(child(children, 1));
        UsePosition position = joinPosition(joinType);
        List<PlanValue> compared = new ArrayList<>();
        for (JsonNode condition : array(node, "conditions")) {
            PlanValue l = expressions.value(field(condition, "left"), scope(left));
            PlanValue r = expressions.value(field(condition, "right"), scope(right));
            facts.use(l, position);
            facts.use(r, position);
            compared.add(l);
            compared.add(r);
        }
        JsonNode predicate = node.get("predicate");
        if (predicate != null && !predicate.isNull()) {
            facts.use(expressions.value(predicate, scope(concat(left, right))), position);
        }
        if (!array(node, "duplicate_eliminated_columns").isEmpty()) {
            throw unsupported("delim join");
        }
        PlanValue mark = PlanValue.merge(compared, true).through(FlowStep.partial("in")).withSize(PlanValue.Size.FIXED);
        List<PlanValue> out = joined(joinType, project(left, array(node, "left_projection_map")),
                project(right, array(node, "right_projection_map")), mark);
        return out;
    }

    private static UsePosition joinPosition(String joinType) {
        return switch (joinType) {
            case "MARK", "SEMI", "ANTI", "SINGLE", "RIGHT_SEMI", "RIGHT_ANTI" -> UsePosition.SUBQUERY_PREDICATE;
            default -> UsePosition.JOIN;
        };
    }

    private static List<PlanValue> joined(String joinType, List<PlanValue> left, List<PlanValue> right, PlanValue mark) {
        return switch (joinType) {
            case "INNER", "LEFT", "RIGHT", "OUTER", "FULL", "SINGLE" -> concat(left, right);
            case "SEMI", "ANTI" -> left;
            case "RIGHT_SEMI", "RIGHT_ANTI" -> right;
            case "MARK" -> {
                if (mark == null) {
                    throw unsupported("mark join");
                }
                yield concat(left, List.of(mark));
            }
            default -> throw unsupported("join type " + joinType);
        };
    }

    private List<PlanValue> setOperation(JsonNode node, String type, List<JsonNode> children) {
        if (children.size() < 2) {
            throw unsupported(type);
        }
        int width = (int) number(node, "column_count");
        boolean compares = !"LOGICAL_UNION".equals(type);
        List<List<PlanValue>> sides = new ArrayList<>();
        for (JsonNode child : children) {
            List<PlanValue> side = operator(child);
            if (side.size() != width) {
                throw unsupported("set operation width");
            }
            if (compares) {
                // INTERSECT and EXCEPT keep a row by comparing it with the other side's rows
                for (PlanValue value : side) {
                    facts.use(value, UsePosition.SET_COMPARISON);
                }
            }
            sides.add(side);
        }
        List<PlanValue> out = new ArrayList<>();
        for (int i = 0; i < width; i++) {
            List<PlanValue> column = new ArrayList<>();
            for (List<PlanValue> side : sides) {
                column.add(side.get(i));
            }
            out.add(PlanValue.merge(column, false));
        }
        return bind(node, "table_index", out);
    }

    /** WITH RECURSIVE: the anchor's columns, grown by the recursive part until they stop growing. */
    private List<PlanValue> recursive(JsonNode node, List<JsonNode> children) {
        if (children.size() != 2 || !array(node, "key_targets").isEmpty()) {
            throw unsupported("recursive CTE form");
        }
        long index = number(node, "table_index");
        List<PlanValue> current = operator(children.get(0));
        PlanValue.Size[] increments = null;
        for (int round = 0; round < RECURSION_ROUNDS; round++) {
            ctes.put(index, current);
            List<PlanValue> step = operator(children.get(1));
            if (step.size() != current.size()) {
                throw unsupported("recursive CTE width");
            }
            List<PlanValue> merged = new ArrayList<>();
            PlanValue.Size[] growth = new PlanValue.Size[current.size()];
            boolean grew = false;
            for (int i = 0; i < current.size(); i++) {
                PlanValue a = current.get(i);
                PlanValue m = PlanValue.merge(List.of(a, step.get(i)), false);
                growth[i] = new PlanValue.Size(step.get(i).size.abs() - a.size.abs(), step.get(i).size.rel() - a.size.rel());
                if (increments != null && (growth[i].abs() > increments[i].abs() || growth[i].rel() > increments[i].rel())) {
                    // each round adds more than the one before: the value doubles or worse, round after round
                    facts.amplification(dev.sqlguard.domain.Amplification.unbounded("with recursive"));
                }
                grew |= m.flows.size() != a.flows.size();
                merged.add(m);
            }
            current = merged;
            boolean steady = increments != null;
            increments = growth;
            if (!grew && steady) {
                // lineage is final, and values grow by at most the same amount per round (a path built level by level)
                break;
            }
        }
        if (!node.path("union_all").asBoolean(false)) {
            for (PlanValue value : current) {
                facts.use(value, UsePosition.SET_COMPARISON);
            }
        }
        ctes.put(index, current);
        return current;
    }

    private List<PlanValue> values(JsonNode node, List<JsonNode> children) {
        List<PlanValue> input = children.isEmpty() ? List.of() : only(children);
        List<List<PlanValue>> columns = new ArrayList<>();
        for (JsonNode row : array(node, "expressions")) {
            if (!row.isArray()) {
                throw unsupported("VALUES row");
            }
            for (int i = 0; i < row.size(); i++) {
                if (columns.size() <= i) {
                    columns.add(new ArrayList<>());
                }
                columns.get(i).add(computed(expressions.value(row.get(i), scope(input))));
            }
        }
        List<PlanValue> out = new ArrayList<>();
        for (List<PlanValue> column : columns) {
            out.add(PlanValue.merge(column, false));
        }
        return bind(node, "table_index", out);
    }

    /** A scan: of a base table (its columns are the data), or of a table function (its rows derive from its arguments). */
    private List<PlanValue> get(JsonNode node, List<JsonNode> children) {
        JsonNode data = node.path("function_data");
        List<JsonNode> columnIndexes = array(node, "column_indexes");
        List<String> names = new ArrayList<>();
        array(node, "names").forEach(n -> names.add(n.asText()));
        if (!nested(node, "table_filters", "filters").isEmpty() || !array(node, "named_parameters").isEmpty()) {
            throw unsupported("scan form");
        }
        List<PlanValue> columns = new ArrayList<>();
        if (data.has("table") && isSeqScan(node)) {
            if (!children.isEmpty()) {
                throw unsupported("scan form");
            }
            DuckDbCatalog.Table table = catalog.find(data.path("catalog").asText(""), data.path("schema").asText(""),
                    data.path("table").asText("")).orElseThrow(() -> unsupported("table outside the catalog"));
            facts.table(table.ref());
            List<JsonNode> types = array(node, "returned_types");
            for (JsonNode column : columnIndexes) {
                JsonNode index = column.get("index");
                if (isInvalid(index)) {
                    columns.add(PlanValue.FIXED); // rowid: the row's position, not its data
                    continue;
                }
                int i = (int) number(column, "index");
                if (i >= names.size() || !column.path("child_indexes").isEmpty()) {
                    throw unsupported("scan column");
                }
                ColumnRef ref = new ColumnRef(table.ref(), names.get(i));
                facts.read(ref);
                columns.add(PlanValue.column(ref, i < types.size() && BoundExpressions.fixedType(types.get(i))));
            }
        } else {
            String name = tableFunctionName(node);
            boolean listing = showStatement && SHOW_FUNCTIONS.contains(name);
            if (!listing) {
                policy.requireTableFunction(name);
            }
            facts.function(name);
            // the arguments (and any input rows) decide how many rows come back and what they hold
            List<PlanValue> inputs = children.isEmpty() ? List.of() : only(children);
            PlanValue derived = PlanValue.merge(inputs, true);
            facts.use(derived, UsePosition.ROW_COUNT);
            PlanValue value = derived.through(FlowStep.total(name)).withSize(PlanValue.Size.FIXED.plus(derived.size));
            for (JsonNode column : columnIndexes) {
                columns.add(isInvalid(column.get("index")) ? PlanValue.FIXED : value);
            }
            bind(node, "table_index", columns);
            List<JsonNode> projection = array(node, "projection_ids");
            // an in-out function hands the input columns it projects on, unchanged, after its own
            return concat(projection.isEmpty() ? columns : project(columns, projection),
                    project(inputs, array(node, "projected_input"), true));
        }
        bind(node, "table_index", columns);
        List<JsonNode> projection = array(node, "projection_ids");
        return projection.isEmpty() ? columns : project(columns, projection);
    }

    private static boolean isListConstructor(JsonNode e) {
        return "BOUND_FUNCTION".equals(e.path("expression_class").asText())
                && Set.of("list_value", "list_pack").contains(fold(e.path("qname").path("path").path(e.path("qname").path("path").size() - 1).asText("")));
    }

    private static boolean isSeqScan(JsonNode node) {
        JsonNode path = node.path("qname").path("path");
        return path.size() == 1 && "seq_scan".equals(path.get(0).asText());
    }

    private static String tableFunctionName(JsonNode node) {
        JsonNode path = node.path("qname").path("path");
        if (!path.isArray() || path.isEmpty()) {
            throw unsupported("table function name");
        }
        if (path.size() == 3 && !("system".equals(path.get(0).asText()) && "main".equals(path.get(1).asText()))) {
            throw new GuardException(ErrorCode.TABLE_FUNCTION_NOT_ALLOWED, "The query calls a table function outside DuckDB's built-in catalog.");
        }
        return fold(path.get(path.size() - 1).asText());
    }

    /** DuckDB's invalid index (2^64 - 1): rowid in a scan. */
    private static boolean isInvalid(JsonNode index) {
        return index != null && index.isBigInteger() && "18446744073709551615".equals(index.asText());
    }

    private static List<JsonNode> nested(JsonNode node, String first, String second) {
        JsonNode inner = node.path(first);
        return inner.isMissingNode() || inner.isNull() ? List.of() : BoundExpressions.array(inner, second);
    }

    // ---------------------------------------------------------------- plumbing

    private List<PlanValue> only(List<JsonNode> children) {
        if (children.size() != 1) {
            throw unsupported("operator arity");
        }
        return operator(children.get(0));
    }

    private static JsonNode child(List<JsonNode> children, int i) {
        if (children.size() != 2) {
            throw unsupported("operator arity");
        }
        return children.get(i);
    }

    private List<PlanValue> bind(JsonNode node, String indexField, List<PlanValue> values) {
        JsonNode index = node.get(indexField);
        if (index != null && index.canConvertToLong() && index.asLong() >= 0) {
            bindings.put(index.asLong(), values);
        }
        return values;
    }

    /** The columns a projection map keeps (all when it is empty). */
    private static List<PlanValue> project(List<PlanValue> input, List<JsonNode> map) {
        return project(input, map, false);
    }

    /** The columns a projection map keeps; an empty map keeps all, or none when {@code emptyKeepsNone}. */
    private static List<PlanValue> project(List<PlanValue> input, List<JsonNode> map, boolean emptyKeepsNone) {
        if (map.isEmpty()) {
            return emptyKeepsNone ? List.of() : input;
        }
        List<PlanValue> out = new ArrayList<>(map.size());
        for (JsonNode i : map) {
            if (!i.canConvertToLong() || i.asLong() < 0 || i.asLong() >= input.size()) {
                throw unsupported("projection map");
            }
            out.add(input.get((int) i.asLong()));
        }
        return out;
    }

    private static List<PlanValue> concat(List<PlanValue> a, List<PlanValue> b) {
        List<PlanValue> out = new ArrayList<>(a.size() + b.size());
        out.addAll(a);
        out.addAll(b);
        return out;
    }

    private BoundExpressions.Scope scope(List<PlanValue> input) {
        return new BoundExpressions.Scope() {
            @Override
            public PlanValue ref(int index) {
                if (index >= input.size()) {
                    throw unsupported("reference out of range");
                }
                return input.get(index);
            }

            @Override
            public PlanValue binding(long tableIndex, long columnIndex) {
                List<PlanValue> table = bindings.get(tableIndex);
                if (table == null || columnIndex >= table.size()) {
                    throw unsupported("unknown binding");
                }
                return table.get((int) columnIndex);
            }
        };
    }
}
