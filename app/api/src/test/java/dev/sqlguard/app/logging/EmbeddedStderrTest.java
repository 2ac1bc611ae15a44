package dev.sqlguard.app.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An embedding service owns stderr: sqlguard writes nothing there, neither driver stack traces
 * nor audit lines, with sources that fail. Its logs and audit go through SLF4J, where the
 * service's own configuration decides (here a capturing provider in a child JVM).
 */
@Timeout(180)
class EmbeddedStderrTest {
    @TempDir
    Path dir;

    @Test
    void anEmbeddedRunWithFailingSourcesPrintsNothingOnStderrAndAuditsThroughTheLogger() throws Exception {
        Path db = Files.createDirectories(dir.resolve("db")).resolve("d.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t AS SELECT 1 AS n");
        }
        int deadPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            deadPort = socket.getLocalPort();
        }
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dslf4j.provider=" + CapturingSlf4jProvider.class.getName(), "-Dslf4j.internal.verbosity=WARN",
                "-cp", System.getProperty("java.class.path"), EmbeddedRun.class.getName(), db.toString(),
                Integer.toString(deadPort))
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(child.waitFor(150, TimeUnit.SECONDS)).isTrue();
        List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
        String stderr = Files.readString(err, StandardCharsets.UTF_8);

        assertThat(child.exitValue()).as("stdout: %s%nstderr: %s", lines, stderr).isZero();
        assertThat(lines).filteredOn(l -> l.startsWith("RESULT ")).hasSize(3);
        assertThat(lines).filteredOn(l -> l.startsWith("RESULT pg ") || l.startsWith("RESULT my "))
                .allSatisfy(l -> assertThat(l).contains("ENGINE_UNAVAILABLE"));
        assertThat(stderr).as("stderr of the embedding service").isEmpty();
        assertThat(lines).as("one audit line per call, on the logger sqlguard.audit")
                .filteredOn(l -> l.startsWith("EVENT sqlguard.audit INFO {\"type\":\"audit\"")).hasSize(3);
    }
}
