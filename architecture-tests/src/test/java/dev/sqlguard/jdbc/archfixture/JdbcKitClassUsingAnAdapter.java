package dev.sqlguard.jdbc.archfixture;

import dev.sqlguard.duckdb.DuckDbEngineFactory;

/** Deliberately bad: the JDBC kit naming an adapter. */
public final class JdbcKitClassUsingAnAdapter {
    public String engine() {
        return new DuckDbEngineFactory().name();
    }
}
