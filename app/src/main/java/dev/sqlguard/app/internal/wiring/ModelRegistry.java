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
import dev.sqlguard.ports.model.ModelPortFactory;

/** The model plug-ins found on the class path, by exact name. Two with one name are an error. */
public final class ModelRegistry {
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

    public SortedSet<String> names() {
        return Collections.unmodifiableSortedSet(new TreeSet<>(factories.keySet()));
    }
}
