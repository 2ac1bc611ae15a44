package dev.sqlguard.app.internal.cli;

import static java.util.Objects.requireNonNull;

import java.io.PrintStream;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;

import dev.sqlguard.app.SqlGuard;
import dev.sqlguard.app.SqlGuardConfig;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.port.AuditSink;

/**
 * Binds the CLI's application for Guice, which wires the agent commands ({@code ask}, {@code eval}):
 * the construction {@link CliWiring} does (one audit sink, the {@link SqlGuard} facade on it, a use
 * case on the same sink). The commands that start often use {@link CliWiring} without a container.
 */
final class SqlGuardModule extends AbstractModule {
    private final Configs.Resolved resolved;
    private final PrintStream stderr;

    /** @param stderr where audit lines go when no file is configured */
    SqlGuardModule(Configs.Resolved resolved, PrintStream stderr) {
        this.resolved = requireNonNull(resolved, "resolved is null");
        this.stderr = requireNonNull(stderr, "stderr is null");
    }

    @Override
    protected void configure() {
        bind(SqlGuardConfig.class).toInstance(resolved.config());
    }

    @Provides
    @Singleton
    AuditSink auditSink(SqlGuardConfig config) {
        return CliWiring.auditSink(config, stderr);
    }

    @Provides
    @Singleton
    QueryService queryService(AuditSink audit, SqlGuardConfig config) {
        return CliWiring.queryService(audit, config);
    }

    @Provides
    @Singleton
    SqlGuard sqlGuard(AuditSink audit) {
        return CliWiring.sqlGuard(resolved, audit);
    }
}
