package dev.sqlguard.app.agent;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import dev.sqlguard.ports.model.ModelPort;
import dev.sqlguard.ports.model.ModelPortFactory;

/**
 * A scripted OpenAI-compatible chat-completions endpoint on loopback. Each request is answered by
 * the next step of the script (a function of the request body), or by {@code afterwards} once the
 * script is used up; every request body is recorded.
 */
public final class FakeOpenAiServer implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final ExecutorService executor = Executors.newSingleThreadExecutor();
    private final List<Function<JsonNode, String>> steps;
    private final Function<JsonNode, String> afterwards;
    private final List<JsonNode> requests = new ArrayList<>();

    FakeOpenAiServer(List<Function<JsonNode, String>> steps, Function<JsonNode, String> afterwards) throws IOException {
        this.steps = List.copyOf(steps);
        this.afterwards = afterwards;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/chat/completions", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    public static FakeOpenAiServer script(List<Function<JsonNode, String>> steps) throws IOException {
        return new FakeOpenAiServer(steps, null);
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    /** The real HTTP adapter, found the way the app finds it: ServiceLoader, by name. */
    ModelPort model() {
        return model(baseUrl());
    }

    static ModelPort model(String baseUrl) {
        ModelPortFactory factory = ServiceLoader.load(ModelPortFactory.class).stream().map(ServiceLoader.Provider::get)
                .filter(f -> f.name().equals("openai")).findFirst()
                .orElseThrow(() -> new AssertionError("no 'openai' ModelPortFactory on the test classpath"));
        return factory.create(Map.of("baseUrl", baseUrl, "model", "scripted-model", "apiKey", "sk-test-not-secret",
                "maxRetries", "0", "requestTimeout", "20s", "connectTimeout", "2s"), Map.of());
    }

    public synchronized List<JsonNode> requests() {
        return List.copyOf(requests);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            JsonNode body = JSON.readTree(exchange.getRequestBody().readAllBytes());
            Function<JsonNode, String> step;
            synchronized (this) {
                int turn = requests.size();
                requests.add(body);
                step = turn < steps.size() ? steps.get(turn) : afterwards;
            }
            if (step == null) {
                send(exchange, 418, "{\"error\":{\"message\":\"script exhausted\"}}");
                return;
            }
            String reply;
            try {
                reply = step.apply(body);
            } catch (AssertionError | RuntimeException e) {
                send(exchange, 418, "{\"error\":{\"message\":\"script assertion failed\"}}");
                throw e;
            }
            send(exchange, 200, reply);
        }
    }

    private static void send(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    // ------------------------------------------------------------------ reply builders

    /** A reply that calls one tool; the arguments are sent as a JSON string, as OpenAI does. */
    public static Function<JsonNode, String> toolCall(String name, String argumentsJson) {
        return request -> {
            ObjectNode message = JSON.createObjectNode().put("role", "assistant");
            message.putNull("content");
            ArrayNode calls = message.putArray("tool_calls");
            ObjectNode call = calls.addObject().put("id", "call_" + request.path("messages").size()).put("type", "function");
            call.putObject("function").put("name", name).put("arguments", argumentsJson);
            return completion(message, "tool_calls");
        };
    }

    public static Function<JsonNode, String> text(String content) {
        return request -> completion(JSON.createObjectNode().put("role", "assistant").put("content", content), "stop");
    }

    static String completion(ObjectNode message, String finishReason) {
        ObjectNode root = JSON.createObjectNode().put("id", "chatcmpl-test").put("object", "chat.completion")
                .put("model", "scripted-model");
        ObjectNode choice = root.putArray("choices").addObject().put("index", 0);
        choice.set("message", message);
        choice.put("finish_reason", finishReason);
        return root.toString();
    }

    /** The content of the last tool message of a request, parsed. */
    public static JsonNode lastToolResult(JsonNode request) {
        JsonNode messages = request.path("messages");
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).path("role").asText().equals("tool")) {
                try {
                    return JSON.readTree(messages.get(i).path("content").asText());
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
            }
        }
        throw new AssertionError("no tool message");
    }
}
