package dev.sqlguard.app.internal.wiring;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import dev.sqlguard.app.ConfigException;
import dev.sqlguard.app.SqlGuardConfig.AuditConfig;
import dev.sqlguard.app.internal.json.AuditJson;
import dev.sqlguard.domain.port.AuditEvent;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.domain.port.LifecycleRecord;

/**
 * Writes one JSON line per audit event and lifecycle record, to standard error or appended to a
 * file. Never to standard output, which carries results only. Thread-safe; never throws.
 */
public final class JsonLinesAuditSink implements AuditSink, AutoCloseable {
    private final PrintStream out;
    private final boolean owned;

    private JsonLinesAuditSink(PrintStream out, boolean owned) {
        this.out = requireNonNull(out, "out is null");
        this.owned = owned;
    }

    /** The configured audit: appended to its file, else written to {@code stream}. */
    public static JsonLinesAuditSink of(AuditConfig config, PrintStream stream) {
        return config.file().map(JsonLinesAuditSink::appendingTo).orElseGet(() -> to(stream));
    }

    public static JsonLinesAuditSink to(PrintStream stream) {
        return new JsonLinesAuditSink(stream, false);
    }

    /** Appends to {@code file}, creating it (and its folder) when needed. */
    public static JsonLinesAuditSink appendingTo(Path file) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            OutputStream stream = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND,
                    StandardOpenOption.WRITE);
            return new JsonLinesAuditSink(new PrintStream(stream, true, StandardCharsets.UTF_8), true);
        } catch (IOException | UnsupportedOperationException e) {
            throw new ConfigException("audit.file: the audit file cannot be opened for appending.");
        }
    }

    @Override
    public void audit(AuditEvent event) {
        line(AuditJson.write(event));
    }

    @Override
    public void lifecycle(LifecycleRecord record) {
        line(AuditJson.write(record));
    }

    private void line(String json) {
        synchronized (out) {
            out.println(json);
            out.flush();
        }
    }

    @Override
    public void close() {
        if (owned) {
            out.close();
        }
    }
}
