package dev.sqlguard.ports;

import java.util.Set;

/**
 * The engine SPI, shaped like Trino's {@code ConnectorFactory}. An engine module ships one
 * implementation and names it in {@code META-INF/services/dev.sqlguard.ports.EngineFactory}; the
 * app discovers factories with {@link java.util.ServiceLoader} and picks one by its exact
 * {@link #name()}. Grow this interface only with default methods.
 */
public interface EngineFactory {
    /** The exact name a configuration uses in {@code engine:}, e.g. {@code duckdb}. */
    String name();

    /**
     * Builds an engine for one source. Checks the configuration completely before returning.
     *
     * @throws dev.sqlguard.domain.GuardException with {@code CONFIGURATION_ERROR} and a safe
     *     message naming the bad property when the configuration is invalid, or
     *     {@code ENGINE_UNAVAILABLE} when the database cannot be reached
     */
    Engine create(EngineConfig config, EngineContext context);

    /** Property names whose values must be masked in logs and errors. */
    default Set<String> sensitivePropertyNames() {
        return Set.of("password");
    }

    /** Property names this engine understands; others are refused by the app's config reader. */
    default Set<String> propertyNames() {
        return Set.of();
    }
}
