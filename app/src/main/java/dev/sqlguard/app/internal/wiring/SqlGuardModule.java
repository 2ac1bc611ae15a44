package dev.sqlguard.app.internal.wiring;

import static java.util.Objects.requireNonNull;

import java.io.PrintStream;
import java.time.Clock;
import java.util.Optional;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;

import dev.sqlguard.app.SqlGuardConfig;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.port.AuditSink;

/**
 * Wires the application: the configuration, the discovered engines, the audit sink, the clock and
 * the domain use case. The {@link dev.sqlguard.app.SqlGuard} facade is built from these bindings.
 */
public final class SqlGuardModule extends AbstractModule {
    private final SqlGuardConfig config;
    private final EngineRegistry engines;
    private final Optional<AuditSink> auditOverride;
    private final PrintStream stderr;

    /**
     * @param auditOverride a caller-supplied sink; when empty, the configured file or {@code stderr}
     * @param stderr where audit lines go when no file is configured
     */
    public SqlGuardModule(SqlGuardConfig config, EngineRegistry engines, Optional<AuditSink> auditOverride, PrintStream stderr) {
        this.config = requireNonNull(config, "config is null");
        this.engines = requireNonNull(engines, "engines is null");
        this.auditOverride = requireNonNull(auditOverride, "auditOverride is null");
        this.stderr = requireNonNull(stderr, "stderr is null");
    }

    @Override
    protected void configure() {
        bind(SqlGuardConfig.class).toInstance(config);
        bind(EngineRegistry.class).toInstance(engines);
        bind(Clock.class).toInstance(Clock.systemUTC());
    }

    @Provides
    @Singleton
    AuditSink auditSink() {
        if (auditOverride.isPresent()) {
            return auditOverride.get();
        }
        return config.audit().file()
                .<AuditSink>map(JsonLinesAuditSink::appendingTo)
                .orElseGet(() -> JsonLinesAuditSink.to(stderr));
    }

    @Provides
    @Singleton
    QueryService queryService(AuditSink audit, Clock clock) {
        return new QueryService(audit, clock);
    }
}
