package dev.sqlguard.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.Resources;

import dev.sqlguard.app.fake.FakeEngineFactory;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.port.AuditEvent;

/**
 * The audit destination of an embedded {@link SqlGuard} is an explicit choice: the SLF4J logger
 * {@code sqlguard.audit} by default (EmbeddedStderrTest sees the lines arrive there from a child
 * JVM), a file, stderr, or the application's own sink; the last one chosen wins. Nothing is
 * written on stderr unless stderr was chosen.
 */
@ResourceLock(Resources.SYSTEM_ERR)
class AuditDestinationTest {
    @TempDir
    Path dir;

    private static SqlGuard.Builder builder() {
        return SqlGuard.builder().engine(new FakeEngineFactory("handmade"))
                .source("s", "handmade", Map.of("rows", "1"), GuardrailPolicy.defaults());
    }

    private static String stderrOf(SqlGuard.Builder builder) {
        PrintStream saved = System.err;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try (SqlGuard guard = builder.build()) {
            guard.query("s", "SELECT n FROM t");
        } finally {
            System.setErr(saved);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void byDefaultNothingGoesToStderr() {
        assertThat(stderrOf(builder())).isEmpty();
        assertThat(stderrOf(builder().auditToStderr().auditToLogger())).as("the last choice wins").isEmpty();
    }

    @Test
    void stderrWhenAskedAsTheCliWritesIt() {
        assertThat(stderrOf(builder().auditToStderr())).contains("\"type\":\"audit\"");
    }

    @Test
    void aFileOrTheApplicationsSinkAndTheLastChoiceWins() throws Exception {
        Path file = dir.resolve("audit/a.jsonl");
        List<AuditEvent> events = new ArrayList<>();
        assertThat(stderrOf(builder().auditSink(events::add).auditFile(file))).isEmpty();
        assertThat(Files.readString(file)).contains("\"type\":\"audit\"");
        assertThat(events).isEmpty();

        assertThat(stderrOf(builder().auditFile(dir.resolve("b.jsonl")).auditSink(events::add))).isEmpty();
        assertThat(events).hasSize(1);
        assertThat(dir.resolve("b.jsonl")).doesNotExist();
    }
}
