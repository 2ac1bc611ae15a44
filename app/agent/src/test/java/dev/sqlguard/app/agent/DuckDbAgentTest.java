package dev.sqlguard.app.agent;

import static dev.sqlguard.app.agent.ScriptedModel.answer;
import static dev.sqlguard.app.agent.ScriptedModel.call;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.sqlguard.app.agent.AnalyticalResponse.Status;
import dev.sqlguard.app.internal.wiring.ServiceDiscovery;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.app.GuardedCalls;
import dev.sqlguard.app.tools.AgentTools;
import dev.sqlguard.app.tools.AgentSource;
import dev.sqlguard.app.tools.ToolOutcome;
import dev.sqlguard.app.tools.ChartOutput;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;
import dev.sqlguard.ports.EngineFactory;

/**
 * The agent on a real DuckDB engine (found by ServiceLoader as {@code duckdb}) over a claims table
 * shaped like the demo source: summary statistics with quartiles, aggregated charts, hostile SQL,
 * and the shipped 20-question evaluation set.
 */
@Timeout(120)
class DuckDbAgentTest {
    static final String SOURCE = "demo";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path folder;

    private static Path database;
    private static Path work;
    private static Engine engine;
    private static GuardedCalls service;
    private static AgentSource source;

    @BeforeAll
    static void createDatabase() throws Exception {
        database = Files.createDirectories(folder.resolve("db")).resolve("claims.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + database); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE claims AS SELECT i AS id,"
                    + " (['north', 'south', 'east', 'west', 'central'])[1 + i % 5] AS region,"
                    + " (['auto', 'home', 'health', 'travel'])[1 + (i * 7) % 4] AS policy_type,"
                    + " CAST(100 + (i * 7919) % 9000 + (i % 97) / 100.0 AS DECIMAL(12,2)) AS amount,"
                    + " (['APPROVED', 'APPROVED', 'DENIED', 'PENDING', 'CLOSED'])[1 + (i // 5) % 5] AS status,"
                    + " DATE '2023-01-01' + CAST((i * 13) % 730 AS INTEGER) AS created,"
                    + " printf('900-%02d-%04d', i % 100, i) AS claimant_ssn"
                    + " FROM range(1, 401) r(i)");
        }
        engine = open(policy());
        service = GuardedCalls.over(new QueryService(AuditSink.discarding()), engine -> engine.policy());
        source = AgentSource.of(engine, factory());
    }

    static GuardrailPolicy policy() {
        return GuardrailPolicy.defaults().withTables(TableAllowlist.of(Map.of("claims", List.of("*"))));
    }

    /** The app's own discovery: it skips the deliberately missing provider that app's tests register. */
    static EngineFactory factory() {
        return ServiceDiscovery.load(EngineFactory.class, DuckDbAgentTest.class.getClassLoader(), warning -> { })
                .stream().filter(f -> f.name().equals("duckdb")).findFirst().orElseThrow();
    }

    static Engine open(GuardrailPolicy policy) throws Exception {
        if (work == null) {
            work = Files.createDirectories(folder.resolve("work"));
        }
        return factory().create(new EngineConfig(SOURCE, Map.of("database", database.toString()), policy), EngineContext.of(work));
    }

    @AfterAll
    static void close() {
        if (engine != null) {
            engine.close();
        }
    }

    private AgentTools tools() {
        return new AgentTools(service, List.of(source), folder.resolve("charts"));
    }

    private static JsonNode json(String text) throws Exception {
        return JSON.readTree(text);
    }

    @Test
    void summaryStatsComputesEveryStatisticIncludingQuartilesOnDuckDb() throws Exception {
        AgentTools tools = tools();
        ToolOutcome outcome = tools.call("summary_stats", "{\"source\":\"demo\",\"table\":\"claims\"}");
        assertThat(outcome.status()).isEqualTo(ToolStatus.OK);
        JsonNode out = json(outcome.modelJson());
        assertThat(out.path("row_count").asLong()).isEqualTo(400);
        assertThat(out.path("notes")).isEmpty();
        assertThat(out.path("stats")).extracting(s -> s.path("column").asText())
                .containsExactly("id", "region", "policy_type", "amount", "status", "created")
                .doesNotContain("claimant_ssn");
        JsonNode amount = out.at("/stats/3");
        for (String stat : List.of("count", "nulls", "distinct", "min", "max", "mean", "stddev", "p25", "median", "p75")) {
            assertThat(amount.has(stat)).as(stat).isTrue();
        }
        JsonNode region = out.at("/stats/1");
        assertThat(region.path("distinct").asLong()).isEqualTo(5);
        assertThat(region.has("mean")).isFalse();
        assertThat(out.at("/query/sql").asText()).contains("quantile_cont(\"amount\", 0.5) AS c3_median",
                "stddev_samp(\"amount\") AS c3_stddev", "count(DISTINCT \"region\") AS c1_distinct");

        ToolOutcome median = tools.call("query_data", "{\"source\":\"demo\",\"sql\":\"SELECT quantile_cont(amount, 0.5) AS m, "
                + "count(DISTINCT amount) AS d, min(created) AS lo FROM claims\"}");
        JsonNode row = json(median.modelJson()).at("/rows/0");
        assertThat(amount.path("median").decimalValue()).isEqualByComparingTo(row.get(0).decimalValue());
        assertThat(amount.path("distinct").asLong()).isEqualTo(row.get(1).asLong());
        assertThat(out.at("/stats/5/min").asText()).isEqualTo(row.get(2).asText());
    }

    @Test
    void summaryStatsLeavesOutWhatTheSourcePolicyRefusesAndSaysWhy() throws Exception {
        try (Engine strict = open(policy().withFunctions(Set.of("count", "count_star", "min", "max", "avg")))) {
            AgentTools tools = new AgentTools(service, List.of(AgentSource.of(strict, factory())), folder.resolve("charts"));
            ToolOutcome outcome = tools.call("summary_stats", "{\"source\":\"demo\",\"table\":\"claims\",\"columns\":[\"amount\"]}");
            assertThat(outcome.status()).isEqualTo(ToolStatus.OK);
            JsonNode out = json(outcome.modelJson());
            assertThat(out.path("notes").toString()).contains("Quartiles were left out").contains("FUNCTION_NOT_ALLOWED")
                    .contains("Distinct counts and standard deviations were left out");
            JsonNode amount = out.at("/stats/0");
            assertThat(amount.has("mean")).isTrue();
            assertThat(amount.has("stddev")).isFalse();
            assertThat(amount.has("median")).isFalse();
            assertThat(outcome.results()).hasSize(3);
        }
    }

    @Test
    void plotChartAggregatesWithSeriesAndFiltersOnDuckDb() throws Exception {
        ToolOutcome outcome = tools().call("plot_chart", "{\"source\":\"demo\",\"chart\":{\"type\":\"bar\",\"table\":\"claims\","
                + "\"x\":\"region\",\"y\":\"amount\",\"aggregation\":\"avg\",\"series\":\"policy_type\","
                + "\"filter\":[{\"column\":\"created\",\"op\":\">=\",\"value\":\"2024-01-01\"}],\"title\":\"Average amount\"}}");
        assertThat(outcome.status()).isEqualTo(ToolStatus.OK);
        JsonNode query = json(outcome.modelJson()).path("query");
        // DuckDB runs the statement the tool wrote, as written (DuckDB parsed it to the checked tree)
        assertThat(query.path("sql").asText()).contains("SELECT \"region\" AS chart_x, \"policy_type\" AS chart_series,"
                + " avg(\"amount\") AS chart_y, count(\"amount\") AS chart_n FROM \"claims\" WHERE \"created\" >= ?"
                + " GROUP BY \"region\", \"policy_type\" ORDER BY \"region\", \"policy_type\"");
        assertThat(query.path("rows")).hasSize(20);
        ChartOutput chart = outcome.chart().orElseThrow();
        assertThat(Files.size(chart.png().orElseThrow())).isGreaterThan(1000);
        JsonNode vega = json(chart.vegaLite());
        assertThat(vega.at("/encoding/color/field").asText()).isEqualTo("policy_type");
        assertThat(vega.at("/data/values")).hasSize(20);

        ToolOutcome pie = tools().call("plot_chart", "{\"source\":\"demo\",\"chart\":{\"type\":\"pie\",\"table\":\"claims\","
                + "\"x\":\"status\",\"aggregation\":\"count\"}}");
        assertThat(pie.status()).isEqualTo(ToolStatus.OK);
        assertThat(json(pie.chart().orElseThrow().vegaLite()).at("/mark/type").asText()).isEqualTo("arc");
        ToolOutcome line = tools().call("plot_chart", "{\"source\":\"demo\",\"chart\":{\"type\":\"line\",\"table\":\"claims\","
                + "\"x\":\"created\",\"y\":\"amount\",\"aggregation\":\"sum\"}}");
        assertThat(line.chart().orElseThrow().png()).isPresent();
        ToolOutcome scatter = tools().call("plot_chart", "{\"source\":\"demo\",\"chart\":{\"type\":\"scatter\",\"table\":\"claims\","
                + "\"x\":\"id\",\"y\":\"amount\",\"aggregation\":\"none\"}}");
        assertThat(scatter.chart().orElseThrow().png()).isPresent();
    }

    @Test
    void aBarChartOfHundredsOfCategoriesShowsTheTopTwentyAndTheRestCombinedExactly() throws Exception {
        AgentTools tools = tools();
        ToolOutcome outcome = plotChart(tools, "\"type\":\"bar\",\"table\":\"claims\","
                + "\"x\":\"id\",\"y\":\"amount\",\"aggregation\":\"avg\"");
        assertThat(outcome.status()).isEqualTo(ToolStatus.OK);
        JsonNode out = json(outcome.modelJson());
        assertThat(out.at("/chart/notes").toString()).contains("top 20 of 400 id values by average amount")
                .contains("combined in one category, (380 others)");
        assertThat(outcome.shownValues()).contains(20L, 400L, 380L);
        JsonNode values = json(outcome.chart().orElseThrow().vegaLite()).at("/data/values");
        assertThat(values).hasSize(21);
        assertThat(values.get(20).path("id").asText()).isEqualTo("(380 others)");

        // the combined bar is the average of every row outside the top 20, as one query computes it
        StringBuilder sql = new StringBuilder("SELECT avg(amount) AS a FROM claims WHERE id NOT IN (");
        ArrayNode params = JSON.createArrayNode();
        for (int i = 0; i < 20; i++) {
            sql.append(i == 0 ? "?" : ", ?");
            params.add(values.get(i).path("id").asLong());
        }
        assertThat(values).extracting(v -> v.path("avg(amount)").decimalValue()).first()
                .isEqualTo(json(tools.call("query_data", "{\"source\":\"demo\",\"sql\":\"SELECT max(amount) FROM claims\"}")
                        .modelJson()).at("/rows/0/0").decimalValue());
        ObjectNode args = JSON.createObjectNode().put("source", SOURCE).put("sql", sql.append(")").toString());
        args.set("params", params);
        BigDecimal rest = json(tools.call("query_data", args.toString()).modelJson()).at("/rows/0/0").decimalValue();
        assertThat(values.get(20).path("avg(amount)").decimalValue().subtract(rest).abs()).isLessThan(new BigDecimal("1e-9"));
    }

    @Test
    void datesAreBucketedByTheQueryIntoDaysWeeksMonthsOrYears() throws Exception {
        AgentTools tools = tools();
        ToolOutcome monthly = plotChart(tools, "\"type\":\"line\",\"table\":\"claims\","
                + "\"x\":\"created\",\"y\":\"amount\",\"aggregation\":\"sum\",\"bucket\":\"month\"");
        assertThat(monthly.status()).isEqualTo(ToolStatus.OK);
        JsonNode query = json(monthly.modelJson()).path("query");
        assertThat(query.path("sql").asText()).contains("date_trunc('month', \"created\")").contains("GROUP BY");
        // 400 claims over 730 days from 2023-01-01: 24 months
        assertThat(query.path("rows")).hasSize(24);
        assertThat(query.at("/rows/0/0").asText()).isEqualTo("2023-01-01");
        JsonNode vega = json(monthly.chart().orElseThrow().vegaLite());
        assertThat(vega.at("/encoding/x/title").asText()).isEqualTo("Created (month)");
        assertThat(vega.at("/encoding/x/axis/format").asText()).isEqualTo("%Y-%m");
        BigDecimal total = json(tools.call("query_data", "{\"source\":\"demo\",\"sql\":\"SELECT sum(amount) FROM claims\"}")
                .modelJson()).at("/rows/0/0").decimalValue();
        BigDecimal summed = BigDecimal.ZERO;
        for (JsonNode row : query.path("rows")) {
            summed = summed.add(row.get(1).decimalValue());
        }
        assertThat(summed).isEqualByComparingTo(total);

        ToolOutcome yearly = plotChart(tools, "\"type\":\"bar\",\"table\":\"claims\","
                + "\"x\":\"created\",\"aggregation\":\"count\",\"bucket\":\"year\"");
        assertThat(json(yearly.chart().orElseThrow().vegaLite()).at("/data/values")).extracting(v -> v.path("created").asText())
                .containsExactly("2023", "2024");
        ToolOutcome weekly = plotChart(tools, "\"type\":\"line\",\"table\":\"claims\","
                + "\"x\":\"created\",\"aggregation\":\"count\",\"bucket\":\"week\"");
        for (JsonNode row : json(weekly.modelJson()).at("/query/rows")) {
            assertThat(java.time.LocalDate.parse(row.get(0).asText()).getDayOfWeek()).isEqualTo(java.time.DayOfWeek.MONDAY);
        }

        for (String bad : List.of("\"x\":\"region\",\"aggregation\":\"count\"",
                "\"x\":\"created\",\"y\":\"amount\",\"aggregation\":\"none\"")) {
            ToolOutcome refused = plotChart(tools, "\"type\":\"line\",\"table\":\"claims\","
                    + bad + ",\"bucket\":\"month\"");
            assertThat(json(refused.modelJson()).at("/error/code").asText()).as(bad).isEqualTo("INVALID_ARGUMENT");
        }
    }

    /** Calls plot_chart on the demo source with the chart specification's members {@code members}. */
    private static ToolOutcome plotChart(AgentTools tools, String members) {
        return tools.call("plot_chart", "{\"source\":\"demo\",\"chart\":{" + members + "}}");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT * FROM read_csv('/etc/passwd')",
        "COPY (SELECT 1) TO '/tmp/x.csv'",
        "SELECT claimant_ssn FROM claims",
        "ATTACH '/tmp/other.duckdb' AS o",
        "SELECT query('SELECT 1')",
        "SELECT 1; SELECT 2"
    })
    void hostileDuckDbQueriesGetSafeErrorsAndLeakNothing(String sql) throws Exception {
        ToolOutcome outcome = tools().call("query_data", JSON.createObjectNode().put("source", SOURCE).put("sql", sql).toString());
        String text = outcome.modelJson();
        assertThat(text).doesNotContain("900-").doesNotContain(folder.toString()).doesNotContain("Exception");
        if (outcome.status() == ToolStatus.OK) {
            // a redacted column may be selected, but its values never appear
            assertThat(json(text).at("/rows/0/0").asText()).doesNotContain("900-");
        } else {
            assertThat(json(text).at("/error/code").asText()).isNotBlank();
        }
    }

    @Test
    void theShippedEvaluationSetRunsOnDuckDbAndAnOracleModelScoresTwentyOfTwenty() {
        EvaluationSet set = EvaluationSet.demo();
        assertThat(set.questions()).hasSize(20);
        AnalystPlanner planner = new AnalystPlanner(oracle(set, false), service, List.of(source), DomainAnswerVerifier.standard(),
                AgentSettings.defaults(folder.resolve("charts")));
        EvaluationReport report = new Evaluation(planner, service, source).run(set);

        assertThat(report.items()).allSatisfy(i -> assertThat(i.referenceError()).as(i.id()).isEmpty());
        assertThat(report.verifiedAndCorrect()).as(report.toText()).isEqualTo(20);
        assertThat(report.toText()).contains("Fully verified and correct: 20/20");
    }

    @Test
    void theEvaluationCountsWrongAndUnverifiedAnswers() throws Exception {
        EvaluationSet set = EvaluationSet.demo();
        AnalystPlanner planner = new AnalystPlanner(oracle(set, true), service, List.of(source), DomainAnswerVerifier.standard(),
                AgentSettings.defaults(folder.resolve("charts")));
        EvaluationReport report = new Evaluation(planner, service, source).run(set);

        // the sloppy oracle adds 1 to every number: nothing is correct, and almost nothing verifies (an off-by-one
        // small count can coincide with another value of the conversation, such as a row count of 1)
        assertThat(report.correct()).isZero();
        assertThat(report.verifiedAndCorrect()).isZero();
        assertThat(report.verified()).isLessThan(3);
        assertThat(report.answered()).isEqualTo(20);
        JsonNode json = json(report.toJson());
        assertThat(json.path("verified_and_correct").asInt()).isZero();
        assertThat(json.at("/items/0/missing")).isNotEmpty();
    }

    /**
     * A test model that knows the reference SQL: it runs it through query_data, then answers with
     * the cells of the result (or, when {@code sloppy}, with every number off by one).
     */
    static ScriptedModel oracle(EvaluationSet set, boolean sloppy) {
        return ScriptedModel.forever(request -> {
            String question = request.messages().get(1).content().orElseThrow();
            String lastTool = ScriptedModel.lastToolMessage(request);
            if (lastTool.isEmpty()) {
                EvaluationQuestion q = set.questions().stream().filter(e -> e.question().equals(question)).findFirst().orElseThrow();
                return call("query_data", JSON.createObjectNode().put("source", SOURCE).put("sql", q.sql()).toString()).apply(request);
            }
            StringBuilder text = new StringBuilder("The answer is:");
            try {
                for (JsonNode row : JSON.readTree(lastTool).path("rows")) {
                    for (JsonNode cell : row) {
                        text.append(' ').append(cell.isNumber()
                                ? (sloppy ? cell.decimalValue().add(BigDecimal.ONE) : cell.decimalValue()).toPlainString()
                                : cell.asText());
                    }
                    text.append(';');
                }
            } catch (Exception e) {
                throw new AssertionError(e);
            }
            return answer(text.toString()).apply(request);
        });
    }

    @Test
    void aPlannerRunOnDuckDbAnswersFromRealRows() {
        ScriptedModel model = new ScriptedModel(
                call("query_data", "{\"source\":\"demo\",\"sql\":\"SELECT count(*) AS n FROM claims WHERE status = ? AND created >= ?\","
                        + "\"params\":[\"DENIED\",\"2024-01-01\"]}"),
                request -> {
                    String n = ScriptedModel.lastToolMessage(request).replaceAll("(?s).*\"rows\":\\[\\[(\\d+)\\]\\].*", "$1");
                    return answer(n + " claims created in 2024 were denied.").apply(request);
                });
        AnalyticalResponse response = new AnalystPlanner(model, service, List.of(source), DomainAnswerVerifier.standard(),
                AgentSettings.defaults(folder.resolve("charts"))).ask("How many claims created in 2024 were denied?", Optional.of(SOURCE));
        assertThat(response.status()).as(response.toText()).isEqualTo(Status.ANSWERED);
        assertThat(response.verification().fullyVerified()).isTrue();
        assertThat(response.queries().get(0).sql().orElseThrow()).contains("FROM claims WHERE status = ? AND created >= ?");
    }
}
