package dev.sqlguard.duckdb.archfixture;

import com.google.inject.AbstractModule;

/** Deliberately bad: Guice outside app. */
public final class DuckDbClassUsingGuice extends AbstractModule {
}
