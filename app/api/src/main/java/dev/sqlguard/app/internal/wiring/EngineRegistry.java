package dev.sqlguard.app.internal.wiring;

import static java.util.Objects.requireNonNull;

import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

import dev.sqlguard.app.ConfigException;
import dev.sqlguard.ports.EngineFactory;

/** The engines found on the class path, by exact name. Two factories with one name are an error. */
public final class EngineRegistry {
    private final Map<String, EngineFactory> factories;

    private EngineRegistry(Map<String, EngineFactory> factories) {
        this.factories = Collections.unmodifiableMap(factories);
    }

    /** Discovers every {@link EngineFactory} through {@link java.util.ServiceLoader}. */
    public static EngineRegistry discover(ClassLoader classLoader, Consumer<String> warn) {
        return of(ServiceDiscovery.load(EngineFactory.class, classLoader, warn));
    }

    public static EngineRegistry discover() {
        return discover(EngineRegistry.class.getClassLoader(), ServiceDiscovery.WARN_TO_LOG);
    }

    /** A registry of exactly these factories; fails on a duplicate or blank name. */
    public static EngineRegistry of(Collection<? extends EngineFactory> found) {
        Map<String, EngineFactory> byName = new TreeMap<>();
        for (EngineFactory factory : found) {
            String name = requireNonNull(factory.name(), "engine name is null");
            if (name.isBlank()) {
                throw new ConfigException("The engine plug-in " + factory.getClass().getName() + " has a blank name.");
            }
            EngineFactory previous = byName.putIfAbsent(name, factory);
            if (previous != null) {
                throw new ConfigException("Two engine plug-ins are named '" + name + "': "
                        + previous.getClass().getName() + " and " + factory.getClass().getName()
                        + "; remove one of them from the class path.");
            }
        }
        return new EngineRegistry(byName);
    }

    /**
     * This registry and the engines an embedder plugged in by hand; an added engine whose name is
     * already taken is an error naming it.
     */
    public EngineRegistry with(Collection<? extends EngineFactory> added) {
        Map<String, EngineFactory> byName = new TreeMap<>(factories);
        for (EngineFactory factory : of(added).factories.values()) {
            EngineFactory previous = byName.putIfAbsent(factory.name(), factory);
            if (previous != null) {
                throw new ConfigException("The engine '" + factory.name() + "' added to the builder ("
                        + factory.getClass().getName() + ") has the name of an engine found on the class path ("
                        + previous.getClass().getName() + "); rename or remove one of them.");
            }
        }
        return new EngineRegistry(byName);
    }

    /** Every engine, ordered by name. */
    public List<EngineFactory> factories() {
        return List.copyOf(factories.values());
    }

    public Optional<EngineFactory> find(String name) {
        return Optional.ofNullable(factories.get(name));
    }

    /** The factory named exactly {@code name}, or an error listing the engines found. */
    public EngineFactory require(String name, String where) {
        EngineFactory factory = factories.get(name);
        if (factory == null) {
            throw new ConfigException(where + "unknown engine '" + printable(name) + "';" + suggestion(name)
                    + " engines found: " + (factories.isEmpty() ? "none" : String.join(", ", names())) + ".");
        }
        return factory;
    }

    /**
     * Other tools' names for the engines here (MCP Toolbox says {@code postgres}, JDBC URLs say
     * {@code mariadb}), each pointing at the engine name sqlguard uses.
     */
    private static final Map<String, String> OTHER_NAMES = Map.of(
            "postgres", "postgresql", "pg", "postgresql", "pgsql", "postgresql", "psql", "postgresql",
            "mariadb", "mysql", "duck", "duckdb", "presto", "trino");

    /** {@code " did you mean 'postgresql'?"} when a found engine is another tool's name for, or close to, {@code name}. */
    private String suggestion(String name) {
        String alias = OTHER_NAMES.get(name.toLowerCase(java.util.Locale.ROOT));
        java.util.List<String> close = alias != null && factories.containsKey(alias) ? java.util.List.of(alias)
                : name.length() < 4 ? java.util.List.<String>of() : dev.sqlguard.domain.Suggestions.closest(name, names(), 3);
        if (close.isEmpty()) {
            return "";
        }
        return " did you mean " + close.stream().map(n -> "'" + n + "'").collect(java.util.stream.Collectors.joining(" or ")) + "?";
    }

    private static String printable(String name) {
        return name.length() <= 64 && name.chars().allMatch(c -> c >= 0x20 && c < 0x7f) ? name : "(unprintable)";
    }

    public SortedSet<String> names() {
        return Collections.unmodifiableSortedSet(new TreeSet<>(factories.keySet()));
    }
}
