package dev.sqlguard.duckdb.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.databind.JsonNode;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

/** Reading DuckDB's JSON parse tree: typed fields that refuse the statement when the shape is unexpected. */
final class ParseTrees {
    private ParseTrees() {
    }

    static boolean isNullField(JsonNode node, String name) {
        JsonNode value = node.get(name);
        return value == null || value.isNull();
    }

    static Iterable<JsonNode> array(JsonNode node, String name) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            return List.of();
        }
        if (!value.isArray()) {
            throw construct("Unexpected tree shape.");
        }
        return value;
    }

    static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array == null || array.isMissingNode() || array.isNull()) {
            return out;
        }
        for (JsonNode value : array) {
            if (!value.isTextual()) {
                throw construct("Unexpected tree shape.");
            }
            out.add(value.asText());
        }
        return out;
    }

    static JsonNode field(JsonNode node, String name) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            throw construct("Unexpected tree shape.");
        }
        return value;
    }

    static String text(JsonNode node, String name) {
        JsonNode value = node.get(name);
        if (value == null || !value.isTextual()) {
            throw construct("Unexpected tree shape.");
        }
        return value.asText();
    }

    static String fold(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    static GuardException construct(String message) {
        return new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, message);
    }
}
