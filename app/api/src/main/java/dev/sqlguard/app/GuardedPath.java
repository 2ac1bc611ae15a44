package dev.sqlguard.app;

import static java.util.Objects.requireNonNull;

import java.util.List;

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
 */
public record GuardedPath(QueryService service, List<Source> sources) {
    public GuardedPath {
        requireNonNull(service, "service is null");
        sources = List.copyOf(sources);
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
