package dev.sqlguard.app.e2e;

import static dev.sqlguard.app.agent.FakeOpenAiServer.lastToolResult;
import static dev.sqlguard.app.agent.FakeOpenAiServer.text;
import static dev.sqlguard.app.agent.FakeOpenAiServer.toolCall;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.sqlguard.app.agent.FakeOpenAiServer;

/**
 * End-to-end {@code ask}: the real jar against a scripted OpenAI-compatible server on loopback,
 * the real adapter, planner, DuckDB demo source and audit.
 */
@Timeout(300)
class AskIT {
    static final String COUNT_DENIED =
            "{\"source\":\"demo\",\"sql\":\"SELECT count(*) AS denied FROM claims WHERE status = 'DENIED'\"}";

    @TempDir
    Path dir;

    private JarRunner sqlguard;

    @BeforeEach
    void setUp() throws IOException {
        sqlguard = new JarRunner(dir.resolve("home"), Files.createDirectories(dir.resolve("work")));
    }

    @Test
    void aCorrectRunPrintsAVerifiedResponseAndAuditsTheQuery() throws Exception {
        try (FakeOpenAiServer model = FakeOpenAiServer.script(List.of(
                toolCall("query_data", COUNT_DENIED),
                request -> {
                    JsonNode result = lastToolResult(request);
                    assertThat(result.path("status").asText()).isEqualTo("OK");
                    long denied = result.at("/rows/0/0").asLong();
                    return text(denied + " claims were denied.\n\nKey findings:\n- " + denied + " claims have status DENIED")
                            .apply(request);
                }))) {
            JarRunner.Run run = sqlguard.env("SQLGUARD_MODEL_BASE_URL", model.baseUrl())
                    .env("SQLGUARD_MODEL", "scripted-model")
                    .env("SQLGUARD_MODEL_API_KEY", "sk-it-not-secret")
                    .run("ask", "How many claims were denied?");

            assertThat(run.code()).as(run.err()).isZero();
            JsonNode response = run.document();
            assertThat(response.get("status").asText()).isEqualTo("answered");
            long denied = response.at("/queries/0/preview_rows/0/0").asLong();
            assertThat(denied).isPositive();
            assertThat(response.get("answer").asText()).isEqualTo(denied + " claims were denied.");
            assertThat(response.at("/verification/fully_verified").asBoolean()).isTrue();
            assertThat(response.at("/queries/0/sql").asText()).contains("status = 'DENIED'").contains("LIMIT");
            assertThat(run.err()).as("the agent's query is audited like the CLI's")
                    .containsPattern("\\{\"type\":\"audit\",[^\n]*\"source\":\"demo\",\"operation\":\"query\",\"verdict\":\"OK\"");
            assertThat(run.out()).doesNotContain("sk-it-not-secret");
            assertThat(run.err()).doesNotContain("sk-it-not-secret");
            assertThat(model.requests()).hasSize(2);
            assertThat(model.requests().get(0).path("model").asText()).isEqualTo("scripted-model");
        }

        JarRunner.Run text;
        try (FakeOpenAiServer model = FakeOpenAiServer.script(List.of(text("There are 3000 claims in total.")))) {
            text = sqlguard.env("SQLGUARD_MODEL_BASE_URL", model.baseUrl()).env("SQLGUARD_MODEL", "scripted-model")
                    .run("ask", "--format", "text", "--source", "demo", "How", "many", "claims?");
        }
        assertThat(text.code()).as(text.err()).isZero();
        assertThat(text.out()).contains("There are 3000 claims in total.");
    }

    @Test
    void withoutAModelTheCommandExitsTwoAndSaysHowToConfigureOne() {
        JarRunner.Run run = sqlguard.run("ask", "How many claims?");

        assertThat(run.code()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).contains("no usable model endpoint").contains("SQLGUARD_MODEL_BASE_URL")
                .doesNotContain("Exception");

        JarRunner.Run eval = sqlguard.run("eval");
        assertThat(eval.code()).isEqualTo(2);
        assertThat(eval.out()).isEmpty();
    }

    @Test
    void anUnreachableEndpointExitsFourWithASafeMessage() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort(); // closed again: nothing listens there
        }
        Path config = dir.resolve("work/model.yaml");
        Files.writeString(config, sqlguard.demoConfig("", """
                model:
                  baseUrl: http://127.0.0.1:%d/v1
                  model: scripted-model
                  apiKey: ${IT_MODEL_KEY}
                  maxRetries: 0
                  connectTimeout: 2s
                """.formatted(port)));
        sqlguard.env("IT_MODEL_KEY", "sk-it-unreachable-secret");

        JarRunner.Run ask = sqlguard.run("ask", "--config", "model.yaml", "How many claims?");
        assertThat(ask.code()).as(ask.err()).isEqualTo(4);
        assertThat(ask.document().get("status").asText()).isEqualTo("model_unavailable");
        assertThat(ask.err()).contains("could not be reached").doesNotContain("sk-it-unreachable-secret")
                .doesNotContain("127.0.0.1:" + port).doesNotContain("Exception");

        JarRunner.Run eval = sqlguard.run("eval", "--config", "model.yaml", "--format", "text");
        assertThat(eval.code()).as(eval.err()).isEqualTo(4);
        assertThat(eval.err()).contains("evaluation stopped after 1 question");
        assertThat(eval.out()).contains("Fully verified and correct: 0/1");

        // one rule for every command, ask and eval included: JSON unless --format says otherwise
        JarRunner.Run evalJson = sqlguard.run("eval", "--config", "model.yaml");
        assertThat(evalJson.code()).as(evalJson.err()).isEqualTo(4);
        assertThat(evalJson.document().get("total").asInt()).isEqualTo(1);
        assertThat(evalJson.document().get("verified_and_correct").asInt()).isZero();
    }
}
