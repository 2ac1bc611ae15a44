package dev.sqlguard.duckdb.internal;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.sqlguard.domain.Amplification;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.SafeText;
import dev.sqlguard.duckdb.internal.PlanValue.Size;

/**
 * The cost of binding. DuckDB's binder evaluates the constant arguments of many functions while it
 * binds ({@code len(repeat(',', 100000000))} is folded to a constant list of 100,000,001 strings
 * before any plan exists; measured on DuckDB 2.0: the JVM was killed by the kernel at 24 GB). That
 * work runs outside the query's time and memory limits, so the parse-tree gate bounds it before
 * anything binds: in a constant expression (no column, parameter or subquery), an amplifying
 * function takes literal arguments only, within the same bounds as in the plan, and a lambda is
 * mapped over a literal list with a body that amplifies nothing.
 */
final class ConstantFolding {
    private final Limits limits;

    ConstantFolding(Limits limits) {
        this.limits = limits;
    }

    /** Checks a function node of the parse tree whose whole subtree is constant. */
    void check(JsonNode function) {
        walk(function, new HashSet<>());
    }

    /** Whether an expression of the parse tree is constant (lambda parameters count as constant). */
    static boolean isConstant(JsonNode expression, Set<String> lambdaParameters) {
        String cls = expression.path("class").asText("");
        switch (cls) {
            case "CONSTANT" -> {
                return true;
            }
            case "CAST" -> {
                return isConstant(expression.path("child"), lambdaParameters);
            }
            case "COLUMN_REF" -> {
                JsonNode names = expression.path("column_names");
                return names.size() == 1 && lambdaParameters.contains(fold(names.get(0).asText()));
            }
            case "FUNCTION" -> {
                if (!expression.path("filter").isMissingNode() && !expression.path("filter").isNull()) {
                    return false;
                }
                for (JsonNode argument : expression.path("arguments")) {
                    JsonNode e = argument.path("expression");
                    if ("LAMBDA".equals(e.path("class").asText())) {
                        Set<String> inner = new HashSet<>(lambdaParameters);
                        inner.addAll(parameters(e));
                        if (!isConstant(e.path("expr"), inner)) {
                            return false;
                        }
                    } else if (!isConstant(e, lambdaParameters)) {
                        return false;
                    }
                }
                return true;
            }
            case "OPERATOR", "CONJUNCTION", "COMPARISON" -> {
                for (JsonNode child : expression.path("children")) {
                    if (!isConstant(child, lambdaParameters)) {
                        return false;
                    }
                }
                if (cls.equals("COMPARISON")) {
                    return isConstant(expression.path("left"), lambdaParameters) && isConstant(expression.path("right"), lambdaParameters);
                }
                return true;
            }
            case "CASE" -> {
                for (JsonNode check : expression.path("case_checks")) {
                    if (!isConstant(check.path("when_expr"), lambdaParameters) || !isConstant(check.path("then_expr"), lambdaParameters)) {
                        return false;
                    }
                }
                JsonNode otherwise = expression.get("else_expr");
                return otherwise == null || otherwise.isNull() || isConstant(otherwise, lambdaParameters);
            }
            default -> {
                return false;
            }
        }
    }

    private void walk(JsonNode node, Set<String> lambdaParameters) {
        String cls = node.path("class").asText("");
        if ("FUNCTION".equals(cls)) {
            function(node, lambdaParameters);
            return;
        }
        if ("LAMBDA".equals(cls)) {
            Set<String> inner = new HashSet<>(lambdaParameters);
            inner.addAll(parameters(node));
            walk(node.path("expr"), inner);
            return;
        }
        for (JsonNode child : node) {
            if (child.isContainerNode()) {
                walk(child, lambdaParameters);
            }
        }
    }

    private void function(JsonNode node, Set<String> lambdaParameters) {
        String name = fold(node.path("function_name").asText(""));
        List<JsonNode> args = new ArrayList<>();
        JsonNode lambda = null;
        for (JsonNode argument : node.path("arguments")) {
            JsonNode e = argument.path("expression");
            if ("LAMBDA".equals(e.path("class").asText())) {
                lambda = e;
            } else {
                args.add(e);
            }
        }
        Optional<FunctionCosts.Cost> cost = FunctionCosts.of(name);
        if (lambda != null) {
            // the binder maps the lambda over the whole constant list while it binds: a literal list,
            // or a series with literal bounds within the limit, and a body that amplifies nothing
            if (args.isEmpty() || amplifies(lambda.path("expr"))) {
                throw refused(name);
            }
            if (!isLiteral(args.get(0))) {
                if (!isLiteralSeries(args.get(0))) {
                    throw refused(name);
                }
                function(args.get(0), lambdaParameters);
            }
        } else if (cost.isPresent() && cost.get().rule() != FunctionCosts.Rule.LINEAR) {
            estimate(node);
            return;
        }
        for (JsonNode arg : node.path("arguments")) {
            walk(arg, lambdaParameters);
        }
    }

    /**
     * How many characters or elements a constant expression builds, every amplifying call in it checked
     * against the limits on the way: a rule that multiplies its input by a fixed factor ({@code hex},
     * {@code to_json}) or repeats a separator per element takes nested constant arguments, whose sizes
     * compound; any other amplifying rule takes literal arguments only.
     */
    private long estimate(JsonNode e) {
        String cls = e.path("class").asText("");
        switch (cls) {
            case "CONSTANT" -> {
                return literalSize(e);
            }
            case "CAST" -> {
                long child = estimate(e.path("child"));
                String target = e.path("type_expr").path("type_name").asText("").toUpperCase(Locale.ROOT);
                boolean text = Set.of("VARCHAR", "TEXT", "STRING", "BLOB", "BYTEA").contains(target);
                boolean fromText = "STRING".equals(unwrapped(e.path("child")).path("literal").path("kind").asText(""));
                return text && fromText ? child : Size.saturatedAdd(Size.saturatedMultiply(child, WIDEST_TEXT), 32);
            }
            case "FUNCTION" -> {
                String name = fold(e.path("function_name").asText(""));
                List<JsonNode> args = new ArrayList<>();
                for (JsonNode argument : e.path("arguments")) {
                    JsonNode a = argument.path("expression");
                    if ("LAMBDA".equals(a.path("class").asText())) {
                        throw refused(name);
                    }
                    args.add(a);
                }
                Optional<FunctionCosts.Cost> cost = FunctionCosts.of(name);
                FunctionCosts.Rule rule = cost.map(FunctionCosts.Cost::rule).orElse(FunctionCosts.Rule.LINEAR);
                if (rule == FunctionCosts.Rule.LINEAR) {
                    long total = 1;
                    for (JsonNode arg : args) {
                        total = Size.saturatedAdd(total, estimate(arg));
                    }
                    return total;
                }
                boolean nested = rule.fixedFactor() || rule == FunctionCosts.Rule.JOIN
                        || rule == FunctionCosts.Rule.LIST_AGGREGATE || rule == FunctionCosts.Rule.CONCAT_WS;
                List<Long> sizes = new ArrayList<>();
                for (JsonNode arg : args) {
                    if (!nested && !isLiteral(arg)) {
                        throw refused(name);
                    }
                    sizes.add(nested ? estimate(arg) : literalSize(arg));
                }
                Amplifications.Outcome outcome = Amplifications.apply(name, rule, arguments(args, sizes));
                for (Amplification fact : outcome.facts()) {
                    fact.requireWithin(limits);
                }
                if (outcome.size().dataSized() || outcome.size().unbounded()) {
                    throw refused(name);
                }
                return outcome.size().abs();
            }
            case "OPERATOR", "CONJUNCTION", "COMPARISON", "CASE" -> {
                long total = 1;
                for (JsonNode child : e) {
                    if (child.isObject() && child.has("class")) {
                        total = Size.saturatedAdd(total, estimate(child));
                    } else if (child.isArray()) {
                        for (JsonNode item : child) {
                            if (item.has("class")) {
                                total = Size.saturatedAdd(total, estimate(item));
                            } else {
                                for (JsonNode part : item) {
                                    if (part.isObject() && part.has("class")) {
                                        total = Size.saturatedAdd(total, estimate(part));
                                    }
                                }
                            }
                        }
                    }
                }
                return total;
            }
            default -> throw new GuardException(ErrorCode.UNBOUNDED_COST, "An amplifying function over constant values is "
                    + "computed while the query is checked: give it literal arguments only within the bound.");
        }
    }

    /** The most characters one unit of a value is written as text (a cast to VARCHAR of a constant of unknown type). */
    private static final long WIDEST_TEXT = 72;

    /** Whether an expression is {@code range(...)} or {@code generate_series(...)} of literals. */
    private static boolean isLiteralSeries(JsonNode e) {
        if (!"FUNCTION".equals(e.path("class").asText())) {
            return false;
        }
        Optional<FunctionCosts.Cost> cost = FunctionCosts.of(fold(e.path("function_name").asText("")));
        if (cost.isEmpty() || cost.get().rule() != FunctionCosts.Rule.SERIES) {
            return false;
        }
        for (JsonNode argument : e.path("arguments")) {
            if (!isLiteral(argument.path("expression"))) {
                return false;
            }
        }
        return true;
    }

    /** Whether a lambda body calls an amplifying function or another lambda. */
    private static boolean amplifies(JsonNode node) {
        if ("FUNCTION".equals(node.path("class").asText())) {
            Optional<FunctionCosts.Cost> cost = FunctionCosts.of(fold(node.path("function_name").asText("")));
            if (cost.isPresent() && cost.get().rule() != FunctionCosts.Rule.LINEAR) {
                return true;
            }
        }
        if ("LAMBDA".equals(node.path("class").asText())) {
            return true;
        }
        for (JsonNode child : node) {
            if (child.isContainerNode() && amplifies(child)) {
                return true;
            }
        }
        return false;
    }

    private static GuardException refused(String name) {
        return new GuardException(ErrorCode.UNBOUNDED_COST, SafeText.operation(name) + " over constant values is computed "
                + "while the query is checked: give it literal arguments only (no nested calls) within the bound.");
    }

    /** Functions that build a list or struct of their arguments: of literals, they are literals. */
    private static final Set<String> CONSTRUCTORS = Set.of("list_value", "list_pack", "array_value", "struct_pack", "row");

    /** A literal, possibly under casts, or a list or struct of literals. */
    private static boolean isLiteral(JsonNode e) {
        JsonNode node = unwrapped(e);
        if ("CONSTANT".equals(node.path("class").asText())) {
            return true;
        }
        if ("FUNCTION".equals(node.path("class").asText())
                && CONSTRUCTORS.contains(fold(node.path("function_name").asText("")))) {
            for (JsonNode argument : node.path("arguments")) {
                JsonNode inner = unwrapped(argument.path("expression"));
                if (!"CONSTANT".equals(inner.path("class").asText())) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }

    private static JsonNode unwrapped(JsonNode e) {
        JsonNode node = e;
        while ("CAST".equals(node.path("class").asText())) {
            node = node.path("child");
        }
        return node;
    }

    /** The literal of a parse-tree constant ({@code {"kind": "INTEGER", "text": "20"}}), or a missing node. */
    private static JsonNode literal(JsonNode e) {
        return unwrapped(e).path("literal");
    }

    /** How many characters and elements a literal argument holds. */
    private static long literalSize(JsonNode e) {
        JsonNode node = unwrapped(e);
        if ("CONSTANT".equals(node.path("class").asText())) {
            return Math.max(1, node.path("literal").path("text").asText("").length());
        }
        long total = 1;
        for (JsonNode argument : node.path("arguments")) {
            total += literalSize(argument.path("expression"));
        }
        return total;
    }

    private static Amplifications.Arguments arguments(List<JsonNode> args, List<Long> sizes) {
        Amplifications.Arguments literals = literals(args);
        return new Amplifications.Arguments() {
            @Override
            public int count() {
                return args.size();
            }

            @Override
            public Optional<Long> integer(int i) {
                return literals.integer(i);
            }

            @Override
            public Optional<String> string(int i) {
                return literals.string(i);
            }

            @Override
            public Size size(int i) {
                return new Size(sizes.get(i), 0);
            }
        };
    }

    private static Amplifications.Arguments literals(List<JsonNode> args) {
        return new Amplifications.Arguments() {
            @Override
            public int count() {
                return args.size();
            }

            @Override
            public Optional<Long> integer(int i) {
                if (i >= args.size()) {
                    return Optional.empty();
                }
                JsonNode literal = literal(args.get(i));
                String kind = literal.path("kind").asText("");
                if (kind.equals("STRING") || kind.equals("NULL_LITERAL") || !literal.path("text").isTextual()) {
                    return Optional.empty();
                }
                try {
                    return Optional.of((long) Math.min(Size.CAP, Math.ceil(Double.parseDouble(literal.path("text").asText()))));
                } catch (NumberFormatException e) {
                    return Optional.empty();
                }
            }

            @Override
            public Optional<String> string(int i) {
                if (i >= args.size()) {
                    return Optional.empty();
                }
                JsonNode literal = literal(args.get(i));
                return "STRING".equals(literal.path("kind").asText()) ? Optional.of(literal.path("text").asText()) : Optional.empty();
            }

            @Override
            public Size size(int i) {
                return new Size(literalSize(args.get(i)), 0);
            }
        };
    }

    private static Set<String> parameters(JsonNode lambda) {
        Set<String> names = new HashSet<>();
        JsonNode lhs = lambda.path("lhs");
        if ("COLUMN_REF".equals(lhs.path("class").asText())) {
            lhs.path("column_names").forEach(n -> names.add(fold(n.asText())));
        } else {
            for (JsonNode argument : lhs.path("arguments")) {
                argument.path("expression").path("column_names").forEach(n -> names.add(fold(n.asText())));
            }
        }
        return names;
    }

    private static String fold(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
