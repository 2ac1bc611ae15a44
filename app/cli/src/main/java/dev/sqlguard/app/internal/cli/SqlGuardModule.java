package dev.sqlguard.app.internal.cli;

import static java.util.Objects.requireNonNull;

import java.io.PrintStream;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;

import dev.sqlguard.app.SqlGuard;
import dev.sqlguard.app.SqlGuardConfig;
import dev.sqlguard.domain.port.AuditSink;

/**
 * Binds the CLI's application for Guice, which wires the agent commands ({@code ask}, {@code eval}):
 * the construction {@link CliWiring} does (one audit sink and the {@link SqlGuard} facade on it).
 * The commands that start often use {@link CliWiring} without a container.
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
    SqlGuard sqlGuard(AuditSink audit) {
        return CliWiring.sqlGuard(resolved, audit);
    }

    /**
     * Wires a {@link SqlGuard} on {@code resolved} with the CLI's audit (the configured file, else
     * stderr) through Guice, as the agent commands do. It lives here, not in {@link Configs}, so
     * that the commands that never use Guice do not load its classes.
     *
     * @throws CommandExit with exit code 2 when the application cannot be wired
     */
    static SqlGuard open(Configs.Resolved resolved, CliContext ctx) {
        try {
            return com.google.inject.Guice.createInjector(new SqlGuardModule(resolved, ctx.stderr())).getInstance(SqlGuard.class);
        } catch (com.google.inject.ProvisionException | com.google.inject.CreationException e) {
            throw new CommandExit(ExitCodes.USAGE, e.getCause() instanceof dev.sqlguard.app.ConfigException c ? c.getMessage()
                    : "the application could not be wired.");
        }
    }
}
