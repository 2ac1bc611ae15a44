package dev.sqlguard.app.agent.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.fasterxml.jackson.databind.JsonNode;

import dev.sqlguard.app.internal.json.ToolResultJson;
import dev.sqlguard.app.tools.AgentSource;
import dev.sqlguard.app.tools.internal.AgentJson;
import dev.sqlguard.app.tools.internal.ArgSchema;
import dev.sqlguard.app.tools.internal.ColumnKind;
import dev.sqlguard.app.tools.internal.SqlWriter;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.ports.EngineDialect;
import dev.sqlguard.testing.memory.InMemoryEngine;

class AgentInternalsTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "There are 3,000 claims.|3000|true",
        "There are 3,000 claims.|3001|false",
        "The average is $3,358.21.|3358.2134|true",
        "The average is $3,358.21.|3358.22|false",
        "About 5.76 million in total.|5763666.87|true",
        "About 5.76 million in total.|5770000.01|false",
        "Roughly 1.2k claims.|1249|true",
        "Roughly 1.2k claims.|1251|false",
        "19.3% were denied.|19.3|true",
        "19.3% were denied.|0.193|true",
        "19.3 percent were denied.|0.1934|true",
        "The loss was -1,250.5 in total.|-1250.5|true",
        "There are four policy types.|4|true",
        "Region west has 608 claims.|60|false"
    })
    void answerNumbersMatchAtThePrecisionShown(String text, String expected, boolean matches) {
        assertThat(AnswerNumbers.contains(AnswerNumbers.in(text), new BigDecimal(expected))).isEqualTo(matches);
    }

    @Test
    void answerTextSplitsAnswerAndFindings() {
        AnswerText plain = AnswerText.parse("Just an answer with 3 numbers.");
        assertThat(plain.answer()).isEqualTo("Just an answer with 3 numbers.");
        assertThat(plain.findings()).isEmpty();

        AnswerText listed = AnswerText.parse("West leads.\n\n**Key findings:**\n- West has 608 claims\n* East has 600\n1. North has 593\nDone.");
        assertThat(listed.answer()).isEqualTo("West leads.\nDone.");
        assertThat(listed.findings()).containsExactly("West has 608 claims", "East has 600", "North has 593");
        assertThat(listed.verifiableText()).contains("608", "600", "593", "West leads.");

        AnswerText json = AnswerText.parse("{\"answer\": \"580 were denied.\", \"key_findings\": [\"19.3% denied\", 7]}");
        assertThat(json.answer()).isEqualTo("580 were denied.");
        assertThat(json.findings()).containsExactly("19.3% denied");

        assertThat(AnswerText.parse("{not json").answer()).isEqualTo("{not json");
    }

    @Test
    void dialectsQuoteEveryIdentifierOrRefuseOnesThatNeedQuoting() {
        SqlWriter doubleQuotes = new SqlWriter(new EngineDialect("DuckDB", Optional.of('"'),
                Optional.of("quantile_cont({column}, {fraction})"), List.of()));
        SqlWriter backticks = new SqlWriter(new EngineDialect("MySQL/MariaDB", Optional.of('`'), Optional.empty(), List.of()));
        SqlWriter plain = new SqlWriter(EngineDialect.PLAIN);
        assertThat(doubleQuotes.quote("we\"ird")).isEqualTo("\"we\"\"ird\"");
        assertThat(backticks.quote("we`ird")).isEqualTo("`we``ird`");
        assertThat(backticks.table(TableRef.of("shop", "orders"))).isEqualTo("`shop`.`orders`");
        assertThat(plain.quote("amount")).isEqualTo("amount");
        assertThatThrownBy(() -> plain.quote("amount) FROM users --"))
                .isInstanceOf(ArgSchema.InvalidArgumentException.class).hasMessageContaining("needs quoting");
        assertThatThrownBy(() -> plain.table(TableRef.of("my schema", "orders")))
                .isInstanceOf(ArgSchema.InvalidArgumentException.class).hasMessageContaining("needs quoting");
        assertThat(doubleQuotes.hasQuantiles()).isTrue();
        assertThat(doubleQuotes.quantile("\"amount\"", "0.25")).isEqualTo("quantile_cont(\"amount\", 0.25)");
        assertThat(backticks.hasQuantiles()).isFalse();
    }

    @Test
    void theSystemPromptNamesEachSourcesDeclaredDialectAndItsNotes() {
        EngineDialect declared = new EngineDialect("Postgres", Optional.of('"'), Optional.empty(),
                List.of("Use percentile_cont(0.5) WITHIN GROUP (ORDER BY x) for medians."));
        String prompt = SystemPrompt.of(List.of(
                new AgentSource(new InMemoryEngine("pg", GuardrailPolicy.defaults(), Map.of(), sql -> false), "postgres", declared),
                new AgentSource(new InMemoryEngine("other", GuardrailPolicy.defaults(), Map.of(), sql -> false), "other", EngineDialect.PLAIN)));
        assertThat(prompt).contains("'pg' (Postgres SQL)").contains("'other' (standard SQL)")
                .contains("Postgres SQL: Use percentile_cont(0.5) WITHIN GROUP (ORDER BY x) for medians.");
    }

    @ParameterizedTest
    @CsvSource({
        "BIGINT,NUMERIC", "'DECIMAL(12,2)',NUMERIC", "INTEGER,NUMERIC", "int8,NUMERIC", "'INT UNSIGNED',NUMERIC", "double,NUMERIC", "HUGEINT,NUMERIC", "INTERVAL,TEXT",
        "DATE,TEMPORAL", "TIMESTAMP WITH TIME ZONE,TEMPORAL", "DATETIME,TEMPORAL", "BOOLEAN,BOOLEAN", "TINYINT(1),BOOLEAN",
        "VARCHAR,TEXT", "POINT,TEXT"
    })
    void columnKinds(String type, ColumnKind kind) {
        assertThat(ColumnKind.of(type)).isEqualTo(kind);
    }

    @Test
    void argSchemaRendersWhatItEnforces() {
        Map<String, ArgSchema> props = new LinkedHashMap<>();
        props.put("name", ArgSchema.Str.oneOf("a name", List.of("a", "b")));
        props.put("values", new ArgSchema.Arr("values", new ArgSchema.Scalar("v"), 2, true));
        ArgSchema.Obj schema = new ArgSchema.Obj("", props, Set.of("name"));
        JsonNode json = schema.toJson();
        assertThat(json.path("required")).extracting(JsonNode::asText).containsExactly("name");
        assertThat(json.at("/properties/values/maxItems").asInt()).isEqualTo(2);
        assertThat(json.at("/properties/values/uniqueItems").asBoolean()).isTrue();

        schema.check(AgentJson.parseArguments("{\"name\":\"a\",\"values\":[1,\"x\"]}"), "");
        for (String bad : List.of("{}", "{\"name\":\"c\"}", "{\"name\":\"a\",\"values\":[1,2,3]}",
                "{\"name\":\"a\",\"values\":[1,1]}", "{\"name\":\"a\",\"values\":[{}]}", "{\"name\":\"a\",\"extra\":1}",
                "{\"name\":1}", "[]")) {
            assertThatThrownBy(() -> schema.check(AgentJson.parseArguments(bad), "")).as(bad)
                    .isInstanceOf(ArgSchema.InvalidArgumentException.class);
        }
    }

    @Test
    void argumentsThatAreTooLongAreRefusedBeforeParsing() {
        String huge = "{\"sql\":\"" + "x".repeat(AgentJson.MAX_PARSED_CHARS) + "\"}";
        assertThatThrownBy(() -> AgentJson.parseArguments(huge)).isInstanceOf(ArgSchema.InvalidArgumentException.class)
                .hasMessageContaining("longer than");
        // longer than accepted but still parsed, so that the field that is too long can be named
        String long1 = "{\"sql\":\"" + "x".repeat(AgentJson.MAX_ARGUMENT_CHARS) + "\"}";
        assertThat(AgentJson.parseArguments(long1).get("sql").textValue()).hasSize(AgentJson.MAX_ARGUMENT_CHARS);
        assertThat(AgentJson.parseArguments("  ").isObject()).isTrue();
    }

    @Test
    void decimalsAreWrittenExactly() {
        assertThat(AgentJson.write(ToolResultJson.cell(new BigDecimal("4912.60")))).isEqualTo("4912.60");
        assertThat(AgentJson.write(ToolResultJson.cell(new BigDecimal("1E+3")))).isEqualTo("1000");
    }

    @Test
    void anOptionalTextIsAlwaysWrittenAsTextOrNull() {
        var node = AgentJson.NODES.objectNode();
        AgentJson.putText(node, "given", Optional.of("a"));
        AgentJson.putText(node, "absent", Optional.empty());
        assertThat(AgentJson.write(node)).isEqualTo("{\"given\":\"a\",\"absent\":null}");
    }
}
