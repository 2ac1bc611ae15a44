package dev.sqlguard.duckdb.internal;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import dev.sqlguard.duckdb.internal.PlanValue.Size;

/**
 * The cost catalogue as the engine-level attack generators need it: the functions to attack come from
 * the catalogue itself, never from a list written next to the attacks.
 */
public final class CostCatalog {
    private CostCatalog() {
    }

    /** Every classified function name. */
    public static Set<String> names() {
        return new TreeSet<>(FunctionCosts.names());
    }

    /** Every fixed-factor expander, by name, with the name of its rule (functions sharing a rule are aliases). */
    public static Map<String, String> expanders() {
        Map<String, String> out = new TreeMap<>();
        for (String name : FunctionCosts.names()) {
            FunctionCosts.Rule rule = FunctionCosts.of(name).orElseThrow().rule();
            if (rule.fixedFactor()) {
                out.put(name, rule.name());
            }
        }
        return out;
    }

    /**
     * The factor an expander multiplies a data-sized argument of DuckDB type {@code typeId} by, and the
     * characters it adds: {@code {factor, added}}.
     */
    public static long[] factor(String function, String typeId) {
        FunctionCosts.Rule rule = FunctionCosts.of(function).orElseThrow().rule();
        Size out = Amplifications.expanded(rule, Size.DATA, Optional.of(JsonNodeFactory.instance.objectNode().put("id", typeId)));
        return new long[] {out.rel(), out.abs()};
    }

    /** The functions that compile a regular expression, with the position of the pattern. */
    public static Map<String, Integer> patterns() {
        Map<String, Integer> out = new TreeMap<>();
        for (String name : FunctionCosts.names()) {
            FunctionCosts.patternArgument(name).ifPresent(p -> out.put(name, p));
        }
        return out;
    }
}
