package dev.sqlguard.testing.prover;

import java.util.Set;

import dev.sqlguard.domain.CostClass;

/**
 * What an engine's function catalog claims, as the {@link CatalogProver} reads it: the functions it
 * lets a query call and the class of each argument position. An adapter's test builds one over its
 * own catalog data, so that a copy with one entry flipped can be proven too.
 */
public interface CatalogClasses {
    /** Every function name the catalog lets a query call, lower case: the names to prove. */
    Set<String> functions();

    /**
     * The class the catalog gives one argument of one function: {@link CostClass#TOTAL} claims no value
     * of the argument's type makes the call fail and the output grows at most linearly with it;
     * {@link CostClass#PARTIAL} allows failures; {@link CostClass#AMPLIFYING} allows faster growth too.
     */
    CostClass argument(String function, int position);
}
