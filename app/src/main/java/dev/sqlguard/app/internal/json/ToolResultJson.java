package dev.sqlguard.app.internal.json;

import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.sqlguard.domain.LimitKind;
import dev.sqlguard.domain.ResultColumn;
import dev.sqlguard.domain.ToolError;
import dev.sqlguard.domain.ToolResult;

/**
 * The one mapping of a {@link ToolResult} to its public JSON object, used by the CLI, the
 * embedding API, the agent's tools and the MCP server. Fields in this order: {@code id, status,
 * source, sql, columns, rows, returned_count, truncated, limits_hit, error, elapsed_ms}. Decimals
 * are written exactly, in plain notation.
 */
public final class ToolResultJson {
    static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .build();

    private static final ObjectMapper WRITER = JsonMapper.builder(FACTORY).build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private ToolResultJson() {
    }

    /** One line of JSON, without a trailing newline. */
    public static String write(ToolResult result) {
        return write(result, null);
    }

    /**
     * One line of JSON; when {@code id} is given (a batch line's own id, possibly a JSON null),
     * it is echoed in place of the result's generated id.
     */
    public static String write(ToolResult result, JsonNode id) {
        ObjectNode node = toNode(result);
        if (id != null) {
            node.set("id", echoedId(id)); // replaces the value in place: "id" stays first
        }
        return write(node);
    }

    /** Writes any node on one line with this class's number rules (plain, exact decimals). */
    public static String write(JsonNode node) {
        try {
            return WRITER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The result as the public JSON object (a fresh node the caller may extend). */
    public static ObjectNode toNode(ToolResult result) {
        ObjectNode node = NODES.objectNode();
        node.put("id", result.id());
        node.put("status", result.status().name());
        node.put("source", result.source());
        if (result.sql().isPresent()) {
            node.put("sql", result.sql().get());
        } else {
            node.putNull("sql");
        }
        ArrayNode columns = node.putArray("columns");
        for (ResultColumn column : result.columns()) {
            columns.addObject().put("name", column.name()).put("type", column.type());
        }
        ArrayNode rows = node.putArray("rows");
        for (List<Object> row : result.rows()) {
            ArrayNode out = rows.addArray();
            row.forEach(cell -> out.add(cell(cell)));
        }
        node.put("returned_count", result.returnedCount());
        node.put("truncated", result.truncated());
        ArrayNode limits = node.putArray("limits_hit");
        for (LimitKind kind : LimitKind.values()) {
            if (result.limitsHit().contains(kind)) {
                limits.add(kind.wireName());
            }
        }
        if (result.error().isPresent()) {
            ToolError error = result.error().get();
            node.putObject("error").put("code", error.code().name()).put("message", error.message())
                    .put("retryable", error.retryable());
        } else {
            node.putNull("error");
        }
        node.put("elapsed_ms", result.elapsedMs());
        return node;
    }

    /** A JSON-safe scalar as a node; anything else (ToolResult admits none) becomes text. */
    public static JsonNode cell(Object cell) {
        if (cell == null) {
            return NODES.nullNode();
        } else if (cell instanceof String s) {
            return NODES.textNode(s);
        } else if (cell instanceof Boolean b) {
            return NODES.booleanNode(b);
        } else if (cell instanceof Long l) {
            return NODES.numberNode(l);
        } else if (cell instanceof Integer i) {
            return NODES.numberNode(i.longValue());
        } else if (cell instanceof BigInteger i) {
            return NODES.numberNode(i);
        } else if (cell instanceof BigDecimal d) {
            return DecimalNode.valueOf(d); // keeps the scale: 4912.60 stays 4912.60
        } else if (cell instanceof Double d) {
            return NODES.numberNode(d);
        }
        return NODES.textNode(String.valueOf(cell));
    }

    private static JsonNode echoedId(JsonNode id) {
        if (id.isNull() || id.isMissingNode()) {
            return NODES.nullNode();
        } else if (id.isTextual()) {
            return id;
        } else if (id.isIntegralNumber()) {
            return NODES.numberNode(id.bigIntegerValue());
        }
        return NODES.textNode(id.toString());
    }
}
