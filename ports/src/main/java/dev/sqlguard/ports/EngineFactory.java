package dev.sqlguard.ports;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

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
     * Builds an engine for one source. Checks the configuration completely before returning
     * ({@link EngineConfig#check} for the keys, then each value).
     *
     * @throws dev.sqlguard.domain.GuardException with {@code CONFIGURATION_ERROR} and a safe
     *     message naming the bad property when the configuration is invalid, or
     *     {@code ENGINE_UNAVAILABLE} when the database cannot be reached
     */
    Engine create(EngineConfig config, EngineContext context);

    /**
     * The settings this engine understands, with whether each is required, its default, whether
     * it is a secret and a description. The app refuses other keys and missing required ones while
     * it reads the configuration, naming the file, line and key, and masks the secret values.
     * Empty means not declared: every key is then accepted and handed to {@link #create}.
     */
    default List<PropertySpec> properties() {
        return List.of();
    }

    /**
     * The SQL dialect of this engine, for SQL the host writes itself (the agent's statistics and
     * charts) and for the agent's system prompt. Engines that do not declare one get
     * {@link EngineDialect#PLAIN}: unquoted plain identifiers and standard aggregates only.
     */
    default EngineDialect dialect() {
        return EngineDialect.PLAIN;
    }

    /**
     * Property names whose values must be masked in logs and errors: the sensitive ones of
     * {@link #properties()}, or {@code password} when none are declared.
     */
    default Set<String> sensitivePropertyNames() {
        if (properties().isEmpty()) {
            return Set.of("password");
        }
        return properties().stream().filter(PropertySpec::sensitive).map(PropertySpec::name).collect(Collectors.toUnmodifiableSet());
    }

    /** Property names this engine understands: those of {@link #properties()}. Empty means not declared. */
    default Set<String> propertyNames() {
        return properties().stream().map(PropertySpec::name).collect(Collectors.toUnmodifiableSet());
    }
}
