package dev.sqlguard.app.internal.mcp;

import static dev.sqlguard.app.internal.mcp.McpHarness.COUNT_SQL;
import static dev.sqlguard.app.internal.mcp.McpHarness.JSON;
import static dev.sqlguard.app.internal.mcp.McpHarness.RUNAWAY_SQL;
import static dev.sqlguard.app.internal.mcp.McpHarness.call;
import static dev.sqlguard.app.internal.mcp.McpHarness.notification;
import static dev.sqlguard.app.internal.mcp.McpHarness.query;
import static dev.sqlguard.app.internal.mcp.McpHarness.request;
import static dev.sqlguard.app.internal.mcp.McpHarness.toolResult;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.sqlguard.domain.ErrorCode;

@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class McpStdioServerTest {
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

    @Test
    void pingIsAnsweredBeforeTheHandshakeAndOtherRequestsGetAnErrorUntilItIsComplete() {
        McpHarness mcp = start();

        assertThat(mcp.send(request(1, "ping", null)).response(1).get("result")).isEqualTo(JSON.createObjectNode());
        JsonNode early = mcp.send(request(2, "tools/list", null)).response(2);
        assertThat(early.at("/error/code").asInt()).isEqualTo(McpStdioServer.NOT_INITIALIZED);
        assertThat(early.at("/error/message").asText()).contains("initialize");
        assertThat(mcp.send(query(3, COUNT_SQL)).response(3).at("/error/code").asInt()).isEqualTo(McpStdioServer.NOT_INITIALIZED);

        mcp.send(request(4, "initialize", "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}"));
        assertThat(mcp.response(4).at("/result/protocolVersion").asText()).isEqualTo("2025-06-18");
        // initialize answered, notifications/initialized not yet sent
        assertThat(mcp.send(request(5, "tools/list", null)).response(5).at("/error/code").asInt())
                .isEqualTo(McpStdioServer.NOT_INITIALIZED);
        assertThat(mcp.send(query(6, COUNT_SQL)).response(6).at("/error/code").asInt()).isEqualTo(McpStdioServer.NOT_INITIALIZED);
        assertThat(mcp.send(request(7, "ping", null)).response(7).has("result")).isTrue();

        mcp.send(notification("notifications/initialized", null));
        assertThat(mcp.send(request(8, "tools/list", null)).response(8).at("/result/tools")).hasSize(5);
        assertThat(mcp.send(request(9, "initialize", "{}")).response(9).at("/error/code").asInt())
                .isEqualTo(McpStdioServer.INVALID_REQUEST);
        mcp.endInput();
        assertThat(mcp.audit).as("nothing ran before the handshake").isEmpty();
    }

    /**
     * What one tools/call writes to the audit sink (issue 28: it made three writes, the lifecycle's
     * STARTED and COMPLETED records around the audit event). Now: the call's audit event, its one
     * record of the outcome, plus, for a statement that runs, its start, written before it runs (the
     * record left of a call that never ends). A refused call writes its audit event only. The
     * embedding API writes the same ({@code SqlGuardTest.aCallMakesTheSameAuditWritesAsAnMcpToolsCall}).
     */
    @Test
    void oneToolsCallWritesItsAuditEventAndTheStartOfAStatementThatRuns() {
        McpHarness mcp = start();
        mcp.initialize("2025-06-18");
        mcp.send(McpHarness.query(1, McpHarness.COUNT_SQL));
        assertThat(McpHarness.toolResult(mcp.response(1)).get("status").textValue()).isEqualTo("OK");
        assertThat(mcp.audit.size() + mcp.lifecycle.size()).as("writes for a query that ran").isEqualTo(2);
        assertThat(mcp.audit).hasSize(1);
        assertThat(mcp.lifecycle).extracting(dev.sqlguard.domain.port.LifecycleRecord::phase)
                .containsExactly(dev.sqlguard.domain.port.LifecycleRecord.Phase.STARTED);
        assertThat(mcp.lifecycle).allSatisfy(r -> assertThat(r.requestId()).isEqualTo(mcp.audit.get(0).requestId()));

        mcp.send(McpHarness.query(2, "DELETE FROM claims"));
        assertThat(McpHarness.toolResult(mcp.response(2)).get("status").textValue()).isEqualTo("REJECTED");
        assertThat(mcp.audit).as("a refused call: its audit event only").hasSize(2);
        assertThat(mcp.lifecycle).hasSize(1);
    }

    @Test
    void anUnknownProtocolVersionGetsTheNewestAndMalformedRequestsGetJsonRpcErrors() {
        McpHarness mcp = start();
        assertThat(mcp.initialize("1999-01-01").path("protocolVersion").asText())
                .isEqualTo(McpStdioServer.PROTOCOL_VERSIONS.get(0));

        assertThat(mcp.send(request(1, "resources/list", null)).response(1).at("/error/code").asInt())
                .isEqualTo(McpStdioServer.METHOD_NOT_FOUND);
        assertThat(mcp.send(call(2, "run_python", "{}")).response(2).at("/error/code").asInt())
                .isEqualTo(McpStdioServer.INVALID_PARAMS);
        assertThat(mcp.send("{\"jsonrpc\":\"2.0\",\"id\":3}").response(3).at("/error/code").asInt())
                .isEqualTo(McpStdioServer.INVALID_REQUEST);
    }

    @Test
    void serveReturnsSoonAfterTheInputEndsAndAnswersEveryCallStillRunningOrWaiting() {
        McpHarness mcp = start(new McpStdioServer.Settings(1, 4, Duration.ofMillis(100)));
        mcp.initialize("2025-06-18");
        mcp.send(query(1, RUNAWAY_SQL)).send(query(2, RUNAWAY_SQL)).send(query(3, RUNAWAY_SQL));
        while (mcp.server.inFlight() < 3) {
            Thread.onSpinWait();
        }

        mcp.endInput(); // a runaway query would run 10 s; the server returns long before

        for (int id = 1; id <= 3; id++) {
            JsonNode result = toolResult(mcp.response(id));
            assertThat(result.at("/error/code").asText()).as("call %d", id).isEqualTo("CANCELLED");
        }
        assertThat(mcp.responsesById()).containsOnlyKeys(JSON.valueToTree("init"), JSON.valueToTree(1),
                JSON.valueToTree(2), JSON.valueToTree(3)).allSatisfy((id, n) -> assertThat(n).isOne());
        assertThat(mcp.audit).filteredOn(e -> e.code().isPresent())
                .allSatisfy(e -> assertThat(e.code()).contains(ErrorCode.CANCELLED));
    }

    @Test
    void aCancelledCallIsStoppedOnTheEngineAndNeverAnswered() throws InterruptedException {
        McpHarness mcp = start();
        mcp.initialize("2025-06-18");

        mcp.send(query(7, RUNAWAY_SQL));
        mcp.started.await(); // the statement runs on the engine
        mcp.send(notification("notifications/cancelled", "{\"requestId\":7,\"reason\":\"the user gave up\"}"));
        while (mcp.audit.isEmpty()) {
            Thread.onSpinWait(); // the statement ends on the engine; a hang here means it ran on
        }
        assertThat(mcp.audit).singleElement().satisfies(e -> assertThat(e.code()).contains(ErrorCode.CANCELLED));
        assertThat(mcp.send(request(8, "ping", null)).response(8).has("result")).isTrue();

        mcp.endInput();
        assertThat(mcp.responsesById()).doesNotContainKey(JSON.valueToTree(7));
    }

    @Test
    void toolsHaveTitlesAndOutputSchemasAndResultsCarryStructuredContentBesideTheText() throws Exception {
        McpHarness mcp = start();
        mcp.initialize("2025-06-18");

        JsonNode tools = mcp.send(request(1, "tools/list", null)).response(1).at("/result/tools");
        assertThat(tools).extracting(t -> t.get("name").asText())
                .containsExactly("list_sources", "describe_source", "query_data", "summary_stats", "plot_chart");
        for (JsonNode tool : tools) {
            assertThat(tool.path("title").asText()).as(tool.toString()).isNotBlank();
            assertThat(tool.at("/outputSchema/type").asText()).isEqualTo("object");
            assertThat(tool.at("/outputSchema/required")).extracting(JsonNode::asText).containsExactly("status");
            assertThat(tool.at("/annotations/readOnlyHint").asBoolean()).isTrue();
        }

        JsonNode ok = mcp.send(query(2, COUNT_SQL)).response(2).get("result");
        assertThat(ok.get("isError").asBoolean()).isFalse();
        assertThat(ok.get("structuredContent")).isEqualTo(JSON.readTree(ok.at("/content/0/text").asText()));
        assertThat(ok.at("/structuredContent/rows/0/0").asLong()).isEqualTo(60);

        JsonNode refused = mcp.send(query(3, "DELETE FROM claims")).response(3).get("result");
        assertThat(refused.get("isError").asBoolean()).isTrue();
        assertThat(refused.at("/structuredContent/error/code").asText()).isEqualTo("STATEMENT_NOT_ALLOWED");
        assertThat(refused.get("structuredContent")).isEqualTo(JSON.readTree(refused.at("/content/0/text").asText()));

        JsonNode sources = mcp.send(call(4, "list_sources", "{}")).response(4).at("/result/structuredContent/sources");
        assertThat(sources).extracting(s -> s.get("available").asBoolean()).containsExactly(true, false);
        assertThat(sources.at("/1/error/code").asText()).isEqualTo("ENGINE_UNAVAILABLE");
    }

    @Test
    void oneCauseHasOneCodeOverMcpAsInTheCli() {
        McpHarness mcp = start();
        mcp.initialize("2025-06-18");

        JsonNode unknown = toolResult(mcp.send(call(1, "query_data", "{\"source\":\"nowhere\",\"sql\":\"SELECT 1\"}"))
                .response(1));
        assertThat(unknown.at("/error/code").asText()).isEqualTo("UNKNOWN_SOURCE");
        assertThat(unknown.at("/error/retryable").asBoolean()).isFalse();
        String longSql = "SELECT id FROM claims WHERE id IN (" + "1, ".repeat(40_000) + "1)";
        assertThat(toolResult(mcp.send(query(3, longSql)).response(3)).at("/error/code").asText()).isEqualTo("QUERY_TOO_LONG");
        assertThat(toolResult(mcp.send(query(4, " ")).response(4)).at("/error/code").asText()).isEqualTo("EMPTY_QUERY");
    }

    /** What a 2025-06-18 client does with structuredContent: it must match the tool's outputSchema, failures included. */
    @Test
    void everyStructuredContentMatchesItsToolsOutputSchema() throws Exception {
        McpHarness mcp = start();
        mcp.initialize("2025-06-18");
        Map<String, Map<String, Object>> schemas = new java.util.HashMap<>();
        for (JsonNode tool : mcp.send(request(1, "tools/list", null)).response(1).at("/result/tools")) {
            schemas.put(tool.get("name").asText(), JSON.convertValue(tool.get("outputSchema"),
                    new com.fasterxml.jackson.core.type.TypeReference<Map<String, Object>>() { }));
        }
        String chart = "{\"type\":\"bar\",\"table\":\"claims\",\"x\":\"status\",\"aggregation\":\"count\"}";
        Map<String, List<String>> calls = Map.of(
                "list_sources", List.of("{}", "{\"verbose\":true}"),
                "describe_source", List.of("{}", "{\"source\":\"nowhere\"}"),
                "query_data", List.of("{\"source\":\"claims_db\",\"sql\":\"SELECT id, status FROM claims\"}",
                        "{\"source\":\"claims_db\",\"sql\":\"DROP TABLE claims\"}"),
                "summary_stats", List.of("{\"source\":\"claims_db\",\"table\":\"claims\"}",
                        "{\"source\":\"claims_db\",\"table\":\"nothing\"}"),
                "plot_chart", List.of("{\"source\":\"claims_db\",\"chart\":" + chart + "}",
                        "{\"source\":\"claims_db\",\"chart\":{\"type\":\"radar\"}}"));
        io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator validator =
                new io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator();
        assertThat(validator.validate(schemas.get("query_data"), Map.of("rows", 1)).valid()).as("the check can fail").isFalse();
        int id = 10;
        for (Map.Entry<String, List<String>> tool : calls.entrySet()) {
            for (String arguments : tool.getValue()) {
                JsonNode result = mcp.send(call(id, tool.getKey(), arguments)).response(id).get("result");
                id++;
                Object structured = JSON.convertValue(result.get("structuredContent"), Object.class);
                var check = validator.validate(schemas.get(tool.getKey()), structured);
                assertThat(check.valid()).as("%s %s: %s", tool.getKey(), arguments, check.errorMessage()).isTrue();
            }
        }
    }

    @Test
    void aCellCutToItsBoundIsReportedAsCellCharsAsTheDocsSay() {
        mcp = new McpHarness(charts, McpStdioServer.Settings.defaults(), dev.sqlguard.domain.GuardrailPolicy.defaults()
                .withLimits(dev.sqlguard.domain.Limits.defaults().withMaxCellChars(3)));
        mcp.initialize("2025-06-18");

        JsonNode result = toolResult(mcp.send(query(1, "SELECT status FROM claims")).response(1));
        assertThat(result.get("status").asText()).isEqualTo("OK");
        assertThat(result.get("limits_hit")).extracting(JsonNode::asText).contains("cell_chars");
    }

    @Test
    void noSchemaAnywhereUsesATypeArray() {
        McpHarness mcp = start();
        mcp.initialize("2025-06-18");

        JsonNode tools = mcp.send(request(1, "tools/list", null)).response(1).at("/result/tools");
        List<String> typeArrays = new ArrayList<>();
        walk(tools, "", typeArrays);
        assertThat(typeArrays).isEmpty();
        assertThat(tools.toString()).contains("anyOf"); // the nullable and scalar values
    }

    private static void walk(JsonNode node, String path, List<String> typeArrays) {
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                if (e.getKey().equals("type") && !e.getValue().isTextual() && !path.endsWith("/properties")) {
                    typeArrays.add(path + "/type");
                }
                walk(e.getValue(), path + "/" + e.getKey(), typeArrays);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                walk(node.get(i), path + "/" + i, typeArrays);
            }
        }
    }

    @Test
    void aBatchIsAnsweredAsOneArrayUnderProtocol20250326() {
        McpHarness mcp = start();
        mcp.initialize("2025-03-26");

        mcp.send("[" + request(1, "ping", null) + "," + notification("notifications/progress", "{}") + ","
                + query(2, COUNT_SQL) + "," + request(3, "tools/list", null) + "]");
        JsonNode answer = mcp.nextResponse();
        assertThat(answer.isArray()).as(answer.toString()).isTrue();
        assertThat(answer).extracting(r -> r.get("id").asInt()).containsExactlyInAnyOrder(1, 2, 3);
        assertThat(answer).filteredOn(r -> r.get("id").asInt() == 2).singleElement()
                .satisfies(r -> assertThat(r.at("/result/structuredContent/status").asText()).isEqualTo("OK"));
    }

    @Test
    void aBatchUnderAnotherProtocolGetsOneErrorNotSilence() {
        McpHarness mcp = start();
        mcp.initialize("2025-06-18");

        JsonNode answer = mcp.send("[" + request(1, "ping", null) + "]").nextResponse();
        assertThat(answer.get("id").isNull()).isTrue();
        assertThat(answer.at("/error/code").asInt()).isEqualTo(McpStdioServer.INVALID_REQUEST);
        assertThat(answer.at("/error/message").asText()).contains("2025-03-26");
        assertThat(mcp.send(request(2, "ping", null)).response(2).has("result")).isTrue();
    }

    @Test
    void theLoggingCapabilityIsTrueWarningsAreSentAsLogMessagesAtTheChosenLevel() {
        McpHarness mcp = start();
        JsonNode init = mcp.initialize("2025-06-18");
        assertThat(init.at("/capabilities/logging").isObject()).isTrue();

        JsonNode unserved = mcp.next();
        assertThat(unserved.get("method").asText()).isEqualTo("notifications/message");
        assertThat(unserved.at("/params/level").asText()).isEqualTo("warning");
        assertThat(unserved.at("/params/data").asText()).contains("'down'").contains("not served");

        mcp.send("garbage with a secret sk-123");
        JsonNode dropped = mcp.next();
        assertThat(dropped.get("method").asText()).isEqualTo("notifications/message");
        assertThat(dropped.at("/params/data").asText()).contains("parse error").doesNotContain("sk-123");
        assertThat(mcp.warnings).anySatisfy(w -> assertThat(w).contains("parse error").doesNotContain("sk-123"));
        JsonNode parseError = mcp.nextResponse();
        assertThat(parseError.at("/error/code").asInt()).isEqualTo(McpStdioServer.PARSE_ERROR);
        assertThat(parseError.toString()).doesNotContain("sk-123");

        assertThat(mcp.send(request(1, "logging/setLevel", "{\"level\":\"loud\"}")).response(1).at("/error/code").asInt())
                .isEqualTo(McpStdioServer.INVALID_PARAMS);
        assertThat(mcp.send(request(2, "logging/setLevel", "{\"level\":\"error\"}")).response(2).get("result"))
                .isEqualTo(JSON.createObjectNode());
        mcp.send("more garbage");
        assertThat(mcp.next().at("/error/code").asInt()).as("no warning below error, only the answer")
                .isEqualTo(McpStdioServer.PARSE_ERROR);
        assertThat(mcp.send(request(3, "ping", null)).next().get("id").asInt()).isEqualTo(3);
    }

    @Test
    void aBurstPastTheQueueIsAnsweredAtOnceAsBusyAndTheServerStillAnswersAfterIt() {
        McpHarness mcp = start(new McpStdioServer.Settings(2, 4, Duration.ofMillis(100)));
        mcp.initialize("2025-06-18");

        // six runaway calls fill both workers and the queue of four
        for (int id = 100; id < 106; id++) {
            mcp.send(query(id, RUNAWAY_SQL));
        }
        for (int id = 106; id < 300; id++) {
            mcp.send(query(id, COUNT_SQL));
        }
        for (int id = 106; id < 300; id++) {
            JsonNode result = mcp.response(id).get("result");
            assertThat(result.get("isError").asBoolean()).isTrue();
            assertThat(result.at("/structuredContent/error/code").asText()).isEqualTo("SERVER_BUSY");
            assertThat(result.at("/structuredContent/error/retryable").asBoolean()).isTrue();
            assertThat(result.at("/structuredContent/error/message").asText()).contains("busy");
        }
        assertThat(mcp.send(request(400, "ping", null)).response(400).has("result")).isTrue();
        assertThat(mcp.warnings).as("one warning for the burst, not one per call")
                .filteredOn(w -> w.contains("busy")).hasSize(1);
        for (int id = 100; id < 106; id++) {
            mcp.send(notification("notifications/cancelled", "{\"requestId\":" + id + "}"));
        }
        // the six cancelled calls, the four that waited in the queue too, are each audited once as CANCELLED;
        // a cancelled call keeps its place in the queue until a worker takes it, so the queue is free once all six are
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (cancelledAudits(mcp) < 6 && System.nanoTime() < until) {
            sleep(20);
        }
        assertThat(cancelledAudits(mcp)).isEqualTo(6);
        JsonNode after = mcp.send(query(401, COUNT_SQL)).response(401);
        assertThat(toolResult(after).get("status").asText()).isEqualTo("OK");

        mcp.endInput();
        Map<JsonNode, Long> answered = mcp.responsesById();
        assertThat(answered.values()).allSatisfy(n -> assertThat(n).isOne());
        for (int id = 100; id < 106; id++) {
            assertThat(answered).as("cancelled call %d", id).doesNotContainKey(JSON.valueToTree(id));
        }
        assertThat(answered).hasSize(1 + 194 + 2);
        assertThat(cancelledAudits(mcp)).as("each cancelled call audited once").isEqualTo(6);
    }

    private static long cancelledAudits(McpHarness mcp) {
        return mcp.audit.stream().filter(e -> e.code().equals(Optional.of(ErrorCode.CANCELLED))).count();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void twoHundredOverlappingCallsAreEachAnsweredExactlyOnce() {
        McpHarness mcp = start();
        mcp.initialize("2025-06-18");

        for (int id = 0; id < 200; id++) {
            mcp.send(query(id, COUNT_SQL));
        }
        for (int i = 0; i < 200; i++) {
            JsonNode result = toolResult(mcp.nextResponse());
            assertThat(result.get("status").asText()).isIn("OK", "ERROR");
            if (result.get("status").asText().equals("ERROR")) {
                assertThat(result.at("/error/code").asText()).isEqualTo("SERVER_BUSY");
            }
        }
        mcp.endInput();
        Map<JsonNode, Long> answered = mcp.responsesById();
        assertThat(answered).hasSize(201).allSatisfy((id, n) -> assertThat(n).isOne());
    }
}
