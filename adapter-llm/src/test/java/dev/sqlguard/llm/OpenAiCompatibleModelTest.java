package dev.sqlguard.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.SafeText;
import dev.sqlguard.llm.FakeChatServer.Reply;
import dev.sqlguard.ports.model.ChatMessage;
import dev.sqlguard.ports.model.ModelReply;
import dev.sqlguard.ports.model.ModelRequest;
import dev.sqlguard.ports.model.ToolCall;
import dev.sqlguard.ports.model.ToolSpec;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class OpenAiCompatibleModelTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String KEY = "sk-test-0123456789";
    private static final ToolSpec QUERY_TOOL = new ToolSpec("query_data", "Runs one guarded SQL query.",
            "{\"type\":\"object\",\"properties\":{\"sql\":{\"type\":\"string\"}},\"required\":[\"sql\"]}");

    private final List<Duration> sleeps = new ArrayList<>();

    private static final String TOOL_CALL_REPLY = """
            {"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"finish_reason":"tool_calls",
             "message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_abc","type":"function",
             "function":{"name":"query_data","arguments":"{\\"sql\\":\\"SELECT 1\\"}"}}]}}]}
            """;

    private static final String TEXT_REPLY = """
            {"choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"Revenue was 1,234."}}]}
            """;

    private OpenAiCompatibleModel model(FakeChatServer server, Optional<String> key, int retries) {
        ModelSettings settings = ModelSettings.of(server.baseUrl(), "test-model", key)
                .withRetries(retries, Duration.ofMillis(100), Duration.ofSeconds(5))
                .withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(2));
        return new OpenAiCompatibleModel(settings, sleeps::add, () -> 0.0);
    }

    private static ModelRequest question() {
        return new ModelRequest(List.of(ChatMessage.system("You answer with data."), ChatMessage.user("Total revenue?")),
                List.of(QUERY_TOOL));
    }

    private static void assertSafe(GuardException e, FakeChatServer server) {
        assertThat(SafeText.clean(e.safeMessage(), e.code())).as("message passes SafeText unchanged").isEqualTo(e.safeMessage());
        assertThat(e.safeMessage()).doesNotContain(KEY).doesNotContain("secret-body-text").doesNotContain("127.0.0.1");
        if (server != null) {
            assertThat(e.safeMessage()).doesNotContain(server.baseUrl());
        }
    }

    @Test
    void readsAToolCallReply() throws IOException {
        try (FakeChatServer server = new FakeChatServer(Reply.ok(TOOL_CALL_REPLY))) {
            ModelReply reply = model(server, Optional.empty(), 3).complete(question());

            assertThat(reply.content()).isEmpty();
            assertThat(reply.toolCalls()).containsExactly(new ToolCall("call_abc", "query_data", "{\"sql\":\"SELECT 1\"}"));
            assertThat(reply.finishReason()).isEqualTo("tool_calls");
            assertThat(server.requests()).singleElement().satisfies(r -> {
                assertThat(r.method()).isEqualTo("POST");
                assertThat(r.path()).isEqualTo("/v1/chat/completions");
            });
        }
    }

    @Test
    void readsAPlainTextReply() throws IOException {
        try (FakeChatServer server = new FakeChatServer(Reply.ok(TEXT_REPLY))) {
            ModelReply reply = model(server, Optional.empty(), 3).complete(question());

            assertThat(reply.content()).contains("Revenue was 1,234.");
            assertThat(reply.toolCalls()).isEmpty();
            assertThat(reply.finishReason()).isEqualTo("stop");
        }
    }

    @Test
    void retriesA429AndHonoursRetryAfter() throws IOException {
        Reply tooMany = new Reply(429, Map.of("Retry-After", "2"), "{}", 0);
        try (FakeChatServer server = new FakeChatServer(tooMany, Reply.ok(TEXT_REPLY))) {
            ModelReply reply = model(server, Optional.empty(), 3).complete(question());

            assertThat(reply.content()).contains("Revenue was 1,234.");
            assertThat(server.requests()).hasSize(2);
            assertThat(sleeps).containsExactly(Duration.ofSeconds(2));
        }
    }

    @Test
    void capsRetryAfterAtMaxBackoff() throws IOException {
        Reply busy = new Reply(503, Map.of("Retry-After", "3600"), "{}", 0);
        try (FakeChatServer server = new FakeChatServer(busy, Reply.ok(TEXT_REPLY))) {
            model(server, Optional.empty(), 3).complete(question());

            assertThat(sleeps).containsExactly(Duration.ofSeconds(5));
        }
    }

    @Test
    void gives500sUpAfterMaxRetriesWithExponentialBackoff() throws IOException {
        try (FakeChatServer server = new FakeChatServer(Reply.status(500), Reply.status(500), Reply.status(500),
                Reply.status(500), Reply.ok(TEXT_REPLY))) {
            OpenAiCompatibleModel model = model(server, Optional.empty(), 3);

            assertThatThrownBy(() -> model.complete(question()))
                    .isInstanceOfSatisfying(GuardException.class, e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.MODEL_UNAVAILABLE);
                        assertThat(e.safeMessage()).contains("HTTP 500").contains("4 attempts");
                        assertSafe(e, server);
                    });
            assertThat(server.requests()).hasSize(4);
            // random 0.0 draws the low end of [d/2, d): 50, 100, 200 ms for d = 100, 200, 400 ms
            assertThat(sleeps).containsExactly(Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(200));
        }
    }

    @Test
    void doesNotRetryA400() throws IOException {
        try (FakeChatServer server = new FakeChatServer(Reply.status(400), Reply.ok(TEXT_REPLY))) {
            OpenAiCompatibleModel model = model(server, Optional.empty(), 3);

            assertThatThrownBy(() -> model.complete(question()))
                    .isInstanceOfSatisfying(GuardException.class, e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.MODEL_UNAVAILABLE);
                        assertThat(e.safeMessage()).contains("HTTP 400").contains("tool calling");
                        assertSafe(e, server);
                    });
            assertThat(server.requests()).hasSize(1);
            assertThat(sleeps).isEmpty();
        }
    }

    @Test
    void explainsA401WithAKey() throws IOException {
        try (FakeChatServer server = new FakeChatServer(Reply.status(401), Reply.ok(TEXT_REPLY))) {
            OpenAiCompatibleModel model = model(server, Optional.of(KEY), 3);

            assertThatThrownBy(() -> model.complete(question()))
                    .isInstanceOfSatisfying(GuardException.class, e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.MODEL_UNAVAILABLE);
                        assertThat(e.safeMessage()).contains("refused the API key").contains("SQLGUARD_MODEL_API_KEY");
                        assertSafe(e, server);
                    });
            assertThat(server.requests()).hasSize(1);
        }
    }

    @Test
    void explainsA403WithoutAKey() throws IOException {
        try (FakeChatServer server = new FakeChatServer(Reply.status(403))) {
            OpenAiCompatibleModel model = model(server, Optional.empty(), 3);

            assertThatThrownBy(() -> model.complete(question()))
                    .isInstanceOfSatisfying(GuardException.class, e ->
                            assertThat(e.safeMessage()).contains("requires an API key").contains("HTTP 403"));
        }
    }

    @Test
    void explainsA404() throws IOException {
        try (FakeChatServer server = new FakeChatServer(Reply.status(404))) {
            OpenAiCompatibleModel model = model(server, Optional.empty(), 3);

            assertThatThrownBy(() -> model.complete(question()))
                    .isInstanceOfSatisfying(GuardException.class, e -> {
                        assertThat(e.safeMessage()).contains("HTTP 404").contains("/v1");
                        assertSafe(e, server);
                    });
            assertThat(server.requests()).hasSize(1);
        }
    }

    @Test
    void refusedConnectionIsModelUnavailableAfterRetries() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        ModelSettings settings = ModelSettings.of("http://127.0.0.1:" + port + "/v1", "m", Optional.of(KEY))
                .withRetries(2, Duration.ofMillis(10), Duration.ofMillis(40));
        OpenAiCompatibleModel model = new OpenAiCompatibleModel(settings, sleeps::add, () -> 0.5);

        assertThatThrownBy(() -> model.complete(question()))
                .isInstanceOfSatisfying(GuardException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.MODEL_UNAVAILABLE);
                    assertThat(e.code().retryable()).isTrue();
                    assertThat(e.safeMessage()).contains("could not be reached").contains("3 attempts");
                    assertThat(e.safeMessage()).doesNotContain(String.valueOf(port));
                    assertSafe(e, null);
                });
        assertThat(sleeps).hasSize(2);
    }

    @Test
    void sendsTheConversationToolsAndBearerKey() throws IOException {
        try (FakeChatServer server = new FakeChatServer(Reply.ok(TEXT_REPLY))) {
            ToolCall call = new ToolCall("call_1", "query_data", "{\"sql\":\"SELECT 1\"}");
            ModelRequest request = new ModelRequest(List.of(
                    ChatMessage.system("sys"),
                    ChatMessage.user("q"),
                    ChatMessage.assistant(Optional.empty(), List.of(call)),
                    ChatMessage.tool("call_1", "{\"status\":\"OK\"}")),
                    List.of(QUERY_TOOL));
            OpenAiCompatibleModel model = new OpenAiCompatibleModel(
                    ModelSettings.of(server.baseUrl() + "/", "qwen2.5:7b", Optional.of(KEY)).withTemperature(0.0),
                    sleeps::add, () -> 0.0);

            model.complete(request);

            FakeChatServer.Recorded recorded = server.requests().get(0);
            assertThat(recorded.path()).isEqualTo("/v1/chat/completions");
            assertThat(recorded.header("Authorization")).isEqualTo("Bearer " + KEY);
            assertThat(recorded.header("Content-Type")).isEqualTo("application/json");
            JsonNode body = JSON.readTree(recorded.body());
            assertThat(body.get("model").asText()).isEqualTo("qwen2.5:7b");
            assertThat(body.get("tool_choice").asText()).isEqualTo("auto");
            assertThat(body.get("stream").asBoolean()).isFalse();
            assertThat(body.get("temperature").asDouble()).isZero();
            JsonNode messages = body.get("messages");
            assertThat(messages).hasSize(4);
            assertThat(messages.get(0).get("role").asText()).isEqualTo("system");
            assertThat(messages.get(1).get("content").asText()).isEqualTo("q");
            JsonNode assistant = messages.get(2);
            assertThat(assistant.get("role").asText()).isEqualTo("assistant");
            assertThat(assistant.get("content").isNull()).isTrue();
            JsonNode sent = assistant.get("tool_calls").get(0);
            assertThat(sent.get("id").asText()).isEqualTo("call_1");
            assertThat(sent.get("type").asText()).isEqualTo("function");
            assertThat(sent.get("function").get("name").asText()).isEqualTo("query_data");
            assertThat(sent.get("function").get("arguments").asText()).isEqualTo("{\"sql\":\"SELECT 1\"}");
            JsonNode tool = messages.get(3);
            assertThat(tool.get("role").asText()).isEqualTo("tool");
            assertThat(tool.get("tool_call_id").asText()).isEqualTo("call_1");
            assertThat(tool.get("content").asText()).isEqualTo("{\"status\":\"OK\"}");
            assertThat(messages.get(0).has("tool_calls")).isFalse();
            assertThat(messages.get(0).has("tool_call_id")).isFalse();
            JsonNode function = body.get("tools").get(0).get("function");
            assertThat(body.get("tools").get(0).get("type").asText()).isEqualTo("function");
            assertThat(function.get("name").asText()).isEqualTo("query_data");
            assertThat(function.get("description").asText()).isEqualTo("Runs one guarded SQL query.");
            assertThat(function.get("parameters").isObject()).isTrue();
            assertThat(function.get("parameters").get("required").get(0).asText()).isEqualTo("sql");
        }
    }

    @Test
    void sendsNoAuthorizationAndNoToolsWhenThereAreNone() throws IOException {
        try (FakeChatServer server = new FakeChatServer(Reply.ok(TEXT_REPLY))) {
            model(server, Optional.empty(), 0).complete(new ModelRequest(List.of(ChatMessage.user("hi")), List.of()));

            FakeChatServer.Recorded recorded = server.requests().get(0);
            assertThat(recorded.header("Authorization")).isNull();
            JsonNode body = JSON.readTree(recorded.body());
            assertThat(body.has("tools")).isFalse();
            assertThat(body.has("tool_choice")).isFalse();
            assertThat(body.has("temperature")).isFalse();
        }
    }

    @Test
    void toleratesArgumentsAsAnObjectMissingIdsAndNullFinishReason() throws IOException {
        String reply = """
                {"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[
                  {"function":{"name":"query_data","arguments":{"sql":"SELECT 2"}}},
                  {"id":"","function":{"name":"describe_source"}}]},"finish_reason":null}]}
                """;
        try (FakeChatServer server = new FakeChatServer(Reply.ok(reply), Reply.ok(reply))) {
            OpenAiCompatibleModel model = model(server, Optional.empty(), 0);

            ModelReply first = model.complete(question());
            ModelReply again = model.complete(question());

            assertThat(first.toolCalls()).containsExactly(
                    new ToolCall("call_2_0", "query_data", "{\"sql\":\"SELECT 2\"}"),
                    new ToolCall("call_2_1", "describe_source", "{}"));
            assertThat(again.toolCalls()).isEqualTo(first.toolCalls());
            assertThat(first.finishReason()).isEqualTo("unknown");
            assertThat(first.content()).isEmpty();
        }
    }

    @Test
    void toleratesContentAsTextPartsAndTheLegacyFunctionCall() throws IOException {
        String reply = """
                {"choices":[{"finish_reason":"function_call","message":{"role":"assistant",
                  "content":[{"type":"text","text":"Let me "},{"type":"text","text":"check."}],
                  "function_call":{"name":"clarify","arguments":"{\\"question\\":\\"Which year?\\"}"}}}]}
                """;
        try (FakeChatServer server = new FakeChatServer(Reply.ok(reply))) {
            ModelReply parsed = model(server, Optional.empty(), 0).complete(question());

            assertThat(parsed.content()).contains("Let me check.");
            assertThat(parsed.toolCalls()).containsExactly(new ToolCall("call_2_0", "clarify", "{\"question\":\"Which year?\"}"));
        }
    }

    @Test
    void aBodyThatIsNotAChatCompletionIsModelUnavailableWithoutRetry() throws IOException {
        try (FakeChatServer server = new FakeChatServer(Reply.ok("<html>secret-body-text</html>"), Reply.ok("{\"choices\":[]}"),
                Reply.ok("{\"error\":{\"message\":\"secret-body-text\"}}"))) {
            OpenAiCompatibleModel model = model(server, Optional.empty(), 3);

            for (int i = 0; i < 3; i++) {
                assertThatThrownBy(() -> model.complete(question()))
                        .isInstanceOfSatisfying(GuardException.class, e -> {
                            assertThat(e.code()).isEqualTo(ErrorCode.MODEL_UNAVAILABLE);
                            assertSafe(e, server);
                        });
            }
            assertThat(server.requests()).hasSize(3);
            assertThat(sleeps).isEmpty();
        }
    }

    @Test
    void aSlowServerTimesOutWithoutRetry() throws IOException {
        try (FakeChatServer server = new FakeChatServer(new Reply(200, Map.of(), TEXT_REPLY, 3_000), Reply.ok(TEXT_REPLY))) {
            ModelSettings settings = ModelSettings.of(server.baseUrl(), "m", Optional.empty())
                    .withTimeouts(Duration.ofMillis(300), Duration.ofSeconds(2));
            OpenAiCompatibleModel model = new OpenAiCompatibleModel(settings, sleeps::add, () -> 0.0);

            assertThatThrownBy(() -> model.complete(question()))
                    .isInstanceOfSatisfying(GuardException.class, e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.MODEL_UNAVAILABLE);
                        assertThat(e.safeMessage()).contains("did not reply within 300 ms");
                        assertSafe(e, server);
                    });
            assertThat(server.requests()).hasSize(1);
            assertThat(sleeps).isEmpty();
        }
    }

    @Test
    void aReplyOverTheSizeLimitIsRefused() throws IOException {
        String big = "{\"choices\":[{\"message\":{\"content\":\"" + "x".repeat(200_000) + "\"}}]}";
        try (FakeChatServer server = new FakeChatServer(Reply.ok(big), Reply.ok(big))) {
            ModelSettings settings = ModelSettings.of(server.baseUrl(), "m", Optional.empty());

            assertThatThrownBy(() -> new OpenAiCompatibleModel(settings, sleeps::add, () -> 0.0, 64 * 1024).complete(question()))
                    .isInstanceOfSatisfying(GuardException.class, e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.MODEL_UNAVAILABLE);
                        assertThat(e.safeMessage()).contains("larger than 65536 bytes");
                    });
            assertThat(new OpenAiCompatibleModel(settings, sleeps::add, () -> 0.0, 1024 * 1024).complete(question()).content())
                    .hasValueSatisfying(c -> assertThat(c).hasSize(200_000));
        }
    }

    @Test
    void aRedirectIsNotFollowedSoTheKeyStaysWithTheConfiguredHost() throws IOException {
        try (FakeChatServer elsewhere = new FakeChatServer(Reply.ok(TEXT_REPLY));
             FakeChatServer server = new FakeChatServer(
                     new Reply(307, Map.of("Location", elsewhere.baseUrl() + "/chat/completions"), "{}", 0))) {
            OpenAiCompatibleModel model = model(server, Optional.of(KEY), 3);

            assertThatThrownBy(() -> model.complete(question()))
                    .isInstanceOfSatisfying(GuardException.class, e -> {
                        assertThat(e.safeMessage()).contains("redirect").contains("HTTP 307");
                        assertSafe(e, server);
                    });
            assertThat(elsewhere.requests()).isEmpty();
            assertThat(server.requests()).hasSize(1);
        }
    }

    @Test
    void keeps429sApartFromServerErrorsInTheMessage() throws IOException {
        Reply tooMany = new Reply(429, Map.of(), "{}", 0);
        try (FakeChatServer server = new FakeChatServer(tooMany, tooMany)) {
            OpenAiCompatibleModel model = model(server, Optional.empty(), 1);

            assertThatThrownBy(() -> model.complete(question()))
                    .isInstanceOfSatisfying(GuardException.class, e -> {
                        assertThat(e.safeMessage()).contains("too many (HTTP 429) after 2 attempts");
                        assertSafe(e, server);
                    });
            assertThat(sleeps).containsExactly(Duration.ofMillis(50));
        }
    }

    @Test
    void aSchemaThatIsNotAnObjectIsAnInternalError() throws IOException {
        try (FakeChatServer server = new FakeChatServer(Reply.ok(TEXT_REPLY))) {
            ModelRequest request = new ModelRequest(List.of(ChatMessage.user("q")),
                    List.of(new ToolSpec("broken", "d", "[1,2")));

            assertThatThrownBy(() -> model(server, Optional.empty(), 0).complete(request))
                    .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INTERNAL_ERROR));
            assertThat(server.requests()).isEmpty();
        }
    }

    @Test
    void anInterruptedWaitIsCancelled() throws IOException {
        try (FakeChatServer server = new FakeChatServer(Reply.status(503), Reply.ok(TEXT_REPLY))) {
            ModelSettings settings = ModelSettings.of(server.baseUrl(), "m", Optional.empty());
            OpenAiCompatibleModel model = new OpenAiCompatibleModel(settings, d -> {
                throw new InterruptedException();
            }, () -> 0.0);
            try {
                assertThatThrownBy(() -> model.complete(question()))
                        .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CANCELLED));
                assertThat(Thread.currentThread().isInterrupted()).isTrue();
            } finally {
                Thread.interrupted();
            }
        }
    }
}
