package dev.sqlguard.app.agent;

import static dev.sqlguard.app.agent.ScriptedModel.answer;
import static dev.sqlguard.app.agent.ScriptedModel.call;
import static dev.sqlguard.app.agent.ScriptedModel.lastToolMessage;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sqlguard.app.agent.AnalyticalResponse.Status;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.app.GuardedCalls;
import dev.sqlguard.app.tools.AgentSource;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.domain.port.ExecutionPort;
import dev.sqlguard.domain.port.StatementValidator;
import dev.sqlguard.domain.verify.ClaimPolicy;
import dev.sqlguard.ports.CatalogView;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineCapability;
import dev.sqlguard.ports.model.ChatMessage;
import dev.sqlguard.ports.model.ModelReply;
import dev.sqlguard.ports.model.ToolCall;

class AnalystPlannerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    static final String COUNT_DENIED = "{\"source\":\"claims_db\",\"sql\":\"SELECT count(*) AS denied FROM claims WHERE status = ?\",\"params\":[\"DENIED\"]}";

    @TempDir
    Path charts;

    private AnalystPlanner planner(ScriptedModel model, AgentSettings settings) {
        return new AnalystPlanner(model, GuardedCalls.over(new QueryService(AuditSink.discarding()), engine -> engine.policy()), List.of(AgentFixtures.source()),
                DomainAnswerVerifier.standard(), settings);
    }

    private AnalystPlanner planner(ScriptedModel model) {
        return planner(model, AgentSettings.defaults(charts));
    }

    @Test
    void aCorrectRunAnswersWithVerifiedNumbersAndTheExecutedSql() throws Exception {
        ScriptedModel model = new ScriptedModel(
                call("describe_source", "{}"),
                call("query_data", COUNT_DENIED),
                answer("20 claims were denied in 2024.\nKey findings:\n- 20 of 60 claims were denied\n- The rest are approved or pending"));
        AnalyticalResponse response = planner(model).ask("How many claims were denied in 2024?");

        assertThat(response.status()).isEqualTo(Status.ANSWERED);
        assertThat(response.answer()).isEqualTo("20 claims were denied in 2024.");
        assertThat(response.keyFindings()).containsExactly("20 of 60 claims were denied", "The rest are approved or pending");
        assertThat(response.verification().fullyVerified()).isTrue();
        assertThat(response.verification().check().supported()).contains("20", "60");
        assertThat(response.verification().check().exempt()).containsExactly("2024");
        assertThat(response.queries()).singleElement().satisfies(q -> {
            assertThat(q.status()).isEqualTo(ToolStatus.OK);
            assertThat(q.sql()).contains("SELECT count(*) AS denied FROM claims WHERE status = ?");
            assertThat(q.previewRows()).containsExactly(List.of(20L));
        });
        assertThat(response.turnsUsed()).isEqualTo(3);
        assertThat(response.toolCallsUsed()).isEqualTo(2);
        // the model saw the system prompt, the question, and each tool result answering its call
        List<ChatMessage> last = model.requests.get(2).messages();
        assertThat(last.get(0).role()).isEqualTo("system");
        assertThat(last.get(1).content()).contains("How many claims were denied in 2024?");
        assertThat(last.get(last.size() - 1).toolCallId()).contains(last.get(last.size() - 2).toolCalls().get(0).id());
        assertThat(model.requests.get(0).tools()).hasSize(5);
    }

    @Test
    void aHostileQueryGetsASafeErrorAndTheModelRetries() throws Exception {
        ScriptedModel model = new ScriptedModel(
                call("query_data", "{\"source\":\"claims_db\",\"sql\":\"SELECT id FROM claims; DROP TABLE claims\"}"),
                request -> {
                    JsonNode result = parse(lastToolMessage(request));
                    assertThat(result.path("status").asText()).isEqualTo("REJECTED");
                    assertThat(result.at("/error/code").asText()).isEqualTo("MULTIPLE_STATEMENTS");
                    assertThat(result.at("/error/retryable").asBoolean()).isTrue();
                    return call("query_data", COUNT_DENIED).apply(request);
                },
                answer("There are 20 denied claims."));
        AnalyticalResponse response = planner(model).ask("How many claims were denied?");

        assertThat(response.status()).isEqualTo(Status.ANSWERED);
        assertThat(response.verification().fullyVerified()).isTrue();
        assertThat(response.queries()).extracting(AnalyticalResponse.ExecutedQuery::status)
                .containsExactly(ToolStatus.REJECTED, ToolStatus.OK);
        assertThat(response.queries().get(0).error().orElseThrow().code()).isEqualTo(ErrorCode.MULTIPLE_STATEMENTS);
        assertThat(model.requests).hasSize(3);
    }

    @Test
    void aModelThatLoopsRunsOutOfToolCallsAndGetsAStructuredResponse() {
        ScriptedModel model = ScriptedModel.forever(call("query_data", COUNT_DENIED));
        AnalyticalResponse response = planner(model, AgentSettings.defaults(charts).withMaxToolCalls(4)).ask("Loop forever");

        assertThat(response.status()).isEqualTo(Status.BUDGET_EXHAUSTED);
        assertThat(response.answer()).contains("the limit of 4 tool calls");
        assertThat(response.toolCallsUsed()).isEqualTo(4);
        assertThat(response.queries()).hasSize(4);
        assertThat(response.verification().performed()).isFalse();
    }

    @Test
    void aModelThatLoopsRunsOutOfTurns() {
        ScriptedModel model = ScriptedModel.forever(call("describe_source", "{}"));
        AnalyticalResponse response = planner(model, AgentSettings.defaults(charts).withMaxTurns(3)).ask("Loop forever");

        assertThat(response.status()).isEqualTo(Status.BUDGET_EXHAUSTED);
        assertThat(response.answer()).contains("the limit of 3 model turns");
        assertThat(response.turnsUsed()).isEqualTo(3);
        assertThat(model.requests).hasSize(3);
    }

    @Test
    void repeatedFailuresUseUpTheRetryBudgetThenOneMoreDataCallEndsTheRun() {
        ScriptedModel model = ScriptedModel.forever(call("query_data", "{\"source\":\"claims_db\",\"sql\":\"DELETE FROM claims\"}"));
        AnalyticalResponse response = planner(model, AgentSettings.defaults(charts).withMaxSqlRetries(2)).ask("Delete everything");

        assertThat(response.status()).isEqualTo(Status.BUDGET_EXHAUSTED);
        assertThat(response.answer()).contains("retry budget of 2 failed tool calls");
        // three failures close the data tools; the model is told, asks again, and the run ends
        assertThat(response.queries()).hasSize(3).allSatisfy(q -> assertThat(q.status()).isEqualTo(ToolStatus.REJECTED));
        assertThat(model.requests).hasSize(4);
        List<ChatMessage> told = model.requests.get(3).messages();
        assertThat(told.get(told.size() - 1).content().orElseThrow()).startsWith("No further queries will run");
    }

    @Test
    void aNonRetryableErrorEndsSqlRetriesAndTheModelMayStillAnswer() {
        AgentSource broken = AgentFixtures.source(new FailingEngine(AgentFixtures.engine(),
                new GuardException(ErrorCode.READ_ONLY_NOT_ENFORCED)));
        ScriptedModel model = new ScriptedModel(
                call("query_data", COUNT_DENIED),
                request -> {
                    assertThat(parse(lastToolMessage(request)).at("/error/retryable").asBoolean(true)).isFalse();
                    return answer("The data cannot be read safely right now, so the question cannot be answered.").apply(request);
                });
        AnalyticalResponse response = new AnalystPlanner(model, GuardedCalls.over(new QueryService(AuditSink.discarding()), engine -> engine.policy()), List.of(broken),
                DomainAnswerVerifier.standard(), AgentSettings.defaults(charts)).ask("How many claims were denied?");

        assertThat(response.status()).isEqualTo(Status.ANSWERED);
        assertThat(response.queries()).singleElement().satisfies(q -> {
            assertThat(q.status()).isEqualTo(ToolStatus.ERROR);
            assertThat(q.error().orElseThrow().code()).isEqualTo(ErrorCode.READ_ONLY_NOT_ENFORCED);
        });
        List<ChatMessage> second = model.requests.get(1).messages();
        assertThat(second.get(second.size() - 1).content().orElseThrow()).contains("non-retryable error (READ_ONLY_NOT_ENFORCED)");
    }

    @Test
    void aDataCallAfterANonRetryableErrorEndsTheRun() {
        AgentSource broken = AgentFixtures.source(new FailingEngine(AgentFixtures.engine(),
                new GuardException(ErrorCode.READ_ONLY_NOT_ENFORCED)));
        ScriptedModel model = ScriptedModel.forever(call("query_data", COUNT_DENIED));
        AnalyticalResponse response = new AnalystPlanner(model, GuardedCalls.over(new QueryService(AuditSink.discarding()), engine -> engine.policy()), List.of(broken),
                DomainAnswerVerifier.standard(), AgentSettings.defaults(charts)).ask("How many claims were denied?");

        assertThat(response.status()).isEqualTo(Status.BUDGET_EXHAUSTED);
        assertThat(response.queries()).hasSize(1);
        assertThat(model.requests).hasSize(2);
    }

    @Test
    void malformedToolArgumentsComeBackAsInvalidArgumentAndTheModelCanFixThem() throws Exception {
        ScriptedModel model = new ScriptedModel(
                call("query_data", "{\"source\": \"claims_db\", \"sql\": "),
                request -> {
                    JsonNode result = parse(lastToolMessage(request));
                    assertThat(result.at("/error/code").asText()).isEqualTo("INVALID_ARGUMENT");
                    return call("query_data", "{\"source\":\"claims_db\",\"query\":\"SELECT id FROM claims\"}").apply(request);
                },
                request -> {
                    assertThat(parse(lastToolMessage(request)).at("/error/message").asText()).contains("Unknown field 'query'");
                    return call("query_data", COUNT_DENIED).apply(request);
                },
                answer("20 claims were denied."));
        AnalyticalResponse response = planner(model).ask("How many claims were denied?");

        assertThat(response.status()).isEqualTo(Status.ANSWERED);
        assertThat(response.queries()).extracting(AnalyticalResponse.ExecutedQuery::status)
                .containsExactly(ToolStatus.REJECTED, ToolStatus.REJECTED, ToolStatus.OK);
    }

    @Test
    void aWrongNumberIsFlaggedUnderFlagAndTheAnswerKept() {
        AnalyticalResponse response = planner(wrongNumberModel()).ask("How many claims were denied?");

        assertThat(response.status()).isEqualTo(Status.ANSWERED);
        assertThat(response.answer()).isEqualTo("There are 25 denied claims.");
        assertThat(response.verification().fullyVerified()).isFalse();
        assertThat(response.verification().check().unsupported()).containsExactly("25");
        assertThat(response.toText()).contains("UNSUPPORTED numbers: 25");
    }

    @Test
    void aWrongNumberIsBlockedUnderBlockWithARefusalListingIt() {
        AnalyticalResponse response = planner(wrongNumberModel(), AgentSettings.defaults(charts).withClaimPolicy(ClaimPolicy.BLOCK))
                .ask("How many claims were denied?");

        assertThat(response.status()).isEqualTo(Status.BLOCKED);
        assertThat(response.answer()).startsWith("The answer was withheld").contains("25").doesNotContain("There are 25");
        assertThat(response.keyFindings()).isEmpty();
        assertThat(response.verification().check().unsupported()).containsExactly("25");
        assertThat(response.queries()).hasSize(1);
    }

    @Test
    void aCorrectAnswerPassesUnderBlock() {
        ScriptedModel model = new ScriptedModel(call("query_data", COUNT_DENIED), answer("20 claims were denied."));
        AnalyticalResponse response = planner(model, AgentSettings.defaults(charts).withClaimPolicy(ClaimPolicy.BLOCK))
                .ask("How many claims were denied?");
        assertThat(response.status()).isEqualTo(Status.ANSWERED);
    }

    @Test
    void aVerifierThatFailsLeavesTheAnswerUnverifiedAndBlockWithholdsIt() {
        AnswerVerifier broken = (answer, question, evidence) -> {
            throw new IllegalStateException("bug");
        };
        for (ClaimPolicy policy : ClaimPolicy.values()) {
            ScriptedModel model = new ScriptedModel(call("query_data", COUNT_DENIED), answer("20 claims were denied."));
            AnalyticalResponse response = new AnalystPlanner(model, GuardedCalls.over(new QueryService(AuditSink.discarding()), engine -> engine.policy()),
                    List.of(AgentFixtures.source()), broken, AgentSettings.defaults(charts).withClaimPolicy(policy))
                    .ask("How many claims were denied?");
            assertThat(response.verification().performed()).isFalse();
            assertThat(response.verification().fullyVerified()).isFalse();
            assertThat(response.status()).isEqualTo(policy == ClaimPolicy.BLOCK ? Status.BLOCKED : Status.ANSWERED);
        }
    }

    @Test
    void aRatioOfTwoValuesOfOneResultIsAcceptedAsDerivedAndListedAsSuch() {
        // amounts run from 17.37 (id 1) to 1020.20 (id 60): the ratio is 58.73...
        ScriptedModel model = new ScriptedModel(
                call("query_data", "{\"source\":\"claims_db\",\"sql\":\"SELECT min(amount) AS lo, max(amount) AS hi FROM claims\"}"),
                answer("The largest claim, 1,020.20, is 58.7 times the smallest, 17.37."));
        AnalyticalResponse response = planner(model).ask("How do the largest and smallest claims compare?");
        assertThat(response.verification().fullyVerified()).as(response.toText()).isTrue();
        assertThat(response.verification().check().supported()).containsExactly("1,020.20", "17.37");
        assertThat(response.verification().check().derived()).singleElement().asString().startsWith("58.7");
        assertThat(response.toJson()).contains("\"derived\"");
        assertThat(response.toText()).contains("derived: 58.7");
    }

    @Test
    void aShareOfValuesFromTwoDifferentResultsIsNotDerived() {
        ScriptedModel model = new ScriptedModel(
                call("query_data", "{\"source\":\"claims_db\",\"sql\":\"SELECT count(*) AS n FROM claims\"}"),
                call("query_data", COUNT_DENIED),
                answer("20 of 60 claims, 33.3%, were denied."));
        AnalyticalResponse response = planner(model).ask("What share of claims was denied?");
        assertThat(response.verification().check().unsupported()).containsExactly("33.3%");
        assertThat(response.verification().check().supported()).containsExactly("20", "60");
    }

    private static ScriptedModel wrongNumberModel() {
        return new ScriptedModel(call("query_data", COUNT_DENIED), answer("There are 25 denied claims."));
    }

    @Test
    void anUnreachableModelEndsWithModelUnavailable() {
        ScriptedModel model = ScriptedModel.forever(request -> {
            throw new GuardException(ErrorCode.MODEL_UNAVAILABLE, "The model endpoint could not be reached.");
        });
        AnalyticalResponse response = planner(model).ask("How many claims?");
        assertThat(response.status()).isEqualTo(Status.MODEL_UNAVAILABLE);
        assertThat(response.answer()).contains("could not be reached");
        assertThat(response.turnsUsed()).isZero();
    }

    @Test
    void aModelPortBugIsReportedAsUnavailableWithoutItsText() {
        ScriptedModel model = ScriptedModel.forever(request -> {
            throw new IllegalStateException("secret internals at /home/x");
        });
        AnalyticalResponse response = planner(model).ask("How many claims?");
        assertThat(response.status()).isEqualTo(Status.MODEL_UNAVAILABLE);
        assertThat(response.toJson()).doesNotContain("secret internals").doesNotContain("/home/x");
    }

    @Test
    void clarifyEndsTheRunWithTheQuestionForTheUser() {
        ScriptedModel model = new ScriptedModel(call("clarify", "{\"question\":\"Which year?\"}"));
        AnalyticalResponse response = planner(model).ask("How many claims last year?");
        assertThat(response.status()).isEqualTo(Status.CLARIFICATION_NEEDED);
        assertThat(response.clarification()).contains("Which year?");
    }

    @Test
    void anEmptyReplyIsNudgedOnceThenEndsTheRun() {
        ScriptedModel model = ScriptedModel.forever(request -> new ModelReply(Optional.empty(), List.of(), "stop"));
        AnalyticalResponse response = planner(model).ask("How many claims?");
        assertThat(response.status()).isEqualTo(Status.BUDGET_EXHAUSTED);
        assertThat(model.requests).hasSize(2);
    }

    @Test
    void severalCallsInOneReplyAreAllAnswered() {
        ScriptedModel model = new ScriptedModel(
                request -> new ModelReply(Optional.of("thinking"), List.of(
                        new ToolCall("a", "describe_source", "{}"),
                        new ToolCall("b", "query_data", COUNT_DENIED)), "tool_calls"),
                answer("20 claims were denied out of 60."));
        AnalyticalResponse response = planner(model).ask("How many claims were denied?");
        assertThat(response.status()).isEqualTo(Status.ANSWERED);
        List<ChatMessage> second = model.requests.get(1).messages();
        assertThat(second).extracting(m -> m.toolCallId().orElse("")).contains("a", "b");
        assertThat(response.verification().fullyVerified()).isTrue();
    }

    @Test
    void theResponseRendersAsJsonAndText() throws Exception {
        ScriptedModel model = new ScriptedModel(call("query_data", COUNT_DENIED), answer("20 claims were denied."));
        AnalyticalResponse response = planner(model).ask("How many claims were denied?");
        JsonNode json = parse(response.toJson());
        assertThat(json.path("status").asText()).isEqualTo("answered");
        assertThat(json.path("answer").asText()).isEqualTo("20 claims were denied.");
        assertThat(json.at("/queries/0/sql").asText()).contains("count(*)");
        assertThat(json.at("/queries/0/preview_rows/0/0").asLong()).isEqualTo(20);
        assertThat(json.at("/verification/policy").asText()).isEqualTo("flag");
        assertThat(json.at("/verification/fully_verified").asBoolean()).isTrue();
        assertThat(json.at("/verification/supported/0").asText()).isEqualTo("20");
        assertThat(json.path("turns_used").asInt()).isEqualTo(2);
        assertThat(json.path("chart").isNull()).isTrue();
        assertThat(response.toText()).contains("Status: answered").contains("20 claims were denied.")
                .contains("SELECT count(*) AS denied FROM claims WHERE status = ?").contains("Turns used: 2");
    }

    @Test
    void previewRowsAreBounded() {
        ScriptedModel model = new ScriptedModel(call("query_data", "{\"source\":\"claims_db\",\"sql\":\"SELECT id FROM claims\"}"),
                answer("There are 60 claims."));
        AgentSettings settings = new AgentSettings(8, 12, 3, 5, charts, ClaimPolicy.FLAG);
        AnalyticalResponse response = planner(model, settings).ask("List the claims");
        assertThat(response.queries().get(0).previewRows()).hasSize(5);
        assertThat(response.queries().get(0).returnedCount()).isEqualTo(60);
        assertThat(response.toText()).contains("(55 more rows)");
    }

    @Test
    void askingForAnUnknownSourceIsACallerError() {
        AnalystPlanner planner = planner(new ScriptedModel());
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> planner.ask("q", Optional.of("nope")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("claims_db");
    }

    private static JsonNode parse(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** An engine whose validation passes but whose execution always fails with one error. */
    static final class FailingEngine implements Engine {
        private final Engine delegate;
        private final GuardException error;

        FailingEngine(Engine delegate, GuardException error) {
            this.delegate = delegate;
            this.error = error;
        }

        @Override
        public String sourceId() {
            return delegate.sourceId();
        }

        @Override
        public GuardrailPolicy policy() {
            return delegate.policy();
        }

        @Override
        public dev.sqlguard.domain.EngineDefaults defaults() {
            return delegate.defaults();
        }

        @Override
        public StatementValidator validator() {
            return delegate.validator();
        }

        @Override
        public ExecutionPort execution() {
            return plan -> {
                throw error;
            };
        }

        @Override
        public CatalogView catalog() {
            return delegate.catalog();
        }

        @Override
        public Set<EngineCapability> capabilities() {
            return delegate.capabilities();
        }

        @Override
        public void close() {
            delegate.close();
        }
    }
}
