package dev.sqlguard.app.internal.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.NullNode;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.LimitKind;
import dev.sqlguard.domain.ResultColumn;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;

class ToolResultJsonTest {
    @Test
    void writesTheContractFieldsInOrderWithExactDecimals() {
        ToolResult result = new ToolResult("r-1", ToolStatus.OK, "claims", Optional.of("SELECT region, amount FROM claims"),
                List.of(new ResultColumn("region", "VARCHAR"), new ResultColumn("amount", "DECIMAL(38,18)")),
                List.of(Arrays.asList("north", new BigDecimal("12345678901234567890.123456789012345678")),
                        Arrays.asList(null, new BigDecimal("1E+3")),
                        Arrays.asList("x\"y\n", new BigDecimal("0.10"))),
                true, Set.of(LimitKind.ROWS, LimitKind.BYTES), Optional.empty(), 12);

        assertThat(ToolResultJson.write(result)).isEqualTo("{\"id\":\"r-1\",\"status\":\"OK\",\"source\":\"claims\","
                + "\"sql\":\"SELECT region, amount FROM claims\","
                + "\"columns\":[{\"name\":\"region\",\"type\":\"VARCHAR\"},{\"name\":\"amount\",\"type\":\"DECIMAL(38,18)\"}],"
                + "\"rows\":[[\"north\",12345678901234567890.123456789012345678],[null,1000],[\"x\\\"y\\n\",0.10]],"
                + "\"returned_count\":3,\"truncated\":true,\"limits_hit\":[\"rows\",\"bytes\"],\"error\":null,\"elapsed_ms\":12}");
    }

    @Test
    void writesEveryScalarType() throws Exception {
        ToolResult result = new ToolResult("r", ToolStatus.OK, "s", Optional.of("q"),
                List.of(new ResultColumn("a", "T"), new ResultColumn("b", "T"), new ResultColumn("c", "T"), new ResultColumn("d", "T")),
                List.of(List.of(true, Long.MAX_VALUE, new BigInteger("123456789012345678901234567890"), 1.5d)),
                false, Set.of(), Optional.empty(), 0);

        JsonNode row = new ObjectMapper().readTree(ToolResultJson.write(result)).get("rows").get(0);
        assertThat(row.get(0).booleanValue()).isTrue();
        assertThat(row.get(1).longValue()).isEqualTo(Long.MAX_VALUE);
        assertThat(row.get(2).bigIntegerValue()).isEqualTo(new BigInteger("123456789012345678901234567890"));
        assertThat(row.get(3).doubleValue()).isEqualTo(1.5d);
    }

    /** LIST, STRUCT and MAP values (lists and maps in a ToolResult) are JSON arrays and objects, never toString text. */
    @Test
    void writesNestedValuesAsJsonArraysAndObjectsWithTheSameScalarRules() {
        java.util.Map<String, Object> struct = new java.util.LinkedHashMap<>();
        struct.put("k", 1L);
        struct.put("v", Arrays.asList("x", null));
        struct.put("amount", new BigDecimal("4912.60"));
        ToolResult result = new ToolResult("r", ToolStatus.OK, "s", Optional.of("q"),
                List.of(new ResultColumn("one", "VARCHAR[]"), new ResultColumn("two", "VARCHAR[]"),
                        new ResultColumn("s", "STRUCT"), new ResultColumn("m", "MAP")),
                List.of(List.of(List.of("a, b"), List.of("a", "b"), struct, java.util.Map.of("1", List.of(List.of(true)))),
                        List.of(List.of(), List.of("[a, b]"), java.util.Map.of(), java.util.Map.of("k", "[REDACTED]"))),
                false, Set.of(), Optional.empty(), 0);

        assertThat(ToolResultJson.write(result)).contains("\"rows\":["
                + "[[\"a, b\"],[\"a\",\"b\"],{\"k\":1,\"v\":[\"x\",null],\"amount\":4912.60},{\"1\":[[true]]}],"
                + "[[],[\"[a, b]\"],{},{\"k\":\"[REDACTED]\"}]]");
    }

    @Test
    void writesAnErrorAndEchoesABatchId() throws Exception {
        ToolResult result = ToolResult.failure("generated", ToolStatus.REJECTED, "claims", Optional.empty(),
                Set.of(), new GuardException(ErrorCode.TABLE_NOT_ALLOWED, "The table 'users' is not allowlisted."), 3);

        String json = ToolResultJson.write(result, IntNode.valueOf(7));
        assertThat(json).isEqualTo("{\"id\":7,\"status\":\"REJECTED\",\"source\":\"claims\",\"sql\":null,\"columns\":[],"
                + "\"rows\":[],\"returned_count\":0,\"truncated\":false,\"limits_hit\":[],"
                + "\"error\":{\"code\":\"TABLE_NOT_ALLOWED\",\"message\":\"The table 'users' is not allowlisted.\",\"retryable\":true},"
                + "\"elapsed_ms\":3}");
        assertThat(ToolResultJson.write(result, NullNode.getInstance())).startsWith("{\"id\":null,");
    }

    @Test
    void writesAnyNodeAsAnObjectMapperWithThePlainDecimalFactoryDoes() throws Exception {
        com.fasterxml.jackson.databind.node.JsonNodeFactory nodes = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance;
        com.fasterxml.jackson.databind.node.ObjectNode node = nodes.objectNode();
        node.put("int", 7).put("long", Long.MIN_VALUE).put("short", (short) 3).put("float", 1.25f).put("double", -0.1d)
                .put("nan", Double.NaN).put("inf", Double.POSITIVE_INFINITY).put("text", "é \"\u0001\n")
                .put("true", true).put("bytes", new byte[] {1, 2, 3});
        node.set("big", nodes.numberNode(new BigInteger("-123456789012345678901234567890")));
        node.set("decimal", com.fasterxml.jackson.databind.node.DecimalNode.valueOf(new BigDecimal("1E+3")));
        node.set("scaled", com.fasterxml.jackson.databind.node.DecimalNode.valueOf(new BigDecimal("4912.60")));
        node.set("null", nodes.nullNode());
        node.putArray("nested").add(1).addNull().addArray().addObject().put("k", "v");
        node.putObject("empty");
        node.putArray("none");
        node.putRawValue("raw", new com.fasterxml.jackson.databind.util.RawValue("{\"a\":[1,2]}"));
        node.putPOJO("pojo", java.util.Map.of("x", 1));

        ObjectMapper reference = com.fasterxml.jackson.databind.json.JsonMapper.builder(ToolResultJson.FACTORY).build();
        assertThat(ToolResultJson.write(node)).isEqualTo(reference.writeValueAsString(node));
    }
}
