package dev.sqlguard.duckdb.archfixture;

import dev.sqlguard.app.archfixture.AppThing;

/** Deliberately bad: an adapter depending on the composition root. */
public final class DuckDbClassUsingApp {
    public String up() {
        return new AppThing().toString();
    }
}
