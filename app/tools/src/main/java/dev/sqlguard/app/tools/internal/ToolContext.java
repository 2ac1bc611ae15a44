package dev.sqlguard.app.tools.internal;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.sqlguard.app.internal.json.ToolResultJson;
import dev.sqlguard.app.tools.AgentSource;
import dev.sqlguard.app.tools.ToolOutcome;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.app.GuardedCalls;
import dev.sqlguard.domain.SafeText;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.ports.TableDescription;
import dev.sqlguard.ports.TableDescription.ColumnDescription;

/** What every tool shares: the sources, the guarded entry ({@link GuardedCalls}), and catalog lookups. */
public final class ToolContext {
    private static final Logger LOG = LoggerFactory.getLogger(ToolContext.class);

    private final GuardedCalls calls;
    private final Map<String, AgentSource> sources;

    public ToolContext(GuardedCalls calls, List<AgentSource> sources) {
        this.calls = requireNonNull(calls, "calls is null");
        Map<String, AgentSource> map = new LinkedHashMap<>();
        for (AgentSource source : sources) {
            if (map.put(source.id(), source) != null) {
                throw new IllegalArgumentException("source " + source.id() + " is listed twice");
            }
        }
        if (map.isEmpty()) {
            throw new IllegalArgumentException("no source");
        }
        this.sources = java.util.Collections.unmodifiableMap(map);
    }

    public List<String> sourceIds() {
        return List.copyOf(sources.keySet());
    }

    public List<AgentSource> sources() {
        return List.copyOf(sources.values());
    }

    /** A source named by validated arguments (the schema's enum admits known ids only). */
    public AgentSource source(String id) {
        AgentSource source = sources.get(id);
        if (source == null) {
            throw new GuardException(ErrorCode.UNKNOWN_SOURCE, "No data source has that name; sources: " + sources.keySet() + ".");
        }
        return source;
    }

    public static String newRequestId() {
        return UUID.randomUUID().toString();
    }

    /** The statements of one tool call, so that the call can be cancelled as a whole. */
    private static final class Scope {
        final java.util.Set<String> requests = java.util.concurrent.ConcurrentHashMap.newKeySet();
        volatile boolean cancelled;
    }

    /** The tool call running on this thread (a call runs on one thread from start to end). */
    private static final ThreadLocal<Scope> CURRENT = new ThreadLocal<>();
    private final Map<String, Scope> scopes = new java.util.concurrent.ConcurrentHashMap<>();
    /** Calls cancelled before they started: they start cancelled. */
    private final java.util.Set<String> cancelledEarly = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** Runs {@code body} as the tool call {@code callId}: its statements are what {@link #cancel} stops. */
    public <T> T within(String callId, java.util.function.Supplier<T> body) {
        Scope scope = new Scope();
        if (scopes.putIfAbsent(callId, scope) != null) {
            return body.get(); // the same id twice at once: the first one keeps the name
        }
        if (cancelledEarly.remove(callId)) {
            scope.cancelled = true;
        }
        Scope outer = CURRENT.get();
        CURRENT.set(scope);
        try {
            return body.get();
        } finally {
            CURRENT.set(outer);
            scopes.remove(callId, scope);
        }
    }

    /**
     * Stops the tool call {@code callId}: its running statement is cancelled on its engine and its
     * later statements do not start (each ends with {@code CANCELLED}); a call that has not started
     * yet starts cancelled. Returns whether the call was running.
     */
    public boolean cancel(String callId) {
        Scope scope = scopes.get(callId);
        if (scope == null) {
            if (cancelledEarly.size() >= 10_000) {
                cancelledEarly.clear(); // bounded: a cancel for a call that never came is forgotten
            }
            cancelledEarly.add(callId);
            scope = scopes.get(callId); // it may have started meanwhile
            if (scope == null) {
                return false;
            }
        }
        scope.cancelled = true;
        scope.requests.forEach(calls::cancel);
        return true;
    }

    /** A request id for a statement of the current call, cancelled at once when the call already is. */
    private String statementId() {
        String id = newRequestId();
        Scope scope = CURRENT.get();
        if (scope != null) {
            scope.requests.add(id);
            if (scope.cancelled) {
                calls.cancel(id);
            }
        }
        return id;
    }

    /** The allowlisted catalog of a source. */
    public List<TableDescription> catalog(AgentSource source) {
        try {
            return calls.catalog(source.engine());
        } catch (GuardException e) {
            throw e;
        } catch (RuntimeException e) {
            LOG.debug("catalog failed", e);
            throw new GuardException(ErrorCode.ENGINE_UNAVAILABLE, "The catalog of the source could not be read.");
        }
    }

    /** The catalog entry of a table the model named ({@code table} or {@code schema.table}, any case). */
    public TableDescription table(AgentSource source, String name) {
        String wanted = name.strip().toLowerCase(Locale.ROOT);
        for (TableDescription table : catalog(source)) {
            if (table.table().qualifiedName().equals(wanted) || table.table().table().equals(wanted)) {
                return table;
            }
        }
        throw new GuardException(ErrorCode.TABLE_NOT_ALLOWED, "Table " + SafeText.identifier(name)
                + " is not allowlisted on this source; call describe_source for the tables.");
    }

    /** The catalog entry of a column, refusing redacted columns (their values are never shown). */
    public ColumnDescription column(TableDescription table, String name) {
        for (ColumnDescription column : table.columns()) {
            if (column.name().equalsIgnoreCase(name.strip())) {
                if (column.redacted()) {
                    throw new GuardException(ErrorCode.COLUMN_NOT_ALLOWED, "Column " + SafeText.identifier(column.name())
                            + " is redacted on this source; its values cannot be summarised or plotted.");
                }
                return column;
            }
        }
        throw new GuardException(ErrorCode.COLUMN_NOT_ALLOWED, "Column " + SafeText.identifier(name) + " is not an allowlisted column of "
                + SafeText.identifier(table.table().qualifiedName()) + "; call describe_source for the columns.");
    }

    /** Runs one statement through the guarded entry, carrying the caller's attributes of the source. */
    public ToolResult run(AgentSource source, String sql, List<Object> params) {
        return calls.query(source.engine(), new QueryRequest(source.id(), sql, params, statementId(), source.attributes()));
    }

    /** A refusal on the guarded path (audited, no database call). */
    public ToolResult reject(String sourceId, String sql, GuardException error) {
        return calls.reject(newRequestId(), sourceId, sql, error);
    }

    /** A failure of a tool that runs no SQL (describe_source, clarify, unknown tools): not audited. */
    public static ToolResult failure(String sourceId, ToolStatus status, GuardException error) {
        return ToolResult.failure(newRequestId(), status, sourceId, Optional.empty(), Set.of(), error, 0);
    }

    /** The outcome of a call that produced exactly one result. */
    public static ToolOutcome outcome(String tool, ToolResult result) {
        return new ToolOutcome(tool, result.status(), AgentJson.write(ToolResultJson.toNode(result)),
                List.of(result), shownValues(result), Optional.empty(), Optional.empty(), result.error());
    }

    /** What the model sees of a result besides its cells: the number of rows it returned. */
    public static List<Object> shownValues(ToolResult result) {
        List<Object> values = new ArrayList<>();
        if (result.error().isEmpty()) {
            values.add((long) result.returnedCount());
        }
        return values;
    }
}
