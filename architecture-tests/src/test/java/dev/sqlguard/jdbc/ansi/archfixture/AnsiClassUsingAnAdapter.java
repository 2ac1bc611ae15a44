package dev.sqlguard.jdbc.ansi.archfixture;

import dev.sqlguard.trino.TrinoEngineFactory;

/** Deliberately bad: the ANSI renderer naming an adapter instead of asking its dialect. */
public final class AnsiClassUsingAnAdapter {
    public String engine() {
        return new TrinoEngineFactory().name();
    }
}
