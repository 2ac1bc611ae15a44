package dev.sqlguard.domain;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

import dev.sqlguard.domain.port.AuditEvent;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.domain.port.LifecycleRecord;
import dev.sqlguard.domain.port.LifecycleRecord.Phase;
import dev.sqlguard.domain.port.ResultCursor;

/**
 * The use case that runs one tool call: validate, plan, authorize, execute, project, record.
 *
 * <p>Every outcome is a {@link ToolResult}; nothing throws to the caller. A refused request is
 * {@code REJECTED} and makes no database call; once a plan is authorized, a failure is an
 * {@code ERROR}. Every call, refused or not, produces one {@link AuditEvent}, written before its
 * result is returned: the call's one record of its outcome. A statement that runs also has its
 * start on record before it runs (one {@link LifecycleRecord} {@code STARTED}, same request id),
 * so that a statement whose call never ends (the process killed while it runs, a hang) is still on
 * record: an executed query makes two writes, any other call one. When the audit sink cannot record
 * a write, the call fails closed by default ({@link AuditFailure#REFUSE}): the query does not
 * start when its start cannot be recorded, and a result whose audit event cannot be written is
 * replaced by an {@link ErrorCode#AUDIT_UNAVAILABLE} error without rows. Thread-safe.
 */
public final class QueryService {
    private static final Logger LOG = Logger.getLogger(QueryService.class.getName());

    /** What a call does when its audit record cannot be written. */
    public enum AuditFailure {
        /** No result without an audit record: the call fails with {@link ErrorCode#AUDIT_UNAVAILABLE}. */
        REFUSE,
        /** The result is returned anyway; the lost record is logged as a warning. */
        CONTINUE
    }

    private final AuditSink audit;
    private final Clock clock;
    private final AuditFailure onAuditFailure;
    /** Calls running now, by request id: what {@link #cancel(String)} stops. */
    private final java.util.concurrent.ConcurrentHashMap<String, ResultCursor> running = new java.util.concurrent.ConcurrentHashMap<>();
    /** Request ids cancelled before their query started: they never start. */
    private final java.util.Set<String> cancelledEarly = java.util.concurrent.ConcurrentHashMap.newKeySet();

    public QueryService(AuditSink audit, Clock clock, AuditFailure onAuditFailure) {
        this.audit = requireNonNull(audit, "audit is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.onAuditFailure = requireNonNull(onAuditFailure, "onAuditFailure is null");
    }

    public QueryService(AuditSink audit, Clock clock) {
        this(audit, clock, AuditFailure.REFUSE);
    }

    public QueryService(AuditSink audit) {
        this(audit, Clock.systemUTC());
    }

    /** Validates and runs the request. */
    public ToolResult query(SourceBinding source, QueryRequest request) {
        return call(source, request, Operation.QUERY, System.nanoTime());
    }

    /** Validates the request without running it: status OK (with the SQL that would run) or REJECTED. */
    public ToolResult check(SourceBinding source, QueryRequest request) {
        return call(source, request, Operation.CHECK, System.nanoTime());
    }

    /** Runs {@code operation} on the request. */
    public ToolResult run(Operation operation, SourceBinding source, QueryRequest request) {
        return call(source, request, requireNonNull(operation, "operation is null"), System.nanoTime());
    }

    /**
     * Runs {@code operation} on a request that was accepted at {@code acceptedNanos} (a
     * {@link System#nanoTime()} value): the call's one deadline ({@link CallDeadline}) and its
     * {@code elapsed_ms} count from then, so time the host spent before (starting the source's
     * engine, say) is part of the call.
     */
    public ToolResult run(Operation operation, SourceBinding source, QueryRequest request, long acceptedNanos) {
        return call(source, request, requireNonNull(operation, "operation is null"), acceptedNanos);
    }

    /**
     * Stops the call with this request id, as a timeout does: a running query is cancelled on its
     * engine and the call returns {@link ErrorCode#CANCELLED}; a call that has not started yet
     * will not start. Returns whether a running query was found. Safe from any thread.
     */
    public boolean cancel(String requestId) {
        ResultCursor cursor = running.get(requestId);
        if (cursor != null) {
            cursor.cancel();
            return true;
        }
        cancelledEarly.add(requestId);
        if (cancelledEarly.size() > 10_000) {
            cancelledEarly.clear(); // bounded: a cancel for a call that never came is forgotten
        }
        return false;
    }

    /** A result for a query that never reached a source (unknown source, malformed arguments). */
    public ToolResult reject(String requestId, String sourceId, String sql, GuardException error) {
        return reject(requestId, sourceId, sql, error, Operation.QUERY);
    }

    /** A result for a request that never reached a source, audited as {@code operation}. */
    public ToolResult reject(String requestId, String sourceId, String sql, GuardException error, Operation operation) {
        ToolResult result = ToolResult.failure(requestId, ToolStatus.REJECTED, sourceId, Optional.empty(), Set.of(), error, 0);
        return finish(result, operation, sql);
    }

    /**
     * A result for a request whose source could not start (for example, its database is
     * unreachable): {@code ERROR}, audited, and without lifecycle records since nothing ran.
     *
     * @param elapsedMs how long the attempt to start the source took
     */
    public ToolResult sourceFailed(QueryRequest request, GuardException error, Operation operation, long elapsedMs) {
        ToolResult result = ToolResult.failure(request.requestId(), ToolStatus.ERROR, request.sourceId(), Optional.empty(),
                Set.of(), error, Math.max(0, elapsedMs));
        return finish(result, operation, request.sql());
    }

    private ToolResult call(SourceBinding source, QueryRequest request, Operation operation, long start) {
        // one deadline for the whole call: validation's round trips to the engine draw on it too
        CallDeadline accepted = CallDeadline.of(start, source.policy().limits().timeout());
        QueryPlan plan;
        try (CallDeadline.Scope scope = accepted.enter()) {
            plan = plan(source, request);
        } catch (GuardException e) {
            if (accepted.expired() || e.code() == ErrorCode.ENGINE_UNAVAILABLE) {
                // the engine was asked and did not answer in time: not a refusal of the query
                GuardException reason = e.code() == ErrorCode.ENGINE_UNAVAILABLE ? e : new GuardException(ErrorCode.EXCEEDED_TIME_LIMIT);
                return finish(ToolResult.failure(request.requestId(), ToolStatus.ERROR, source.id(), Optional.empty(),
                        reason.code() == ErrorCode.EXCEEDED_TIME_LIMIT ? Set.of(LimitKind.TIMEOUT) : Set.of(), reason,
                        millisSince(start)), operation, request.sql());
            }
            return finish(ToolResult.failure(request.requestId(), ToolStatus.REJECTED, source.id(), Optional.empty(),
                    Set.of(), e, millisSince(start)), operation, request.sql());
        } catch (RuntimeException | StackOverflowError e) {
            LOG.log(Level.FINE, "validator failed", e);
            return finish(ToolResult.failure(request.requestId(), ToolStatus.REJECTED, source.id(), Optional.empty(),
                    Set.of(), new GuardException(ErrorCode.INTERNAL_ERROR), millisSince(start)), operation, request.sql());
        }
        if (operation == Operation.CHECK) {
            return finish(new ToolResult(request.requestId(), ToolStatus.OK, source.id(), Optional.of(plan.executableSql()),
                    List.of(), List.of(), false, Set.of(), Optional.empty(), millisSince(start)), operation, request.sql(), plan.attributes());
        }
        if (cancelledEarly.remove(request.requestId())) {
            return finish(ToolResult.failure(request.requestId(), ToolStatus.ERROR, source.id(), Optional.empty(), Set.of(),
                    new GuardException(ErrorCode.CANCELLED), millisSince(start)), operation, request.sql(), plan.attributes());
        }
        if (!recordStart(request, source)) {
            // the start of a query that runs must be on record before it runs
            return finish(ToolResult.failure(request.requestId(), ToolStatus.ERROR, source.id(), Optional.empty(), Set.of(),
                    new GuardException(ErrorCode.AUDIT_UNAVAILABLE), millisSince(start)), operation, request.sql(), plan.attributes());
        }
        CallDeadline call = CallDeadline.of(start, plan.limits().timeout());
        long deadline = call.deadlineNanos();
        // the cursor is cancellable from the moment it exists, while its statement is still starting
        java.util.function.Consumer<ResultCursor> created = c -> {
            running.put(request.requestId(), c);
            if (cancelledEarly.remove(request.requestId())) {
                c.cancel();
            }
        };
        try (CallDeadline.Scope scope = call.enter(); ResultCursor cursor = source.execution().execute(plan, created)) {
            created.accept(cursor);
            Projection projection;
            try {
                projection = new ResultProjector(source.policy()).project(cursor, plan, deadline);
            } finally {
                running.remove(request.requestId(), cursor);
            }
            ToolStatus status = projection.rows().isEmpty() ? ToolStatus.NO_EVIDENCE : ToolStatus.OK;
            ToolResult result = new ToolResult(request.requestId(), status, source.id(), Optional.of(plan.executableSql()),
                    projection.columns(), projection.rows(), projection.truncated(), projection.limitsHit(),
                    Optional.empty(), millisSince(start));
            // the audit event is the statement's end on record: no second lifecycle write
            return finish(result, operation, request.sql(), plan.attributes());
        } catch (GuardException e) {
            running.remove(request.requestId());
            return failed(source, request, plan, e, start, operation);
        } catch (RuntimeException e) {
            running.remove(request.requestId());
            LOG.log(Level.FINE, "execution failed", e);
            return failed(source, request, plan, new GuardException(ErrorCode.INTERNAL_ERROR), start, operation);
        }
    }

    private QueryPlan plan(SourceBinding source, QueryRequest request) {
        if (!request.sourceId().equals(source.id())) {
            throw new GuardException(ErrorCode.UNKNOWN_SOURCE, "The request names another source.");
        }
        int max = source.policy().limits().maxSqlLength();
        if (request.sql().length() > max) {
            throw new GuardException(ErrorCode.QUERY_TOO_LONG, "The SQL text is longer than " + max + " characters.");
        }
        if (request.sql().isBlank()) {
            throw new GuardException(ErrorCode.EMPTY_QUERY);
        }
        // the engine analyzes, the policy decides (once), then the engine may cross-check the plan
        QueryPlan plan = source.validator().validate(request, source.policy()::authorize);
        Parameters.requireCount(plan.parameters().size(), request.params().size());
        // the row filters' attributes come from the caller, never the model: a call without one fails closed
        return plan.withAttributes(request.attributes());
    }

    private ToolResult failed(SourceBinding source, QueryRequest request, QueryPlan plan, GuardException e,
                              long start, Operation operation) {
        Set<LimitKind> hit = EnumSet.noneOf(LimitKind.class);
        if (e.code() == ErrorCode.EXCEEDED_TIME_LIMIT) {
            hit.add(LimitKind.TIMEOUT);
        } else if (e.code() == ErrorCode.EXCEEDED_MEMORY_LIMIT) {
            hit.add(LimitKind.MEMORY);
        } else if (e.code() == ErrorCode.EXCEEDED_DISK_LIMIT) {
            hit.add(LimitKind.DISK);
        }
        ToolResult result = ToolResult.failure(request.requestId(), ToolStatus.ERROR, source.id(),
                Optional.of(plan.executableSql()), hit, e, millisSince(start));
        return finish(result, operation, request.sql(), plan.attributes());
    }

    /** Records the call's audit event; when that fails and the service fails closed, the result is withheld. */
    private ToolResult finish(ToolResult result, Operation operation, String sql) {
        return finish(result, operation, sql, java.util.Map.of());
    }

    /** {@link #finish(ToolResult, Operation, String)} recording the caller's attributes that the plan bound. */
    private ToolResult finish(ToolResult result, Operation operation, String sql, java.util.Map<String, String> attributes) {
        if (record(result, operation, sql, attributes)) {
            return result;
        }
        return auditLost(result);
    }

    /** The result to return when a record of it could not be written. */
    private ToolResult auditLost(ToolResult result) {
        if (onAuditFailure == AuditFailure.CONTINUE || result.error().map(e -> e.code() == ErrorCode.AUDIT_UNAVAILABLE).orElse(false)) {
            return result;
        }
        return ToolResult.failure(result.id(), ToolStatus.ERROR, result.source(), result.sql(), Set.of(),
                new GuardException(ErrorCode.AUDIT_UNAVAILABLE), result.elapsedMs());
    }

    private boolean record(ToolResult result, Operation operation, String sql, java.util.Map<String, String> attributes) {
        try {
            audit.audit(new AuditEvent(result.id(), result.source(), operation, result.status(),
                    result.error().map(ToolError::code), auditHash(sql), result.limitsHit(), result.elapsedMs(),
                    result.returnedCount(), clock.instant(), Optional.empty(), attributes));
            return true;
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "an audit record could not be written (" + e.getClass().getSimpleName() + ")"
                    + (onAuditFailure == AuditFailure.REFUSE ? "; the call's result is withheld" : ""));
            return false;
        }
    }

    /**
     * The start of a statement, on record before it runs: the one record left of a call that never
     * ends (its end is its audit event).
     */
    private boolean recordStart(QueryRequest request, SourceBinding source) {
        try {
            audit.lifecycle(new LifecycleRecord(request.requestId(), source.id(), Phase.STARTED, Optional.empty(), clock.instant()));
            return true;
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "a lifecycle record could not be written (" + e.getClass().getSimpleName() + ")");
            return onAuditFailure == AuditFailure.CONTINUE;
        }
    }

    private static long millisSince(long startNanos) {
        return Math.max(0, (System.nanoTime() - startNanos) / 1_000_000);
    }

    /** SQL hashes by text: an agent repeats its statements, and the plan cache already keeps one plan per text. */
    private final java.util.concurrent.ConcurrentHashMap<String, String> hashes = new java.util.concurrent.ConcurrentHashMap<>();
    /** Texts whose hash is kept; past it the cache starts over (the hash is then computed again, never wrong). */
    static final int HASHED_TEXTS = 256;
    /** Texts longer than this are hashed on every call rather than kept as keys. */
    static final int HASHED_TEXT_CHARS = 4096;

    /** {@link #sha256} of the call's SQL, computed once per text. */
    String auditHash(String sql) {
        if (sql == null || sql.length() > HASHED_TEXT_CHARS) {
            return sha256(sql);
        }
        String known = hashes.get(sql);
        if (known != null) {
            return known;
        }
        String hash = sha256(sql);
        if (hashes.size() >= HASHED_TEXTS) {
            hashes.clear();
        }
        hashes.put(sql, hash);
        return hash;
    }

    /** Hex SHA-256 of the UTF-8 text: audit records identify SQL without storing it. */
    public static String sha256(String text) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(digest.digest(text == null ? new byte[0] : text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from the JDK", e);
        }
    }
}
