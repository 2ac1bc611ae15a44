package dev.sqlguard.app.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.app.GuardedCalls;
import dev.sqlguard.app.tools.AgentTools;
import dev.sqlguard.app.tools.AgentSource;
import dev.sqlguard.app.tools.ToolOutcome;
import dev.sqlguard.app.tools.ChartOutput;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.testing.ContractDataset;
import dev.sqlguard.testing.memory.InMemoryEngine;
import dev.sqlguard.testing.memory.InMemoryEngineFactory;
import dev.sqlguard.testing.memory.InMemoryTable;
import dev.sqlguard.ports.model.ToolSpec;

class AgentToolsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path charts;

    private AgentFixtures.RecordingAudit audit;
    private AgentTools tools;

    @BeforeEach
    void setUp() {
        audit = new AgentFixtures.RecordingAudit();
        tools = AgentFixtures.tools(new QueryService(audit), charts);
    }

    private static JsonNode json(String text) throws Exception {
        return JSON.readTree(text);
    }

    @Test
    void offersFiveToolsEachWithAClosedJsonSchema() throws Exception {
        List<ToolSpec> specs = tools.specs();
        assertThat(specs).extracting(ToolSpec::name)
                .containsExactly("describe_source", "query_data", "summary_stats", "plot_chart", "clarify");
        for (ToolSpec spec : specs) {
            JsonNode schema = json(spec.parametersSchemaJson());
            assertThat(schema.path("type").asText()).isEqualTo("object");
            assertThat(schema.path("additionalProperties").asBoolean(true)).isFalse();
            assertThat(spec.description()).isNotBlank();
        }
        JsonNode query = json(specs.get(1).parametersSchemaJson());
        assertThat(query.path("required")).extracting(JsonNode::asText).containsExactly("source", "sql");
        assertThat(query.at("/properties/source/enum/0").asText()).isEqualTo(AgentFixtures.SOURCE);
        JsonNode chart = json(specs.get(3).parametersSchemaJson()).at("/properties/chart");
        assertThat(chart.at("/properties/type/enum")).extracting(JsonNode::asText).containsExactly("bar", "line", "scatter", "pie");
        assertThat(chart.at("/properties/filter/items/additionalProperties").asBoolean(true)).isFalse();
    }

    @Test
    void describeSourceListsAllowlistedTablesColumnsTypesRowCountsAndRedaction() throws Exception {
        ToolOutcome outcome = tools.call("describe_source", "{}");
        assertThat(outcome.status()).isEqualTo(ToolStatus.OK);
        JsonNode table = json(outcome.modelJson()).at("/sources/0/tables/0");
        assertThat(table.path("table").asText()).isEqualTo("claims");
        assertThat(table.path("row_count").asLong()).isEqualTo(60);
        assertThat(table.path("columns")).anySatisfy(c -> {
            assertThat(c.path("name").asText()).isEqualTo("ssn");
            assertThat(c.path("redacted").asBoolean()).isTrue();
        });
        assertThat(outcome.shownValues()).contains(60L);
    }

    @Test
    void queryDataReturnsTheToolResultFieldsInContractOrder() throws Exception {
        ToolOutcome outcome = tools.call("query_data", "{\"source\":\"claims_db\",\"sql\":\"SELECT count(*) AS n FROM claims WHERE status = ?\",\"params\":[\"DENIED\"]}");
        assertThat(outcome.status()).isEqualTo(ToolStatus.OK);
        JsonNode result = json(outcome.modelJson());
        List<String> fields = new ArrayList<>();
        result.fieldNames().forEachRemaining(fields::add);
        assertThat(fields).containsExactly("id", "status", "source", "sql", "columns", "rows", "returned_count", "truncated",
                "limits_hit", "error", "elapsed_ms");
        assertThat(result.at("/rows/0/0").asLong()).isEqualTo(20);
        assertThat(result.path("error").isNull()).isTrue();
        assertThat(outcome.shownValues()).containsExactly(1L);
        assertThat(outcome.results()).hasSize(1);
        assertThat(audit.events).hasSize(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "not json",
        "{\"source\":\"claims_db\"",
        "[1,2]",
        "{\"source\":\"claims_db\"}",
        "{\"source\":\"claims_db\",\"sql\":5}",
        "{\"source\":\"claims_db\",\"sql\":\"SELECT id FROM claims\",\"limit\":3}",
        "{\"source\":\"claims_db\",\"sql\":\"SELECT id FROM claims\",\"params\":{\"a\":1}}",
        "{\"source\":\"claims_db\",\"sql\":\"SELECT id FROM claims\",\"params\":[[1]]}",
        "{\"source\":\"claims_db\",\"source\":\"claims_db\",\"sql\":\"SELECT id FROM claims\"}",
        "{\"source\":\"claims_db\",\"sql\":\"SELECT id FROM claims\"} trailing"
    })
    void malformedArgumentsAreRejectedWithInvalidArgumentAndNeverThrow(String arguments) throws Exception {
        ToolOutcome outcome = tools.call("query_data", arguments);
        assertThat(outcome.status()).isEqualTo(ToolStatus.REJECTED);
        JsonNode result = json(outcome.modelJson());
        assertThat(result.at("/status").asText()).isEqualTo("REJECTED");
        assertThat(result.at("/error/code").asText()).isEqualTo("INVALID_ARGUMENT");
        assertThat(result.at("/error/retryable").asBoolean()).isTrue();
        assertThat(result.at("/error/message").asText()).isNotBlank().doesNotContain("Exception").doesNotContain("jackson");
        assertThat(audit.events).singleElement().satisfies(e -> assertThat(e.code()).contains(ErrorCode.INVALID_ARGUMENT));
    }

    /** One cause, one code: the same codes as the CLI and the embedding API give for the same mistakes. */
    @ParameterizedTest
    @ValueSource(strings = {
        "query_data|{\"source\":\"other\",\"sql\":\"SELECT id FROM claims\"}|UNKNOWN_SOURCE",
        "summary_stats|{\"source\":\"other\",\"table\":\"claims\"}|UNKNOWN_SOURCE",
        "describe_source|{\"source\":\"other\"}|UNKNOWN_SOURCE",
        "plot_chart|{\"source\":\"\",\"chart\":{\"type\":\"bar\",\"table\":\"claims\",\"x\":\"status\",\"aggregation\":\"count\"}}|UNKNOWN_SOURCE",
        "query_data|{\"source\":\"claims_db\",\"sql\":\"\"}|EMPTY_QUERY",
        "query_data|{\"source\":\"claims_db\",\"sql\":\"SELECT id FROM claims WHERE id IN (LONG)\"}|QUERY_TOO_LONG"
    })
    void mistakesWithACodeOfTheirOwnGetThatCodeNotInvalidArgument(String row) throws Exception {
        String[] parts = row.split("\\|");
        String arguments = parts[1].replace("LONG", "1, ".repeat(dev.sqlguard.domain.Limits.DEFAULT_MAX_SQL_LENGTH / 3) + "1");
        ToolOutcome outcome = tools.call(parts[0], arguments);
        JsonNode result = json(outcome.modelJson());
        assertThat(result.at("/status").asText()).isEqualTo("REJECTED");
        assertThat(result.at("/error/code").asText()).isEqualTo(parts[2]);
        assertThat(result.at("/error/retryable").asBoolean()).isEqualTo(ErrorCode.valueOf(parts[2]).retryable());
    }

    @Test
    void noSchemaUsesATypeArray() throws Exception {
        for (ToolSpec spec : tools.specs()) {
            assertThat(spec.parametersSchemaJson()).as(spec.name()).doesNotContainPattern("\"type\"\\s*:\\s*\\[");
        }
        JsonNode params = json(tools.specs().get(1).parametersSchemaJson()).at("/properties/params/items/anyOf");
        assertThat(params).extracting(t -> t.get("type").asText()).containsExactly("string", "number", "boolean", "null");
    }

    private static final String RUNAWAY_CALL =
            "{\"source\":\"claims_db\",\"sql\":\"SELECT id FROM claims WHERE status = 'RUNAWAY'\"}";

    @Test
    @org.junit.jupiter.api.Timeout(value = 20, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
    void aRunningCallIsCancelledByItsIdOnTheEngine() throws Exception {
        java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
        AgentTools tools = AgentFixtures.tools(new QueryService(new dev.sqlguard.domain.port.AuditSink() {
            @Override
            public void audit(dev.sqlguard.domain.port.AuditEvent event) {
            }

            @Override
            public void lifecycle(dev.sqlguard.domain.port.LifecycleRecord record) {
                if (record.phase() == dev.sqlguard.domain.port.LifecycleRecord.Phase.STARTED) {
                    started.countDown();
                }
            }
        }), charts);
        java.util.concurrent.CompletableFuture<ToolOutcome> running = java.util.concurrent.CompletableFuture.supplyAsync(
                () -> tools.call(new dev.sqlguard.ports.model.ToolCall("call-1", "query_data", RUNAWAY_CALL)));
        started.await(); // the statement runs on the engine

        assertThat(tools.cancel("call-1")).isTrue();
        JsonNode result = json(running.get().modelJson());
        assertThat(result.at("/status").asText()).isEqualTo("ERROR");
        assertThat(result.at("/error/code").asText()).isEqualTo("CANCELLED");
        assertThat(tools.cancel("call-1")).as("the call is over").isFalse();
    }

    @Test
    @org.junit.jupiter.api.Timeout(value = 20, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
    void aCallCancelledBeforeItStartsNeverRunsItsStatement() throws Exception {
        assertThat(tools.cancel("call-2")).isFalse();
        ToolOutcome outcome = tools.call(new dev.sqlguard.ports.model.ToolCall("call-2", "query_data", RUNAWAY_CALL));
        assertThat(json(outcome.modelJson()).at("/error/code").asText()).isEqualTo("CANCELLED");
    }

    @Test
    void deeplyNestedArgumentsAreRefusedBeforeParsingFinishes() throws Exception {
        String nested = "{\"source\":\"claims_db\",\"sql\":\"SELECT id FROM claims\",\"params\":" + "[".repeat(5000) + "]".repeat(5000) + "}";
        ToolOutcome outcome = tools.call("query_data", nested);
        assertThat(json(outcome.modelJson()).at("/error/code").asText()).isEqualTo("INVALID_ARGUMENT");
    }

    @Test
    void anUnknownToolIsRejectedNamingTheRealTools() throws Exception {
        ToolOutcome outcome = tools.call("run_python", "{\"code\":\"import os\"}");
        assertThat(outcome.status()).isEqualTo(ToolStatus.REJECTED);
        JsonNode result = json(outcome.modelJson());
        assertThat(result.at("/error/code").asText()).isEqualTo("INVALID_ARGUMENT");
        assertThat(result.at("/error/message").asText()).contains("query_data").doesNotContain("run_python");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "DROP TABLE claims",
        "DELETE FROM claims",
        "SELECT id FROM claims; DROP TABLE claims",
        "SELECT password FROM users",
        "SELECT * FROM claims"
    })
    void hostileSqlComesBackAsASafeRefusal(String sql) throws Exception {
        ToolOutcome outcome = tools.call("query_data", JSON.createObjectNode().put("source", AgentFixtures.SOURCE)
                .put("sql", sql).toString());
        assertThat(outcome.status()).isEqualTo(ToolStatus.REJECTED);
        JsonNode error = json(outcome.modelJson()).path("error");
        assertThat(ErrorCode.valueOf(error.path("code").asText()).type().name()).isIn("USER", "POLICY");
        assertThat(outcome.modelJson()).doesNotContain("hunter2").doesNotContain("password FROM");
    }

    @Test
    void summaryStatsDegradesToTheStatisticsTheEngineAllowsAndSaysSo() throws Exception {
        ToolOutcome outcome = tools.call("summary_stats", "{\"source\":\"claims_db\",\"table\":\"claims\",\"columns\":[\"amount\",\"region\"]}");
        assertThat(outcome.status()).isEqualTo(ToolStatus.OK);
        JsonNode out = json(outcome.modelJson());
        assertThat(out.path("row_count").asLong()).isEqualTo(60);
        JsonNode amount = out.at("/stats/0");
        assertThat(amount.path("column").asText()).isEqualTo("amount");
        assertThat(amount.path("count").asLong()).isEqualTo(60);
        assertThat(amount.path("nulls").asLong()).isZero();
        assertThat(amount.path("min").decimalValue()).isEqualByComparingTo(ContractDataset.claims().get(0).amount());
        assertThat(amount.path("max").decimalValue()).isEqualByComparingTo(ContractDataset.claims().get(59).amount());
        java.math.BigDecimal mean = ContractDataset.claims().stream().map(ContractDataset.Claim::amount)
                .reduce(java.math.BigDecimal.ZERO, java.math.BigDecimal::add).divide(java.math.BigDecimal.valueOf(60), 6,
                        java.math.RoundingMode.HALF_UP);
        assertThat(amount.path("mean").decimalValue()).isEqualByComparingTo(mean);
        assertThat(amount.has("stddev")).isFalse();
        assertThat(out.at("/stats/1/min").asText()).isEqualTo("east");
        assertThat(out.path("notes").toString()).contains("Quartiles are not computed").contains("Distinct counts and standard deviations were left out");
        // the fake refuses count(DISTINCT ...) before the basic level runs: two statements, the last one OK
        assertThat(outcome.results()).hasSize(2);
        assertThat(outcome.results().get(1).sql().orElseThrow()).startsWith("SELECT count(*) AS row_count, count(amount) AS c0_count");
        assertThat(outcome.shownValues()).containsExactly(0L, 0L);
    }

    @Test
    void summaryStatsRefusesRedactedAndUnknownColumnsAndTables() throws Exception {
        assertThat(json(tools.call("summary_stats", "{\"source\":\"claims_db\",\"table\":\"claims\",\"columns\":[\"ssn\"]}").modelJson())
                .at("/error/code").asText()).isEqualTo("COLUMN_NOT_ALLOWED");
        assertThat(json(tools.call("summary_stats", "{\"source\":\"claims_db\",\"table\":\"claims\",\"columns\":[\"nope\"]}").modelJson())
                .at("/error/code").asText()).isEqualTo("COLUMN_NOT_ALLOWED");
        assertThat(json(tools.call("summary_stats", "{\"source\":\"claims_db\",\"table\":\"users\"}").modelJson())
                .at("/error/code").asText()).isEqualTo("TABLE_NOT_ALLOWED");
    }

    @Test
    void summaryStatsReportsCleanlyWhenThePolicyAllowsNoAggregate() throws Exception {
        AgentSource strict = AgentFixtures.source(AgentFixtures.engine(GuardrailPolicy.defaults().withFunctions(java.util.Set.of("upper"))));
        AgentTools strictTools = new AgentTools(GuardedCalls.over(new QueryService(audit), engine -> engine.policy()), List.of(strict), charts);
        ToolOutcome outcome = strictTools.call("summary_stats", "{\"source\":\"claims_db\",\"table\":\"claims\",\"columns\":[\"amount\"]}");
        assertThat(outcome.status()).isEqualTo(ToolStatus.REJECTED);
        assertThat(json(outcome.modelJson()).at("/query/error/code").asText()).isEqualTo("FUNCTION_NOT_ALLOWED");
    }

    @Test
    void plotChartRendersAPngAndAVegaLiteSpecFromAGuardedQuery() throws Exception {
        ToolOutcome outcome = tools.call("plot_chart", "{\"source\":\"claims_db\",\"chart\":{\"type\":\"bar\",\"table\":\"claims\","
                + "\"x\":\"id\",\"y\":\"amount\",\"aggregation\":\"none\",\"filter\":[{\"column\":\"created\",\"op\":\"<\",\"value\":\"2024-02-01\"},"
                + "{\"column\":\"status\",\"op\":\"=\",\"value\":\"DENIED\"}]}}");
        assertThat(outcome.status()).isEqualTo(ToolStatus.OK);
        ChartOutput chart = outcome.chart().orElseThrow();
        Path png = chart.png().orElseThrow();
        assertThat(png).startsWith(charts);
        byte[] bytes = Files.readAllBytes(png);
        assertThat(bytes).startsWith(0x89, 'P', 'N', 'G');
        JsonNode vega = json(chart.vegaLite());
        assertThat(vega.path("$schema").asText()).contains("vega-lite/v5");
        assertThat(vega.at("/mark/type").asText()).isEqualTo("bar");
        // created < 2024-02-01 means i*5 days < 31: i in 1..6; DENIED means i % 3 == 1: ids 1 and 4
        assertThat(vega.at("/data/values")).extracting(v -> v.path("id").asLong()).containsExactly(1L, 4L);
        JsonNode model = json(outcome.modelJson());
        assertThat(model.at("/chart/points").asInt()).isEqualTo(2);
        assertThat(model.at("/query/sql").asText()).isEqualTo(
                "SELECT id AS chart_x, amount AS chart_y FROM claims WHERE created < ? AND status = ? ORDER BY id");
        assertThat(outcome.modelJson()).doesNotContain(charts.toString());
    }

    @Test
    void aScatterPlotCutByTheRowLimitSaysSoInTheImage() throws Exception {
        AgentSource limited = new AgentSource(AgentFixtures.engine(GuardrailPolicy.defaults().withLimits(
                dev.sqlguard.domain.Limits.defaults().withMaxRows(25))), InMemoryEngineFactory.NAME, InMemoryEngineFactory.DIALECT);
        AgentTools limitedTools = new AgentTools(GuardedCalls.over(new QueryService(audit), engine -> engine.policy()), List.of(limited), charts);
        ToolOutcome outcome = limitedTools.call("plot_chart", "{\"source\":\"claims_db\",\"chart\":{\"type\":\"scatter\","
                + "\"table\":\"claims\",\"x\":\"id\",\"y\":\"amount\",\"aggregation\":\"none\"}}");
        assertThat(outcome.status()).isEqualTo(ToolStatus.OK);
        ChartOutput chart = outcome.chart().orElseThrow();
        assertThat(chart.png()).isPresent();
        // the PNG and the spec are drawn from the same data; the spec shows what the image says
        assertThat(json(chart.vegaLite()).at("/title/subtitle").toString())
                .contains("Only the first 25 rows are drawn: the query hit a limit (rows).");
        assertThat(json(outcome.modelJson()).at("/chart/notes").toString()).contains("the chart shows the first 25 rows only");
    }

    @Test
    void aChartWithTextNoInstalledFontCanDrawSaysSoAndOneThatCanDoesNot() throws Exception {
        String tokyo = "\u6771\u4eac";
        InMemoryTable cities = new InMemoryTable("cities", List.of("city", "amount"), Map.of("amount", "BIGINT"),
                List.of(Map.of("city", tokyo, "amount", 5L), Map.of("city", "Paris", "amount", 3L)));
        AgentSource source = new AgentSource(new InMemoryEngine(AgentFixtures.SOURCE, GuardrailPolicy.defaults(),
                InMemoryEngine.tables(cities), sql -> false), InMemoryEngineFactory.NAME, InMemoryEngineFactory.DIALECT);
        AgentTools cityTools = new AgentTools(GuardedCalls.over(new QueryService(audit), engine -> engine.policy()), List.of(source), charts);
        ToolOutcome outcome = cityTools.call("plot_chart", "{\"source\":\"claims_db\",\"chart\":{\"type\":\"bar\","
                + "\"table\":\"cities\",\"x\":\"city\",\"y\":\"amount\",\"aggregation\":\"none\"}}");
        assertThat(outcome.status()).isEqualTo(ToolStatus.OK);
        assertThat(outcome.chart().orElseThrow().png()).isPresent();
        boolean cjkInstalled = java.util.Arrays.stream(java.awt.GraphicsEnvironment.getLocalGraphicsEnvironment().getAllFonts())
                .anyMatch(f -> f.canDisplayUpTo(tokyo) == -1);
        String notes = json(outcome.modelJson()).at("/chart/notes").toString();
        if (cjkInstalled) {
            assertThat(notes).doesNotContain("no font installed on the server can draw");
        } else {
            assertThat(notes).contains("no font installed on the server can draw").contains("Noto Sans CJK");
        }
        ToolOutcome latin = tools.call("plot_chart", "{\"source\":\"claims_db\",\"chart\":{\"type\":\"bar\",\"table\":\"claims\","
                + "\"x\":\"id\",\"y\":\"amount\",\"aggregation\":\"none\"}}");
        assertThat(json(latin.modelJson()).at("/chart/notes").toString()).doesNotContain("no font installed");
    }

    @Test
    void plotChartOnAnEngineWithoutGroupByReportsTheRefusal() throws Exception {
        ToolOutcome outcome = tools.call("plot_chart", "{\"source\":\"claims_db\",\"chart\":{\"type\":\"pie\",\"table\":\"claims\","
                + "\"x\":\"region\",\"aggregation\":\"count\"}}");
        assertThat(outcome.status()).isEqualTo(ToolStatus.REJECTED);
        assertThat(json(outcome.modelJson()).at("/error/code").asText()).isEqualTo("CONSTRUCT_NOT_ALLOWED");
        assertThat(outcome.chart()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"source\":\"claims_db\",\"chart\":{\"type\":\"bar\",\"table\":\"claims\",\"x\":\"region\",\"aggregation\":\"sum\"}}",
        "{\"source\":\"claims_db\",\"chart\":{\"type\":\"pie\",\"table\":\"claims\",\"x\":\"region\",\"aggregation\":\"count\",\"series\":\"status\"}}",
        "{\"source\":\"claims_db\",\"chart\":{\"type\":\"scatter\",\"table\":\"claims\",\"x\":\"region\",\"y\":\"amount\",\"aggregation\":\"none\"}}",
        "{\"source\":\"claims_db\",\"chart\":{\"type\":\"bar\",\"table\":\"claims\",\"x\":\"region\",\"y\":\"status\",\"aggregation\":\"avg\"}}",
        "{\"source\":\"claims_db\",\"chart\":{\"type\":\"bar\",\"table\":\"claims\",\"x\":\"region\",\"aggregation\":\"count\",\"filter\":[{\"column\":\"status\",\"op\":\"LIKE\",\"value\":\"%\"}]}}",
        "{\"source\":\"claims_db\",\"chart\":{\"type\":\"bar\",\"table\":\"claims\",\"x\":\"region\",\"aggregation\":\"count\",\"filter\":[{\"column\":\"created\",\"op\":\"=\",\"value\":\"yesterday\"}]}}",
        "{\"source\":\"claims_db\",\"chart\":{\"type\":\"bar\",\"table\":\"claims\",\"x\":\"region\",\"aggregation\":\"count\",\"filter\":[{\"column\":\"status\",\"op\":\"=\",\"value\":null}]}}",
        "{\"source\":\"claims_db\",\"chart\":{\"type\":\"bar\",\"table\":\"claims\",\"x\":\"region\",\"aggregation\":\"median\"}}",
        "{\"source\":\"claims_db\",\"chart\":{\"type\":\"bar\",\"table\":\"claims\",\"x\":\"region\",\"aggregation\":\"count\",\"code\":\"plt.show()\"}}",
        "{\"source\":\"claims_db\",\"chart\":{\"type\":\"line\",\"table\":\"claims\",\"x\":\"created\",\"aggregation\":\"count\",\"bucket\":\"hour\"}}",
        "{\"source\":\"claims_db\",\"chart\":{\"type\":\"line\",\"table\":\"claims\",\"x\":\"created\",\"aggregation\":\"count\",\"bucket\":\"month\"}}",
        "{\"source\":\"claims_db\",\"chart\":{\"type\":\"line\",\"table\":\"claims\",\"x\":\"id\",\"aggregation\":\"count\",\"bucket\":\"month\"}}"
    })
    void invalidChartSpecsAreRejected(String arguments) throws Exception {
        ToolOutcome outcome = tools.call("plot_chart", arguments);
        assertThat(outcome.status()).isEqualTo(ToolStatus.REJECTED);
        assertThat(json(outcome.modelJson()).at("/error/code").asText()).isEqualTo("INVALID_ARGUMENT");
    }

    @Test
    void plotChartRefusesNamesOutsideTheCatalogBeforeWritingSql() throws Exception {
        ToolOutcome outcome = tools.call("plot_chart", "{\"source\":\"claims_db\",\"chart\":{\"type\":\"bar\",\"table\":\"claims\","
                + "\"x\":\"region\\\" FROM users --\",\"aggregation\":\"count\"}}");
        assertThat(json(outcome.modelJson()).at("/error/code").asText()).isEqualTo("COLUMN_NOT_ALLOWED");
        assertThat(outcome.modelJson()).doesNotContain("FROM users");
    }

    @Test
    void clarifyHandsTheQuestionBack() {
        ToolOutcome outcome = tools.call("clarify", "{\"question\":\"Which year do you mean?\"}");
        assertThat(outcome.status()).isEqualTo(ToolStatus.OK);
        assertThat(outcome.clarification()).contains("Which year do you mean?");
        assertThat(tools.call("clarify", "{}").status()).isEqualTo(ToolStatus.REJECTED);
    }
}
