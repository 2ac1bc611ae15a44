package dev.sqlguard.app.internal.wiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.sqlguard.domain.Operation;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.AuditEvent;

class JsonLinesAuditSinkTest {
    @TempDir
    Path dir;

    private static AuditEvent event(String id) {
        return new AuditEvent(id, "s", Operation.QUERY, ToolStatus.OK, Optional.empty(), "00", Set.of(), 1, 0, Instant.EPOCH);
    }

    @Test
    void everyLineIsOnDiskWhenTheCallReturns() throws Exception {
        Path file = dir.resolve("state/audit.jsonl");
        try (JsonLinesAuditSink sink = JsonLinesAuditSink.appendingTo(file)) {
            sink.audit(event("a"));
            assertThat(Files.readAllLines(file)).singleElement().asString().contains("\"a\"");
        }
    }

    @Test
    void aFileDeletedWhileOpenIsCreatedAgain() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        try (JsonLinesAuditSink sink = JsonLinesAuditSink.appendingTo(file)) {
            sink.audit(event("before"));
            Files.delete(file);
            sink.audit(event("after"));
            assertThat(Files.readAllLines(file)).singleElement().asString().contains("\"after\"");
        }
    }

    @Test
    void aFullDiskThrowsSoThatTheCallCanFailClosed() {
        Path full = Path.of("/dev/full");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isWritable(full), "/dev/full is not available here");
        try (JsonLinesAuditSink sink = JsonLinesAuditSink.appendingTo(full)) {
            assertThatThrownBy(() -> sink.audit(event("lost"))).isInstanceOf(UncheckedIOException.class);
        }
    }

    @Test
    void aStreamThatRefusesALineThrows() {
        PrintStream closed = new PrintStream(new OutputStream() {
            @Override
            public void write(int b) throws java.io.IOException {
                throw new java.io.IOException("closed");
            }
        }, true, StandardCharsets.UTF_8);
        JsonLinesAuditSink sink = JsonLinesAuditSink.to(closed);
        assertThatThrownBy(() -> sink.audit(event("lost"))).isInstanceOf(UncheckedIOException.class);
        ByteArrayOutputStream ok = new ByteArrayOutputStream();
        JsonLinesAuditSink.to(new PrintStream(ok, true, StandardCharsets.UTF_8)).audit(event("kept"));
        assertThat(ok.toString(StandardCharsets.UTF_8)).contains("\"kept\"");
    }
}
