package dev.sqlguard.duckdb.internal;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.sqlguard.domain.CostClass;
import dev.sqlguard.testing.prover.CatalogClasses;

/**
 * The catalog prover's view of {@link FunctionCosts} (every classified function that is called by
 * name) and of {@link Casts} ({@code cast:<from>-><to>}), with entries a test may flip.
 *
 * @param flippedFunctions functions whose class a test replaces
 * @param parameterArguments the per-argument partial positions (normally {@link FunctionCosts#PARAMETER_ARGUMENTS})
 * @param casts the casts to prove
 * @param flippedCasts casts a test claims total
 */
record DuckDbClasses(Map<String, CostClass> flippedFunctions, Map<String, Set<Integer>> parameterArguments, Set<String> casts,
                     Set<String> flippedCasts) implements CatalogClasses {
    /** Casts to text and the widening ones {@link Casts} calls total, plus narrowing ones it calls partial. */
    static final Set<String> CASTS = Set.of("cast:INTEGER->VARCHAR", "cast:BIGINT->VARCHAR", "cast:DOUBLE->VARCHAR",
            "cast:DECIMAL->VARCHAR", "cast:DATE->VARCHAR", "cast:TIMESTAMP->VARCHAR", "cast:INTERVAL->VARCHAR",
            "cast:BOOLEAN->VARCHAR", "cast:BLOB->VARCHAR", "cast:INTEGER->BIGINT", "cast:INTEGER->DOUBLE", "cast:BIGINT->DOUBLE",
            "cast:SMALLINT->HUGEINT", "cast:FLOAT->DOUBLE", "cast:INTEGER->DECIMAL(10,0)", "cast:BIGINT->DECIMAL(19,0)",
            "cast:DECIMAL->DECIMAL(20,3)", "cast:DECIMAL->DOUBLE", "cast:BIGINT->INTEGER", "cast:VARCHAR->INTEGER");

    static DuckDbClasses catalog() {
        return new DuckDbClasses(Map.of(), FunctionCosts.PARAMETER_ARGUMENTS, CASTS, Set.of());
    }

    @Override
    public Set<String> functions() {
        Set<String> out = new TreeSet<>();
        for (String name : FunctionCosts.names()) {
            if (name.matches("[a-z_][a-z0-9_]*") && !FunctionDefaults.isNever(name)) {
                out.add(name);
            }
        }
        out.addAll(casts);
        return out;
    }

    @Override
    public CostClass argument(String function, int position) {
        if (function.startsWith("cast:")) {
            if (flippedCasts.contains(function)) {
                return CostClass.TOTAL;
            }
            String[] types = function.substring("cast:".length()).split("->");
            return Casts.cannotFail(type(types[0].equals("DECIMAL") ? "DECIMAL(18,3)" : types[0]), type(types[1]))
                    ? CostClass.TOTAL : CostClass.PARTIAL;
        }
        CostClass function0 = flippedFunctions.getOrDefault(function, FunctionCosts.of(function).orElseThrow().costClass());
        return function0 == CostClass.TOTAL && parameterArguments.getOrDefault(function, Set.of()).contains(position)
                ? CostClass.PARTIAL : function0;
    }

    /** A plan type object as DuckDB's bound plan writes it ({@code {"id": "DECIMAL", "type_info": {...}}}). */
    private static JsonNode type(String name) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        int paren = name.indexOf('(');
        if (paren < 0) {
            return node.put("id", name);
        }
        String[] ws = name.substring(paren + 1, name.length() - 1).split(",");
        node.put("id", name.substring(0, paren));
        node.putObject("type_info").put("width", Integer.parseInt(ws[0].strip())).put("scale", Integer.parseInt(ws[1].strip()));
        return node;
    }
}
