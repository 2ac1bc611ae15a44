package dev.sqlguard.app.internal.wiring;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.sqlguard.app.internal.json.AuditJson;
import dev.sqlguard.domain.port.AuditEvent;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.domain.port.LifecycleRecord;

/**
 * The embedding API's default audit destination: one JSON line per call at INFO on the SLF4J
 * logger {@value #LOGGER}, and the start of each statement that runs (its lifecycle record {@code STARTED}) at
 * DEBUG. Whether and where the lines are written is the application's logging configuration; with
 * no SLF4J provider on the class path, SLF4J drops them. A logger never refuses a line, so a call
 * is never refused for its audit here. Thread-safe.
 */
public final class LoggerAuditSink implements AuditSink {
    /** The logger's name. */
    public static final String LOGGER = "sqlguard.audit";

    private final Logger log;

    public LoggerAuditSink() {
        this(LoggerFactory.getLogger(LOGGER));
    }

    LoggerAuditSink(Logger log) {
        this.log = log;
    }

    @Override
    public void audit(AuditEvent event) {
        if (log.isInfoEnabled()) {
            log.info(AuditJson.write(event));
        }
    }

    @Override
    public void lifecycle(LifecycleRecord record) {
        if (log.isDebugEnabled()) {
            log.debug(AuditJson.write(record));
        }
    }
}
