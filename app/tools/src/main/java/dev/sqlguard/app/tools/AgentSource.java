package dev.sqlguard.app.tools;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.sqlguard.app.GuardedPath;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineDialect;
import dev.sqlguard.ports.EngineFactory;

/**
 * One data source the agent may use: a started engine, the name of the engine factory that built it
 * ({@code duckdb}, {@code mysql}, ...) and the SQL dialect that factory declares. The dialect is
 * what the agent's own generated SQL (summary statistics, charts) is written in and what the system
 * prompt tells the model; an engine that declares none gets {@link EngineDialect#PLAIN}, which
 * uses plain identifiers only.
 *
 * <p>{@code attributes} are the caller's ({@link GuardedPath#attributes()}): every statement the
 * agent's tools run on this source carries them, and its row filters bind them. The model never
 * sees or sets them.
 */
public record AgentSource(Engine engine, String engineName, EngineDialect dialect, Map<String, String> attributes) {
    public AgentSource {
        requireNonNull(engine, "engine is null");
        requireNonNull(engineName, "engineName is null");
        engineName = engineName.strip().toLowerCase(Locale.ROOT);
        if (engineName.isEmpty()) {
            throw new IllegalArgumentException("engineName is blank");
        }
        requireNonNull(dialect, "dialect is null");
        attributes = Map.copyOf(requireNonNull(attributes, "attributes is null"));
    }

    /** A source used by a caller without attributes. */
    public AgentSource(Engine engine, String engineName, EngineDialect dialect) {
        this(engine, engineName, dialect, Map.of());
    }

    /** An engine built by {@code factory}: the factory's name and dialect. */
    public static AgentSource of(Engine engine, EngineFactory factory) {
        return new AgentSource(engine, factory.name(), factory.dialect());
    }

    /** The sources of a facade's guarded path, used with the path's caller attributes. */
    public static List<AgentSource> of(GuardedPath path) {
        return path.sources().stream().map(s -> new AgentSource(s.engine(), s.engineName(), s.dialect(), path.attributes())).toList();
    }

    public String id() {
        return engine.sourceId();
    }
}
