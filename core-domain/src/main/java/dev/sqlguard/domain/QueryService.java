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
 * The use case that runs one tool call: validate, plan, execute, project, record.
 *
 * <p>Every outcome is a {@link ToolResult}; nothing throws to the caller. A refused request is
 * {@code REJECTED} and makes no database call (no lifecycle record); once a plan is authorized,
 * a failure is an {@code ERROR} with a lifecycle {@code ERROR} record. Every call, refused or not,
 * produces one {@link AuditEvent}. Thread-safe.
 */
public final class QueryService {
    private static final Logger LOG = Logger.getLogger(QueryService.class.getName());

    private final AuditSink audit;
    private final Clock clock;

    public QueryService(AuditSink audit, Clock clock) {
        this.audit = requireNonNull(audit, "audit is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    public QueryService(AuditSink audit) {
        this(audit, Clock.systemUTC());
    }

    /** Validates and runs the request. */
    public ToolResult query(SourceBinding source, QueryRequest request) {
        return call(source, request, true);
    }

    /** Validates the request without running it: status OK (with the SQL that would run) or REJECTED. */
    public ToolResult check(SourceBinding source, QueryRequest request) {
        return call(source, request, false);
    }

    /** A result for a query that never reached a source (unknown source, malformed arguments). */
    public ToolResult reject(String requestId, String sourceId, String sql, GuardException error) {
        return reject(requestId, sourceId, sql, error, true);
    }

    /**
     * A result for a request that never reached a source, audited as a {@code query} or, when
     * {@code execute} is false, a {@code check}.
     */
    public ToolResult reject(String requestId, String sourceId, String sql, GuardException error, boolean execute) {
        ToolResult result = ToolResult.failure(requestId, ToolStatus.REJECTED, sourceId, Optional.empty(), Set.of(), error, 0);
        emit(result, operation(execute), sql);
        return result;
    }

    /**
     * A result for a request whose source could not start (for example, its database is
     * unreachable): {@code ERROR}, audited, and without lifecycle records since nothing ran.
     */
    public ToolResult sourceFailed(QueryRequest request, GuardException error, boolean execute) {
        ToolResult result = ToolResult.failure(request.requestId(), ToolStatus.ERROR, request.sourceId(), Optional.empty(),
                Set.of(), error, 0);
        emit(result, operation(execute), request.sql());
        return result;
    }

    private static String operation(boolean execute) {
        return execute ? "query" : "check";
    }

    private ToolResult call(SourceBinding source, QueryRequest request, boolean execute) {
        long start = System.nanoTime();
        String operation = operation(execute);
        QueryPlan plan;
        try {
            plan = plan(source, request);
        } catch (GuardException e) {
            return finish(ToolResult.failure(request.requestId(), ToolStatus.REJECTED, source.id(), Optional.empty(),
                    Set.of(), e, millisSince(start)), operation, request.sql());
        } catch (RuntimeException | StackOverflowError e) {
            LOG.log(Level.FINE, "validator failed", e);
            return finish(ToolResult.failure(request.requestId(), ToolStatus.REJECTED, source.id(), Optional.empty(),
                    Set.of(), new GuardException(ErrorCode.INTERNAL_ERROR), millisSince(start)), operation, request.sql());
        }
        if (!execute) {
            return finish(new ToolResult(request.requestId(), ToolStatus.OK, source.id(), Optional.of(plan.executableSql()),
                    List.of(), List.of(), false, Set.of(), Optional.empty(), millisSince(start)), operation, request.sql());
        }
        lifecycle(request, source, Phase.STARTED, null);
        long deadline = start + plan.limits().timeout().toNanos();
        try (ResultCursor cursor = source.execution().execute(plan)) {
            Projection projection = new ResultProjector(source.policy()).project(cursor, plan, deadline);
            ToolStatus status = projection.rows().isEmpty() ? ToolStatus.NO_EVIDENCE : ToolStatus.OK;
            ToolResult result = new ToolResult(request.requestId(), status, source.id(), Optional.of(plan.executableSql()),
                    projection.columns(), projection.rows(), projection.truncated(), projection.limitsHit(),
                    Optional.empty(), millisSince(start));
            lifecycle(request, source, Phase.COMPLETED, null);
            return finish(result, operation, request.sql());
        } catch (GuardException e) {
            return failed(source, request, plan, e, start, operation);
        } catch (RuntimeException e) {
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
        QueryPlan plan = source.validator().validate(request);
        Parameters.requireCount(plan.parameters().size(), request.params().size());
        source.policy().authorize(plan);
        return plan;
    }

    private ToolResult failed(SourceBinding source, QueryRequest request, QueryPlan plan, GuardException e,
                              long start, String operation) {
        Set<LimitKind> hit = EnumSet.noneOf(LimitKind.class);
        if (e.code() == ErrorCode.EXCEEDED_TIME_LIMIT) {
            hit.add(LimitKind.TIMEOUT);
        } else if (e.code() == ErrorCode.EXCEEDED_MEMORY_LIMIT) {
            hit.add(LimitKind.MEMORY);
        }
        lifecycle(request, source, Phase.ERROR, e.code());
        return finish(ToolResult.failure(request.requestId(), ToolStatus.ERROR, source.id(),
                Optional.of(plan.executableSql()), hit, e, millisSince(start)), operation, request.sql());
    }

    private ToolResult finish(ToolResult result, String operation, String sql) {
        emit(result, operation, sql);
        return result;
    }

    private void emit(ToolResult result, String operation, String sql) {
        try {
            audit.audit(new AuditEvent(result.id(), result.source(), operation, result.status(),
                    result.error().map(ToolError::code), sha256(sql), result.limitsHit(), result.elapsedMs(),
                    result.returnedCount(), clock.instant()));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "audit sink failed: " + e.getClass().getSimpleName());
        }
    }

    private void lifecycle(QueryRequest request, SourceBinding source, Phase phase, ErrorCode code) {
        try {
            audit.lifecycle(new LifecycleRecord(request.requestId(), source.id(), phase, Optional.ofNullable(code), clock.instant()));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "audit sink failed: " + e.getClass().getSimpleName());
        }
    }

    private static long millisSince(long startNanos) {
        return Math.max(0, (System.nanoTime() - startNanos) / 1_000_000);
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
