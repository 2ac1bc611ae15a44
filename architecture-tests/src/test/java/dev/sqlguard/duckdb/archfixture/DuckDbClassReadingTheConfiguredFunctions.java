package dev.sqlguard.duckdb.archfixture;

import dev.sqlguard.domain.GuardrailPolicy;

/** Deliberately bad: an adapter that reads the configured function list at start to decide on it itself. */
public final class DuckDbClassReadingTheConfiguredFunctions {
    public boolean configurable(GuardrailPolicy configured) {
        return !configured.functions().contains("nosuchfunc");
    }
}
