package dev.sqlguard.duckdb.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.sqlguard.domain.Amplification;
import dev.sqlguard.domain.CostClass;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.FlowStep;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.SafeText;
import dev.sqlguard.domain.UsePosition;
import dev.sqlguard.duckdb.internal.PlanValue.Size;

/**
 * Reads the expressions of DuckDB's bound plan: every reference is already resolved by DuckDB's
 * binder (a position in the child operator's output, or a table binding), every implicit cast and
 * collation is explicit, and every function is the one DuckDB chose. Each expression becomes a
 * {@link PlanValue}: the flows of the base columns it derives from, each through the steps it
 * passed, and how large it can be. Uses inside an expression (an aggregate's FILTER and ORDER BY, a
 * window's partitions and orders, unnest's row count) are recorded as they are met.
 *
 * <p>Fail closed: an expression class, operator type or function sqlguard does not know is refused.
 */
final class BoundExpressions {
    /** Resolves the references of one operator's expressions. */
    interface Scope {
        /** The value of position {@code index} of the child output ({@code BOUND_REF}). */
        PlanValue ref(int index);

        /** The value of a table binding ({@code BOUND_COLUMN_REF}). */
        PlanValue binding(long tableIndex, long columnIndex);
    }

    /** Types whose values have a fixed width, whatever their inputs. */
    private static final Set<String> FIXED_TYPES = Set.of("BOOLEAN", "TINYINT", "SMALLINT", "INTEGER", "BIGINT",
            "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT", "FLOAT", "DOUBLE", "DECIMAL",
            "DATE", "TIME", "TIME_NS", "TIMESTAMP", "TIMESTAMP_S", "TIMESTAMP_MS", "TIMESTAMP_NS", "TIMESTAMP WITH TIME ZONE", "TIMESTAMPTZ_NS",
            "TIME WITH TIME ZONE", "INTERVAL", "UUID", "SQLNULL");

    /** Window functions by the plan's expression type. */
    private static final java.util.Map<String, String> WINDOW_NAMES = java.util.Map.ofEntries(
            java.util.Map.entry("WINDOW_ROW_NUMBER", "row_number"), java.util.Map.entry("WINDOW_RANK", "rank"),
            java.util.Map.entry("WINDOW_RANK_DENSE", "dense_rank"), java.util.Map.entry("WINDOW_PERCENT_RANK", "percent_rank"),
            java.util.Map.entry("WINDOW_CUME_DIST", "cume_dist"), java.util.Map.entry("WINDOW_NTILE", "ntile"),
            java.util.Map.entry("WINDOW_LAG", "lag"), java.util.Map.entry("WINDOW_LEAD", "lead"),
            java.util.Map.entry("WINDOW_FIRST_VALUE", "first_value"), java.util.Map.entry("WINDOW_LAST_VALUE", "last_value"),
            java.util.Map.entry("WINDOW_NTH_VALUE", "nth_value"));


    private final PlanFacts facts;
    private final int literalChars;
    /** Inside lambda bodies: how large the element of each enclosing lambda can be, innermost first. */
    private final java.util.Deque<Size> elements = new java.util.ArrayDeque<>();
    /** Inside lambda bodies: the work one application of each enclosing body does, innermost first. */
    private final java.util.Deque<Size[]> work = new java.util.ArrayDeque<>();

    /** Calls whose work does not grow with their argument: a list's length, one element or field picked. */
    private static final Set<String> CONSTANT_WORK = Set.of("len", "length", "array_length", "cardinality", "list_extract",
            "list_element", "array_extract", "struct_extract", "struct_extract_at", "element_at", "typeof");

    /** Aggregates that collect their inputs into one value: it grows with the rows, like a value read from the data. */
    private static final Set<String> COLLECTING = Set.of("list", "array_agg", "string_agg", "group_concat", "listagg",
            "histogram", "histogram_exact");

    /**
     * Functions in the plan need a cost class, not a place on the policy's list: the parse-tree check
     * already held every name the query wrote to the list, and the others are what DuckDB's binder
     * inserted (casts, collations, whole-row {@code struct_pack}) or an allowlisted macro expands to.
     */
    BoundExpressions(PlanFacts facts, int literalChars) {
        this.facts = facts;
        this.literalChars = literalChars;
    }

    /** The value of one scalar expression (aggregates and windows only where their operator allows them). */
    PlanValue value(JsonNode e, Scope scope) {
        String cls = text(e, "expression_class");
        return switch (cls) {
            case "BOUND_REF" -> scope.ref(index(e, "index"));
            case "BOUND_COLUMN_REF" -> {
                JsonNode binding = field(e, "binding");
                if (e.path("depth").asLong(0) != 0) {
                    throw unsupported("correlated reference");
                }
                yield scope.binding(number(binding, "table_index"), number(binding, "column_index"));
            }
            case "BOUND_CONSTANT" -> PlanValue.sized(constantSize(e));
            case "BOUND_PARAMETER" -> PlanValue.sized(Size.DATA);
            case "BOUND_FUNCTION" -> function(e, scope);
            case "BOUND_OPERATOR" -> operator(e, scope);
            case "BOUND_CASE" -> caseExpression(e, scope);
            case "BOUND_CONJUNCTION" -> combine(children(e, scope), FlowStep.partial(fold(text(e, "type")).replace("conjunction_", "")), e);
            case "BOUND_COMPARISON" -> combine(List.of(value(field(e, "left"), scope), value(field(e, "right"), scope)),
                    FlowStep.partial(comparison(text(e, "type"))), e);
            case "BOUND_BETWEEN" -> combine(List.of(value(field(e, "input"), scope), value(field(e, "lower"), scope),
                    value(field(e, "upper"), scope)), FlowStep.partial("between"), e);
            case "BOUND_CAST" -> cast(value(field(e, "child"), scope), field(e, "child"), e, e.path("try_cast").asBoolean(false));
            default -> throw unsupported(cls);
        };
    }

    /** An aggregate of an aggregate operator: its arguments flow through it; FILTER and ORDER BY are uses. */
    PlanValue aggregate(JsonNode e, Scope scope) {
        if (!"BOUND_AGGREGATE".equals(text(e, "expression_class"))) {
            return value(e, scope);
        }
        String name = functionName(e);
        FunctionCosts.Cost cost = requireKnown(name);
        if (!"NONE".equals(e.path("state_export").asText("NONE"))) {
            throw unsupported("aggregate state export");
        }
        JsonNode filter = e.get("filter");
        if (filter != null && !filter.isNull()) {
            facts.use(value(filter, scope), UsePosition.FILTER);
        }
        orders(e.get("order_bys"), scope, UsePosition.ORDERING);
        List<PlanValue> args = children(e, scope);
        return collected(name, call(name, cost, args, e), e);
    }

    /**
     * An aggregate that collects values ({@code list}, {@code string_agg}, a top-n {@code max(x, n)})
     * builds one value as large as all its rows together: data-sized, so that a product with another
     * data-sized value (a lambda over it that captures it) is unbounded.
     */
    private static PlanValue collected(String name, PlanValue value, JsonNode e) {
        String type = e.path("return_type").path("id").asText("");
        if (COLLECTING.contains(name) || Set.of("LIST", "ARRAY", "MAP").contains(type)) {
            return value.withSize(value.size.plus(Size.DATA));
        }
        return value;
    }

    /** A window expression of a window operator. */
    PlanValue window(JsonNode e, Scope scope) {
        String type = text(e, "type");
        String name = "WINDOW_AGGREGATE".equals(type) ? functionName(e) : WINDOW_NAMES.get(type);
        if (name == null) {
            throw unsupported(type);
        }
        FunctionCosts.Cost cost = requireKnown(name);
        for (JsonNode partition : array(e, "partitions")) {
            facts.use(value(partition, scope), UsePosition.WINDOW);
        }
        for (JsonNode order : array(e, "orders")) {
            facts.use(value(field(order, "expression"), scope), UsePosition.WINDOW);
        }
        for (JsonNode order : array(e, "arg_orders")) {
            facts.use(value(field(order, "expression"), scope), UsePosition.ORDERING);
        }
        for (String frame : List.of("start_expr", "end_expr", "offset_expr")) {
            JsonNode bound = e.get(frame);
            if (bound != null && !bound.isNull()) {
                facts.use(value(bound, scope), UsePosition.WINDOW);
            }
        }
        JsonNode filter = e.get("filters");
        if (filter != null && !filter.isNull()) {
            facts.use(value(filter, scope), UsePosition.FILTER);
        }
        List<PlanValue> args = new ArrayList<>(children(e, scope));
        JsonNode fallback = e.get("default_expr");
        if (fallback != null && !fallback.isNull()) {
            args.add(value(fallback, scope));
        }
        return collected(name, call(name, cost, args, e), e);
    }

    /** The ORDER BY keys of an order modifier ({@code {"orders": [...]}}), recorded at {@code position}. */
    void orders(JsonNode modifier, Scope scope, UsePosition position) {
        if (modifier == null || modifier.isNull()) {
            return;
        }
        for (JsonNode order : array(modifier, "orders")) {
            facts.use(value(field(order, "expression"), scope), position);
        }
    }

    // ---------------------------------------------------------------- functions

    private PlanValue function(JsonNode e, Scope scope) {
        String type = text(e, "type");
        if ("OPERATOR_CAST".equals(type)) {
            JsonNode child = field(e, "children").path(0);
            if (array(e, "children").size() != 1) {
                throw unsupported("cast");
            }
            return cast(value(child, scope), child, e, e.path("function_data").path("try_cast").asBoolean(false));
        }
        if (type.startsWith("COMPARE_")) {
            return combine(children(e, scope), FlowStep.partial(comparison(type)), e);
        }
        if (!"BOUND_FUNCTION".equals(type)) {
            throw unsupported(type);
        }
        String name = functionName(e);
        if ("error".equals(name) && constantsOnly(e)) {
            // DuckDB's own guard on a scalar subquery returning more than one row: a fixed message;
            // whether it fires depends on the subquery's rows, whose filters are checked as uses
            return PlanValue.NONE.through(FlowStep.partial("error"));
        }
        if ("invoke".equals(name)) {
            return invoked(e, scope);
        }
        FunctionCosts.Cost cost = requireKnown(name);
        List<PlanValue> args = new ArrayList<>();
        List<JsonNode> lambdas = new ArrayList<>();
        for (JsonNode child : array(e, "children")) {
            if ("BOUND_LAMBDA".equals(child.path("expression_class").asText())) {
                lambdas.add(child);
            } else {
                args.add(value(child, scope));
            }
        }
        if (!lambdas.isEmpty()) {
            // a lambda's parameters and captures are the other arguments: every reference in its body
            // carries the flows of all of them (a safe over-approximation of which one it is). Sizes
            // tell them apart, as DuckDB binds them: the first parameter_count references are the
            // parameters (an element of the list, or an index), the others the captured values.
            PlanValue all = PlanValue.merge(args, true).through(FlowStep.total("lambda"));
            Size outer = elements.isEmpty() ? Size.NONE : elements.peek();
            Size list = args.isEmpty() ? Size.UNBOUNDED : args.get(0).size;
            Size captured = Size.NONE;
            for (int i = 1; i < args.size(); i++) {
                captured = captured.max(args.get(i).size);
            }
            PlanValue capture = all.withSize(captured.resolved(outer));
            PlanValue element = all.withSize(Size.ELEMENT);
            List<PlanValue> bodies = new ArrayList<>();
            Size[] bodyWork = {Size.NONE};
            elements.push(list.resolved(outer));
            work.push(bodyWork);
            try {
                for (JsonNode lambda : lambdas) {
                    long parameters = lambda.path("parameter_count").asLong(1);
                    Scope inner = new Scope() {
                        @Override
                        public PlanValue ref(int index) {
                            return index < parameters ? element : capture;
                        }

                        @Override
                        public PlanValue binding(long tableIndex, long columnIndex) {
                            return scope.binding(tableIndex, columnIndex);
                        }
                    };
                    bodies.add(value(field(lambda, "lambda_expr"), inner));
                }
            } finally {
                work.pop();
                elements.pop();
            }
            PlanValue body = PlanValue.merge(bodies, true);
            boolean bodyFixed = lambdas.size() == 1 && fixed(field(lambdas.get(0), "lambda_expr"));
            Amplifications.Outcome outcome;
            try {
                outcome = Amplifications.lambda(name, list, body.size, bodyWork[0], bodyFixed);
            } catch (GuardException product) {
                facts.refuseLater(product);
                outcome = new Amplifications.Outcome(Size.UNBOUNDED, List.of());
            }
            outcome.facts().forEach(facts::amplification);
            facts.function(name);
            List<PlanValue> inputs = new ArrayList<>(args);
            inputs.add(body);
            work(sumSize(args).plus(outcome.size()));
            return merge(inputs, new FlowStep(name, cost.costClass())).withSize(fixed(e) ? Size.FIXED : outcome.size());
        }
        if ("coalesce".equals(name) || "ifnull".equals(name)) {
            args = fallbacks(args, name);
        }
        return call(name, cost, args, e);
    }

    /**
     * {@code invoke(lambda r: ..., row)}, which DuckDB 2.0's binder inserts to collate each field of a row with a
     * collated member ({@code (id, status COLLATE nocase) = (1, 'x')}): the lambda applied once to its one argument,
     * so its value is the body's, with the argument in place of the parameter. It is never one the query wrote: the
     * parse-tree check refuses {@code invoke} as a function off every allowlist, and no policy can allowlist it
     * ({@link FunctionCosts} has no class for it).
     */
    private PlanValue invoked(JsonNode e, Scope scope) {
        List<JsonNode> children = array(e, "children");
        if (children.size() != 2 || !"BOUND_LAMBDA".equals(children.get(0).path("expression_class").asText())) {
            throw unsupported("invoke form");
        }
        PlanValue argument = value(children.get(1), scope);
        long parameters = children.get(0).path("parameter_count").asLong(1);
        Scope inner = new Scope() {
            @Override
            public PlanValue ref(int index) {
                if (index >= parameters) {
                    throw unsupported("invoke capture");
                }
                return argument;
            }

            @Override
            public PlanValue binding(long tableIndex, long columnIndex) {
                return scope.binding(tableIndex, columnIndex);
            }
        };
        return value(field(children.get(0), "lambda_expr"), inner);
    }

    /**
     * COALESCE evaluates a fallback only where the values before it are NULL: when a fallback can
     * fail, whether the query fails tells which values are NULL, so those values are computed on.
     */
    private static List<PlanValue> fallbacks(List<PlanValue> args, String name) {
        List<PlanValue> out = new ArrayList<>(args);
        for (int i = args.size() - 1; i > 0; i--) {
            if (args.get(i).mayFail) {
                for (int j = 0; j < i; j++) {
                    out.set(j, out.get(j).through(FlowStep.partial(name + " fallback")));
                }
                break;
            }
        }
        return out;
    }

    private static boolean constantsOnly(JsonNode e) {
        for (JsonNode child : array(e, "children")) {
            if (!"BOUND_CONSTANT".equals(child.path("expression_class").asText())) {
                return false;
            }
        }
        return true;
    }

    /** A call of a classified function: its arguments flow through it; amplifying rules are applied. */
    private PlanValue call(String name, FunctionCosts.Cost cost, List<PlanValue> args, JsonNode e) {
        facts.function(name);
        OptionalInt pattern = FunctionCosts.patternArgument(name);
        if (pattern.isPresent() && pattern.getAsInt() < array(e, "children").size()
                && !isConstant(array(e, "children").get(pattern.getAsInt()))) {
            facts.refuseLater(new GuardException(ErrorCode.UNBOUNDED_COST, SafeText.operation(name) + " compiles its pattern "
                    + "again for every row when the pattern is computed from the data: write the pattern as a literal (or pass "
                    + "it as a parameter)."));
        }
        FlowStep step = new FlowStep(name, cost.costClass());
        Size size;
        if (cost.rule() == FunctionCosts.Rule.LINEAR) {
            size = linear(args, e);
        } else {
            List<JsonNode> nodes = array(e, "children");
            Amplifications.Outcome outcome = Amplifications.apply(name, cost.rule(), new Amplifications.Arguments() {
                @Override
                public int count() {
                    return args.size();
                }

                @Override
                public Optional<Long> integer(int i) {
                    return BoundExpressions.integer(nodes, i);
                }

                @Override
                public Optional<String> string(int i) {
                    return BoundExpressions.string(nodes, i);
                }

                @Override
                public Size size(int i) {
                    return args.get(i).size;
                }

                @Override
                public Optional<JsonNode> type(int i) {
                    return i < nodes.size() && nodes.get(i).path("return_type").isObject()
                            ? Optional.of(nodes.get(i).path("return_type")) : Optional.empty();
                }
            });
            outcome.facts().forEach(facts::amplification);
            size = outcome.size();
        }
        record(name, size, e);
        boolean listLength = CONSTANT_WORK.contains(name) && !args.isEmpty() && !"VARCHAR".equals(array(e, "children").get(0)
                .path("return_type").path("id").asText(""));
        if (!listLength) {
            work(sumSize(args).plus(fixed(e) ? Size.NONE : size));
        }
        return argumentSteps(name, cost, args, step).withSize(fixed(e) ? Size.FIXED : size);
    }

    /** The arguments of a call, each after the step its position takes ({@link FunctionCosts#argumentClass}). */
    private static PlanValue argumentSteps(String name, FunctionCosts.Cost cost, List<PlanValue> args, FlowStep step) {
        if (FunctionCosts.PARAMETER_ARGUMENTS.get(name) == null) {
            return merge(args, step);
        }
        List<PlanValue> stepped = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            CostClass c = FunctionCosts.argumentClass(name, i, cost.costClass());
            stepped.add(args.get(i).through(c == step.costClass() ? step : new FlowStep(name, c)));
        }
        return PlanValue.merge(stepped, true);
    }

    /** Adds to the work of the innermost lambda body being read, if any. */
    private void work(Size done) {
        if (!work.isEmpty()) {
            Size[] top = work.peek();
            top[0] = top[0].plus(done);
        }
    }

    /**
     * The work of comparing values: at most the smaller of them, so the one that does not hold a captured
     * value from the data where there is one (comparing each element with a column is linear).
     */
    private void comparisonWork(List<PlanValue> args) {
        Size cheapest = null;
        for (PlanValue arg : args) {
            Size s = arg.size;
            if (cheapest == null || s.rel() < cheapest.rel() || (s.rel() == cheapest.rel() && s.elem() < cheapest.elem())) {
                cheapest = s;
            }
        }
        work(cheapest == null ? Size.NONE : cheapest);
    }

    /** Records how large a value an expression builds, where it is more than its inputs could be. */
    private void record(String name, Size size, JsonNode e) {
        if (fixed(e)) {
            return;
        }
        if (size.unbounded()) {
            facts.amplification(Amplification.unbounded(name));
            return;
        }
        if (size.rel() > 1) {
            facts.amplification(Amplification.relative(name, size.rel()));
        }
        if (size.abs() > literalChars) {
            // larger than every literal of the statement together: the query built it, so it is bounded too
            facts.amplification(Amplification.absolute(name, size.abs()));
        }
    }

    private Size linear(List<PlanValue> args, JsonNode e) {
        if (fixed(e)) {
            return Size.FIXED;
        }
        Size size = Size.NONE;
        for (PlanValue arg : args) {
            size = size.plus(arg.size);
        }
        return size;
    }

    // ---------------------------------------------------------------- operators, casts, CASE

    private PlanValue operator(JsonNode e, Scope scope) {
        String type = text(e, "type");
        List<PlanValue> args = children(e, scope);
        return switch (type) {
            case "OPERATOR_IS_NULL", "OPERATOR_IS_NOT_NULL" -> merge(args, FlowStep.total("is null")).withSize(Size.FIXED);
            case "OPERATOR_NOT" -> merge(args, FlowStep.total("not")).withSize(Size.FIXED);
            case "OPERATOR_COALESCE" -> merge(fallbacks(args, "coalesce"), FlowStep.total("coalesce")).withSize(maxSize(args));
            case "OPERATOR_TRY" -> merge(args, FlowStep.total("try")).withSize(maxSize(args));
            case "COMPARE_IN", "COMPARE_NOT_IN" -> {
                comparisonWork(args);
                yield merge(args, FlowStep.partial("in")).withSize(Size.FIXED);
            }
            case "ARRAY_CONSTRUCTOR" -> {
                work(sumSize(args));
                yield merge(args, FlowStep.total("array")).withSize(sumSize(args));
            }
            default -> throw unsupported(type);
        };
    }

    private PlanValue caseExpression(JsonNode e, Scope scope) {
        List<PlanValue> parts = new ArrayList<>();
        List<PlanValue> branches = new ArrayList<>();
        for (JsonNode check : array(e, "case_checks")) {
            // the condition decides which branch comes back (and may fail): it is computed on
            parts.add(value(field(check, "when_expr"), scope).through(FlowStep.partial("case when")));
            branches.add(value(field(check, "then_expr"), scope));
        }
        JsonNode otherwise = e.get("else_expr");
        if (otherwise != null && !otherwise.isNull()) {
            branches.add(value(otherwise, scope));
        }
        for (PlanValue branch : branches) {
            parts.add(branch.through(FlowStep.total("case")));
        }
        return PlanValue.merge(parts, false).withSize(fixed(e) ? Size.FIXED : maxSize(branches));
    }

    /**
     * A cast: total when it cannot fail (to text, to the same type, widening numbers, TRY_CAST),
     * partial otherwise.
     */
    private PlanValue cast(PlanValue input, JsonNode child, JsonNode e, boolean tryCast) {
        JsonNode from = child.path("return_type");
        JsonNode to = e.path("return_type");
        boolean total = tryCast || Casts.cannotFail(from, to);
        String name = tryCast ? "try_cast" : "cast";
        PlanValue out = input.through(new FlowStep(name, total ? CostClass.TOTAL : CostClass.PARTIAL));
        if (fixed(e)) {
            return out.withSize(Size.FIXED);
        }
        Size size = castSize(input.size, from, to);
        record(name, size, e);
        work(input.size.plus(size));
        return out.withSize(size);
    }

    /**
     * What a cast builds. Text to text or to a blob keeps its size; a blob written as text is up to 4
     * characters per byte ({@code \xAA}); a list, struct or map written as text is a fixed-factor
     * expansion of its elements (see {@link Amplifications#render}); a number or date written as text
     * is at most its type's width; other casts (text parsed into a value) build at most their input
     * and a constant.
     */
    static Size castSize(Size input, JsonNode from, JsonNode to) {
        String source = from.path("id").asText("");
        String target = to.path("id").asText("");
        boolean textSource = "VARCHAR".equals(source);
        if ("VARCHAR".equals(target)) {
            if (textSource) {
                return input;
            }
            if (fixedType(from) || Set.of("BLOB", "BIT", "LIST", "ARRAY", "MAP", "STRUCT", "UNION", "DECIMAL").contains(source)) {
                return Amplifications.render(from, Amplifications.Text.CAST).of(input);
            }
        }
        if ("BLOB".equals(target) && (textSource || "BLOB".equals(source))) {
            return input;
        }
        return input.plus(new Size(32, 0));
    }

    private PlanValue combine(List<PlanValue> args, FlowStep step, JsonNode e) {
        comparisonWork(args);
        return merge(args, step).withSize(Size.FIXED);
    }

    private static PlanValue merge(List<PlanValue> args, FlowStep step) {
        return PlanValue.merge(args, true).through(step);
    }

    private static Size maxSize(List<PlanValue> values) {
        Size size = Size.NONE;
        for (PlanValue v : values) {
            size = size.max(v.size);
        }
        return size;
    }

    private static Size sumSize(List<PlanValue> values) {
        Size size = Size.NONE;
        for (PlanValue v : values) {
            size = size.plus(v.size);
        }
        return size;
    }

    private List<PlanValue> children(JsonNode e, Scope scope) {
        List<PlanValue> out = new ArrayList<>();
        for (JsonNode child : array(e, "children")) {
            out.add(value(child, scope));
        }
        return out;
    }

    // ---------------------------------------------------------------- names, literals, shapes

    private FunctionCosts.Cost requireKnown(String name) {
        if (FunctionDefaults.isNever(name) || FunctionCosts.of(name).isEmpty()) {
            throw new GuardException(ErrorCode.FUNCTION_NOT_ALLOWED, "The query calls " + SafeText.operation(name)
                    + ", which is not allowlisted.");
        }
        return FunctionCosts.of(name).get();
    }

    private static String functionName(JsonNode e) {
        JsonNode path = e.path("qname").path("path");
        if (!path.isArray() || path.isEmpty()) {
            String name = e.path("name").asText("");
            if (name.isEmpty()) {
                throw unsupported("unnamed function");
            }
            return fold(name);
        }
        if (path.size() == 3 && !("system".equals(path.get(0).asText()) && "main".equals(path.get(1).asText()))) {
            throw new GuardException(ErrorCode.FUNCTION_NOT_ALLOWED, "The query calls a function outside DuckDB's built-in catalog.");
        }
        if (path.size() != 1 && path.size() != 3) {
            throw unsupported("function path");
        }
        return fold(path.get(path.size() - 1).asText());
    }

    private static String comparison(String type) {
        return switch (type) {
            case "COMPARE_EQUAL" -> "=";
            case "COMPARE_NOTEQUAL" -> "<>";
            case "COMPARE_LESSTHAN" -> "<";
            case "COMPARE_GREATERTHAN" -> ">";
            case "COMPARE_LESSTHANOREQUALTO" -> "<=";
            case "COMPARE_GREATERTHANOREQUALTO" -> ">=";
            case "COMPARE_DISTINCT_FROM" -> "is distinct from";
            case "COMPARE_NOT_DISTINCT_FROM" -> "is not distinct from";
            // DuckDB 2.0 keeps a BETWEEN whose input it will not evaluate twice (a subquery) as one call, __between
            case "COMPARE_BETWEEN" -> "between";
            default -> throw unsupported(type);
        };
    }

    /** Functions whose value changes from call to call: DuckDB does not fold them into a constant. */
    private static final Set<String> VOLATILE = Set.of("random", "uuid", "gen_random_uuid", "uuidv4", "uuidv7");

    /**
     * Whether DuckDB can fold an expression into one constant before the query runs: literals,
     * parameters, and calls and casts of them (not of a column, a lambda parameter, a subquery's
     * result or a volatile function).
     */
    static boolean isConstant(JsonNode e) {
        String cls = e.path("expression_class").asText("");
        return switch (cls) {
            case "BOUND_CONSTANT", "BOUND_PARAMETER" -> true;
            case "BOUND_CAST" -> isConstant(e.path("child"));
            case "BOUND_FUNCTION", "BOUND_OPERATOR", "BOUND_CASE", "BOUND_COMPARISON", "BOUND_CONJUNCTION", "BOUND_BETWEEN" -> {
                if (VOLATILE.contains(fold(e.path("name").asText(""))) || VOLATILE.contains(fold(
                        e.path("qname").path("path").path(e.path("qname").path("path").size() - 1).asText("")))) {
                    yield false;
                }
                boolean constant = true;
                for (JsonNode child : e) {
                    if (child.isObject() && child.has("expression_class")) {
                        constant &= isConstant(child);
                    } else if (child.isArray()) {
                        for (JsonNode item : child) {
                            if (item.isObject() && item.has("expression_class")) {
                                constant &= isConstant(item);
                            } else if (item.isObject()) {
                                // CASE checks: {"when_expr": ..., "then_expr": ...}
                                for (JsonNode part : item) {
                                    if (part.isObject() && part.has("expression_class")) {
                                        constant &= isConstant(part);
                                    }
                                }
                            }
                        }
                    }
                }
                yield constant;
            }
            default -> false;
        };
    }

    /** Whether the expression's type has a fixed width. */
    static boolean fixed(JsonNode e) {
        return fixedType(e.path("return_type"));
    }

    /** Whether a plan type object ({@code {"id": ...}}) has a fixed width. */
    static boolean fixedType(JsonNode type) {
        return FIXED_TYPES.contains(type.path("id").asText(""));
    }

    /** The size of a constant: its text length, or its element and character count for lists and structs. */
    private static Size constantSize(JsonNode e) {
        JsonNode value = e.path("value");
        if (value.path("is_null").asBoolean(false)) {
            return Size.NONE;
        }
        if (fixedType(value.path("type"))) {
            return Size.FIXED;
        }
        return new Size(valueSize(value.path("value")), 0);
    }

    /**
     * The characters and elements a serialized constant value holds: text counts its length, every
     * other scalar (NULL included) one, a list or struct the sum of its parts plus one.
     */
    static long valueSize(JsonNode v) {
        if (v == null || v.isMissingNode()) {
            return 0;
        }
        if (v.isNull()) {
            return 1; // a NULL element is still an element
        }
        if (v.isTextual()) {
            return v.asText().length();
        }
        if (v.isValueNode()) {
            return 1;
        }
        long total = 1;
        for (JsonNode child : v) {
            total = Math.min(Size.CAP, total + valueSize(child));
        }
        return total;
    }

    /** A literal integer argument (under casts), if argument {@code i} is one. */
    static Optional<Long> integer(List<JsonNode> nodes, int i) {
        Optional<JsonNode> constant = constant(nodes, i);
        if (constant.isEmpty()) {
            return Optional.empty();
        }
        JsonNode v = constant.get().path("value");
        if (v.isIntegralNumber() && v.canConvertToLong()) {
            return Optional.of(v.asLong());
        }
        if (v.isNumber()) {
            return Optional.of((long) Math.min(Size.CAP, Math.ceil(v.asDouble())));
        }
        return Optional.empty();
    }

    /** A literal text argument (under casts), if argument {@code i} is one. */
    static Optional<String> string(List<JsonNode> nodes, int i) {
        return constant(nodes, i).map(c -> c.path("value")).filter(JsonNode::isTextual).map(JsonNode::asText);
    }

    private static Optional<JsonNode> constant(List<JsonNode> nodes, int i) {
        if (i >= nodes.size()) {
            return Optional.empty();
        }
        JsonNode node = nodes.get(i);
        while (true) {
            String cls = node.path("expression_class").asText();
            if ("BOUND_CONSTANT".equals(cls)) {
                JsonNode value = node.path("value");
                return value.path("is_null").asBoolean(false) ? Optional.empty() : Optional.of(value);
            }
            if ("BOUND_FUNCTION".equals(cls) && "OPERATOR_CAST".equals(node.path("type").asText())
                    && node.path("children").size() == 1) {
                node = node.path("children").get(0);
            } else if ("BOUND_CAST".equals(cls)) {
                node = node.path("child");
            } else {
                return Optional.empty();
            }
        }
    }

    static List<JsonNode> array(JsonNode node, String name) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            return List.of();
        }
        if (!value.isArray()) {
            throw unsupported("shape of " + name);
        }
        List<JsonNode> out = new ArrayList<>(value.size());
        value.forEach(out::add);
        return out;
    }

    static JsonNode field(JsonNode node, String name) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            throw unsupported("missing " + name);
        }
        return value;
    }

    static String text(JsonNode node, String name) {
        JsonNode value = node.get(name);
        if (value == null || !value.isTextual()) {
            throw unsupported("missing " + name);
        }
        return value.asText();
    }

    /** A non-negative index that fits an int. */
    static int index(JsonNode node, String name) {
        long value = number(node, name);
        if (value > Integer.MAX_VALUE) {
            throw unsupported("index");
        }
        return (int) value;
    }

    /** A non-negative number field; DuckDB's invalid index (2^64 - 1) and missing fields are refused. */
    static long number(JsonNode node, String name) {
        JsonNode value = node.get(name);
        if (value == null || !value.isIntegralNumber() || !value.canConvertToLong() || value.asLong() < 0) {
            throw unsupported("index " + name);
        }
        return value.asLong();
    }

    static String fold(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    static GuardException unsupported(String what) {
        org.slf4j.LoggerFactory.getLogger(BoundExpressions.class).atDebug().log(() -> "bound plan: unsupported " + what);
        return new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, "The query uses a construct sqlguard cannot check on this engine.");
    }
}
