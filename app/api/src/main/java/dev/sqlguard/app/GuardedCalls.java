package dev.sqlguard.app;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Operation;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.SourceBinding;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.TableDescription;

/**
 * The one entry through which every surface built on sqlguard (the CLI, the MCP server, the
 * agent's tools and planner, an embedding host) runs a statement: each call is checked, bounded
 * and audited by the use case, carries this entry's caller attributes, and, for an entry made by a
 * {@link SqlGuard} ({@link SqlGuard#guardedPath}, {@link GuardedCaller#guardedPath}):
 * <ul>
 *   <li>has every known secret removed from its error message, exactly as {@link SqlGuard#query};</li>
 *   <li>is waited for by {@link SqlGuard#close()}, as the facade's own calls are; a call that comes
 *       after close runs nothing and ends {@code ENGINE_UNAVAILABLE};</li>
 *   <li>reaches the source through the facade, so a source that was down is opened again, within
 *       the call's time limit.</li>
 * </ul>
 * An entry made by {@link #over(QueryService, java.util.function.Function)} runs on engines the host holds itself (no facade:
 * nothing to mask by configuration, nothing to wait for). Thread-safe.
 */
public final class GuardedCalls {
    private final SqlGuard guard;
    private final QueryService service;
    private final Function<Engine, GuardrailPolicy> configured;
    private final Map<String, String> attributes;

    private GuardedCalls(SqlGuard guard, QueryService service, Function<Engine, GuardrailPolicy> configured,
                         Map<String, String> attributes) {
        this.guard = guard;
        this.service = service;
        this.configured = configured;
        this.attributes = Map.copyOf(requireNonNull(attributes, "attributes is null"));
    }

    /** The entry of {@code guard} for a caller with these (checked) attributes. */
    static GuardedCalls of(SqlGuard guard, Map<String, String> attributes) {
        return new GuardedCalls(requireNonNull(guard, "guard is null"), null, null, attributes);
    }

    /**
     * An entry on a use case the host built itself, for engines it holds (tests, a host without a
     * facade): calls are checked, bounded and audited by {@code service} against the policy
     * {@code configured} gives for each engine (the host's configuration of that source; the engine's
     * reported defaults are filled in, nothing else of the engine's is taken); their requests carry their
     * own attributes.
     */
    public static GuardedCalls over(QueryService service, Function<Engine, GuardrailPolicy> configured) {
        return new GuardedCalls(null, requireNonNull(service, "service is null"), requireNonNull(configured, "configured is null"),
                Map.of());
    }

    /** The caller's attributes every call through a facade's entry carries; empty for none (and for {@link #over}). */
    public Map<String, String> attributes() {
        return attributes;
    }

    /**
     * Validates and runs {@code request} on {@code engine} (the engine of {@code request}'s source).
     * Never throws for a bad request or a source that is down: the outcome is the result.
     */
    public ToolResult query(Engine engine, QueryRequest request) {
        requireNonNull(engine, "engine is null");
        requireNonNull(request, "request is null");
        if (guard == null) {
            long opening = System.nanoTime();
            SourceBinding binding;
            try {
                binding = engine.binding(configured.apply(engine)); // a source that is down is opened again here
            } catch (GuardException e) {
                // audited like any call, with the time the attempt to open the source took
                return service.sourceFailed(request, e, Operation.QUERY, (System.nanoTime() - opening) / 1_000_000);
            }
            return service.query(binding, request);
        }
        if (!request.attributes().isEmpty() && !request.attributes().equals(attributes)) {
            return reject(request.requestId(), request.sourceId(), request.sql(), new GuardException(ErrorCode.INVALID_ARGUMENT,
                    "The request carries caller attributes of its own; a caller handle fixes them."));
        }
        return guard.callWhileOpen(request.sourceId(), request.sql(), request.params(), request.requestId(), Operation.QUERY,
                attributes);
    }

    /**
     * The allowlisted catalog of {@code engine}'s source, as the engine reports it.
     *
     * @throws GuardException the engine's error (masked), or {@code ENGINE_UNAVAILABLE} once the facade is closed
     */
    public List<TableDescription> catalog(Engine engine) {
        requireNonNull(engine, "engine is null");
        if (guard == null) {
            return engine.catalog().tables();
        }
        return guard.guarded(() -> engine.catalog().tables());
    }

    /** A query refused before any engine sees it: audited, no database call. */
    public ToolResult reject(String requestId, String sourceId, String sql, GuardException error) {
        return reject(requestId, sourceId, sql, error, Operation.QUERY);
    }

    /** A request refused before any engine sees it, audited as {@code operation}; no database call. */
    public ToolResult reject(String requestId, String sourceId, String sql, GuardException error, Operation operation) {
        requireNonNull(operation, "operation is null");
        if (guard == null) {
            return service.reject(requestId, sourceId, sql, error, operation);
        }
        return guard.refuseWhileOpen(sourceId, sql, requestId, operation, error);
    }

    /**
     * Stops the call with this request id, as a timeout does ({@link SqlGuard#cancel}). Returns
     * whether a running statement was found.
     */
    public boolean cancel(String requestId) {
        requireNonNull(requestId, "request id is null");
        return guard == null ? service.cancel(requestId) : guard.cancelQuietly(requestId);
    }

    @Override
    public String toString() {
        return "GuardedCalls" + attributes.keySet(); // the values identify a tenant: not in logs
    }
}
