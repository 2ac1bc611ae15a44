package dev.sqlguard.domain.port;

/**
 * Where the use case reports what it did. Implementations must not block for long and must not
 * throw; the use case shields itself from sinks that do.
 */
public interface AuditSink {
    /** One event for every call, rejected ones included. */
    void audit(AuditEvent event);

    /**
     * Canonical lifecycle records, only for calls whose execution was authorized (validation
     * passed): one {@code STARTED} record and one terminal record ({@code COMPLETED} or {@code ERROR}).
     */
    default void lifecycle(LifecycleRecord record) {
    }

    /** A sink that drops everything. */
    static AuditSink discarding() {
        return event -> { };
    }
}
