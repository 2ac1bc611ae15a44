package dev.sqlguard.ports;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

import dev.sqlguard.domain.SensitiveNames;

/**
 * The settings one engine declares, and the one check of a source's keys against them: which keys
 * are settings, which values are secrets, and which required settings are missing. The app's
 * configuration reader, its builder and {@link EngineConfig#check} all ask this class, and only
 * word the answer differently.
 */
public final class PropertySpecs {
    private final Map<String, PropertySpec> byName;
    /** Whether every key is accepted: an engine that declares no setting at all. */
    private final boolean open;
    /** Secret names beyond the specs: a factory that declares only {@link EngineFactory#sensitivePropertyNames()}. */
    private final Set<String> alsoSensitive;

    private PropertySpecs(Map<String, PropertySpec> byName, boolean open, Set<String> alsoSensitive) {
        this.byName = Collections.unmodifiableMap(byName);
        this.open = open;
        this.alsoSensitive = Set.copyOf(alsoSensitive);
    }

    /**
     * Exactly these settings: any other key is unknown.
     *
     * @throws IllegalArgumentException when two specs share a name
     */
    public static PropertySpecs of(List<PropertySpec> specs) {
        Map<String, PropertySpec> byName = new LinkedHashMap<>();
        for (PropertySpec spec : requireNonNull(specs, "specs is null")) {
            if (byName.putIfAbsent(requireNonNull(spec, "spec is null").name(), spec) != null) {
                throw new IllegalArgumentException("the setting " + spec.name() + " is declared twice");
            }
        }
        return new PropertySpecs(byName, false, Set.of());
    }

    /**
     * What {@code factory} declares: its {@link EngineFactory#properties()}, or, for a factory
     * written before them, the names of {@link EngineFactory#propertyNames()} (all optional) and
     * {@link EngineFactory#sensitivePropertyNames()}. A factory that declares no name accepts every key.
     */
    public static PropertySpecs of(EngineFactory factory) {
        List<PropertySpec> declared = factory.properties();
        if (!declared.isEmpty()) {
            return of(declared);
        }
        Set<String> sensitive = factory.sensitivePropertyNames();
        List<PropertySpec> named = new ArrayList<>();
        for (String name : new TreeSet<>(factory.propertyNames())) {
            PropertySpec spec = PropertySpec.optional(name, "A setting of engine '" + factory.name() + "'.");
            named.add(sensitive.contains(name) ? spec.asSensitive() : spec);
        }
        return new PropertySpecs(of(named).byName, named.isEmpty(), sensitive);
    }

    /** Whether the settings are declared; an engine that declares none accepts every key. */
    public boolean declared() {
        return !open;
    }

    /** The specs, in declaration order. */
    public List<PropertySpec> list() {
        return List.copyOf(byName.values());
    }

    public Optional<PropertySpec> find(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** Whether {@code name} is a setting of the engine: a declared one, or any name when none is declared. */
    public boolean accepts(String name) {
        return open || byName.containsKey(name);
    }

    /**
     * Whether the value of {@code name} is a secret: a setting declared sensitive, or a key whose
     * name looks like one ({@link SensitiveNames}: {@code password}, {@code apiKey}, {@code token}, ...).
     */
    public boolean isSensitive(String name) {
        PropertySpec spec = byName.get(name);
        return (spec != null && spec.sensitive()) || alsoSensitive.contains(name) || SensitiveNames.isSensitive(name, Set.of());
    }

    /** Whether the value of {@code name} is a path, to resolve against the configuration file's folder. */
    public boolean isPath(String name) {
        PropertySpec spec = byName.get(name);
        return spec != null && spec.path();
    }

    /** The first key of {@code keys} (in sorted order) that is not a setting. */
    public Optional<String> firstUnknown(Collection<String> keys) {
        return new TreeSet<>(keys).stream().filter(key -> !accepts(key)).findFirst();
    }

    /** The required settings that {@code keys} leave out, in declaration order. */
    public List<PropertySpec> missing(Collection<String> keys) {
        return byName.values().stream().filter(spec -> spec.required() && !keys.contains(spec.name())).toList();
    }

    /** The declared names, sorted, for messages. */
    public SortedSet<String> names() {
        return Collections.unmodifiableSortedSet(new TreeSet<>(byName.keySet()));
    }
}
