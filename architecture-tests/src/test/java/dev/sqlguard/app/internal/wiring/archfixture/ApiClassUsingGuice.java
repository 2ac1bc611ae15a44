package dev.sqlguard.app.internal.wiring.archfixture;

import com.google.inject.AbstractModule;

/** Deliberately bad: Guice in the embedding API, which must be plain construction. */
public final class ApiClassUsingGuice extends AbstractModule {
}
