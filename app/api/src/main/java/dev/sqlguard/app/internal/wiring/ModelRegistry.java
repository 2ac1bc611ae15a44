package dev.sqlguard.app.internal.wiring;

import static java.util.Objects.requireNonNull;

import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

import dev.sqlguard.app.ConfigException;
import dev.sqlguard.app.SqlGuardConfig.ModelConfig;
import dev.sqlguard.ports.model.ModelPort;
import dev.sqlguard.ports.model.ModelPortFactory;

/** The model plug-ins found on the class path, by exact name. Two with one name are an error. */
public final class ModelRegistry {
    /** The provider used when the configuration names none and several are present. */
    public static final String DEFAULT_PROVIDER = "openai";

    private final Map<String, ModelPortFactory> factories;

    private ModelRegistry(Map<String, ModelPortFactory> factories) {
        this.factories = Collections.unmodifiableMap(factories);
    }

    public static ModelRegistry discover(ClassLoader classLoader, Consumer<String> warn) {
        return of(ServiceDiscovery.load(ModelPortFactory.class, classLoader, warn));
    }

    public static ModelRegistry of(Collection<? extends ModelPortFactory> found) {
        Map<String, ModelPortFactory> byName = new TreeMap<>();
        for (ModelPortFactory factory : found) {
            String name = requireNonNull(factory.name(), "model provider name is null");
            ModelPortFactory previous = byName.putIfAbsent(name, factory);
            if (previous != null) {
                throw new ConfigException("Two model plug-ins are named '" + name + "': " + previous.getClass().getName()
                        + " and " + factory.getClass().getName() + "; remove one of them from the class path.");
            }
        }
        return new ModelRegistry(byName);
    }

    public Optional<ModelPortFactory> find(String name) {
        return Optional.ofNullable(factories.get(name));
    }

    /**
     * Builds the configured model port: the {@code model:} section's provider and settings, or,
     * without a section, the only provider found (else {@code openai}) with no settings, so that it
     * reads its documented environment variables. Makes no network call.
     *
     * @throws ConfigException when the provider is not on the class path
     * @throws dev.sqlguard.domain.GuardException {@code CONFIGURATION_ERROR} (from the plug-in) when
     *     a setting is missing or bad, e.g. no model is configured at all
     */
    public ModelPort create(Optional<ModelConfig> config, Map<String, String> environment) {
        requireNonNull(config, "config is null");
        requireNonNull(environment, "environment is null");
        String provider = config.map(ModelConfig::provider)
                .orElse(factories.size() == 1 ? factories.keySet().iterator().next() : DEFAULT_PROVIDER);
        ModelPortFactory factory = find(provider).orElseThrow(() -> new ConfigException("the model provider '" + provider
                + "' is not on the class path; providers found: " + (factories.isEmpty() ? "none" : String.join(", ", names()))));
        ModelPort port = factory.create(config.map(ModelConfig::settings).orElse(Map.of()), environment);
        return requireNonNull(port, "model factory returned null");
    }

    public SortedSet<String> names() {
        return Collections.unmodifiableSortedSet(new TreeSet<>(factories.keySet()));
    }
}
