package dev.sqlguard.duckdb.archfixture;

import java.util.Set;

import dev.sqlguard.domain.GuardrailPolicy;

/** Deliberately bad: an adapter that rewrites the policy's function list. */
public final class DuckDbClassWideningTheFunctionList {
    public GuardrailPolicy widen(GuardrailPolicy policy) {
        return policy.withFunctions(Set.of("upper", "getenv"));
    }
}
