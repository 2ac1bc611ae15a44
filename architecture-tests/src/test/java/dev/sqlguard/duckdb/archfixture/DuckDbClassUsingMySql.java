package dev.sqlguard.duckdb.archfixture;

import dev.sqlguard.mysql.archfixture.MySqlThing;

/** Deliberately bad: one adapter using another. */
public final class DuckDbClassUsingMySql {
    public String borrow() {
        return new MySqlThing().toString();
    }
}
