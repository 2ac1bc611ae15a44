package dev.sqlguard.app.internal.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.sqlguard.app.SqlGuard;
import dev.sqlguard.app.tools.AgentTools;
import dev.sqlguard.app.fake.CloseProbe;
import dev.sqlguard.app.fake.FakeGuard;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.AuditEvent;

/**
 * The MCP tools served from a {@link SqlGuard} facade, wired as {@code sqlguard mcp} wires them:
 * their calls go through the facade's guarded entry, so they are masked and waited for by close.
 */
class McpFacadeTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final List<AuditEvent> events = Collections.synchronizedList(new ArrayList<>());

    private static McpToolServer served(SqlGuard guard, Path charts) {
        AgentTools tools = AgentTools.of(guard.withAttributes(java.util.Map.of()).guardedPath(guard.sources()), charts);
        return new McpToolServer(tools, List.of());
    }

    private static JsonNode structured(ObjectNode result) throws Exception {
        return JSON.readTree(JSON.writeValueAsString(result)).get("structuredContent");
    }

    @Test
    void aSecretInAnEngineMessageIsMaskedOnTheMcpPath(@TempDir Path charts) throws Exception {
        try (SqlGuard guard = FakeGuard.withSecret(events::add)) {
            ObjectNode result = served(guard, charts).call(AgentTools.QUERY_DATA,
                    JSON.readTree("{\"source\":\"s\",\"sql\":\"SELECT leak\"}"), "mcp-1");
            assertThat(result.get("isError").booleanValue()).isTrue();
            assertThat(structured(result).at("/error/message").textValue()).isEqualTo("Login with **** was refused.");
            assertThat(JSON.writeValueAsString(result)).doesNotContain(FakeGuard.SECRET);
        }
    }

    @Test
    void closeWaitsForAnMcpCallInFlight(@TempDir Path charts) throws Exception {
        SqlGuard guard = FakeGuard.twoSources(events::add);
        McpToolServer server = served(guard, charts);
        JsonNode arguments = JSON.readTree("{\"source\":\"claims\",\"sql\":\"SELECT hold_mcp FROM t\"}");
        ObjectNode result = CloseProbe.closeDuring(guard, "mcp", () -> server.call(AgentTools.QUERY_DATA, arguments, "mcp-2"));
        assertThat(result.get("isError").booleanValue()).isFalse();
        assertThat(structured(result).get("status").textValue()).isEqualTo("OK");
        assertThat(events).extracting(AuditEvent::verdict).containsExactly(ToolStatus.OK);
    }
}
