package dev.sqlguard.app.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Caller attributes on the command line ({@code --attribute}, {@code SQLGUARD_ATTRIBUTE_*}) on the fake
 * engine, which renders a filtered table's bindings as an engine does: a query on a filtered table
 * without the attribute is refused, one with it binds it, and the audit names it. The rows themselves
 * are not filtered by the fake: no test here depends on filtered rows.
 */
class AttributesCliTest {
    @TempDir
    Path dir;

    private Path config;

    @BeforeEach
    void writeConfig() throws IOException {
        config = dir.resolve("sqlguard.yaml");
        Files.writeString(config, """
                sources:
                  claims:
                    engine: fake
                    rows: 2
                    policy:
                      tables: {claims: [id, region, ssn]}
                      rows:
                        claims: "region = :tenant"
                """);
    }

    private CliRun run(Map<String, String> env, String... args) {
        return CliRun.of(dir, "", env, args);
    }

    private CliRun run(String... args) {
        return run(Map.of(), args);
    }

    private static List<JsonNode> audit(CliRun run) {
        return run.err().lines().filter(l -> l.contains("\"type\":\"audit\"")).map(CliRun::parse).toList();
    }

    @Test
    void aQueryOnAFilteredTableWithoutTheAttributeIsRefused() {
        CliRun run = run("query", "--sql", "SELECT n FROM claims");

        assertThat(run.code()).isEqualTo(3);
        assertThat(run.json().get("error").get("code").asText()).isEqualTo("MISSING_ATTRIBUTE");
        assertThat(run.json().get("rows")).isEmpty();
        assertThat(audit(run)).singleElement().satisfies(a -> {
            assertThat(a.get("code").asText()).isEqualTo("MISSING_ATTRIBUTE");
            assertThat(a.has("attributes")).isFalse();
        });
    }

    @Test
    void theAttributeIsBoundAndAudited() {
        CliRun run = run("query", "--sql", "SELECT params ? FROM claims", "--param", "5", "--attribute", "Tenant=north");

        assertThat(run.code()).isZero();
        assertThat(run.json().get("rows").get(0).toString()).isEqualTo("[5,\"north\"]");
        assertThat(audit(run)).singleElement().satisfies(a ->
                assertThat(a.get("attributes").toString()).isEqualTo("{\"tenant\":\"north\"}"));

        CliRun checked = run("check", "--sql", "SELECT n FROM claims", "--attribute", "tenant=north");
        assertThat(checked.code()).isZero();
        assertThat(checked.json().get("sql").asText()).contains("filtered: claims");
    }

    @Test
    void theEnvironmentGivesAttributesToo() {
        CliRun run = run(Map.of("SQLGUARD_ATTRIBUTE_TENANT", "south"), "query", "--sql", "SELECT params FROM claims");

        assertThat(run.code()).isZero();
        assertThat(run.json().get("rows").get(0).get(0).asText()).isEqualTo("south");

        CliRun same = run(Map.of("SQLGUARD_ATTRIBUTE_TENANT", "south"), "query", "--sql", "SELECT params FROM claims",
                "--attribute", "tenant=south");
        assertThat(same.code()).as("the same value both ways").isZero();
    }

    @Test
    void everyLineOfABatchCarriesTheAttributes() throws IOException {
        Path batch = dir.resolve("batch.jsonl");
        Files.writeString(batch, """
                {"id": 1, "sql": "SELECT params FROM claims"}
                {"id": 2, "sql": "SELECT params ? FROM claims", "params": [7]}
                """);

        CliRun run = run("query", "--batch", batch.toString(), "--attribute", "tenant=north");

        assertThat(run.code()).isZero();
        assertThat(run.lines()).extracting(l -> l.get("rows").get(0).toString()).containsExactly("[\"north\"]", "[7,\"north\"]");
        assertThat(audit(run)).extracting(a -> a.get("attributes").get("tenant").asText()).containsExactly("north", "north");
    }

    @Test
    void aBatchLineCannotCarryAttributesOfItsOwn() throws IOException {
        Path batch = dir.resolve("batch.jsonl");
        Files.writeString(batch, """
                {"id": 1, "sql": "SELECT params FROM claims", "attributes": {"tenant": "south"}}
                """);

        CliRun run = run("query", "--batch", batch.toString(), "--attribute", "tenant=north");

        assertThat(run.code()).isZero();
        assertThat(run.json().get("status").asText()).isEqualTo("REJECTED");
        assertThat(run.json().get("error").get("code").asText()).isEqualTo("INVALID_ARGUMENT");
        assertThat(run.err()).doesNotContain("south");
    }

    @Test
    void theShellRunsAsTheCaller() {
        CliRun without = CliRun.of(dir, "SELECT n FROM claims;\n", Map.of(), "shell", "--format", "json");
        assertThat(without.code()).isEqualTo(3);
        assertThat(without.json().get("error").get("code").asText()).isEqualTo("MISSING_ATTRIBUTE");

        CliRun with = CliRun.of(dir, "SELECT params FROM claims;\n", Map.of(), "shell", "--format", "json", "--attribute", "tenant=north");
        assertThat(with.code()).isZero();
        assertThat(with.json().get("rows").get(0).get(0).asText()).isEqualTo("north");
    }

    @Test
    void badAttributesAreUsageErrors() {
        Map<String, String[]> cases = new java.util.LinkedHashMap<>();
        cases.put("expected NAME=VALUE", new String[] {"--attribute", "tenant"});
        cases.put("attribute name '1tenant' is invalid", new String[] {"--attribute", "1tenant=north"});
        cases.put("attribute 'tenant' has an empty value", new String[] {"--attribute", "tenant="});
        cases.put("is already given by --attribute tenant", new String[] {"--attribute", "tenant=a", "--attribute", "TENANT=b"});
        for (Map.Entry<String, String[]> c : cases.entrySet()) {
            for (String command : List.of("query", "check", "shell", "mcp", "ask", "eval")) {
                List<String> args = new java.util.ArrayList<>(List.of(command));
                if (command.equals("query") || command.equals("check")) {
                    args.addAll(List.of("--sql", "SELECT 1"));
                } else if (command.equals("ask")) {
                    args.add("How many claims?");
                }
                args.addAll(List.of(c.getValue()));
                CliRun run = run(args.toArray(String[]::new));
                assertThat(run.code()).as(args.toString()).isEqualTo(2);
                assertThat(run.out()).as(args.toString()).isEmpty();
                assertThat(run.err()).as(args.toString()).contains(c.getKey());
            }
        }
        CliRun conflict = run(Map.of("SQLGUARD_ATTRIBUTE_TENANT", "south"), "query", "--sql", "SELECT 1", "--attribute", "tenant=north");
        assertThat(conflict.code()).isEqualTo(2);
        assertThat(conflict.err()).contains("environment variable SQLGUARD_ATTRIBUTE_TENANT: the attribute 'tenant' is already given by --attribute tenant");
        CliRun badEnv = run(Map.of("SQLGUARD_ATTRIBUTE_TEN-ANT", "south"), "query", "--sql", "SELECT 1");
        assertThat(badEnv.code()).isEqualTo(2);
        assertThat(badEnv.err()).contains("environment variable SQLGUARD_ATTRIBUTE_TEN-ANT");
    }

    @Test
    void aBadRowFilterIsAConfigurationErrorNamingItsLine() throws IOException {
        Files.writeString(config, """
                sources:
                  claims:
                    engine: fake
                    policy:
                      tables: {claims: [id, region]}
                      rows:
                        claims: "region = :tenant -- every tenant"
                """);

        CliRun run = run("query", "--sql", "SELECT 1", "--attribute", "tenant=north");

        assertThat(run.code()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).contains("sqlguard.yaml, line 7, sources.claims.policy.rows.claims: is invalid: row filter of claims: "
                + "a row filter holds no comments.");
    }

    /** An MCP session piped on stdin: initialize, then each tools/call of {@code calls} (tool name, arguments JSON). */
    private CliRun mcp(Map<String, String> env, List<String[]> calls, String... options) {
        StringBuilder in = new StringBuilder();
        in.append("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"attributes-test\",\"version\":\"1\"}}}\n");
        in.append("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
        int id = 1;
        for (String[] call : calls) {
            in.append("{\"jsonrpc\":\"2.0\",\"id\":").append(id++).append(",\"method\":\"tools/call\",\"params\":{\"name\":\"")
                    .append(call[0]).append("\",\"arguments\":").append(call[1]).append("}}\n");
        }
        List<String> args = new java.util.ArrayList<>(List.of("mcp", "--config", config.toString()));
        args.addAll(List.of(options));
        return CliRun.of(dir, in.toString(), env, args.toArray(String[]::new));
    }

    /** The structured results of the tools/call responses, by request id. */
    private static Map<Integer, JsonNode> toolResults(CliRun run) {
        Map<Integer, JsonNode> out = new java.util.TreeMap<>();
        for (JsonNode message : run.lines()) {
            if (message.has("id") && message.get("id").asInt() > 0 && message.has("result")) {
                out.put(message.get("id").asInt(), message.get("result").get("structuredContent"));
            }
        }
        return out;
    }

    private void auditToFile() throws IOException {
        Files.writeString(config, Files.readString(config) + "audit:\n  file: audit.jsonl\n");
    }

    private List<JsonNode> auditFile() throws IOException {
        return Files.readAllLines(dir.resolve("audit.jsonl")).stream().filter(l -> l.contains("\"type\":\"audit\""))
                .map(CliRun::parse).toList();
    }

    @Test
    void theMcpServersAttributesAreFixedForTheProcessAndCarriedByEveryToolCall() throws IOException {
        auditToFile();
        CliRun run = mcp(Map.of(), List.of(
                new String[] {"query_data", "{\"source\":\"claims\",\"sql\":\"SELECT params ? FROM claims\",\"params\":[3]}"},
                // a client cannot name another tenant: the tools take no attributes
                new String[] {"query_data", "{\"source\":\"claims\",\"sql\":\"SELECT params FROM claims\",\"attributes\":{\"tenant\":\"south\"}}"},
                new String[] {"query_data", "{\"source\":\"claims\",\"sql\":\"SELECT params FROM claims\",\"tenant\":\"south\"}"}),
                "--attribute", "tenant=north");

        assertThat(run.code()).isZero();
        Map<Integer, JsonNode> results = toolResults(run);
        assertThat(results).containsOnlyKeys(1, 2, 3);
        assertThat(results.get(1).get("status").asText()).isEqualTo("OK");
        assertThat(results.get(1).get("rows").get(0).toString()).isEqualTo("[3,\"north\"]");
        for (int id : List.of(2, 3)) {
            assertThat(results.get(id).get("status").asText()).isEqualTo("REJECTED");
            assertThat(results.get(id).get("error").get("code").asText()).isEqualTo("INVALID_ARGUMENT");
        }
        assertThat(run.err()).contains("caller attributes: tenant").doesNotContain("north");
        List<JsonNode> audit = auditFile();
        // the server runs calls side by side: their audit lines come in any order
        assertThat(audit).filteredOn(a -> a.get("verdict").asText().equals("OK")).singleElement().satisfies(a -> {
            assertThat(a.get("attributes").toString()).isEqualTo("{\"tenant\":\"north\"}");
            assertThat(a.get("client").asText()).isEqualTo("attributes-test");
        });
        assertThat(audit).noneMatch(a -> a.toString().contains("south"));
    }

    @Test
    void theMcpServerTakesAttributesFromTheEnvironment() throws IOException {
        auditToFile();
        CliRun run = mcp(Map.of("SQLGUARD_ATTRIBUTE_TENANT", "west"), List.<String[]>of(
                new String[] {"query_data", "{\"source\":\"claims\",\"sql\":\"SELECT params FROM claims\"}"},
                new String[] {"summary_stats", "{\"source\":\"claims\",\"table\":\"claims\",\"columns\":[\"region\"]}"}));

        assertThat(run.code()).isZero();
        Map<Integer, JsonNode> results = toolResults(run);
        assertThat(results.get(1).get("rows").get(0).get(0).asText()).isEqualTo("west");
        assertThat(results.get(2).get("status").asText()).as(results.get(2).toString()).isEqualTo("OK");
        assertThat(auditFile()).isNotEmpty().allSatisfy(a ->
                assertThat(a.get("attributes").toString()).isEqualTo("{\"tenant\":\"west\"}"));
    }

    @Test
    void anMcpServerWithoutTheAttributeRefusesFilteredTables() throws IOException {
        auditToFile();
        CliRun run = mcp(Map.of(), List.<String[]>of(
                new String[] {"query_data", "{\"source\":\"claims\",\"sql\":\"SELECT n FROM claims\"}"},
                new String[] {"describe_source", "{\"source\":\"claims\"}"}));

        assertThat(run.code()).isZero();
        Map<Integer, JsonNode> results = toolResults(run);
        assertThat(results.get(1).get("error").get("code").asText()).isEqualTo("MISSING_ATTRIBUTE");
        JsonNode table = results.get(2).get("sources").get(0).get("tables").get(0);
        assertThat(table.get("table").asText()).isEqualTo("claims");
        assertThat(table.get("row_count").isNull()).as("a filtered table's count is every tenant's").isTrue();
        assertThat(auditFile()).singleElement().satisfies(a -> assertThat(a.get("code").asText()).isEqualTo("MISSING_ATTRIBUTE"));
    }
}
