package dev.sqlguard.duckdb.archfixture;

import java.util.Set;

import dev.sqlguard.domain.GuardrailPolicy;

/** Deliberately bad: an adapter that computes the function list itself instead of asking the domain's decision. */
public final class DuckDbClassComputingTheFunctionList {
    public boolean allows(GuardrailPolicy policy, String name) {
        return policy.functionsOr(Set.of("upper")).contains(name);
    }
}
