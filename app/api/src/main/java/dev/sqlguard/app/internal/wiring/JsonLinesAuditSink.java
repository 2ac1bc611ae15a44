package dev.sqlguard.app.internal.wiring;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
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
 * file, and flushes it before returning. Never to standard output, which carries results only. A
 * line that cannot be written (a full disk, a closed stream) makes the call throw, so that the use
 * case can fail closed; a file deleted while the sink is open is created again at the next line.
 * Thread-safe.
 */
public final class JsonLinesAuditSink implements AuditSink, AutoCloseable {
    private final PrintStream stream;
    private final Path file;
    private OutputStream out;

    private JsonLinesAuditSink(PrintStream stream, Path file, OutputStream out) {
        this.stream = stream;
        this.file = file;
        this.out = out;
    }

    /** The configured audit: appended to its file, else written to {@code stream}. */
    public static JsonLinesAuditSink of(AuditConfig config, PrintStream stream) {
        return config.file().map(JsonLinesAuditSink::appendingTo).orElseGet(() -> to(stream));
    }

    public static JsonLinesAuditSink to(PrintStream stream) {
        return new JsonLinesAuditSink(requireNonNull(stream, "stream is null"), null, null);
    }

    /** Appends to {@code file}, creating it (and its folder) when needed. */
    public static JsonLinesAuditSink appendingTo(Path file) {
        try {
            return new JsonLinesAuditSink(null, file.toAbsolutePath(), open(file.toAbsolutePath()));
        } catch (IOException | UnsupportedOperationException e) {
            throw new ConfigException("audit.file: the audit file cannot be opened for appending.");
        }
    }

    private static OutputStream open(Path file) throws IOException {
        Path parent = file.getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        return Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
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
        if (file == null) {
            synchronized (stream) {
                stream.println(json);
                stream.flush();
                if (stream.checkError()) {
                    throw new UncheckedIOException(new IOException("the audit stream refused a line"));
                }
            }
            return;
        }
        byte[] bytes = (json + "\n").getBytes(StandardCharsets.UTF_8);
        synchronized (this) {
            try {
                if (out == null || !Files.exists(file)) {
                    // deleted (or rotated away) while open: start a new file rather than write into an unlinked one
                    closeQuietly();
                    out = open(file);
                }
                out.write(bytes);
                out.flush();
            } catch (IOException e) {
                closeQuietly();
                throw new UncheckedIOException(e);
            }
        }
    }

    private void closeQuietly() {
        if (out != null) {
            try {
                out.close();
            } catch (IOException ignored) {
                // the stream is gone either way
            }
            out = null;
        }
    }

    @Override
    public synchronized void close() {
        closeQuietly();
    }
}
