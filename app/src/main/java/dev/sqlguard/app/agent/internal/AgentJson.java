package dev.sqlguard.app.agent.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
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
 * The agent's JSON: a bounded parser for untrusted tool arguments and the writer of
 * {@link ToolResult} objects in the public field order ({@code id, status, source, sql, columns,
 * rows, returned_count, truncated, limits_hit, error, elapsed_ms}).
 */
public final class AgentJson {
    /** Longest argument text parsed at all; longer text is refused before parsing. */
    public static final int MAX_ARGUMENT_CHARS = 256 * 1024;

    public static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(32).maxStringLength(MAX_ARGUMENT_CHARS).maxNumberLength(100).build())
                    .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
                    .build())
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .nodeFactory(NODES)
            .build();

    private static final ObjectMapper PRETTY = MAPPER.copy().enable(SerializationFeature.INDENT_OUTPUT);

    private AgentJson() {
    }

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /**
     * Parses untrusted argument text. Blank text counts as an empty object (some endpoints send
     * {@code ""} for a call without arguments).
     *
     * @throws ArgSchema.InvalidArgumentException when the text is too long or not valid JSON
     */
    public static JsonNode parseArguments(String text) {
        if (text.length() > MAX_ARGUMENT_CHARS) {
            throw new ArgSchema.InvalidArgumentException("The arguments are longer than " + MAX_ARGUMENT_CHARS + " characters.");
        }
        if (text.isBlank()) {
            return NODES.objectNode();
        }
        try {
            JsonNode node = MAPPER.readTree(text);
            if (node == null || node.isMissingNode()) {
                return NODES.objectNode();
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new ArgSchema.InvalidArgumentException("The arguments are not valid JSON; send one JSON object.");
        }
    }

    /** Parses trusted JSON (our own resources); failures are programming errors. */
    public static JsonNode parseTrusted(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("invalid JSON resource", e);
        }
    }

    public static String write(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String writePretty(JsonNode node) {
        try {
            return PRETTY.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A {@link ToolResult} as the public JSON object. */
    public static ObjectNode toolResult(ToolResult result) {
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

    /** A JSON-safe scalar as a node; anything else becomes text. */
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
            return DecimalNode.valueOf(d);
        } else if (cell instanceof Double d) {
            return NODES.numberNode(d);
        }
        return NODES.textNode(String.valueOf(cell));
    }

    /** Reads an object from our own classpath resource. */
    public static JsonNode resource(String name) {
        try (var in = AgentJson.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("resource missing: " + name);
            }
            return MAPPER.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
