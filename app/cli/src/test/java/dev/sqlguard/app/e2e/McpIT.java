package dev.sqlguard.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ImageContent;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;

/**
 * End-to-end MCP: the real jar started as a subprocess ({@code sqlguard mcp}) and driven over
 * stdio by the MCP Java SDK's own client, on the DuckDB demo source.
 */
@Timeout(300)
class McpIT {
    /** A cross join no optimizer can prune: runs far longer than any limit used here. */
    static final String RUNAWAY =
            "SELECT count(*) AS n FROM claims a, claims b, claims c WHERE (a.id * 7 + b.id + c.id) % 1000003 = 17";

    @TempDir
    Path dir;

    private Path home;
    private final Queue<String> stderr = new ConcurrentLinkedQueue<>();
    private final List<McpSyncClient> clients = new ArrayList<>();

    @BeforeEach
    void setUp() throws IOException {
        home = Files.createDirectories(dir.resolve("home"));
    }

    @AfterEach
    void tearDown() {
        clients.forEach(McpSyncClient::closeGracefully);
    }

    private McpSyncClient start(String... args) {
        return start(line -> { }, args);
    }

    private McpSyncClient start(java.util.function.Consumer<String> onStderr, String... args) {
        StdioClientTransport transport = JarRunner.mcpTransport(home, List.of(args));
        transport.setStdErrorHandler(line -> {
            stderr.add(line);
            onStderr.accept(line);
        });
        McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(120))
                .initializationTimeout(Duration.ofSeconds(120)).build();
        clients.add(client);
        long t0 = System.nanoTime();
        client.initialize();
        System.err.printf("[measure] mcp initialize (JVM start included): %d ms%n", (System.nanoTime() - t0) / 1_000_000);
        return client;
    }

    /** The audit file's text: an MCP server without audit.file writes to $XDG_STATE_HOME/sqlguard/audit.jsonl. */
    private String audit() {
        Path file = home.resolve("state/sqlguard/audit.jsonl");
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static CallToolResult call(McpSyncClient client, String tool, Map<String, Object> arguments) {
        return client.callTool(CallToolRequest.builder(tool).arguments(arguments).build());
    }

    /** The first text content, parsed as JSON. */
    private static JsonNode json(CallToolResult result) {
        String text = ((TextContent) result.content().get(0)).text();
        try {
            return JarRunner.JSON.readTree(text);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }

    private static Map<String, Object> args(Object... keyValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            map.put((String) keyValues[i], keyValues[i + 1]);
        }
        return map;
    }

    @Test
    void initializeListsFiveReadOnlyToolsWithSchemas() {
        McpSyncClient client = start();

        assertThat(client.getServerInfo().name()).isEqualTo("sqlguard");
        List<Tool> tools = client.listTools().tools();
        assertThat(tools).extracting(Tool::name)
                .containsExactly("list_sources", "describe_source", "query_data", "summary_stats", "plot_chart");
        for (Tool tool : tools) {
            assertThat(tool.description()).as(tool.name()).isNotBlank();
            assertThat(tool.inputSchema()).as(tool.name()).containsEntry("type", "object")
                    .containsEntry("additionalProperties", false);
            assertThat(tool.annotations().readOnlyHint()).as(tool.name()).isTrue();
            assertThat(tool.annotations().destructiveHint()).as(tool.name()).isFalse();
            assertThat(tool.annotations().openWorldHint()).as(tool.name()).isFalse();
        }
        Tool query = tools.get(2);
        assertThat(query.inputSchema().get("required")).asInstanceOf(InstanceOfAssertFactories.LIST).contains("source", "sql");
        assertThat(query.inputSchema().get("properties")).asString().contains("params");

        CallToolResult sources = call(client, "list_sources", Map.of());
        assertThat(sources.isError()).isFalse();
        JsonNode list = json(sources);
        assertThat(list.at("/sources/0/source").asText()).isEqualTo("demo");
        assertThat(list.at("/sources/0/engine").asText()).isEqualTo("duckdb");
        assertThat(list.at("/sources/0/available").asBoolean()).isTrue();
    }

    @Test
    void honestCallsAnswerThroughTheGuardedPathAndAreAudited() {
        McpSyncClient client = start();

        long t0 = System.nanoTime();
        CallToolResult result = call(client, "query_data",
                args("source", "demo", "sql", "SELECT status, count(*) AS n FROM claims GROUP BY status ORDER BY status"));
        System.err.printf("[measure] mcp query_data (group by over 3000 rows): %d ms%n", (System.nanoTime() - t0) / 1_000_000);
        assertThat(result.isError()).isFalse();
        JsonNode json = json(result);
        assertThat(json.get("status").asText()).isEqualTo("OK");
        assertThat(json.get("sql").asText()).contains("LIMIT");
        assertThat(json.get("rows")).extracting(r -> r.get(0).asText()).containsExactly("APPROVED", "CLOSED", "DENIED", "PENDING");
        long total = 0;
        for (JsonNode row : json.get("rows")) {
            total += row.get(1).asLong();
        }
        assertThat(total).isEqualTo(3000);

        CallToolResult withParams = call(client, "query_data", args("source", "demo",
                "sql", "SELECT count(*) AS n FROM claims WHERE status = ?", "params", List.of("DENIED")));
        assertThat(withParams.isError()).isFalse();
        assertThat(json(withParams).at("/rows/0/0").asLong()).isEqualTo(json.at("/rows/2/1").asLong());

        CallToolResult described = call(client, "describe_source", Map.of());
        assertThat(described.isError()).isFalse();
        assertThat(json(described).toString()).contains("claims").contains("amount");

        CallToolResult stats = call(client, "summary_stats", args("source", "demo", "table", "claims", "columns", List.of("amount")));
        assertThat(stats.isError()).isFalse();
        assertThat(json(stats).at("/stats/0/column").asText()).isEqualTo("amount");
        assertThat(json(stats).at("/row_count").asLong()).isEqualTo(3000);

        CallToolResult chart = call(client, "plot_chart", args("source", "demo", "chart",
                args("type", "bar", "table", "claims", "x", "region", "y", "amount", "aggregation", "sum", "title", "Amount by region")));
        assertThat(chart.isError()).as(chart.toString()).isFalse();
        assertThat(json(chart).at("/chart/type").asText()).isEqualTo("bar");
        ImageContent image = chart.content().stream().filter(ImageContent.class::isInstance).map(ImageContent.class::cast)
                .findFirst().orElseThrow(() -> new AssertionError("no image content: " + chart));
        assertThat(image.mimeType()).isEqualTo("image/png");
        byte[] png = Base64.getDecoder().decode(image.data());
        assertThat(png).startsWith(0x89, 'P', 'N', 'G');
        assertThat(chart.content()).filteredOn(TextContent.class::isInstance).map(c -> ((TextContent) c).text())
                .anySatisfy(spec -> assertThat(spec).contains("vega-lite").contains("region"));

        assertThat(audit())
                .containsPattern("\"type\":\"audit\"[^\\n]*\"source\":\"demo\",\"operation\":\"query\",\"verdict\":\"OK\"");
        assertThat(String.join("\n", stderr)).as("audit lines never go to stderr").doesNotContain("\"type\":\"audit\"");
    }

    @Test
    void hostileQueriesComeBackAsToolErrorsWithTheirCodes() {
        McpSyncClient client = start();

        Map<String, String> hostile = new LinkedHashMap<>();
        hostile.put("DELETE FROM claims", "STATEMENT_NOT_ALLOWED");
        hostile.put("SELECT 1; DROP TABLE claims", "STATEMENT_NOT_ALLOWED");
        hostile.put("SELECT * FROM read_csv('/etc/passwd')", "TABLE_FUNCTION_NOT_ALLOWED");
        hostile.put("SELECT read_text('/etc/passwd')", null);
        hostile.put("ATTACH '/tmp/sqlguard-mcp-it.duckdb' AS o", "STATEMENT_NOT_ALLOWED");
        // what DuckDB binds, not what the text seems to say: whole rows, alias-first names, cost amplification
        hostile.put("SELECT id AS c, c FROM claims c LIMIT 2", "COLUMN_NOT_ALLOWED");
        hostile.put("SELECT current_date FROM claims AS \"current_date\"", "COLUMN_NOT_ALLOWED");
        hostile.put("SELECT region FROM claims c QUALIFY c::VARCHAR LIKE '%1%'", "UNKNOWN_COLUMN");
        hostile.put("SELECT id, claimant_ssn AS region FROM claims ORDER BY region LIMIT 1", "COLUMN_NOT_ALLOWED");
        hostile.put("SELECT length(repeat('x', 1000000000))", "UNBOUNDED_COST");
        // issue 24: a statistic of a sensitive column in a filter, a pattern compiled per row, a product of data sizes
        hostile.put("SELECT column_name FROM (SUMMARIZE claims) WHERE max LIKE '9%'", "COLUMN_NOT_ALLOWED");
        hostile.put("SELECT count(*) FROM range(2048) t(i) WHERE regexp_matches('x', '.{1000}.{1000}.{1000}' || i::VARCHAR)",
                "UNBOUNDED_COST");
        hostile.put("SELECT len(flatten(flatten(list_transform(l, lambda y: list_transform(l, lambda z: l))))) "
                + "FROM (SELECT list(region) AS l FROM claims)", "UNBOUNDED_COST");
        hostile.forEach((sql, code) -> {
            CallToolResult result = call(client, "query_data", args("source", "demo", "sql", sql));
            assertThat(result.isError()).as(sql).isTrue();
            JsonNode json = json(result);
            assertThat(json.get("status").asText()).as(sql).isEqualTo("REJECTED");
            if (code != null) {
                assertThat(json.at("/error/code").asText()).as(sql).isEqualTo(code);
            } else {
                assertThat(json.at("/error/code").asText()).as(sql).isNotBlank();
            }
            assertThat(json.at("/error/message").asText()).as(sql).isNotBlank();
            assertThat(json.toString()).as(sql).doesNotContain("root:").doesNotContain("Exception").doesNotContain("\tat ");
        });
        assertThat(Path.of("/tmp/sqlguard-mcp-it.duckdb")).doesNotExist();
        // the server is still serving
        assertThat(call(client, "list_sources", Map.of()).isError()).isFalse();
    }

    /**
     * Issue 24: a secret never crosses the wire, so its length changes no answer. Through the MCP
     * server's {@code query_data}, on every engine this machine runs (DuckDB; PostgreSQL and MariaDB
     * where CI names their servers), the padding oracle and its variants answer alike for secrets of 1
     * character, 150 kB and 3 MB under the byte and cell caps; each executed SQL masks the sensitive output.
     */
    @Test
    void aSecretsLengthNeverChangesAQueryDataAnswer() throws Exception {
        Path work = Files.createDirectories(dir.resolve("vault-work"));
        try (Vaults vaults = Vaults.create(work)) {
            System.err.println("[masking] sources: " + vaults.sources());
            Path config = work.resolve("mcp.yaml");
            Files.writeString(config, vaults.config("bytes: 60, cellChars: 3"));
            McpSyncClient client = start("--config", config.toString());
            for (String source : vaults.sources()) {
                for (String sql : Vaults.ORACLES) {
                    java.util.Set<String> outcomes = new java.util.LinkedHashSet<>();
                    for (dev.sqlguard.testing.MaskedAnswers.Secret v : dev.sqlguard.testing.MaskedAnswers.VAULT) {
                        CallToolResult result = call(client, "query_data", args("source", source, "sql", sql, "params", List.of(v.id())));
                        JsonNode json = json(result);
                        outcomes.add(Vaults.outcome(json));
                        assertThat(json.get("sql").asText()).as(source).contains("CASE WHEN 1 = 0 THEN");
                        assertThat(json.toString()).doesNotContain("zzzzzzzzzz").doesNotContain("xxxxxxxxxx");
                    }
                    assertThat(outcomes).as(source + " " + sql.replaceAll("y{100,}", "y...")).hasSize(1);
                    assertThat(outcomes.iterator().next()).as(source).startsWith("OK - ").contains("[REDACTED]");
                }
            }
        }
    }

    @Test
    void invalidArgumentsAreToolErrorsNotProtocolErrors() {
        McpSyncClient client = start();

        List<Map.Entry<String, Map<String, Object>>> calls = List.of(
                Map.entry("query_data", args("source", "demo", "sql", 5)),
                Map.entry("query_data", args("source", "demo")),
                Map.entry("query_data", args("source", "demo", "sql", "SELECT 1", "limit", 10)),
                Map.entry("query_data", args("source", "nowhere", "sql", "SELECT 1")),
                Map.entry("summary_stats", args("source", "demo", "table", 7)),
                Map.entry("plot_chart", args("source", "demo", "chart", args("type", "radar", "table", "claims", "x", "region"))),
                Map.entry("query_data", args("source", "demo", "sql", "SELECT ?", "params", List.of(Map.of("$ne", 1)))),
                Map.entry("list_sources", args("verbose", true)));
        for (Map.Entry<String, Map<String, Object>> c : calls) {
            CallToolResult result = call(client, c.getKey(), c.getValue());
            assertThat(result.isError()).as(c.toString()).isTrue();
            JsonNode json = json(result);
            assertThat(json.get("status").asText()).as(c.toString()).isEqualTo("REJECTED");
            String code = json.at("/error/code").asText();
            assertThat(code).as(c.toString()).isIn("INVALID_ARGUMENT", "UNKNOWN_SOURCE", "UNSUPPORTED_PARAMETER");
            assertThat(json.at("/error/retryable").asBoolean()).as(c.toString())
                    .isEqualTo(dev.sqlguard.domain.ErrorCode.valueOf(code).retryable());
        }
    }

    @Test
    void aRunawayQueryStopsAtTheConfiguredTimeLimit() throws Exception {
        Path config = configWithTimeout("1s");
        McpSyncClient client = start("--config", config.toString());

        long t0 = System.nanoTime();
        CallToolResult result = call(client, "query_data", args("source", "demo", "sql", RUNAWAY));
        System.err.printf("[measure] mcp runaway query with a 1 s limit answered after %d ms%n",
                (System.nanoTime() - t0) / 1_000_000);

        assertThat(result.isError()).isTrue();
        JsonNode json = json(result);
        assertThat(json.get("status").asText()).isEqualTo("ERROR");
        assertThat(json.at("/error/code").asText()).isEqualTo("EXCEEDED_TIME_LIMIT");
        assertThat(json.get("limits_hit").toString()).contains("timeout");
        // the limit is per call: the next call runs normally
        CallToolResult next = call(client, "query_data", args("source", "demo", "sql", "SELECT count(*) AS n FROM claims"));
        assertThat(next.isError()).isFalse();
        assertThat(json(next).at("/rows/0/0").asLong()).isEqualTo(3000);
    }

    @Test
    void aSlowQueryDoesNotHoldUpListSources() throws Exception {
        // the demo's own limit (10 s) keeps the runaway query running well past list_sources
        McpSyncClient client = start();
        Queue<String> finished = new ConcurrentLinkedQueue<>();

        CompletableFuture<CallToolResult> slow = CompletableFuture.supplyAsync(() -> {
            CallToolResult r = call(client, "query_data", args("source", "demo", "sql", RUNAWAY));
            finished.add("query_data");
            return r;
        });
        while (!(audit().contains("\"type\":\"lifecycle\"") && audit().contains("\"phase\":\"STARTED\""))) {
            Thread.sleep(10); // the slow query has started when its lifecycle line is on record
        }
        long t0 = System.nanoTime();
        CallToolResult sources = call(client, "list_sources", Map.of());
        finished.add("list_sources");
        System.err.printf("[measure] mcp list_sources while a query runs: %d ms%n", (System.nanoTime() - t0) / 1_000_000);

        assertThat(sources.isError()).isFalse();
        assertThat(slow).as("the slow query is still running").isNotDone();
        CallToolResult slowResult = slow.get(120, TimeUnit.SECONDS);
        assertThat(finished).containsExactly("list_sources", "query_data");
        assertThat(json(slowResult).at("/error/code").asText()).isEqualTo("EXCEEDED_TIME_LIMIT");
    }

    @Test
    void stdoutCarriesProtocolMessagesOnlyAndEveryRequestIsAnsweredBeforeExit() throws IOException {
        String input = String.join("\n",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                        + "\"capabilities\":{},\"clientInfo\":{\"name\":\"pipe\",\"version\":\"1\"}}}",
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}",
                "this line is not JSON: the server answers a parse error (id null) and keeps serving",
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"query_data\","
                        + "\"arguments\":{\"source\":\"demo\",\"sql\":\"SELECT count(*) AS n FROM claims\"}}}",
                "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"query_data\","
                        + "\"arguments\":{\"source\":\"demo\",\"sql\":\"DROP TABLE claims\"}}}",
                "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"query_data\","
                        + "\"arguments\":{\"sql\":[1]}}}",
                "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":\"list_sources\"}}") + "\n";
        JarRunner.Run run = new JarRunner(home, Files.createDirectories(dir.resolve("work"))).runWithInput(input, "mcp");

        assertThat(run.code()).as(run.err()).isZero();
        List<JsonNode> all = run.lines();
        assertThat(all).allSatisfy(line -> assertThat(line.path("jsonrpc").asText()).isEqualTo("2.0"));
        // besides the responses, log messages (notifications/message), such as the dropped line's warning
        List<JsonNode> parseErrors = all.stream().filter(l -> l.has("id") && l.get("id").isNull()).toList();
        assertThat(parseErrors).singleElement().satisfies(l -> assertThat(l.at("/error/code").asInt()).isEqualTo(-32700));
        List<JsonNode> lines = all.stream().filter(l -> l.has("id") && !l.get("id").isNull()).toList();
        assertThat(all).filteredOn(l -> !l.has("id"))
                .allSatisfy(l -> assertThat(l.get("method").asText()).isEqualTo("notifications/message"));
        assertThat(lines).extracting(l -> l.get("id").asInt()).containsExactlyInAnyOrder(1, 2, 3, 4, 5, 6);
        assertThat(lines).as("no JSON-RPC error for a request").allSatisfy(line -> assertThat(line.has("error")).isFalse());
        Map<Integer, Boolean> isError = new HashMap<>();
        lines.stream().filter(l -> l.get("id").asInt() >= 3)
                .forEach(l -> isError.put(l.get("id").asInt(), l.at("/result/isError").asBoolean()));
        // a quick query piped before stdin closed is answered (it gets 600 ms from its own start; a cold
        // engine on a loaded machine can take longer, and is then answered CANCELLED); every request is answered once
        JsonNode three = lines.stream().filter(l -> l.get("id").asInt() == 3).findFirst().orElseThrow();
        if (three.at("/result/isError").asBoolean()) {
            assertThat(three.at("/result/structuredContent/error/code").asText()).isEqualTo("CANCELLED");
            isError.put(3, false);
        }
        assertThat(isError).containsExactlyInAnyOrderEntriesOf(Map.of(3, false, 4, true, 5, true, 6, false));
        assertThat(run.err()).contains("MCP server ready").doesNotContain("\"type\":\"audit\"")
                .contains("not JSON was answered as a parse error");
        // without XDG_STATE_HOME the audit file is under ~/.local/state
        assertThat(Files.readString(home.resolve(".local/state/sqlguard/audit.jsonl"))).contains("\"type\":\"audit\"")
                .as("the MCP request id and the client's name from initialize")
                .contains("\"client_request_id\":\"4\",\"client\":\"pipe\"");
    }

    /** A configuration over the demo database (built in the private cache) with the given time limit. */
    private Path configWithTimeout(String timeout) throws IOException {
        JarRunner runner = new JarRunner(home, Files.createDirectories(dir.resolve("work")));
        Path config = dir.resolve("work/mcp.yaml");
        Files.writeString(config, runner.demoConfig("timeout: " + timeout, ""));
        return config;
    }
}
