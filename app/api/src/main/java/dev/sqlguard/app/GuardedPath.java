package dev.sqlguard.app;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;

import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineDialect;
import dev.sqlguard.ports.EngineFactory;

/**
 * A {@link SqlGuard}'s guarded path on some of its sources, for the layers built on the facade
 * (the agent's tools and planner, the MCP server): the facade's {@link GuardedCalls} entry, through
 * which every statement is checked, bounded, audited, masked and waited for by
 * {@link SqlGuard#close()}, and the sources' started engines.
 *
 * @param calls the entry every statement on this path runs through, carrying the caller's
 *     attributes (the row filters of {@code policy.rows} bind them)
 * @param sources the requested sources, in order
 */
public record GuardedPath(GuardedCalls calls, List<Source> sources) {
    public GuardedPath {
        requireNonNull(calls, "calls is null");
        sources = List.copyOf(sources);
    }

    /** The caller's attributes that every statement on this path carries; empty for a caller without any. */
    public Map<String, String> attributes() {
        return calls.attributes();
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
