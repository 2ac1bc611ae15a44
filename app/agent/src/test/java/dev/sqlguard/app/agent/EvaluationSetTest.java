package dev.sqlguard.app.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.sqlguard.app.GuardedCalls;
import dev.sqlguard.app.tools.AgentSource;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.ResultColumn;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.domain.verify.ClaimPolicy;

class EvaluationSetTest {
    @Test
    void theShippedSetHasTwentyDistinctQuestionsOverTheDemoSource() {
        EvaluationSet set = EvaluationSet.demo();
        assertThat(set.name()).isEqualTo("demo-claims-20");
        assertThat(set.source()).isEqualTo("demo");
        assertThat(set.questions()).hasSize(20);
        assertThat(set.questions()).extracting(EvaluationQuestion::question).doesNotHaveDuplicates();
        assertThat(set.questions()).allSatisfy(q -> assertThat(q.sql()).startsWith("SELECT").contains("FROM claims"));
    }

    @Test
    void aSetIsCheckedWhenParsed() {
        assertThatThrownBy(() -> EvaluationSet.parse("{\"name\":\"x\",\"questions\":[]}")).hasMessageContaining("needs questions");
        assertThatThrownBy(() -> EvaluationSet.parse("{\"name\":\"x\",\"questions\":[{\"id\":\"a\",\"question\":\"q\",\"sql\":\"s\"},"
                + "{\"id\":\"a\",\"question\":\"q\",\"sql\":\"s\"}]}")).hasMessageContaining("used twice");
        assertThatThrownBy(() -> EvaluationSet.parse("{\"questions\":[{\"id\":\"a\",\"question\":\"q\"}]}"))
                .hasMessageContaining("needs an id, a question and SQL");
        EvaluationSet set = EvaluationSet.parse("{\"name\":\"x\",\"questions\":[{\"id\":\"a\",\"question\":\"q\",\"sql\":\"s\","
                + "\"ignore_columns\":[\"Region\"]}]}");
        assertThat(set.questions().get(0).ignoreColumns()).containsExactly("region");
    }

    @Test
    void anAnswerIsCorrectWhenEveryExpectedValueAppearsAtTheShownPrecision() {
        ToolResult reference = new ToolResult("r", ToolStatus.OK, "demo", Optional.of("SELECT ..."),
                List.of(new ResultColumn("region", "VARCHAR"), new ResultColumn("avg_amount", "DOUBLE"), new ResultColumn("n", "BIGINT")),
                List.of(List.of("west", 3907.3214, 608L), List.of("east", 3290.53, 600L)), false, Set.of(), Optional.empty(), 1);
        EvaluationQuestion question = new EvaluationQuestion("q", "Average by region?", "SELECT ...", Set.of("n"));

        assertThat(Evaluation.missing(question, reference, answer("West averages $3,907.32 and East 3,290.53."))).isEmpty();
        assertThat(Evaluation.missing(question, reference, answer("West averages about 3.9k; east 3,290.53"))).isEmpty();
        assertThat(Evaluation.missing(question, reference, answer("West averages 3,907.40 and East 3,290.53.")))
                .containsExactly("3907.3214");
        assertThat(Evaluation.missing(question, reference, answer("It averages 3,907.32 and 3,290.53.")))
                .containsExactly("west", "east");
    }

    @Test
    void aReferenceQueryTheGuardRefusesMakesTheItemIncorrectWithItsCode(@TempDir Path charts) {
        EvaluationSet set = EvaluationSet.parse("{\"name\":\"tiny\",\"source\":\"claims_db\",\"questions\":["
                + "{\"id\":\"ok\",\"question\":\"How many claims were denied?\",\"sql\":\"SELECT count(*) AS n FROM claims WHERE status = 'DENIED'\"},"
                + "{\"id\":\"bad\",\"question\":\"Drop it\",\"sql\":\"DROP TABLE claims\"}]}");
        ScriptedModel model = ScriptedModel.forever(ScriptedModel.answer("20 claims were denied."));
        GuardedCalls service = GuardedCalls.over(new QueryService(AuditSink.discarding()), engine -> engine.policy());
        AgentSource source = AgentFixtures.source();
        AnalystPlanner planner = new AnalystPlanner(model, service, List.of(source), AgentSettings.defaults(charts));
        EvaluationReport report = new Evaluation(planner, service, source).run(set);

        assertThat(report.items()).extracting(EvaluationReport.Item::id).containsExactly("ok", "bad");
        EvaluationReport.Item ok = report.items().get(0);
        // "20" is correct, but no tool ran, so nothing supports it: correct and not verified
        assertThat(ok.correct()).isTrue();
        assertThat(ok.verified()).isFalse();
        assertThat(ok.unsupported()).containsExactly("20");
        EvaluationReport.Item bad = report.items().get(1);
        assertThat(bad.correct()).isFalse();
        assertThat(bad.referenceError()).contains("STATEMENT_NOT_ALLOWED");
        assertThat(report.verifiedAndCorrect()).isZero();
        assertThat(report.toText()).contains("Fully verified and correct: 0/2");
    }

    private static AnalyticalResponse answer(String text) {
        return new AnalyticalResponse(AnalyticalResponse.Status.ANSWERED, "q", text, List.of(), List.of(), Optional.empty(),
                new AnalyticalResponse.Verification(ClaimPolicy.FLAG, true, ClaimCheck.none()), 1, 0, Optional.empty());
    }
}
