package dev.sqlguard.app.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.sqlguard.app.SourceStatus;
import dev.sqlguard.app.SqlGuard;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.AuditSink;

/**
 * A DuckDB file locked by a writer in another process (a running {@code load}) is listed as
 * unavailable, retryable, and is served again once the writer ends, without a restart.
 */
class DuckDbSourceComesBackTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void aFileLockedByAnotherProcessIsServedOnceTheLockIsReleased() throws Exception {
        Path database = dir.resolve("claims.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + database); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE claims AS SELECT 1 AS id, 'north' AS region");
        }
        Process writer = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), HoldDuckDbWriter.class.getName(), database.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("holding");

            GuardrailPolicy policy = GuardrailPolicy.defaults().withTables(TableAllowlist.of(Map.of("claims", List.of("id", "region"))));
            try (SqlGuard guard = SqlGuard.builder()
                    .source("claims", "duckdb", Map.of("database", database.toString()), policy)
                    .auditSink(AuditSink.discarding()).build()) {
                SourceStatus locked = guard.start("claims");
                assertThat(locked.available()).isFalse();
                assertThat(locked.error().orElseThrow().code()).isEqualTo(ErrorCode.ENGINE_UNAVAILABLE);
                assertThat(locked.error().orElseThrow().retryable()).isTrue();
                ToolResult refused = guard.query("claims", "SELECT region FROM claims");
                assertThat(refused.status()).isEqualTo(ToolStatus.ERROR);
                assertThat(refused.error().orElseThrow().code()).isEqualTo(ErrorCode.ENGINE_UNAVAILABLE);

                writer.getOutputStream().close(); // the load ends
                assertThat(writer.waitFor()).isZero();
                while (!guard.status().get(0).available()) { // reopened in the background
                    Thread.sleep(50);
                }
                ToolResult ok = guard.query("claims", "SELECT region FROM claims");
                assertThat(ok.status()).isEqualTo(ToolStatus.OK);
                assertThat(ok.rows()).containsExactly(List.of("north"));
            }
        } finally {
            writer.destroyForcibly();
        }
    }
}
