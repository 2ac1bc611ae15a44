package dev.sqlguard.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.AuditSink;

/** An embedding service stops a running call by its request id, as a timeout would. */
class CancelTest {
    @TempDir
    Path dir;

    private SqlGuard guard() throws Exception {
        Path database = dir.resolve("t.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + database); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t AS SELECT i AS id FROM range(3000) r(i)");
        }
        GuardrailPolicy policy = GuardrailPolicy.defaults().withLimits(Limits.defaults().withTimeout(java.time.Duration.ofMinutes(2)));
        return SqlGuard.builder().source("t", "duckdb", Map.of("database", database.toString()), policy)
                .auditSink(AuditSink.discarding()).build();
    }

    @Test
    @Timeout(60)
    void aRunningCallIsStoppedByItsRequestId() throws Exception {
        try (SqlGuard guard = guard()) {
            // 2.7e10 rows: runs until it is stopped
            QueryRequest request = QueryRequest.of("t", "SELECT count(*) AS n FROM t a, t b, t c WHERE a.id + b.id + c.id >= 0");
            CompletableFuture<ToolResult> call = CompletableFuture.supplyAsync(() -> guard.query(request));
            Thread.sleep(2000); // checked and started within milliseconds; it runs until stopped
            assertThat(call).as("the runaway query ended by itself").isNotDone();
            assertThat(guard.cancel(request.requestId())).as("a running statement was found").isTrue();
            ToolResult result = call.get(30, TimeUnit.SECONDS);
            assertThat(result.status()).isEqualTo(ToolStatus.ERROR);
            assertThat(result.error().orElseThrow().code()).isEqualTo(ErrorCode.CANCELLED);
            assertThat(result.id()).isEqualTo(request.requestId());

            assertThat(guard.query("t", "SELECT count(*) AS n FROM t").rows()).as("the source serves the next call")
                    .containsExactly(List.of(3000L));
        }
    }

    @Test
    void aCancelBeforeTheCallStartsMakesItStartCancelled() throws Exception {
        try (SqlGuard guard = guard()) {
            QueryRequest request = QueryRequest.of("t", "SELECT count(*) AS n FROM t");
            assertThat(guard.cancel(request.requestId())).as("nothing runs yet").isFalse();
            ToolResult result = guard.query(request);
            assertThat(result.error().orElseThrow().code()).isEqualTo(ErrorCode.CANCELLED);
            assertThat(guard.cancel("no-such-call")).isFalse();
            assertThatThrownBy(() -> guard.cancel(null)).isInstanceOf(NullPointerException.class);
        }
    }
}
