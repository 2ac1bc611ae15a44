package dev.sqlguard.app.agent;

import static dev.sqlguard.app.agent.FakeOpenAiServer.lastToolResult;
import static dev.sqlguard.app.agent.FakeOpenAiServer.text;
import static dev.sqlguard.app.agent.FakeOpenAiServer.toolCall;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.sqlguard.app.agent.AnalyticalResponse.Status;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.app.GuardedCalls;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.domain.verify.ClaimPolicy;
import dev.sqlguard.ports.model.ModelPort;

/**
 * Scripted conversations replayed by a fake OpenAI-compatible server on loopback, through the real
 * HTTP adapter (adapter-llm, found by ServiceLoader) and the real planner, tools and guarded path.
 */
@Timeout(60)
class AgentOverHttpTest {
    static final String COUNT_DENIED = AnalystPlannerTest.COUNT_DENIED;

    @TempDir
    Path charts;

    private AnalyticalResponse ask(ModelPort model, AgentSettings settings, String question) {
        // the production verifier, as the CLI wires it
        return new AnalystPlanner(model, GuardedCalls.over(new QueryService(AuditSink.discarding()), engine -> engine.policy()), List.of(AgentFixtures.source()), settings)
                .ask(question);
    }

    private AnalyticalResponse ask(FakeOpenAiServer server, AgentSettings settings, String question) {
        return ask(server.model(), settings, question);
    }

    @Test
    void aCorrectRun() throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.script(List.of(
                toolCall("describe_source", "{}"),
                toolCall("query_data", COUNT_DENIED),
                text("20 of the 60 claims were denied.\n\nKey findings:\n- 20 claims have status DENIED")))) {
            AnalyticalResponse response = ask(server, AgentSettings.defaults(charts), "How many claims were denied?");

            assertThat(response.status()).isEqualTo(Status.ANSWERED);
            assertThat(response.answer()).isEqualTo("20 of the 60 claims were denied.");
            assertThat(response.keyFindings()).containsExactly("20 claims have status DENIED");
            assertThat(response.verification().fullyVerified()).isTrue();
            assertThat(response.queries()).singleElement().satisfies(q -> assertThat(q.previewRows()).containsExactly(List.of(20L)));
            assertThat(response.turnsUsed()).isEqualTo(3);

            List<JsonNode> requests = server.requests();
            assertThat(requests).hasSize(3);
            JsonNode first = requests.get(0);
            assertThat(first.path("model").asText()).isEqualTo("scripted-model");
            assertThat(first.path("tools")).hasSize(5);
            assertThat(first.at("/tools/1/function/name").asText()).isEqualTo("query_data");
            assertThat(first.at("/tools/1/function/parameters/additionalProperties").asBoolean(true)).isFalse();
            assertThat(first.at("/messages/0/role").asText()).isEqualTo("system");
            JsonNode third = requests.get(2).path("messages");
            JsonNode lastTool = third.get(third.size() - 1);
            assertThat(lastTool.path("role").asText()).isEqualTo("tool");
            assertThat(lastTool.path("tool_call_id").asText()).isEqualTo(third.get(third.size() - 2).at("/tool_calls/0/id").asText());
        }
    }

    @Test
    void aHostileQueryGetsASafeErrorAndTheModelRetries() throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.script(List.of(
                toolCall("query_data", "{\"source\":\"claims_db\",\"sql\":\"SELECT ssn FROM claims WHERE id = 1 UNION SELECT password FROM users\"}"),
                request -> {
                    JsonNode result = lastToolResult(request);
                    assertThat(result.path("status").asText()).isEqualTo("REJECTED");
                    assertThat(result.at("/error/retryable").asBoolean()).isTrue();
                    assertThat(result.toString()).doesNotContain("123-45-6789").doesNotContain("Exception");
                    return toolCall("query_data", COUNT_DENIED).apply(request);
                },
                text("20 claims were denied.")))) {
            AnalyticalResponse response = ask(server, AgentSettings.defaults(charts), "How many claims were denied?");

            assertThat(response.status()).isEqualTo(Status.ANSWERED);
            assertThat(response.queries()).extracting(AnalyticalResponse.ExecutedQuery::status)
                    .containsExactly(ToolStatus.REJECTED, ToolStatus.OK);
            assertThat(response.queries().get(0).error().orElseThrow().code()).isEqualTo(ErrorCode.CONSTRUCT_NOT_ALLOWED);
            assertThat(server.requests()).hasSize(3);
        }
    }

    @Test
    void aModelThatLoopsUntilTheBudgetRunsOut() throws Exception {
        try (FakeOpenAiServer server = new FakeOpenAiServer(List.of(), toolCall("query_data", COUNT_DENIED))) {
            AnalyticalResponse response = ask(server, AgentSettings.defaults(charts).withMaxTurns(5), "Count forever");

            assertThat(response.status()).isEqualTo(Status.BUDGET_EXHAUSTED);
            assertThat(response.turnsUsed()).isEqualTo(5);
            assertThat(response.toolCallsUsed()).isEqualTo(5);
            assertThat(server.requests()).hasSize(5);
        }
    }

    @Test
    void malformedToolArguments() throws Exception {
        Function<JsonNode, String> argumentsAsObject = request -> {
            // some servers send the arguments as a JSON object instead of a string; this one also misspells a field
            var message = FakeOpenAiServer.JSON.createObjectNode().put("role", "assistant");
            var call = message.putArray("tool_calls").addObject().put("id", "call_obj").put("type", "function");
            call.putObject("function").put("name", "summary_stats").putObject("arguments")
                    .put("source", "claims_db").put("tabel", "claims");
            return FakeOpenAiServer.completion(message, "tool_calls");
        };
        try (FakeOpenAiServer server = FakeOpenAiServer.script(List.of(
                toolCall("query_data", "{'source': 'claims_db', sql: SELECT 1}"),
                request -> {
                    assertThat(lastToolResult(request).at("/error/code").asText()).isEqualTo("INVALID_ARGUMENT");
                    return argumentsAsObject.apply(request);
                },
                request -> {
                    JsonNode result = lastToolResult(request);
                    assertThat(result.at("/error/code").asText()).isEqualTo("INVALID_ARGUMENT");
                    assertThat(result.at("/error/message").asText()).contains("'tabel'");
                    return toolCall("query_data", COUNT_DENIED).apply(request);
                },
                text("20 claims were denied.")))) {
            AnalyticalResponse response = ask(server, AgentSettings.defaults(charts), "How many claims were denied?");

            assertThat(response.status()).isEqualTo(Status.ANSWERED);
            assertThat(response.queries()).extracting(AnalyticalResponse.ExecutedQuery::status)
                    .containsExactly(ToolStatus.REJECTED, ToolStatus.REJECTED, ToolStatus.OK);
            assertThat(response.queries()).extracting(q -> q.error().map(e -> e.code()).orElse(null))
                    .containsExactly(ErrorCode.INVALID_ARGUMENT, ErrorCode.INVALID_ARGUMENT, null);
        }
    }

    @Test
    void aWrongNumberIsFlaggedThenBlocked() throws Exception {
        List<Function<JsonNode, String>> script = List.of(
                toolCall("query_data", COUNT_DENIED),
                text("There are 542 denied claims."));
        try (FakeOpenAiServer server = FakeOpenAiServer.script(script)) {
            AnalyticalResponse flagged = ask(server, AgentSettings.defaults(charts), "How many claims were denied?");
            assertThat(flagged.status()).isEqualTo(Status.ANSWERED);
            assertThat(flagged.answer()).isEqualTo("There are 542 denied claims.");
            assertThat(flagged.verification().check().unsupported()).containsExactly("542");
        }
        try (FakeOpenAiServer server = FakeOpenAiServer.script(script)) {
            AnalyticalResponse blocked = ask(server, AgentSettings.defaults(charts).withClaimPolicy(ClaimPolicy.BLOCK),
                    "How many claims were denied?");
            assertThat(blocked.status()).isEqualTo(Status.BLOCKED);
            assertThat(blocked.answer()).startsWith("The answer was withheld").contains("542");
            assertThat(blocked.verification().check().unsupported()).containsExactly("542");
        }
    }

    @Test
    void anUnreachableEndpointEndsWithModelUnavailable() throws Exception {
        String deadUrl;
        try (FakeOpenAiServer server = FakeOpenAiServer.script(List.of())) {
            deadUrl = server.baseUrl();
        }
        AnalyticalResponse response = ask(FakeOpenAiServer.model(deadUrl), AgentSettings.defaults(charts), "How many claims?");
        assertThat(response.status()).isEqualTo(Status.MODEL_UNAVAILABLE);
        assertThat(response.toJson()).doesNotContain("127.0.0.1").doesNotContain("sk-test");
    }
}
