package dev.sqlguard.app.internal.mcp;

import static java.util.Objects.requireNonNull;

import java.util.function.Supplier;

import dev.sqlguard.domain.port.AuditEvent;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.domain.port.LifecycleRecord;

/**
 * An audit sink that records, on each audit event, the MCP request that caused it (the JSON-RPC id
 * and the client's name from {@code initialize}), so that an operator can match a record to the
 * client's own log. A tool call runs on one thread from start to end; {@link McpStdioServer} runs
 * it inside {@link #as}. Thread-safe.
 */
public final class CallerAudit implements AuditSink, AutoCloseable {
    private static final ThreadLocal<AuditEvent.Caller> CURRENT = new ThreadLocal<>();

    private final AuditSink delegate;

    private CallerAudit(AuditSink delegate) {
        this.delegate = requireNonNull(delegate, "delegate is null");
    }

    /** {@code delegate}, with each event of a call made inside {@link #as} carrying its caller. */
    public static CallerAudit tagging(AuditSink delegate) {
        return new CallerAudit(delegate);
    }

    /** Runs {@code body} on this thread as a call from {@code caller}. */
    static <T> T as(AuditEvent.Caller caller, Supplier<T> body) {
        AuditEvent.Caller outer = CURRENT.get();
        CURRENT.set(requireNonNull(caller, "caller is null"));
        try {
            return body.get();
        } finally {
            if (outer == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(outer);
            }
        }
    }

    @Override
    public void audit(AuditEvent event) {
        AuditEvent.Caller caller = CURRENT.get();
        delegate.audit(caller == null ? event : event.withCaller(caller));
    }

    @Override
    public void lifecycle(LifecycleRecord record) {
        delegate.lifecycle(record);
    }

    @Override
    public void close() throws Exception {
        if (delegate instanceof AutoCloseable closeable) {
            closeable.close();
        }
    }
}
