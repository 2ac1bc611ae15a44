package dev.sqlguard.domain.port;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Optional;

import dev.sqlguard.domain.ErrorCode;

/**
 * A canonical lifecycle record, written only once a call is authorized (validation passed):
 * {@code STARTED} before execution begins. The use case writes no terminal record: the call's
 * {@link AuditEvent} (same request id) is its end on record. {@code COMPLETED} and {@code ERROR}
 * stay for sinks and tools that read older audit files.
 */
public record LifecycleRecord(String requestId, String source, Phase phase, Optional<ErrorCode> code, Instant at) {
    public enum Phase { STARTED, PROJECTING, COMPLETED, ERROR }

    public LifecycleRecord {
        requireNonNull(requestId, "requestId is null");
        requireNonNull(source, "source is null");
        requireNonNull(phase, "phase is null");
        requireNonNull(code, "code is null");
        requireNonNull(at, "at is null");
        if ((phase == Phase.ERROR) != code.isPresent()) {
            throw new IllegalArgumentException("only ERROR records carry a code");
        }
    }
}
