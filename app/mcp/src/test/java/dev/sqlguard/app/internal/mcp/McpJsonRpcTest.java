package dev.sqlguard.app.internal.mcp;

import static dev.sqlguard.app.internal.mcp.McpHarness.COUNT_SQL;
import static dev.sqlguard.app.internal.mcp.McpHarness.JSON;
import static dev.sqlguard.app.internal.mcp.McpHarness.call;
import static dev.sqlguard.app.internal.mcp.McpHarness.query;
import static dev.sqlguard.app.internal.mcp.McpHarness.request;
import static dev.sqlguard.app.internal.mcp.McpHarness.toolResult;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.sqlguard.app.internal.json.AuditJson;
import dev.sqlguard.domain.port.AuditEvent;

/**
 * JSON-RPC 2.0 as written, through the real stdio server: parse errors, invalid requests, batches
 * as the negotiated protocol says, deep nesting, the end of input, and what an answer and an audit
 * record say about the request that was sent.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class McpJsonRpcTest {
    @TempDir
    Path charts;

    private McpHarness mcp;

    private McpHarness start(McpStdioServer.Settings settings) {
        mcp = new McpHarness(charts, settings);
        return mcp;
    }

    private McpHarness start() {
        return start(McpStdioServer.Settings.defaults());
    }

    @AfterEach
    void tearDown() {
        if (mcp != null) {
            mcp.close();
        }
    }

    private static void assertError(JsonNode answer, int code, JsonNode id) {
        assertThat(answer.get("jsonrpc").asText()).as(answer.toString()).isEqualTo("2.0");
        assertThat(answer.at("/error/code").asInt()).as(answer.toString()).isEqualTo(code);
        assertThat(answer.get("id")).as(answer.toString()).isEqualTo(id);
        assertThat(answer.has("result")).isFalse();
    }

    @Test
    void aLineThatIsNotJsonIsAParseErrorAndAnInvalidRequestObjectIsAnInvalidRequest() {
        McpHarness mcp = start();
        JsonNode none = JSON.nullNode();
        // before the handshake too: JSON-RPC comes first
        assertError(mcp.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":").nextResponse(), McpStdioServer.PARSE_ERROR, none);
        mcp.initialize("2025-06-18");

        assertError(mcp.send("not json at all").nextResponse(), McpStdioServer.PARSE_ERROR, none);
        assertError(mcp.send("{\"jsonrpc\":\"1.0\",\"id\":2,\"method\":\"ping\"}").nextResponse(),
                McpStdioServer.INVALID_REQUEST, JSON.valueToTree(2));
        assertError(mcp.send("{\"id\":3,\"method\":\"ping\"}").nextResponse(), McpStdioServer.INVALID_REQUEST, JSON.valueToTree(3));
        assertError(mcp.send("{\"jsonrpc\":2.0,\"id\":4,\"method\":\"ping\"}").nextResponse(),
                McpStdioServer.INVALID_REQUEST, JSON.valueToTree(4));
        assertError(mcp.send("{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"ping\"}").nextResponse(),
                McpStdioServer.INVALID_REQUEST, none);
        assertError(mcp.send("{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}").nextResponse(),
                McpStdioServer.INVALID_REQUEST, none);
        assertError(mcp.send("{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"ping\"}").nextResponse(),
                McpStdioServer.INVALID_REQUEST, none);
        assertError(mcp.send("{\"jsonrpc\":\"2.0\",\"id\":5}").nextResponse(), McpStdioServer.INVALID_REQUEST, JSON.valueToTree(5));
        assertError(mcp.send("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":7}").nextResponse(), McpStdioServer.INVALID_REQUEST,
                JSON.valueToTree(6));
        assertError(mcp.send("{\"jsonrpc\":\"2.0\",\"method\":7}").nextResponse(), McpStdioServer.INVALID_REQUEST, none);
        assertError(mcp.send("{\"foo\":\"boo\"}").nextResponse(), McpStdioServer.INVALID_REQUEST, none);
        assertError(mcp.send("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\",\"params\":\"bar\"}").nextResponse(),
                McpStdioServer.INVALID_REQUEST, JSON.valueToTree(8));
        assertError(mcp.send("42").nextResponse(), McpStdioServer.INVALID_REQUEST, none);

        // a notification with the wrong version gets an error too (it is not a valid notification), a valid one none
        assertError(mcp.send("{\"jsonrpc\":\"1.0\",\"method\":\"notifications/progress\"}").nextResponse(),
                McpStdioServer.INVALID_REQUEST, none);
        mcp.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}");
        assertThat(mcp.send(request(9, "ping", null)).nextResponse().get("id").asInt()).isEqualTo(9);
        mcp.endInput();
        assertThat(mcp.audit).as("nothing ran").isEmpty();
    }

    @Test
    void aBatchIsAnArrayOfAnswersUnder20250326AndOneInvalidRequestUnderTheVersionsWithoutBatches() {
        for (String version : List.of("2025-11-25", "2025-06-18", "2024-11-05")) {
            McpHarness mcp = start();
            mcp.initialize(version);
            JsonNode answer = mcp.send("[" + request(1, "ping", null) + "]").nextResponse();
            assertError(answer, McpStdioServer.INVALID_REQUEST, JSON.nullNode());
            assertThat(mcp.send(request(2, "ping", null)).response(2).has("result")).isTrue();
            mcp.close();
        }
        McpHarness mcp = start();
        mcp.initialize(McpStdioServer.BATCH_VERSION);
        assertError(mcp.send("[]").nextResponse(), McpStdioServer.INVALID_REQUEST, JSON.nullNode());
        JsonNode answers = mcp.send("[1, {\"jsonrpc\":\"1.0\",\"id\":5,\"method\":\"ping\"}, " + request(6, "ping", null)
                + ", " + query(7, COUNT_SQL) + "]").nextResponse();
        assertThat(answers.isArray()).as(answers.toString()).isTrue();
        assertThat(answers).hasSize(4);
        assertThat(answers).filteredOn(a -> a.get("id").isNull()).singleElement()
                .satisfies(a -> assertThat(a.at("/error/code").asInt()).isEqualTo(McpStdioServer.INVALID_REQUEST));
        assertThat(answers).filteredOn(a -> a.get("id").asInt() == 5).singleElement()
                .satisfies(a -> assertThat(a.at("/error/code").asInt()).isEqualTo(McpStdioServer.INVALID_REQUEST));
        assertThat(answers).filteredOn(a -> a.get("id").asInt() == 6).singleElement()
                .satisfies(a -> assertThat(a.has("result")).isTrue());
        assertThat(answers).filteredOn(a -> a.get("id").asInt() == 7).singleElement()
                .satisfies(a -> assertThat(a.at("/result/structuredContent/status").asText()).isEqualTo("OK"));
    }

    @Test
    void aValidRequestNestedFiveThousandDeepIsAnsweredAndTheServerGoesOn() {
        McpHarness mcp = start();
        mcp.initialize("2025-06-18");
        String deep = "[".repeat(5_000) + "]".repeat(5_000);
        mcp.send("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"name\":\"query_data\","
                + "\"arguments\":{\"source\":\"claims_db\",\"sql\":\"SELECT 1\",\"params\":[" + deep + "]}}}");
        assertError(mcp.nextResponse(), McpStdioServer.PARSE_ERROR, JSON.nullNode());

        // nesting the server reads, but deeper than any tool argument: a tool result, not silence
        String hundred = "[".repeat(100) + "]".repeat(100);
        JsonNode answer = mcp.send("{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"tools/call\",\"params\":{\"name\":\"query_data\","
                + "\"arguments\":{\"source\":\"claims_db\",\"sql\":\"SELECT 1\",\"params\":[" + hundred + "]}}}").response(10);
        assertThat(answer.at("/result/isError").asBoolean()).isTrue();
        assertThat(toolResult(answer).at("/error/code").asText()).isEqualTo("INVALID_ARGUMENT");
        assertThat(mcp.send(request(11, "ping", null)).response(11).has("result")).isTrue();
    }

    @Test
    void quickRequestsPipedBeforeTheInputEndsAreAllAnswered() {
        // one worker: the queue takes seconds to work through, far longer than the grace (each call takes a few ms)
        McpHarness mcp = start(new McpStdioServer.Settings(1, 700, Duration.ofMillis(200)));
        mcp.initialize("2025-06-18");
        int calls = 600;
        for (int id = 1; id <= calls; id++) {
            mcp.send(query(id, COUNT_SQL));
        }
        mcp.endInput();

        java.util.Map<Integer, String> statuses = new java.util.HashMap<>();
        for (JsonNode message : mcp.written) {
            if (message.has("id") && message.get("id").isInt()) {
                statuses.merge(message.get("id").asInt(), toolResult(message).get("status").asText() + toolResult(message).path("error").path("message").asText(""), (a, b) -> a + "," + b);
            }
        }
        assertThat(statuses).hasSize(calls);
        assertThat(statuses.values()).as("each call answered once, and none cancelled").containsOnly("OK");
        assertThat(mcp.audit).hasSize(calls);
    }

    @Test
    void overLongSqlGetsItsDocumentedCodeAndAnUnknownSourceComesBackAsSent() {
        McpHarness mcp = start();
        mcp.initialize("2025-06-18");

        String tenMegabytes = "SELECT id FROM claims WHERE status = '" + "x".repeat(10 << 20) + "'";
        JsonNode tooLong = toolResult(mcp.send(query(1, tenMegabytes)).response(1));
        assertThat(tooLong.at("/error/code").asText()).isEqualTo("QUERY_TOO_LONG");
        assertThat(tooLong.get("source").asText()).isEqualTo("claims_db");
        assertThat(tooLong.get("status").asText()).isEqualTo("REJECTED");

        JsonNode unknown = toolResult(mcp.send(call(2, "query_data", "{\"source\":\"nowhere\",\"sql\":\"SELECT 1\"}"))
                .response(2));
        assertThat(unknown.at("/error/code").asText()).isEqualTo("UNKNOWN_SOURCE");
        assertThat(unknown.get("source").asText()).isEqualTo("nowhere");
        JsonNode unknownStats = toolResult(mcp.send(call(3, "summary_stats", "{\"source\":\"elsewhere\",\"table\":\"claims\"}"))
                .response(3));
        assertThat(unknownStats.get("source").asText()).isEqualTo("elsewhere");
    }

    @Test
    void auditRecordsCarryTheMcpRequestIdAndTheClientsName() {
        McpHarness mcp = start();
        mcp.send(request("init", "initialize", "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"claude-code\",\"version\":\"2.1\"}}"));
        mcp.response("init");
        mcp.send(McpHarness.notification("notifications/initialized", null));

        mcp.send(query(41, COUNT_SQL)).response(41);
        mcp.send(query("call-abc", "DELETE FROM claims")).response("call-abc");
        assertThat(mcp.audit).hasSize(2);
        assertThat(mcp.audit).extracting(e -> e.caller().orElseThrow()).containsExactlyInAnyOrder(
                new AuditEvent.Caller("41", "claude-code"), new AuditEvent.Caller("call-abc", "claude-code"));

        JsonNode line = JSON.valueToTree(parse(AuditJson.write(mcp.audit.get(0))));
        assertThat(line.get("client").asText()).isEqualTo("claude-code");
        assertThat(line.get("client_request_id").asText()).isIn("41", "call-abc");
    }

    private static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }
}
