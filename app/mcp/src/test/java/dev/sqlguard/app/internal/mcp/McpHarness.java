package dev.sqlguard.app.internal.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sqlguard.app.tools.AgentSource;
import dev.sqlguard.app.tools.AgentTools;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.app.GuardedCalls;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.ToolError;
import dev.sqlguard.domain.port.AuditEvent;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.domain.port.LifecycleRecord;
import dev.sqlguard.testing.memory.ContractTables;
import dev.sqlguard.testing.memory.InMemoryEngine;
import dev.sqlguard.testing.memory.InMemoryEngineFactory;

/**
 * An {@link McpStdioServer} on pipes, over the in-memory engine's claims (source {@code claims_db})
 * plus a configured source {@code down} whose engine did not start. A query naming
 * {@code 'RUNAWAY'} runs until it is cancelled or its 10 s limit passes.
 */
final class McpHarness implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String RUNAWAY_SQL = "SELECT id FROM claims WHERE status = 'RUNAWAY'";
    static final String COUNT_SQL = "SELECT count(*) AS n FROM claims";

    final List<AuditEvent> audit = new CopyOnWriteArrayList<>();
    /** The lifecycle records written (each one a write to the audit sink, as each event is). */
    final List<LifecycleRecord> lifecycle = new CopyOnWriteArrayList<>();
    /** Counted down when a statement starts on the engine. */
    final java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
    final Queue<String> warnings = new ConcurrentLinkedQueue<>();
    /** Every message the server wrote, in order. */
    final List<JsonNode> written = new CopyOnWriteArrayList<>();
    final McpStdioServer server;

    private final BlockingQueue<JsonNode> unread = new LinkedBlockingQueue<>();
    private final PipedOutputStream input = new PipedOutputStream();
    private final Thread serving;

    McpHarness(Path charts, McpStdioServer.Settings settings) {
        this(charts, settings, GuardrailPolicy.defaults());
    }

    McpHarness(Path charts, McpStdioServer.Settings settings, GuardrailPolicy policy) {
        AuditSink sink = new AuditSink() {
            @Override
            public void audit(AuditEvent event) {
                audit.add(event);
            }

            @Override
            public void lifecycle(LifecycleRecord record) {
                lifecycle.add(record);
                if (record.phase() == LifecycleRecord.Phase.STARTED) {
                    started.countDown();
                }
            }
        };
        InMemoryEngine engine = new InMemoryEngine("claims_db", policy,
                InMemoryEngine.tables(ContractTables.claims()), sql -> sql.contains("'RUNAWAY'"));
        AgentTools tools = new AgentTools(GuardedCalls.over(new QueryService(CallerAudit.tagging(sink)), e -> e.policy()),
                List.of(new AgentSource(engine, InMemoryEngineFactory.NAME, InMemoryEngineFactory.DIALECT)), charts);
        McpToolServer toolServer = new McpToolServer(tools, List.of(
                new McpToolServer.SourceInfo("claims_db", InMemoryEngineFactory.NAME, Optional.empty()),
                new McpToolServer.SourceInfo("down", "mysql",
                        Optional.of(ToolError.of(new GuardException(ErrorCode.ENGINE_UNAVAILABLE))))));
        server = new McpStdioServer(toolServer, "test", settings, warnings::add);
        PipedInputStream serverIn;
        try {
            serverIn = new PipedInputStream(input, 4 << 20);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        OutputStream serverOut = new OutputStream() {
            private final java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();

            @Override
            public synchronized void write(int b) throws IOException {
                if (b != '\n') {
                    line.write(b);
                    return;
                }
                JsonNode message = JSON.readTree(line.toByteArray());
                line.reset();
                written.add(message);
                unread.add(message);
            }
        };
        serving = new Thread(() -> server.serve(serverIn, serverOut), "mcp-under-test");
        serving.start();
    }

    /** Sends one line (a message, a batch, or anything). */
    McpHarness send(String line) {
        try {
            input.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            input.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    static String request(Object id, String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + JSON.valueToTree(id) + ",\"method\":\"" + method + "\""
                + (params == null ? "" : ",\"params\":" + params) + "}";
    }

    static String notification(String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"method\":\"" + method + "\"" + (params == null ? "" : ",\"params\":" + params) + "}";
    }

    static String call(Object id, String tool, String arguments) {
        return request(id, "tools/call", "{\"name\":\"" + tool + "\",\"arguments\":" + arguments + "}");
    }

    static String query(Object id, String sql) {
        return call(id, "query_data", "{\"source\":\"claims_db\",\"sql\":" + JSON.valueToTree(sql) + "}");
    }

    /** The next message the server writes (a hang guard fails the test after 30 s). */
    JsonNode next() {
        try {
            JsonNode message = unread.poll(30, TimeUnit.SECONDS);
            assertThat(message).as("a message from the server; warnings: %s", warnings).isNotNull();
            return message;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** The next message that is not a notification (a response or a batch of them). */
    JsonNode nextResponse() {
        while (true) {
            JsonNode message = next();
            if (!(message.has("method") && !message.has("id"))) {
                return message;
            }
        }
    }

    /** Reads until the response to {@code id}, skipping notifications; fails on any other response. */
    JsonNode response(Object id) {
        JsonNode expected = JSON.valueToTree(id);
        while (true) {
            JsonNode message = next();
            if (message.has("method") && !message.has("id")) {
                continue;
            }
            assertThat(message.get("id")).as("the response expected next: %s", message).isEqualTo(expected);
            return message;
        }
    }

    /** initialize with {@code version}, then notifications/initialized; returns the initialize result. */
    JsonNode initialize(String version) {
        send(request("init", "initialize", "{\"protocolVersion\":\"" + version
                + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}"));
        JsonNode result = response("init").get("result");
        send(notification("notifications/initialized", null));
        return result;
    }

    /** Ends the input and waits for {@link McpStdioServer#serve} to return. */
    void endInput() {
        try {
            input.close();
            serving.join(TimeUnit.SECONDS.toMillis(20));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
        assertThat(serving.isAlive()).as("serve returned after the input ended").isFalse();
    }

    /** How many responses each id got, over everything written. */
    Map<JsonNode, Long> responsesById() {
        Map<JsonNode, Long> counts = new java.util.HashMap<>();
        for (JsonNode message : written) {
            List<JsonNode> items = new ArrayList<>();
            if (message.isArray()) {
                message.forEach(items::add);
            } else {
                items.add(message);
            }
            for (JsonNode item : items) {
                if (item.has("id") && !item.has("method")) {
                    counts.merge(item.get("id"), 1L, Long::sum);
                }
            }
        }
        return counts;
    }

    /** The ToolResult JSON of a tools/call response (its structuredContent). */
    static JsonNode toolResult(JsonNode response) {
        return response.at("/result/structuredContent");
    }

    @Override
    public void close() {
        if (serving.isAlive()) {
            endInput();
        }
    }
}
