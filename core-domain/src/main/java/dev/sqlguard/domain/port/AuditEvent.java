package dev.sqlguard.domain.port;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.LimitKind;
import dev.sqlguard.domain.Operation;
import dev.sqlguard.domain.ToolStatus;

/**
 * One audit event per call. It carries a hash of the SQL, never the SQL or any value.
 *
 * @param verdict the call's status
 * @param code the error code, when the call failed
 * @param sqlSha256 hex SHA-256 of the SQL text the model sent
 * @param caller who sent the call, as the surface that received it knows (the MCP request id and
 *     client name), when it knows
 * @param attributes the caller's attributes that the call's row filters bound ({@link dev.sqlguard.domain.RowPolicy});
 *     empty when none applied
 */
public record AuditEvent(
        String requestId,
        String source,
        Operation operation,
        ToolStatus verdict,
        Optional<ErrorCode> code,
        String sqlSha256,
        Set<LimitKind> limitsHit,
        long durationMs,
        int rowCount,
        Instant at,
        Optional<Caller> caller,
        Map<String, String> attributes) {

    public AuditEvent {
        requireNonNull(requestId, "requestId is null");
        requireNonNull(source, "source is null");
        requireNonNull(operation, "operation is null");
        requireNonNull(verdict, "verdict is null");
        requireNonNull(code, "code is null");
        requireNonNull(sqlSha256, "sqlSha256 is null");
        limitsHit = Set.copyOf(limitsHit);
        requireNonNull(at, "at is null");
        requireNonNull(caller, "caller is null");
        attributes = Map.copyOf(requireNonNull(attributes, "attributes is null"));
    }

    /** An event without applied attributes. */
    public AuditEvent(String requestId, String source, Operation operation, ToolStatus verdict, Optional<ErrorCode> code,
                      String sqlSha256, Set<LimitKind> limitsHit, long durationMs, int rowCount, Instant at,
                      Optional<Caller> caller) {
        this(requestId, source, operation, verdict, code, sqlSha256, limitsHit, durationMs, rowCount, at, caller, Map.of());
    }

    /** An event without a known caller. */
    public AuditEvent(String requestId, String source, Operation operation, ToolStatus verdict, Optional<ErrorCode> code,
                      String sqlSha256, Set<LimitKind> limitsHit, long durationMs, int rowCount, Instant at) {
        this(requestId, source, operation, verdict, code, sqlSha256, limitsHit, durationMs, rowCount, at, Optional.empty(), Map.of());
    }

    /** This event with {@code caller} recorded. */
    public AuditEvent withCaller(Caller caller) {
        return new AuditEvent(requestId, source, operation, verdict, code, sqlSha256, limitsHit, durationMs, rowCount, at,
                Optional.of(caller), attributes);
    }

    /**
     * Who sent a call, so that an audit record can be matched to the client's own log.
     *
     * @param requestId the client's id of the request (an MCP JSON-RPC id as text), at most 256 characters
     * @param client the client's name as it introduced itself (MCP {@code clientInfo.name}), or empty
     */
    public record Caller(String requestId, String client) {
        public static final int MAX_LENGTH = 256;

        public Caller {
            requireNonNull(requestId, "requestId is null");
            requireNonNull(client, "client is null");
            requestId = bounded(requestId);
            client = bounded(client);
        }

        private static String bounded(String text) {
            return text.length() <= MAX_LENGTH ? text : text.substring(0, MAX_LENGTH);
        }
    }
}
