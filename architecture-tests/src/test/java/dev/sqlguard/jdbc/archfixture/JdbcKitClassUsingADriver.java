package dev.sqlguard.jdbc.archfixture;

import org.duckdb.DuckDBStruct;

/** Deliberately bad: the JDBC kit naming one engine's driver type. */
public final class JdbcKitClassUsingADriver {
    public boolean isStruct(Object value) {
        return value instanceof DuckDBStruct;
    }
}
