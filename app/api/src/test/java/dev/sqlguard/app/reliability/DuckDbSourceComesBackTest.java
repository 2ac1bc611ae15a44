package dev.sqlguard.app.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
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
        Process writer = HoldDuckDbWriter.holdNewClaimsFile(database);
        try {
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
