package dev.sqlguard.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sqlguard.app.reliability.HoldDuckDbWriter;
import dev.sqlguard.testing.FaultProxy;
import dev.sqlguard.testing.PrivateDatabaseFixture;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;

/**
 * Sources that come back, end to end with the real jar: the MCP server starts although its only
 * source cannot open, lists it as unavailable ({@code ENGINE_UNAVAILABLE}, retryable), and serves
 * it once it is back, without a restart. DuckDB: the file is locked by a writer in another
 * process, which then ends. MySQL: the configured port is closed, then a proxy to the server
 * opens on it (the shared server itself is never stopped).
 */
@Timeout(300)
class SourcesComeBackIT {
    @TempDir
    Path dir;

    private final List<McpSyncClient> clients = new ArrayList<>();
    private final List<String> stderr = new java.util.concurrent.CopyOnWriteArrayList<>();

    @AfterEach
    void tearDown() {
        clients.forEach(McpSyncClient::closeGracefully);
    }

    @Test
    void aDuckDbFileLockedByAWriterIsServedOnceTheWriterEnds() throws Exception {
        Path database = dir.resolve("claims.duckdb");
        Process writer = HoldDuckDbWriter.holdNewClaimsFile(database);
        try {
            Path config = write("sources:\n  claims:\n    engine: duckdb\n    database: " + database
                    + "\n    policy:\n      tables: {claims: [\"*\"]}\n");
            McpSyncClient client = start(config);

            assertUnavailable(client, "claims");

            writer.getOutputStream().close();
            assertThat(writer.waitFor()).isZero();
            long released = System.nanoTime();
            awaitAvailable(client, "claims");
            System.err.printf("[measure] duckdb source served again %d ms after the writer ended%n",
                    (System.nanoTime() - released) / 1_000_000);
            CallToolResult ok = call(client, "query_data", Map.of("source", "claims", "sql", "SELECT region FROM claims"));
            assertThat(ok.isError()).as(text(ok)).isFalse();
            assertThat(json(ok).at("/rows/0/0").asText()).isEqualTo("north");
        } finally {
            writer.destroyForcibly();
        }
    }

    @Test
    void aMySqlServerThatCannotBeReachedIsServedOnceItsPortOpens() throws Exception {
        String url = System.getenv("SQLGUARD_MYSQL_URL");
        assumeThat(url).as("SQLGUARD_MYSQL_URL names the test server").isNotNull();
        URI server = URI.create(url.substring("jdbc:".length()));
        String database = PrivateDatabaseFixture.uniqueName();
        try (Connection c = DriverManager.getConnection(url + "/", env("SQLGUARD_MYSQL_ADMIN_USER"), env("SQLGUARD_MYSQL_ADMIN_PASSWORD"));
             Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE `" + database + "`");
            s.execute("CREATE TABLE `" + database + "`.claims (id INT PRIMARY KEY, region VARCHAR(20))");
            s.execute("INSERT INTO `" + database + "`.claims VALUES (1, 'north')");
        }
        try (FaultProxy proxy = FaultProxy.unreachable(server.getHost(), server.getPort() < 0 ? 3306 : server.getPort())) {
            Path config = write("sources:\n  claims:\n    engine: mysql\n    url: jdbc:mysql://127.0.0.1:" + proxy.port() + "/" + database
                    + "\n    username: ${RO_USER}\n    password: ${RO_PASSWORD}\n    policy:\n      tables: {claims: [\"*\"]}\n");
            McpSyncClient client = start(config, Map.of("RO_USER", env("SQLGUARD_MYSQL_RO_USER"),
                    "RO_PASSWORD", env("SQLGUARD_MYSQL_RO_PASSWORD")));

            assertUnavailable(client, "claims");

            proxy.open();
            long opened = System.nanoTime();
            awaitAvailable(client, "claims");
            System.err.printf("[measure] mysql source served again %d ms after its port opened%n",
                    (System.nanoTime() - opened) / 1_000_000);
            CallToolResult ok = call(client, "query_data", Map.of("source", "claims", "sql", "SELECT region FROM claims"));
            assertThat(ok.isError()).as(text(ok)).isFalse();
            assertThat(json(ok).at("/rows/0/0").asText()).isEqualTo("north");
        } finally {
            try (Connection c = DriverManager.getConnection(url + "/", env("SQLGUARD_MYSQL_ADMIN_USER"), env("SQLGUARD_MYSQL_ADMIN_PASSWORD"));
                 Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS `" + database + "`");
            }
        }
    }

    private void assertUnavailable(McpSyncClient client, String source) {
        JsonNode listed = json(call(client, "list_sources", Map.of())).at("/sources/0");
        assertThat(listed.get("source").asText()).isEqualTo(source);
        assertThat(listed.get("available").asBoolean()).as(listed.toString()).isFalse();
        assertThat(listed.at("/error/code").asText()).isEqualTo("ENGINE_UNAVAILABLE");
        assertThat(listed.at("/error/retryable").asBoolean()).isTrue();

        CallToolResult refused = call(client, "query_data", Map.of("source", source, "sql", "SELECT region FROM claims"));
        assertThat(refused.isError()).isTrue();
        JsonNode error = json(refused);
        assertThat(error.at("/error/code").asText()).as(error.toString()).isEqualTo("ENGINE_UNAVAILABLE");
        assertThat(error.at("/error/retryable").asBoolean()).isTrue();
        assertThat(error.get("source").asText()).isEqualTo(source);
    }

    /** Polls list_sources, as a client would, until the source is listed as available. */
    private static void awaitAvailable(McpSyncClient client, String source) throws InterruptedException {
        while (!json(call(client, "list_sources", Map.of())).at("/sources/0/available").asBoolean()) {
            Thread.sleep(100);
        }
    }

    private Path write(String yaml) throws IOException {
        Path config = dir.resolve("sqlguard.yaml");
        Files.writeString(config, yaml);
        return config;
    }

    private McpSyncClient start(Path config) {
        return start(config, Map.of());
    }

    private McpSyncClient start(Path config, Map<String, String> extraEnv) {
        Path home = dir.resolve("home");
        Map<String, String> env = new java.util.HashMap<>(extraEnv);
        env.put("HOME", home.toString());
        env.put("XDG_CACHE_HOME", home.resolve("cache").toString());
        ServerParameters parameters = ServerParameters.builder(Path.of(System.getProperty("java.home"), "bin", "java").toString())
                .args("-Xmx256m", "-jar", JarRunner.jar().toString(), "mcp", "--config", config.toString()).env(env).build();
        StdioClientTransport transport = new StdioClientTransport(parameters, new JacksonMcpJsonMapper(new ObjectMapper()));
        transport.setStdErrorHandler(stderr::add);
        McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(120))
                .initializationTimeout(Duration.ofSeconds(120)).build();
        clients.add(client);
        client.initialize();
        return client;
    }

    private static CallToolResult call(McpSyncClient client, String tool, Map<String, Object> arguments) {
        return client.callTool(CallToolRequest.builder(tool).arguments(arguments).build());
    }

    private static String text(CallToolResult result) {
        return ((TextContent) result.content().get(0)).text();
    }

    private static JsonNode json(CallToolResult result) {
        try {
            return JarRunner.JSON.readTree(text(result));
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + text(result), e);
        }
    }

    private static String env(String name) {
        String value = System.getenv(name);
        assertThat(value).as(name).isNotNull();
        return value;
    }
}
