package dev.sqlguard.domain.port;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
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
        Instant at) {

    public AuditEvent {
        requireNonNull(requestId, "requestId is null");
        requireNonNull(source, "source is null");
        requireNonNull(operation, "operation is null");
        requireNonNull(verdict, "verdict is null");
        requireNonNull(code, "code is null");
        requireNonNull(sqlSha256, "sqlSha256 is null");
        limitsHit = Set.copyOf(limitsHit);
        requireNonNull(at, "at is null");
    }
}
