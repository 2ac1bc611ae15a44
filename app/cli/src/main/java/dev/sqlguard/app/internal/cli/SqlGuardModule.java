package dev.sqlguard.app.internal.cli;

import static java.util.Objects.requireNonNull;

import java.io.PrintStream;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;

import dev.sqlguard.app.SqlGuard;
import dev.sqlguard.app.SqlGuardConfig;
import dev.sqlguard.app.internal.wiring.JsonLinesAuditSink;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.port.AuditSink;

/**
 * Wires the CLI's application from the resolved configuration and engines: one audit sink (the
 * configured file, else the CLI's stderr), the {@link SqlGuard} facade built on it (with exactly
 * the engines the CLI found), and a use case on the same sink for refusals that never reach the
 * facade (unreadable batch lines).
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
        return JsonLinesAuditSink.of(config.audit(), stderr);
    }

    @Provides
    @Singleton
    QueryService queryService(AuditSink audit, SqlGuardConfig config) {
        return new QueryService(audit, java.time.Clock.systemUTC(), config.audit().onFailure());
    }

    @Provides
    @Singleton
    SqlGuard sqlGuard(SqlGuardConfig config, AuditSink audit) {
        return SqlGuard.builder().config(config).engines(resolved.engines().factories()).auditSink(audit).build();
    }
}
