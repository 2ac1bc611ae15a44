package dev.sqlguard.app.tools.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;

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
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The agent's JSON: a bounded parser for untrusted tool arguments and a writer with exact, plain
 * decimals. Tool results use the one public mapping, {@link dev.sqlguard.app.internal.json.ToolResultJson}.
 */
public final class AgentJson {
    /** Longest argument text accepted; longer text is refused, with the code of the field that is too long when one is. */
    public static final int MAX_ARGUMENT_CHARS = 256 * 1024;
    /**
     * Longest argument text parsed at all (an MCP input line is at most 16 MiB), so that a too long
     * {@code sql} gets {@code QUERY_TOO_LONG} with its source rather than a generic refusal.
     */
    public static final int MAX_PARSED_CHARS = 16 * 1024 * 1024;

    public static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private static final ObjectMapper MAPPER = mapper(MAX_ARGUMENT_CHARS, true);

    private static final ObjectMapper PRETTY = MAPPER.copy().enable(SerializationFeature.INDENT_OUTPUT);

    /** The parser of over-long argument text: the same bounds but for the length of a string. */
    private static final ObjectMapper OVERSIZED = mapper(MAX_PARSED_CHARS, false);

    /**
     * The strict argument parser (nesting 32, numbers of 100 digits, no duplicate keys, no trailing tokens,
     * decimals kept exact) with strings up to {@code maxStringChars}; {@code plainDecimals} also writes
     * decimals without an exponent.
     */
    private static ObjectMapper mapper(int maxStringChars, boolean plainDecimals) {
        JsonFactory factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(32).maxStringLength(maxStringChars).maxNumberLength(100).build())
                .configure(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN, plainDecimals)
                .build();
        return JsonMapper.builder(factory)
                .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
                .nodeFactory(NODES)
                .build();
    }

    private AgentJson() {
    }

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /**
     * Parses untrusted argument text. Blank text counts as an empty object (some endpoints send
     * {@code ""} for a call without arguments).
     *
     * Text longer than {@link #MAX_ARGUMENT_CHARS} (up to {@link #MAX_PARSED_CHARS}) is parsed too,
     * so that the caller can name the field that is too long; the caller refuses it.
     *
     * @throws ArgSchema.InvalidArgumentException when the text is longer than {@link #MAX_PARSED_CHARS} or not valid JSON
     */
    public static JsonNode parseArguments(String text) {
        if (text.length() > MAX_PARSED_CHARS) {
            throw new ArgSchema.InvalidArgumentException("The arguments are longer than " + MAX_ARGUMENT_CHARS + " characters.");
        }
        if (text.isBlank()) {
            return NODES.objectNode();
        }
        try {
            JsonNode node = (text.length() > MAX_ARGUMENT_CHARS ? OVERSIZED : MAPPER).readTree(text);
            if (node == null || node.isMissingNode()) {
                return NODES.objectNode();
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new ArgSchema.InvalidArgumentException("The arguments are not valid JSON; send one JSON object.");
        }
    }

    /** Jackson's defaults: how the MCP server's reader builds a tree, and how its arguments were written out before. */
    private static final ObjectMapper PLAIN = new ObjectMapper();

    /**
     * The arguments of a call whose JSON the caller has already parsed (the MCP server reads each
     * JSON-RPC message once, with Jackson's defaults), checked and shaped exactly as
     * {@link #parseArguments} would check and shape that tree written out as text, without writing
     * and parsing it again: nesting at most 32 deep and integers of at most 100 digits (else the
     * same "not valid JSON" refusal), decimals as {@link java.math.BigDecimal} of the value's
     * shortest text, and a number that is not finite as the text Jackson writes for it.
     *
     * @param tree the parsed arguments; null or JSON null for none
     * @return the arguments, and the length of their text as written out ({@link #MAX_ARGUMENT_CHARS} bounds it)
     */
    public static Parsed adoptArguments(JsonNode tree) {
        if (tree == null || tree.isNull() || tree.isMissingNode()) {
            return new Parsed(NODES.objectNode(), 2);
        }
        long length = writtenLength(tree);
        if (length > MAX_PARSED_CHARS) {
            throw new ArgSchema.InvalidArgumentException("The arguments are longer than " + MAX_ARGUMENT_CHARS + " characters.");
        }
        if (depth(tree) > 32) {
            throw new ArgSchema.InvalidArgumentException("The arguments are not valid JSON; send one JSON object.");
        }
        return new Parsed(shaped(tree), length);
    }

    /** Arguments already parsed, with the length of their text. */
    public record Parsed(JsonNode arguments, long textLength) {
    }

    private static long writtenLength(JsonNode tree) {
        long[] count = new long[1];
        java.io.Writer counter = new java.io.Writer() {
            @Override
            public void write(char[] buffer, int offset, int length) {
                count[0] += length;
            }

            @Override
            public void write(String text, int offset, int length) {
                count[0] += length;
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        try {
            PLAIN.writeValue(counter, tree);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return count[0];
    }

    /** Containers nested in {@code node}, itself included: what a parser's nesting bound counts. */
    private static int depth(JsonNode node) {
        if (!node.isContainerNode()) {
            return 0;
        }
        int deepest = 0;
        for (JsonNode child : node) {
            deepest = Math.max(deepest, depth(child));
        }
        return deepest + 1;
    }

    /** {@code node} as {@link #parseArguments} builds it from the text Jackson's defaults write for it. */
    private static JsonNode shaped(JsonNode node) {
        if (node.isObject()) {
            ObjectNode copy = NODES.objectNode();
            node.properties().forEach(e -> copy.set(e.getKey(), shaped(e.getValue())));
            return copy;
        }
        if (node.isArray()) {
            com.fasterxml.jackson.databind.node.ArrayNode copy = NODES.arrayNode();
            node.forEach(item -> copy.add(shaped(item)));
            return copy;
        }
        if (node.isFloatingPointNumber() && !node.isBigDecimal()) {
            double value = node.doubleValue();
            // a value that is not finite is written as a quoted string (QUOTE_NON_NUMERIC_NUMBERS)
            return Double.isFinite(value) ? NODES.numberNode(new java.math.BigDecimal(Double.toString(value)))
                    : NODES.textNode(String.valueOf(value));
        }
        if (node.isBigInteger() && node.bigIntegerValue().abs().toString().length() > 100) {
            throw new ArgSchema.InvalidArgumentException("The arguments are not valid JSON; send one JSON object.");
        }
        return node;
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

    /** Sets {@code name} to the text when there is one, else to JSON {@code null} (the field is always there). */
    public static ObjectNode putText(ObjectNode node, String name, Optional<String> text) {
        return text.isPresent() ? node.put(name, text.get()) : node.putNull(name);
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
