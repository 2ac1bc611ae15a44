package dev.sqlguard.app;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.UUID;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.Operation;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.RowPolicy;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.ports.TableDescription;

/**
 * One caller of a {@link SqlGuard} (a tenant, a user), made by {@link SqlGuard#withAttributes}: the
 * same {@code query} and {@code check} as the facade, each call carrying this caller's attributes,
 * which the sources' row filters bind. A host makes one per principal it has authenticated, for
 * example per request; it is cheap (no engine of its own) and thread-safe. The facade owns the
 * engines: closing the facade ends every handle.
 */
public final class GuardedCaller {
    private final SqlGuard guard;
    private final Map<String, String> attributes;

    GuardedCaller(SqlGuard guard, Map<String, String> attributes) {
        this.guard = requireNonNull(guard, "guard is null");
        this.attributes = requireNonNull(attributes, "attributes is null");
    }

    /** The caller's attributes: names in lower case, in name order. */
    public Map<String, String> attributes() {
        return attributes;
    }

    /** {@link SqlGuard#query(String, String, List)} as this caller. */
    public ToolResult query(String source, String sql, List<?> params) {
        return guard.call(source, sql, params, UUID.randomUUID().toString(), Operation.QUERY, attributes);
    }

    public ToolResult query(String source, String sql) {
        return query(source, sql, List.of());
    }

    /**
     * Runs a prepared request as this caller. A request that carries attributes other than this
     * caller's is refused ({@code INVALID_ARGUMENT}): the handle fixes who the caller is.
     */
    public ToolResult query(QueryRequest request) {
        return request(request, Operation.QUERY);
    }

    /** {@link SqlGuard#check(String, String, List)} as this caller: the SQL that would run, or the refusal. */
    public ToolResult check(String source, String sql, List<?> params) {
        return guard.call(source, sql, params, UUID.randomUUID().toString(), Operation.CHECK, attributes);
    }

    public ToolResult check(String source, String sql) {
        return check(source, sql, List.of());
    }

    /** Checks a prepared request as this caller; see {@link #query(QueryRequest)}. */
    public ToolResult check(QueryRequest request) {
        return request(request, Operation.CHECK);
    }

    /**
     * {@link SqlGuard#describe(String)} as this caller may see it: a table with a row filter or a
     * mask shows no row count (the engine's count is every caller's rows).
     *
     * @throws dev.sqlguard.domain.GuardException as {@link SqlGuard#describe(String)} does
     */
    public List<TableDescription> describe(String source) {
        List<TableDescription> tables = guard.describe(source);
        RowPolicy rows = guard.rowPolicy(source);
        if (rows.isEmpty()) {
            return tables;
        }
        return tables.stream().map(t -> rows.governs(t.table())
                ? new TableDescription(t.table(), t.columns(), OptionalLong.empty()) : t).toList();
    }

    /**
     * This caller's {@link GuardedCalls} entry, without starting any source: for a surface that
     * records its own refusals (a batch line it cannot read) as the facade records its calls.
     */
    public GuardedCalls calls() {
        return GuardedCalls.of(guard, attributes);
    }

    /**
     * {@link SqlGuard#guardedPath(List)} for this caller: the agent's tools and the MCP server built
     * on it run every statement with this caller's attributes.
     */
    public GuardedPath guardedPath(List<String> sourceIds) {
        return guard.guardedPath(sourceIds, attributes);
    }

    private ToolResult request(QueryRequest request, Operation operation) {
        if (request == null) {
            return guard.call(null, null, List.of(), UUID.randomUUID().toString(), operation, attributes);
        }
        if (!request.attributes().isEmpty() && !request.attributes().equals(attributes)) {
            return guard.refuse(request.sourceId(), request.sql(), request.requestId(), operation,
                    new GuardException(ErrorCode.INVALID_ARGUMENT,
                            "The request carries caller attributes of its own; a caller handle fixes them."));
        }
        return guard.call(request.sourceId(), request.sql(), request.params(), request.requestId(), operation, attributes);
    }

    @Override
    public String toString() {
        return "GuardedCaller" + attributes.keySet(); // the values identify a tenant: not in logs
    }
}
