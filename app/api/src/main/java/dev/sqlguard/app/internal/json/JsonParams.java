package dev.sqlguard.app.internal.json;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

/**
 * Parameter typing, shared by {@code --param}, batch lines and the agent's tool arguments.
 *
 * <p>A {@code --param} value is read as a JSON literal when it is one: {@code 42} is a number,
 * {@code 4.20} an exact decimal, {@code true}/{@code false} booleans, {@code null} SQL NULL and
 * {@code "42"} the string 42. Anything that is not a JSON scalar ({@code north}, {@code 2024-01-31},
 * {@code 007}) is a string as written. Objects and arrays are refused.
 */
public final class JsonParams {
    private static final ObjectMapper MAPPER = JsonMapper.builder(ToolResultJson.FACTORY.copy()
                    .setStreamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(64).maxNumberLength(400).maxStringLength(16 << 20).build()))
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .build();

    private JsonParams() {
    }

    /**
     * Reads one JSON document by the rules parameters need: exact decimals, big integers, no
     * duplicate keys, no trailing tokens, bounded nesting and lengths.
     *
     * @return the document, or null for blank text
     */
    public static JsonNode read(String json) throws JsonProcessingException {
        return MAPPER.readTree(json);
    }

    /** The typed value of one {@code --param}. */
    public static Object fromCommandLine(String text, int index) {
        JsonNode node;
        try {
            node = read(text);
        } catch (JsonProcessingException e) {
            return text;
        }
        if (node == null || node.isMissingNode()) {
            return text;
        }
        return scalar(node, index);
    }

    /** The typed values of a batch line's {@code params} array. */
    public static List<Object> fromArray(JsonNode array) {
        List<Object> out = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            out.add(scalar(array.get(i), i + 1));
        }
        return out;
    }

    /**
     * A JSON scalar as a bindable value: Long (or BigInteger), BigDecimal, Boolean, String or null.
     *
     * @throws GuardException {@code UNSUPPORTED_PARAMETER} for an object or an array
     */
    public static Object scalar(JsonNode node) {
        return scalar(node, "A parameter");
    }

    static Object scalar(JsonNode node, int index) {
        return scalar(node, "Parameter " + index);
    }

    private static Object scalar(JsonNode node, String which) {
        if (node.isNull()) {
            return null;
        }
        if (node.isTextual()) {
            return node.textValue();
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        if (node.isIntegralNumber()) {
            BigInteger value = node.bigIntegerValue();
            return value.bitLength() < 64 ? (Object) value.longValue() : value;
        }
        if (node.isNumber()) {
            BigDecimal value = node.decimalValue();
            return value;
        }
        throw new GuardException(ErrorCode.UNSUPPORTED_PARAMETER,
                which + " must be a string, number, boolean or null, not an object or array.");
    }
}
