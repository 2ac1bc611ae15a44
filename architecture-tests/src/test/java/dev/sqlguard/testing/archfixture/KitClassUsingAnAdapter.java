package dev.sqlguard.testing.archfixture;

import dev.sqlguard.duckdb.DuckDbEngineFactory;

/** Deliberately bad: the testing kit naming an adapter. */
public final class KitClassUsingAnAdapter {
    public String engine() {
        return new DuckDbEngineFactory().name();
    }
}
