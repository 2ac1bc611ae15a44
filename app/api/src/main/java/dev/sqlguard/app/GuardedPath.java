package dev.sqlguard.app;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;

import dev.sqlguard.domain.QueryService;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineDialect;
import dev.sqlguard.ports.EngineFactory;

/**
 * A {@link SqlGuard}'s guarded path on some of its sources, for the layers built on the facade
 * (the agent's tools and planner, the MCP server): the use case that checks, bounds and audits
 * every statement, and the sources' started engines.
 *
 * @param service the facade's use case, writing to its audit sink
 * @param sources the requested sources, in order
 * @param attributes the caller's attributes that every statement on this path carries (the row
 *     filters of {@code policy.rows} bind them); empty for a caller without any
 */
public record GuardedPath(QueryService service, List<Source> sources, Map<String, String> attributes) {
    public GuardedPath {
        requireNonNull(service, "service is null");
        sources = List.copyOf(sources);
        attributes = Map.copyOf(requireNonNull(attributes, "attributes is null"));
    }

    /** A path for a caller without attributes. */
    public GuardedPath(QueryService service, List<Source> sources) {
        this(service, sources, Map.of());
    }

    /**
     * One started source.
     *
     * @param engine its engine, started
     * @param engineName the name of the engine factory that built it ({@code duckdb}, {@code mysql}, ...)
     * @param dialect the SQL dialect that factory declares ({@link EngineFactory#dialect()})
     */
    public record Source(Engine engine, String engineName, EngineDialect dialect) {
        public Source {
            requireNonNull(engine, "engine is null");
            requireNonNull(engineName, "engineName is null");
            requireNonNull(dialect, "dialect is null");
        }
    }
}
