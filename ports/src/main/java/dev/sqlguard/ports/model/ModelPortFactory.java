package dev.sqlguard.ports.model;

import java.util.Map;
import java.util.Set;

/**
 * The model SPI, shaped like {@link dev.sqlguard.ports.EngineFactory}. A model module ships one
 * implementation and names it in {@code META-INF/services/dev.sqlguard.ports.model.ModelPortFactory};
 * the app discovers factories with {@link java.util.ServiceLoader} and picks one by its exact
 * {@link #name()}, so it never imports an adapter class. Grow this interface only with default
 * methods.
 */
public interface ModelPortFactory {
    /** The exact name a configuration uses to pick this factory, e.g. {@code openai}. */
    String name();

    /**
     * Builds a model port. Checks the settings completely before returning; makes no network call.
     *
     * @param settings the {@code model:} section of the configuration, already resolved from
     *     {@code ${ENV}} references (keys such as {@code baseUrl}, {@code model}, {@code apiKey});
     *     may be empty
     * @param environment the process environment (the app passes {@link System#getenv()}, tests
     *     their own map); the factory reads its documented variables from it for settings that
     *     {@code settings} does not give
     * @throws dev.sqlguard.domain.GuardException with {@code CONFIGURATION_ERROR} and a safe
     *     message naming the bad or missing setting; the message never contains a credential
     */
    ModelPort create(Map<String, String> settings, Map<String, String> environment);

    /** Setting names whose values must be masked in logs and errors. */
    default Set<String> sensitivePropertyNames() {
        return Set.of("apiKey");
    }

    /** Setting names this factory understands; {@link #create} refuses others. Empty means not declared. */
    default Set<String> propertyNames() {
        return Set.of();
    }
}
