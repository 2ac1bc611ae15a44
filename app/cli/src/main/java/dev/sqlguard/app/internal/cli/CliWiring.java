package dev.sqlguard.app.internal.cli;

import java.io.PrintStream;

import dev.sqlguard.app.ConfigException;
import dev.sqlguard.app.SqlGuard;
import dev.sqlguard.app.SqlGuardConfig;
import dev.sqlguard.app.internal.wiring.JsonLinesAuditSink;
import dev.sqlguard.domain.port.AuditSink;

/**
 * How the CLI's application is built from the resolved configuration and engines: one audit sink
 * (the configured file, else the CLI's stderr) and the {@link SqlGuard} facade on it (with exactly the
 * engines the CLI found). Refusals that never reach an engine (unreadable batch lines) go through the
 * facade's {@link dev.sqlguard.app.GuardedCalls} entry too, so they are recorded on the same sink.
 *
 * <p>The commands that start often ({@code query}, {@code check}, {@code sources}, {@code mcp}) call
 * {@link #open} directly: a Guice injector costs a few hundred classes (Guice and Guava) and about a
 * tenth of a second of CPU at start-up, for two objects. {@link SqlGuardModule} binds the same
 * construction for the agent commands, which Guice wires.
 */
final class CliWiring {
    /** The wired application: the facade on the CLI's audit sink. */
    record App(SqlGuard guard) {
    }

    private CliWiring() {
    }

    static AuditSink auditSink(SqlGuardConfig config, PrintStream stderr) {
        return JsonLinesAuditSink.of(config.audit(), stderr);
    }

    static SqlGuard sqlGuard(Configs.Resolved resolved, AuditSink audit) {
        return SqlGuard.builder().config(resolved.config()).engines(resolved.engines().factories()).auditSink(audit).build();
    }

    /**
     * Wires the application on {@code resolved}, with audit lines on {@code stderr} unless a file is configured.
     *
     * @throws CommandExit with exit code 2 when it cannot be wired (the configuration error's own
     *     message when that is the cause)
     */
    static App open(Configs.Resolved resolved, PrintStream stderr) {
        return open(resolved, stderr, java.util.function.UnaryOperator.identity());
    }

    /** As {@link #open(Configs.Resolved, PrintStream)}, with the audit sink wrapped by {@code around}. */
    static App open(Configs.Resolved resolved, PrintStream stderr, java.util.function.UnaryOperator<AuditSink> around) {
        try {
            AuditSink audit = around.apply(auditSink(resolved.config(), stderr));
            return new App(sqlGuard(resolved, audit));
        } catch (ConfigException e) {
            throw new CommandExit(ExitCodes.USAGE, e.getMessage());
        } catch (RuntimeException e) {
            throw new CommandExit(ExitCodes.USAGE, "the application could not be wired.");
        }
    }
}
