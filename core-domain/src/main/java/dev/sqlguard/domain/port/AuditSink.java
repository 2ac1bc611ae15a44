package dev.sqlguard.domain.port;

/**
 * Where the use case reports what it did. Implementations must not block for long. A sink that
 * cannot record an event (a full disk, a deleted file, a closed stream) throws: whether the call
 * then fails closed (no result returned, the default) or continues is the use case's
 * {@link dev.sqlguard.domain.QueryService.AuditFailure} setting, never the sink's choice.
 */
public interface AuditSink {
    /**
     * One event for every call, rejected ones included, written (and flushed) before the call's
     * result is returned.
     *
     * @throws RuntimeException when the event could not be recorded
     */
    void audit(AuditEvent event);

    /**
     * The start of a statement, only for calls whose execution was authorized (validation passed):
     * one {@code STARTED} record, written (and flushed) before the statement runs. Its end is the
     * call's {@link #audit} event (same request id), so a call writes at most two records; a
     * {@code STARTED} record without an event is a statement whose call never ended (the process
     * was killed while it ran).
     *
     * @throws RuntimeException when the record could not be written (the statement then does not run)
     */
    default void lifecycle(LifecycleRecord record) {
    }

    /** A sink that drops everything. */
    static AuditSink discarding() {
        return event -> { };
    }
}
