package dev.sqlguard.jdbc;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.ports.ComposedEngine;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineParts;
import dev.sqlguard.ports.EngineResources;

/**
 * The start of one JDBC source, the steps every JDBC adapter's {@code create} takes in this order:
 * <ol>
 * <li>the adapter's own: {@code config.check(PROPERTIES)}, its settings, the allowlisted policy,
 * and this start with its failure wording ({@link #JdbcEngineStart(String, Function)});</li>
 * <li>{@link #onBootstrap}: one connection for the server's checks (the session pins, the privilege
 * audit with {@link #readOnlyAccount}, the catalog and the row-policy check), closed at the end;</li>
 * <li>{@link #compose}: the running parts (watchdog, pools, executor, validator) on fresh
 * {@link EngineResources}, closed again when any of them fails, and the {@link ComposedEngine}.</li>
 * </ol>
 * Every failure is thrown as the adapter's start failure (normally {@link JdbcStartup#failure} with
 * the adapter's own sentences, where a {@link GuardException} of a check passes unchanged). The
 * adapter keeps its own parts (driver, driver properties, wording, server checks, catalog,
 * executor, validator) and takes its pools' settings from {@link JdbcPool}. Immutable.
 */
public final class JdbcEngineStart {
    private final String source;
    private final Function<Exception, GuardException> failure;

    /**
     * @param source the source's id ({@code config.sourceId()})
     * @param failure the adapter's start failure for an exception, in its own sentences, e.g.
     *     {@code e -> JdbcStartup.failure(source, e, configurationSentences, "the database could not be reached.")}
     */
    public JdbcEngineStart(String source, Function<Exception, GuardException> failure) {
        this.source = requireNonNull(source, "source is null");
        this.failure = requireNonNull(failure, "failure is null");
    }

    /** What to throw for {@code e}: the adapter's start failure ({@link JdbcStartup#failure} keeps a GuardException). */
    public GuardException failure(Exception e) {
        return failure.apply(e);
    }

    /** A connection to open, e.g. {@code () -> JdbcStartup.connect(DRIVER.get(), url, properties)}. */
    @FunctionalInterface
    public interface Opener {
        Connection open() throws SQLException;
    }

    /** The server checks run on the bootstrap connection, and what they found. */
    @FunctionalInterface
    public interface ServerChecks<T> {
        T run(Connection bootstrap) throws SQLException;
    }

    /** The running parts, each resource added to {@code resources} right after it is opened. */
    @FunctionalInterface
    public interface Assembly {
        EngineParts build(EngineResources resources) throws SQLException;
    }

    /**
     * Opens the bootstrap connection, runs {@code checks} on it and closes it. An
     * {@link SQLException} becomes {@link #failure}; a {@link GuardException} of a check passes.
     */
    public <T> T onBootstrap(Opener open, ServerChecks<T> checks) {
        try (Connection bootstrap = open.open()) {
            return checks.run(bootstrap);
        } catch (SQLException e) {
            throw failure(e);
        }
    }

    /**
     * Builds the running parts on new {@link EngineResources} and returns the engine over both. When a
     * step fails (an {@link SQLException} or any runtime exception, also from the engine's own
     * constructor), every resource added so far is closed, the last added first, and the failure is
     * thrown as {@link #failure}.
     */
    public Engine compose(Assembly assembly) {
        EngineResources resources = new EngineResources();
        try {
            return new ComposedEngine(assembly.build(resources), resources);
        } catch (SQLException | RuntimeException e) {
            resources.close();
            throw failure(e);
        }
    }

    /**
     * The read-only rule of the account a source logs in with. Nothing happens when {@code risky} is
     * empty. Else the message is "Source 'id': " + {@code holds} + {@code risky} + ". " + {@code advice}:
     * with {@code required} it is thrown as {@code CONFIGURATION_ERROR}; without, it is logged once at
     * WARN on {@code log} (the adapter's logger), followed by " sqlguard's own controls still apply."
     *
     * @param holds e.g. "the database account holds privileges beyond reading: "
     * @param advice e.g. "Use an account with SELECT on the allowlisted tables only."
     */
    public void readOnlyAccount(Logger log, boolean required, Set<String> risky, String holds, String advice) {
        if (risky.isEmpty()) {
            return;
        }
        String message = "Source '" + source + "': " + holds + risky + ". " + advice;
        if (required) {
            throw new GuardException(ErrorCode.CONFIGURATION_ERROR, message);
        }
        log.warn(message + " sqlguard's own controls still apply.");
    }
}
