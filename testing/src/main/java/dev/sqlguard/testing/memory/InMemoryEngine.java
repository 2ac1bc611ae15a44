package dev.sqlguard.testing.memory;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.ColumnUse;
import dev.sqlguard.domain.CostClass;
import dev.sqlguard.domain.EngineDefaults;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.FlowStep;
import dev.sqlguard.domain.FunctionClasses;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.OutputColumn;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.ResultColumn;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.domain.UsePosition;
import dev.sqlguard.domain.port.ResultCursor;
import dev.sqlguard.ports.ComposedEngine;
import dev.sqlguard.ports.EngineParts;
import dev.sqlguard.ports.EngineResources;
import dev.sqlguard.ports.TableDescription;
import dev.sqlguard.testing.ListCursor;

/**
 * An in-memory engine for tests, and the smallest complete example of an engine. It understands a
 * deliberately tiny dialect: {@code SELECT item, ... FROM table [alias] [WHERE col op value AND ...]
 * [ORDER BY col]}, where an item is a column, {@code count(*)} or {@code f(col|'text', ...)} with an
 * optional {@code AS alias}. It lacks GROUP BY, joins, subqueries, CTEs, set operations and
 * wildcards, and refuses them with the documented codes. A query matching the {@code runaway}
 * predicate simulates an endless scan. Like every shipped engine, it is a {@link ComposedEngine}
 * built from its parts: the tiny dialect's validator, execution port and catalog, and no resources.
 *
 * <p>Its validator parses and reports facts; it does not decide the sensitive-column rule. Every
 * use of a base column goes into the plan with its position ({@code OUTPUT}, {@code FILTER},
 * {@code ORDERING}) and the function it passes through with that function's {@link CostClass}, and
 * {@link GuardrailPolicy#authorize} refuses, the same way as for every engine, a sensitive column
 * that filters or orders rows or passes through a partial function. Like every engine, it keeps the
 * values of each output that must be redacted inside itself: its executable text projects a constant
 * in their place, and its execution returns that constant (NULL).
 */
public final class InMemoryEngine extends ComposedEngine {
    private static final Pattern SELECT = Pattern.compile(
            "(?is)^select\\s+(?<items>.+?)\\s+from\\s+(?<table>[A-Za-z_]\\w*)(?:\\s+(?!where\\b|order\\b)(?<alias>[A-Za-z_]\\w*))?"
            + "(?:\\s+where\\s+(?<where>.+?))?(?:\\s+order\\s+by\\s+(?<order>[\\w.]+))?\\s*$");
    private static final Pattern CALL = Pattern.compile("(?is)^(?<fn>[A-Za-z_]\\w*)\\s*\\((?<args>.*)\\)$");
    private static final Pattern CONDITION = Pattern.compile("(?is)^(?<col>[\\w.]+)\\s*(?<op><=|>=|<>|=|<|>)\\s*(?<val>\\?|'[^']*'|-?\\d+(?:\\.\\d+)?)$");
    private static final Set<String> AGGREGATES = Set.of("count", "sum", "min", "max", "avg");
    /**
     * How each function treats its input. Total ones never fail or branch on a value and do not
     * amplify it; {@code sum} and {@code avg} can overflow and {@code round} fails on text, so they
     * are partial. A function missing here is partial (fail closed).
     */
    private static final Map<String, CostClass> COST_CLASSES = Map.of(
            "count", CostClass.TOTAL, "min", CostClass.TOTAL, "max", CostClass.TOTAL,
            "upper", CostClass.TOTAL, "lower", CostClass.TOTAL, "length", CostClass.TOTAL,
            "coalesce", CostClass.TOTAL, "concat", CostClass.TOTAL);

    /** The aggregates it reads when a policy names no functions; reported to the domain as its defaults. */
    private static final Set<String> DEFAULT_FUNCTIONS = Set.of("count", "sum", "min", "max", "avg");

    /** A source over {@code tables}; a query that {@code runaway} matches runs as a scan that never ends. */
    public InMemoryEngine(String sourceId, GuardrailPolicy policy, Map<String, InMemoryTable> tables, Predicate<String> runaway) {
        this(new Interpreter(sourceId, policy, tables, runaway));
    }

    private InMemoryEngine(Interpreter interpreter) {
        super(new EngineParts(interpreter.sourceId, interpreter.policy, interpreter::validate, interpreter::execute,
                interpreter::describe, Set.of(), EngineDefaults.of(new FunctionClasses(DEFAULT_FUNCTIONS, Set.of(), Set.of(), Set.of(),
                        Set.of(), Set.of(), FunctionClasses.NeverWording.NOT_ALLOWLISTED))), new EngineResources());
    }

    // ------------------------------------------------------------------ validation

    /** The parsed form the fake executes. */
    record Item(String label, String function, List<String> args) {
    }

    record Condition(String column, String op, String literal, int parameter) {
    }

    /** @param masked the output positions the engine replaces by a constant (NULL) before they leave it */
    record Compiled(InMemoryTable table, List<Item> items, List<Condition> conditions, String order, boolean runaway,
                    Set<Integer> masked) {
    }

    private static List<String> splitTopLevel(String text) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        boolean quoted = false;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\'') {
                quoted = !quoted;
            } else if (!quoted && c == '(') {
                depth++;
            } else if (!quoted && c == ')') {
                depth--;
            } else if (!quoted && depth == 0 && c == ',') {
                parts.add(text.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(text.substring(start));
        return parts;
    }

    private static String outsideQuotes(String sql) {
        return sql.replaceAll("'[^']*'", "''");
    }

    // ------------------------------------------------------------------ execution

    private static List<ResultColumn> columnsOf(Compiled compiled) {
        return compiled.items().stream().map(i -> new ResultColumn(i.label(),
                i.function() == null ? compiled.table().type(i.args().get(0)) : "VARCHAR")).toList();
    }

    private static List<List<Object>> evaluate(Compiled c, List<Object> params) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Map<String, Object> row : c.table().rows()) {
            boolean keep = true;
            for (Condition cond : c.conditions()) {
                Object expected = cond.parameter() >= 0 ? params.get(cond.parameter()) : literal(cond.literal());
                keep &= compare(row.get(cond.column()), cond.op(), expected);
            }
            if (keep) {
                rows.add(row);
            }
        }
        if (c.order() != null) {
            rows.sort(Comparator.comparing(r -> comparable(r.get(c.order()))));
        }
        boolean aggregate = c.items().stream().anyMatch(i -> i.function() != null && AGGREGATES.contains(i.function()));
        List<List<Object>> out = new ArrayList<>();
        if (aggregate) {
            List<Object> row = new ArrayList<>();
            for (Item item : c.items()) {
                row.add(aggregate(item, rows));
            }
            out.add(row);
            return masked(out, c.masked());
        }
        for (Map<String, Object> r : rows) {
            List<Object> row = new ArrayList<>();
            for (Item item : c.items()) {
                row.add(scalar(item, r));
            }
            out.add(row);
        }
        return masked(out, c.masked());
    }

    /** The outer projection of a masked plan: each masked output is the constant NULL, after the rows are chosen. */
    private static List<List<Object>> masked(List<List<Object>> rows, Set<Integer> masked) {
        if (masked.isEmpty()) {
            return rows;
        }
        List<List<Object>> out = new ArrayList<>();
        for (List<Object> row : rows) {
            List<Object> copy = new ArrayList<>(row);
            masked.forEach(i -> copy.set(i, null));
            out.add(copy);
        }
        return out;
    }

    /**
     * The text the engine runs: the query as written when no output must be redacted, else the query
     * under an outer projection that replaces each such output by a constant of its type and name
     * ({@code CASE WHEN 1 = 0 THEN cN END}), as the shipped engines render it.
     */
    private static String executable(String sql, List<Item> items, Set<Integer> masked) {
        if (masked.isEmpty()) {
            return sql;
        }
        List<String> projected = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            String column = "c" + (i + 1);
            names.add(column);
            projected.add((masked.contains(i) ? "CASE WHEN 1 = 0 THEN " + column + " END" : column) + " AS " + items.get(i).label());
        }
        return "SELECT " + String.join(", ", projected) + " FROM (" + sql + ") AS sqlguard_result (" + String.join(", ", names) + ")";
    }

    @SuppressWarnings("unchecked")
    private static Comparable<Object> comparable(Object v) {
        return (Comparable<Object>) v;
    }

    private static Object literal(String text) {
        return text.startsWith("'") ? text.substring(1, text.length() - 1) : new BigDecimal(text);
    }

    private static boolean compare(Object actual, String op, Object expected) {
        if (actual == null || expected == null) {
            return false;
        }
        int cmp;
        if (actual instanceof Number a && expected instanceof Number e) {
            cmp = new BigDecimal(a.toString()).compareTo(new BigDecimal(e.toString()));
        } else {
            cmp = actual.toString().compareTo(expected.toString());
        }
        return switch (op) {
            case "=" -> cmp == 0;
            case "<>" -> cmp != 0;
            case "<" -> cmp < 0;
            case "<=" -> cmp <= 0;
            case ">" -> cmp > 0;
            default -> cmp >= 0;
        };
    }

    private static Object aggregate(Item item, List<Map<String, Object>> rows) {
        String arg = item.args().get(0);
        List<Object> values = rows.stream().map(r -> arg.equals("*") ? (Object) 1 : r.get(arg)).filter(v -> v != null).toList();
        return switch (item.function()) {
            case "count" -> (long) values.size();
            case "sum" -> values.stream().map(v -> new BigDecimal(v.toString())).reduce(BigDecimal.ZERO, BigDecimal::add);
            case "avg" -> values.isEmpty() ? null : values.stream().map(v -> new BigDecimal(v.toString()))
                    .reduce(BigDecimal.ZERO, BigDecimal::add).divide(BigDecimal.valueOf(values.size()), 6, RoundingMode.HALF_UP);
            case "min" -> values.stream().map(InMemoryEngine::comparable).min(Comparator.naturalOrder()).orElse(null);
            default -> values.stream().map(InMemoryEngine::comparable).max(Comparator.naturalOrder()).orElse(null);
        };
    }

    private static Object scalar(Item item, Map<String, Object> row) {
        if (item.function() == null) {
            return row.get(item.args().get(0));
        }
        List<Object> args = item.args().stream().map(a -> a.startsWith("'") ? (Object) a.substring(1, a.length() - 1) : row.get(a)).toList();
        Object first = args.get(0);
        return switch (item.function()) {
            case "upper" -> first == null ? null : first.toString().toUpperCase(Locale.ROOT);
            case "lower" -> first == null ? null : first.toString().toLowerCase(Locale.ROOT);
            case "length" -> first == null ? null : (long) first.toString().length();
            case "coalesce" -> args.stream().filter(a -> a != null).findFirst().orElse(null);
            case "concat" -> String.join("", args.stream().map(String::valueOf).toList());
            case "round" -> first == null ? null : new BigDecimal(first.toString()).setScale(0, RoundingMode.HALF_UP);
            default -> throw new GuardException(ErrorCode.FUNCTION_NOT_ALLOWED, "This function cannot be used per row here.");
        };
    }

    /** Simulates a scan that never ends: next() blocks until the deadline or a cancel. */
    static final class RunawayCursor implements ResultCursor {
        private final long deadline;
        private final List<ResultColumn> columns;
        private final CountDownLatch stopped = new CountDownLatch(1);

        RunawayCursor(long deadline, List<ResultColumn> columns) {
            this.deadline = deadline;
            this.columns = columns;
        }

        @Override
        public List<ResultColumn> columns() {
            return columns;
        }

        @Override
        public boolean next() {
            try {
                if (stopped.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    throw new GuardException(ErrorCode.CANCELLED);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new GuardException(ErrorCode.CANCELLED);
            }
            throw new GuardException(ErrorCode.EXCEEDED_TIME_LIMIT);
        }

        @Override
        public Object get(int index) {
            throw new IllegalStateException("no current row");
        }

        @Override
        public void cancel() {
            stopped.countDown();
        }

        @Override
        public void close() {
            stopped.countDown();
        }
    }

    /** The tiny dialect over one source's tables: what the engine's validator, execution port and catalog call. */
    private static final class Interpreter {
        private final String sourceId;
        private final GuardrailPolicy policy;
        private final Map<String, InMemoryTable> tables;
        private final Predicate<String> runaway;
        private final Map<String, Compiled> compiledPlans = new java.util.concurrent.ConcurrentHashMap<>();

        Interpreter(String sourceId, GuardrailPolicy policy, Map<String, InMemoryTable> tables, Predicate<String> runaway) {
            this.sourceId = sourceId;
            this.policy = policy;
            this.tables = Map.copyOf(tables);
            this.runaway = runaway;
        }

        private List<TableDescription> describe() {
            return tables.values().stream()
                    .filter(t -> policy.tables().allowsTable(TableRef.of(t.name())))
                    .map(t -> new TableDescription(TableRef.of(t.name()), t.columns().stream()
                            .filter(c -> policy.tables().allowsColumn(TableRef.of(t.name()), c))
                            .map(c -> new TableDescription.ColumnDescription(c, t.type(c), policy.isSensitive(c))).toList(),
                            java.util.OptionalLong.of(t.rows().size())))
                    .sorted(Comparator.comparing(d -> d.table().qualifiedName())).toList();
        }

        private QueryPlan validate(QueryRequest request) {
            String sql = request.sql().strip();
            if (sql.endsWith(";")) {
                sql = sql.substring(0, sql.length() - 1).strip();
            }
            if (outsideQuotes(sql).contains(";")) {
                throw new GuardException(ErrorCode.MULTIPLE_STATEMENTS);
            }
            // the count first, as every engine checks it: a wrong count is PARAMETER_COUNT_MISMATCH even
            // where the statement holds more than this dialect reads
            dev.sqlguard.domain.Parameters.requireCount((int) outsideQuotes(sql).chars().filter(ch -> ch == '?').count(),
                    request.params().size());
            String lower = outsideQuotes(sql).toLowerCase(Locale.ROOT);
            if (lower.startsWith("with ")) {
                throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, "CTEs are not supported by this source.");
            }
            if (!lower.startsWith("select ")) {
                throw new GuardException(ErrorCode.STATEMENT_NOT_ALLOWED);
            }
            if (Pattern.compile("\\b(union|intersect|except)\\b").matcher(lower).find() || lower.contains("(select")
                    || Pattern.compile("\\bgroup\\s+by\\b|\\bhaving\\b").matcher(lower).find()) {
                throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, "This source supports only plain single-table SELECTs.");
            }
            if (Pattern.compile("\\bjoin\\b").matcher(lower).find()) {
                throw new GuardException(ErrorCode.JOIN_NOT_ALLOWED, "This source does not support joins.");
            }
            if (Pattern.compile("\\binto\\b").matcher(lower).find()) {
                throw new GuardException(ErrorCode.STATEMENT_NOT_ALLOWED);
            }
            Matcher m = SELECT.matcher(sql);
            if (!m.matches()) {
                throw new GuardException(ErrorCode.SYNTAX_ERROR, "The SQL could not be parsed by this source's dialect.");
            }
            TableRef table = TableRef.of(m.group("table"));
            InMemoryTable data = tables.get(table.table());
            if (data == null || !policy.tables().allowsTable(table)) {
                throw new GuardException(ErrorCode.TABLE_NOT_ALLOWED, "Table " + dev.sqlguard.domain.SafeText.identifier(table.table()) + " is not allowlisted.");
            }
            String alias = m.group("alias");
            List<Item> items = new ArrayList<>();
            List<OutputColumn> outputs = new ArrayList<>();
            Set<ColumnUse> uses = new LinkedHashSet<>();
            Set<String> functions = new LinkedHashSet<>();
            int aggregates = 0;
            for (String raw : splitTopLevel(m.group("items"))) {
                Item item = parseItem(raw.strip(), table, alias, data, functions);
                items.add(item);
                List<FlowStep> chain = item.function() == null ? List.of()
                        : List.of(new FlowStep(item.function(), COST_CLASSES.getOrDefault(item.function(), CostClass.PARTIAL)));
                Set<ColumnRef> lineage = new LinkedHashSet<>();
                for (String arg : item.args()) {
                    if (!arg.startsWith("'") && !arg.equals("*")) {
                        ColumnRef ref = new ColumnRef(table, arg);
                        lineage.add(ref);
                        uses.add(new ColumnUse(ref, UsePosition.OUTPUT, chain));
                    }
                }
                outputs.add(OutputColumn.traced(item.label(), lineage));
                aggregates += item.function() != null && AGGREGATES.contains(item.function()) ? 1 : 0;
            }
            if (aggregates > 0 && aggregates < items.size()) {
                throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, "Mixing aggregates and plain columns needs GROUP BY, which this source lacks.");
            }
            List<Condition> conditions = new ArrayList<>();
            int parameters = 0;
            if (m.group("where") != null) {
                for (String part : m.group("where").split("(?i)\\s+and\\s+")) {
                    Matcher c = CONDITION.matcher(part.strip());
                    if (!c.matches()) {
                        throw new GuardException(ErrorCode.SYNTAX_ERROR, "The SQL could not be parsed by this source's dialect.");
                    }
                    String column = column(c.group("col"), table, alias, data);
                    uses.add(new ColumnUse(new ColumnRef(table, column), UsePosition.FILTER, List.of(FlowStep.partial(c.group("op")))));
                    boolean placeholder = c.group("val").equals("?");
                    conditions.add(new Condition(column, c.group("op"), placeholder ? null : c.group("val"), placeholder ? parameters++ : -1));
                }
            }
            String order = m.group("order") == null ? null : column(m.group("order"), table, alias, data);
            if (order != null) {
                uses.add(ColumnUse.direct(new ColumnRef(table, order), UsePosition.ORDERING));
            }
            List<Object> template = new ArrayList<>();
            for (int i = 0; i < parameters; i++) {
                template.add(null);
            }
            Set<Integer> masked = policy.outputsToMask(outputs);
            String executable = executable(sql, items, masked);
            QueryPlan plan = new QueryPlan(sourceId, request.sql(), executable, template, Set.of(table), uses, functions, outputs, List.of(),
                    policy.limits(), masked);
            Compiled compiled = new Compiled(data, items, conditions, order, runaway.test(sql), masked);
            compiledPlans.put(executable, compiled);
            return plan.withParameters(request.params());
        }

        private Item parseItem(String raw, TableRef table, String alias, InMemoryTable data, Set<String> functions) {
            String label = null;
            Matcher as = Pattern.compile("(?is)^(.+?)\\s+as\\s+([A-Za-z_]\\w*)$").matcher(raw);
            String expr = raw;
            if (as.matches()) {
                expr = as.group(1).strip();
                label = as.group(2);
            }
            if (expr.equals("*") || expr.endsWith(".*")) {
                throw new GuardException(ErrorCode.WILDCARD_NOT_ALLOWED);
            }
            Matcher call = CALL.matcher(expr);
            if (call.matches()) {
                String fn = call.group("fn").toLowerCase(Locale.ROOT);
                if (!policy.functionsOr(DEFAULT_FUNCTIONS).contains(fn)) {
                    throw new GuardException(ErrorCode.FUNCTION_NOT_ALLOWED, "Function " + dev.sqlguard.domain.SafeText.identifier(fn) + " is not allowlisted.");
                }
                functions.add(fn);
                List<String> args = new ArrayList<>();
                for (String arg : splitTopLevel(call.group("args"))) {
                    String a = arg.strip();
                    if (a.equals("*") && fn.equals("count")) {
                        args.add("*");
                    } else if (a.startsWith("'") && a.endsWith("'") && a.length() >= 2) {
                        args.add(a);
                    } else {
                        args.add(column(a, table, alias, data));
                    }
                }
                return new Item(label == null ? fn : label, fn, args);
            }
            String column = column(expr, table, alias, data);
            return new Item(label == null ? column : label, null, List.of(column));
        }

        private String column(String raw, TableRef table, String alias, InMemoryTable data) {
            String name = raw;
            int dot = raw.indexOf('.');
            if (dot >= 0) {
                String qualifier = raw.substring(0, dot);
                if (!qualifier.equalsIgnoreCase(alias == null ? table.table() : alias) && !qualifier.equalsIgnoreCase(table.table())) {
                    throw new GuardException(ErrorCode.SYNTAX_ERROR, "The SQL could not be parsed by this source's dialect.");
                }
                name = raw.substring(dot + 1);
            }
            name = name.toLowerCase(Locale.ROOT);
            if (!name.matches("[a-z_]\\w*") || !data.columns().contains(name) || !policy.tables().allowsColumn(table, name)) {
                throw new GuardException(ErrorCode.COLUMN_NOT_ALLOWED, "A column is not allowlisted.");
            }
            return name;
        }

        private ResultCursor execute(QueryPlan plan) {
            Compiled compiled = compiledPlans.get(plan.executableSql());
            if (compiled == null) {
                throw new GuardException(ErrorCode.INTERNAL_ERROR);
            }
            long deadline = System.nanoTime() + plan.limits().timeout().toNanos();
            if (compiled.runaway()) {
                return new RunawayCursor(deadline, columnsOf(compiled));
            }
            // the engine's own row bound: it produces at most max rows + 1, whoever reads it
            List<List<Object>> rows = evaluate(compiled, plan.values());
            return new ListCursor(columnsOf(compiled), rows.subList(0, Math.min(rows.size(), plan.limits().maxRows() + 1)));
        }
    }

    /** Builds a table map. */
    public static Map<String, InMemoryTable> tables(InMemoryTable... tables) {
        Map<String, InMemoryTable> map = new LinkedHashMap<>();
        for (InMemoryTable t : tables) {
            map.put(t.name(), t);
        }
        return map;
    }
}
