package dev.sqlguard.ports;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * An {@link EngineFactory} whose name, settings and dialect are fixed values given once to its
 * constructor, so that an adapter's factory writes only {@link #create}. Trino's
 * {@code JdbcConnectorFactory} is built the same way. Implementing {@link EngineFactory} directly
 * stays just as valid.
 */
public abstract class AbstractEngineFactory implements EngineFactory {
    private final String name;
    private final List<PropertySpec> properties;
    private final EngineDialect dialect;

    /**
     * @param name the exact {@code engine:} value
     * @param properties every setting the engine understands ({@link EngineFactory#properties()})
     * @param dialect how the host writes SQL for the engine ({@link EngineFactory#dialect()})
     * @throws IllegalArgumentException when the name is blank or two settings share a name
     */
    protected AbstractEngineFactory(String name, List<PropertySpec> properties, EngineDialect dialect) {
        this.name = requireNonNull(name, "name is null");
        if (name.isBlank()) {
            throw new IllegalArgumentException("name is blank");
        }
        this.properties = PropertySpecs.of(requireNonNull(properties, "properties is null")).list();
        this.dialect = requireNonNull(dialect, "dialect is null");
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final List<PropertySpec> properties() {
        return properties;
    }

    @Override
    public final EngineDialect dialect() {
        return dialect;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + name + "]";
    }
}
