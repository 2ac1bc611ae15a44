package dev.sqlguard.trino.internal;

import java.util.Set;
import java.util.TreeSet;

import dev.sqlguard.domain.CostClass;
import dev.sqlguard.jdbc.ansi.FunctionRules;
import dev.sqlguard.testing.prover.CatalogClasses;

/**
 * The catalog prover's view of a {@link FunctionRules}: every classified function with the class
 * {@link FunctionRules#argumentClass} gives each argument, plus the casts to text the renderer writes
 * ({@code cast:<type>}, total where {@link FunctionRules#totalCast} says so).
 */
record RulesClasses(FunctionRules rules, Set<String> casts) implements CatalogClasses {
    static final Set<String> TEXT_CASTS = Set.of("cast:text", "cast:varchar", "cast:varchar(3)", "cast:char(3)");

    @Override
    public Set<String> functions() {
        Set<String> out = new TreeSet<>(rules.classes().keySet());
        out.addAll(casts);
        return out;
    }

    @Override
    public CostClass argument(String function, int position) {
        if (function.startsWith("cast:")) {
            return rules.totalCast(function.substring("cast:".length())) ? CostClass.TOTAL : CostClass.PARTIAL;
        }
        return rules.argumentClass(function, position, rules.costClass(function).orElseThrow());
    }
}
