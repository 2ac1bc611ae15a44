package dev.sqlguard.app.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.sqlguard.app.SourceStatus;
import dev.sqlguard.app.SqlGuard;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.AuditSink;

/** The embedding API with the real MySQL engine on a port nothing listens on: no exception, a retryable status. */
@Timeout(120)
class UnreachableMySqlStartTest {
    @Test
    void startReportsAnUnreachableServerInsteadOfThrowing() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort(); // closed again: nothing listens there
        }
        GuardrailPolicy policy = GuardrailPolicy.defaults().withTables(TableAllowlist.of(Map.of("claims", List.of("id"))));
        try (SqlGuard guard = SqlGuard.builder()
                .source("crm", "mysql", Map.of("url", "jdbc:mysql://127.0.0.1:" + port + "/crm", "username", "reader"), policy)
                .auditSink(AuditSink.discarding()).build()) {
            SourceStatus status = guard.start("crm");
            assertThat(status.available()).isFalse();
            assertThat(status.error().orElseThrow().code()).isEqualTo(ErrorCode.ENGINE_UNAVAILABLE);
            assertThat(status.error().orElseThrow().retryable()).isTrue();
            assertThat(status.error().orElseThrow().message()).doesNotContain(Integer.toString(port));

            ToolResult result = guard.query("crm", "SELECT id FROM claims");
            assertThat(result.status()).isEqualTo(ToolStatus.ERROR);
            assertThat(result.error().orElseThrow().code()).isEqualTo(ErrorCode.ENGINE_UNAVAILABLE);
        }
    }
}
