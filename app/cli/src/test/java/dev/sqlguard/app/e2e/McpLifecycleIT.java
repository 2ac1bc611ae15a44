package dev.sqlguard.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The MCP server's lifecycle with the real jar over a raw pipe: requests before the handshake,
 * cancellation, the end of stdin with a query running, SIGTERM, and stale work folders.
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class McpLifecycleIT {
    @TempDir
    Path dir;

    private Path home;
    private Path tmp;
    private Path config;
    private final List<Process> started = new ArrayList<>();

    @BeforeEach
    void setUp() throws IOException {
        home = Files.createDirectories(dir.resolve("home"));
        tmp = Files.createDirectories(dir.resolve("tmp"));
        JarRunner runner = new JarRunner(home, Files.createDirectories(dir.resolve("work")));
        config = dir.resolve("work/mcp.yaml");
        // a limit far beyond any wait here: only a cancel or the end of the process stops the runaway query
        Files.writeString(config, runner.demoConfig("timeout: 120s", ""));
    }

    @AfterEach
    void tearDown() {
        started.forEach(Process::destroyForcibly);
    }

    /** A running {@code sqlguard mcp} with its own temporary folder and state folder. */
    private final class Server {
        final Process process;
        final OutputStream in;
        final BlockingQueue<JsonNode> out = new LinkedBlockingQueue<>();
        final List<JsonNode> all = new java.util.concurrent.CopyOnWriteArrayList<>();

        Server() throws IOException {
            List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx256m", "-Djava.io.tmpdir=" + tmp, "-jar", JarRunner.jar().toString(), "mcp", "--config", config.toString());
            ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
                    .redirectError(dir.resolve("stderr-" + System.nanoTime() + ".txt").toFile());
            builder.environment().keySet().removeIf(name -> name.startsWith("SQLGUARD_"));
            builder.environment().put("HOME", home.toString());
            builder.environment().put("XDG_CACHE_HOME", home.resolve("cache").toString());
            builder.environment().put("XDG_STATE_HOME", home.resolve("state").toString());
            process = builder.start();
            started.add(process);
            in = process.getOutputStream();
            Thread reader = new Thread(() -> {
                BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                while (true) {
                    String line;
                    try {
                        line = lines.readLine();
                    } catch (IOException closed) {
                        return; // tearDown's destroyForcibly closed the pipe under the read: the output ends here
                    }
                    if (line == null) {
                        return;
                    }
                    try {
                        JsonNode node = JarRunner.JSON.readTree(line); // a line that is not JSON-RPC fails loudly
                        all.add(node);
                        out.add(node);
                    } catch (IOException notJson) {
                        throw new UncheckedIOException(notJson);
                    }
                }
            });
            reader.setDaemon(true);
            reader.start();
        }

        Server send(String line) throws IOException {
            in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
            return this;
        }

        /** The response to {@code id}, skipping log messages (a hang guard fails after 60 s). */
        JsonNode response(int id) throws InterruptedException {
            while (true) {
                JsonNode message = out.poll(60, TimeUnit.SECONDS);
                assertThat(message).as("a response to %d", id).isNotNull();
                if (message.has("id")) {
                    assertThat(message.get("id").asInt()).isEqualTo(id);
                    return message;
                }
            }
        }

        void handshake() throws Exception {
            send(request(1, "initialize", "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                    + "\"clientInfo\":{\"name\":\"it\",\"version\":\"1\"}}"));
            assertThat(response(1).has("result")).isTrue();
            send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        }

        /** Waits until a statement has started on the engine (its lifecycle line is on record). */
        void awaitStatementStarted() throws Exception {
            while (!audit().contains("\"phase\":\"STARTED\"")) {
                assertThat(process.isAlive()).as("the server is running").isTrue();
                Thread.sleep(10);
            }
        }

        /** Closes stdin and waits for the exit, returning the milliseconds it took (hang guard: 60 s). */
        long closeStdinAndWait() throws Exception {
            long t0 = System.nanoTime();
            in.close();
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the server exits after stdin closes").isTrue();
            return (System.nanoTime() - t0) / 1_000_000;
        }

        boolean answered(int id) {
            return all.stream().anyMatch(m -> m.has("id") && m.get("id").asInt() == id);
        }
    }

    private static String request(int id, String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\"" + (params == null ? "" : ",\"params\":" + params) + "}";
    }

    private static String runaway(int id) {
        return request(id, "tools/call", "{\"name\":\"query_data\",\"arguments\":{\"source\":\"demo\",\"sql\":\""
                + McpIT.RUNAWAY + "\"}}");
    }

    private String audit() throws IOException {
        Path file = home.resolve("state/sqlguard/audit.jsonl");
        return Files.exists(file) ? Files.readString(file) : "";
    }

    private List<Path> workFolders() throws IOException {
        try (Stream<Path> files = Files.list(tmp)) {
            return files.filter(p -> p.getFileName().toString().startsWith("sqlguard-work-")).toList();
        }
    }

    @Test
    void aPingBeforeInitializeIsAnsweredAndTheServerExitsWhenStdinCloses() {
        JarRunner.Run run = new JarRunner(home, dir.resolve("work")).runWithInput(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n"
                        + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n"
                        + "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"list_sources\"}}\n",
                "mcp");

        assertThat(run.code()).as(run.err()).isZero();
        List<JsonNode> lines = run.lines();
        assertThat(lines).extracting(l -> l.get("id").asInt()).containsExactly(1, 2, 3);
        assertThat(lines.get(0).get("result").isObject()).isTrue();
        assertThat(lines.get(1).at("/error/code").asInt()).isEqualTo(-32002);
        assertThat(lines.get(2).at("/error/message").asText()).contains("initialize");
    }

    @Test
    void aCancelledCallStopsOnTheEngineAndGetsNoResponse() throws Exception {
        Server server = new Server();
        server.handshake();

        server.send(runaway(5));
        server.awaitStatementStarted();
        long t0 = System.nanoTime();
        server.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":5}}");
        while (!audit().contains("\"code\":\"CANCELLED\"")) {
            Thread.sleep(10); // within the 120 s limit only a cancel on the engine ends the statement
        }
        System.err.printf("[measure] mcp cancel to the statement's end on DuckDB: %d ms%n", (System.nanoTime() - t0) / 1_000_000);
        assertThat(server.send(request(6, "ping", null)).response(6).has("result")).isTrue();

        server.closeStdinAndWait();
        assertThat(server.answered(5)).as("a cancelled request is never answered").isFalse();
        assertThat(server.process.exitValue()).isZero();
    }

    @Test
    void stdinClosingWithAQueryRunningEndsTheProcessAndAnswersTheCall() throws Exception {
        Server server = new Server();
        server.handshake();
        server.send(runaway(9));
        server.awaitStatementStarted();

        long ms = server.closeStdinAndWait();
        System.err.printf("[measure] mcp exit after stdin closed with a query running: %d ms%n", ms);

        assertThat(server.process.exitValue()).isZero();
        JsonNode answer = server.all.stream().filter(m -> m.has("id") && m.get("id").asInt() == 9).findFirst().orElseThrow();
        JsonNode result = JarRunner.JSON.readTree(answer.at("/result/content/0/text").asText());
        assertThat(result.at("/error/code").asText()).isEqualTo("CANCELLED");
        assertThat(workFolders()).as("the work folder is removed").isEmpty();
    }

    @Test
    void sigtermRemovesTheWorkFolderAndAStaleFolderOfADeadProcessGoesAtTheNextStart() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        Path stale = Files.createDirectories(tmp.resolve("sqlguard-work-stale"));
        Files.writeString(stale.resolve("owner.pid"), gone.pid() + " -");
        Files.writeString(stale.resolve("spill.bin"), "left by a killed process");

        Server server = new Server();
        server.handshake();
        assertThat(server.send(request(2, "ping", null)).response(2).has("result")).isTrue();
        assertThat(stale).as("a stale folder is removed at start").doesNotExist();
        assertThat(workFolders()).as("the engines' and the charts' work folders").hasSize(2);

        server.send(runaway(3));
        server.awaitStatementStarted();
        server.process.destroy(); // SIGTERM
        assertThat(server.process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(workFolders()).as("SIGTERM removes the work folder").isEmpty();
    }
}
