package dev.sqlguard.app.agent;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Locale;

import dev.sqlguard.app.GuardedPath;
import dev.sqlguard.ports.Engine;

/**
 * One data source the agent may use: a started engine and the name of the engine factory that
 * built it ({@code duckdb}, {@code mysql}, ...). The name picks the SQL dialect the agent's own
 * generated SQL (summary statistics, charts) is written in; an unknown name gets a conservative
 * dialect that uses plain identifiers only.
 */
public record AgentSource(Engine engine, String engineName) {
    public AgentSource {
        requireNonNull(engine, "engine is null");
        requireNonNull(engineName, "engineName is null");
        engineName = engineName.strip().toLowerCase(Locale.ROOT);
        if (engineName.isEmpty()) {
            throw new IllegalArgumentException("engineName is blank");
        }
    }

    /** The sources of a facade's guarded path. */
    public static List<AgentSource> of(GuardedPath path) {
        return path.sources().stream().map(s -> new AgentSource(s.engine(), s.engineName())).toList();
    }

    public String id() {
        return engine.sourceId();
    }
}
