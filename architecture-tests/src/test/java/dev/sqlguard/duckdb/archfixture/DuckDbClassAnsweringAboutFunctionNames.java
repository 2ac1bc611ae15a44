package dev.sqlguard.duckdb.archfixture;

import java.util.Map;
import java.util.Set;

import dev.sqlguard.domain.FunctionFacts;
import dev.sqlguard.domain.GuardrailPolicy;

/**
 * Good: an adapter answering the host's question about the names it is asked about, and asking the domain's
 * decision on a call; it never reads the configured lists.
 */
public final class DuckDbClassAnsweringAboutFunctionNames {
    public FunctionFacts facts(Set<String> functions, Set<String> tableFunctions) {
        return FunctionFacts.allKnown("DuckDB", functions, tableFunctions);
    }

    public FunctionFacts none() {
        return new FunctionFacts("DuckDB", Map.of(), Map.of());
    }

    public void call(GuardrailPolicy policy, String name) {
        policy.requireFunction(name);
    }
}
