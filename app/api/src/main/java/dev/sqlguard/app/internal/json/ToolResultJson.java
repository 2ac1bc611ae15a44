package dev.sqlguard.app.internal.json;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.POJONode;
import com.fasterxml.jackson.databind.util.RawValue;

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

    /**
     * Writes any node on one line with this class's number rules (plain, exact decimals). The tree
     * is walked onto a streaming generator, making the same generator calls a node's own
     * serializer makes under an ObjectMapper's defaults: building a mapper loads a few hundred
     * classes that a one-shot command would pay for at start-up.
     */
    public static String write(JsonNode node) {
        StringWriter out = new StringWriter(256);
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            writeNode(g, node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    private static void writeNode(JsonGenerator g, JsonNode node) throws IOException {
        switch (node.getNodeType()) {
            case OBJECT -> {
                g.writeStartObject();
                for (Map.Entry<String, JsonNode> field : node.properties()) {
                    g.writeFieldName(field.getKey());
                    writeNode(g, field.getValue());
                }
                g.writeEndObject();
            }
            case ARRAY -> {
                g.writeStartArray();
                for (JsonNode item : node) {
                    writeNode(g, item);
                }
                g.writeEndArray();
            }
            case STRING -> g.writeString(node.textValue());
            case BOOLEAN -> g.writeBoolean(node.booleanValue());
            case NULL, MISSING -> g.writeNull();
            case NUMBER -> writeNumber(g, node);
            case BINARY -> g.writeBinary(node.binaryValue());
            case POJO -> {
                Object value = ((POJONode) node).getPojo();
                if (value instanceof RawValue raw) {
                    raw.serialize(g, null); // text already JSON: written as it is
                } else {
                    Mapper.INSTANCE.writeValue(g, value);
                }
            }
        }
    }

    private static void writeNumber(JsonGenerator g, JsonNode node) throws IOException {
        switch (node.numberType()) {
            case INT -> g.writeNumber(node.intValue());
            case LONG -> g.writeNumber(node.longValue());
            case BIG_INTEGER -> g.writeNumber(node.bigIntegerValue());
            case FLOAT -> g.writeNumber(node.floatValue());
            case DOUBLE -> g.writeNumber(node.doubleValue());
            case BIG_DECIMAL -> g.writeNumber(node.decimalValue());
        }
    }

    /** A mapper for any other value a node may carry, built only when one is written. */
    private static final class Mapper {
        static final ObjectMapper INSTANCE = JsonMapper.builder(FACTORY).build();
    }

    /** The result as the public JSON object (a fresh node the caller may extend). */
    public static ObjectNode toNode(ToolResult result) {
        ObjectNode node = NODES.objectNode();
        node.put("id", result.id());
        node.put("status", result.status().name());
        node.put("source", result.source());
        node.set("sql", result.sql().<JsonNode>map(NODES::textNode).orElse(NODES.nullNode()));
        node.set("columns", columns(result.columns()));
        node.set("rows", rows(result.rows()));
        node.put("returned_count", result.returnedCount());
        node.put("truncated", result.truncated());
        node.set("limits_hit", limitsHit(result.limitsHit()));
        node.set("error", error(result.error()));
        node.put("elapsed_ms", result.elapsedMs());
        return node;
    }

    /** {@code [{name, type}, ...]}. */
    public static ArrayNode columns(List<ResultColumn> columns) {
        ArrayNode out = NODES.arrayNode();
        for (ResultColumn column : columns) {
            out.addObject().put("name", column.name()).put("type", column.type());
        }
        return out;
    }

    /** The rows as arrays of {@link #cell cells}. */
    public static ArrayNode rows(List<List<Object>> rows) {
        ArrayNode out = NODES.arrayNode();
        for (List<Object> row : rows) {
            ArrayNode cells = out.addArray();
            row.forEach(cell -> cells.add(cell(cell)));
        }
        return out;
    }

    /** The wire names of the limits hit, in {@link LimitKind} order. */
    public static ArrayNode limitsHit(Set<LimitKind> hit) {
        ArrayNode out = NODES.arrayNode();
        for (LimitKind kind : LimitKind.values()) {
            if (hit.contains(kind)) {
                out.add(kind.wireName());
            }
        }
        return out;
    }

    /** {@code {code, message, retryable}}, or a JSON null. */
    public static JsonNode error(Optional<ToolError> error) {
        if (error.isEmpty()) {
            return NODES.nullNode();
        }
        ToolError e = error.get();
        return NODES.objectNode().put("code", e.code().name()).put("message", e.message()).put("retryable", e.retryable());
    }

    /**
     * A JSON-safe value as a node: a scalar, or a list (LIST, ARRAY) as an array and a map (STRUCT,
     * MAP) as an object, at any depth, by the same rules; anything else (ToolResult admits none)
     * becomes text.
     */
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
        } else if (cell instanceof java.util.List<?> list) {
            com.fasterxml.jackson.databind.node.ArrayNode array = NODES.arrayNode();
            list.forEach(item -> array.add(cell(item)));
            return array;
        } else if (cell instanceof java.util.Map<?, ?> map) {
            com.fasterxml.jackson.databind.node.ObjectNode object = NODES.objectNode();
            map.forEach((key, value) -> object.set(String.valueOf(key), cell(value)));
            return object;
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
