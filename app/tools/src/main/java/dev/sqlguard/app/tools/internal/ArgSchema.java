package dev.sqlguard.app.tools.internal;

import static java.util.Objects.requireNonNull;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.SafeText;

/**
 * A tiny subset of JSON Schema that is both rendered (for the model's tool spec) and enforced (on
 * the model's arguments) from the same records, so the two cannot drift apart. Objects never allow
 * unknown properties.
 */
public sealed interface ArgSchema {
    JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** The JSON Schema of this node. */
    ObjectNode toJson();

    /**
     * Checks {@code value} against this schema.
     *
     * @throws InvalidArgumentException with a safe message naming the path
     */
    void check(JsonNode value, String path);

    /**
     * A string, optionally from a fixed set.
     *
     * @param valueCode the code of a string refused for its length or value (a value of another
     *                  JSON type is always {@code INVALID_ARGUMENT})
     */
    record Str(String description, int minLength, int maxLength, List<String> allowed, ErrorCode valueCode)
            implements ArgSchema {
        public Str {
            requireNonNull(description, "description is null");
            requireNonNull(valueCode, "valueCode is null");
            allowed = List.copyOf(allowed);
            if (minLength < 0 || maxLength < minLength) {
                throw new IllegalArgumentException("bad length bounds");
            }
        }

        public Str(String description, int minLength, int maxLength, List<String> allowed) {
            this(description, minLength, maxLength, allowed, ErrorCode.INVALID_ARGUMENT);
        }

        public static Str of(String description, int maxLength) {
            return new Str(description, 1, maxLength, List.of());
        }

        public static Str oneOf(String description, List<String> allowed) {
            return new Str(description, 1, 256, allowed);
        }

        /** A source id: any other string is {@code UNKNOWN_SOURCE}, as on every other surface. */
        public static Str sourceId(String description, List<String> sourceIds) {
            return new Str(description, 1, 256, sourceIds, ErrorCode.UNKNOWN_SOURCE);
        }

        /**
         * SQL text: an empty one passes (the guarded path answers {@code EMPTY_QUERY}), a longer one
         * is {@code QUERY_TOO_LONG}, as on every other surface.
         */
        public static Str sql(String description, int maxLength) {
            return new Str(description, 0, maxLength, List.of(), ErrorCode.QUERY_TOO_LONG);
        }

        @Override
        public ObjectNode toJson() {
            ObjectNode node = NODES.objectNode().put("type", "string").put("description", description);
            node.put("minLength", minLength).put("maxLength", maxLength);
            if (!allowed.isEmpty()) {
                ArrayNode values = node.putArray("enum");
                allowed.forEach(values::add);
            }
            return node;
        }

        @Override
        public void check(JsonNode value, String path) {
            if (!value.isTextual()) {
                throw new InvalidArgumentException(path + " must be a string.");
            }
            String text = value.textValue();
            if (!allowed.isEmpty() && !allowed.contains(text)) {
                throw new InvalidArgumentException(valueCode, path + " must be one of " + allowed + ".");
            }
            if (text.length() > maxLength) {
                throw new InvalidArgumentException(valueCode, path + " must have at most " + maxLength + " characters.");
            }
            if (text.length() < minLength) {
                throw new InvalidArgumentException(valueCode, path + " must have at least " + minLength + " characters.");
            }
        }
    }

    /**
     * A JSON scalar usable as a bound SQL parameter: string, number, boolean or null. Its schema is
     * an {@code anyOf} of the four types, never a {@code type} array, which strict clients refuse.
     */
    record Scalar(String description) implements ArgSchema {
        public Scalar {
            requireNonNull(description, "description is null");
        }

        @Override
        public ObjectNode toJson() {
            ObjectNode node = NODES.objectNode();
            ArrayNode types = node.putArray("anyOf");
            for (String type : List.of("string", "number", "boolean", "null")) {
                types.addObject().put("type", type);
            }
            node.put("description", description);
            return node;
        }

        @Override
        public void check(JsonNode value, String path) {
            if (!(value.isTextual() || value.isNumber() || value.isBoolean() || value.isNull())) {
                throw new InvalidArgumentException(path + " must be a string, number, boolean or null.");
            }
            if (value.isTextual() && value.textValue().length() > 10_000) {
                throw new InvalidArgumentException(path + " must have at most 10000 characters.");
            }
        }
    }

    /** An array of items of one schema. */
    record Arr(String description, ArgSchema items, int maxItems, boolean unique) implements ArgSchema {
        public Arr {
            requireNonNull(description, "description is null");
            requireNonNull(items, "items is null");
            if (maxItems < 1) {
                throw new IllegalArgumentException("maxItems must be positive");
            }
        }

        @Override
        public ObjectNode toJson() {
            ObjectNode node = NODES.objectNode().put("type", "array").put("description", description);
            node.set("items", items.toJson());
            node.put("maxItems", maxItems);
            if (unique) {
                node.put("uniqueItems", true);
            }
            return node;
        }

        @Override
        public void check(JsonNode value, String path) {
            if (!value.isArray()) {
                throw new InvalidArgumentException(path + " must be an array.");
            }
            if (value.size() > maxItems) {
                throw new InvalidArgumentException(path + " must have at most " + maxItems + " items.");
            }
            for (int i = 0; i < value.size(); i++) {
                items.check(value.get(i), path + "[" + i + "]");
            }
            if (unique && Set.copyOf(iterable(value)).size() != value.size()) {
                throw new InvalidArgumentException(path + " must not repeat an item.");
            }
        }

        private static List<JsonNode> iterable(JsonNode array) {
            List<JsonNode> out = new java.util.ArrayList<>();
            array.forEach(out::add);
            return out;
        }
    }

    /** An object with known properties only. */
    record Obj(String description, Map<String, ArgSchema> properties, Set<String> required) implements ArgSchema {
        public Obj {
            requireNonNull(description, "description is null");
            properties = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(properties));
            required = Set.copyOf(required);
            if (!properties.keySet().containsAll(required)) {
                throw new IllegalArgumentException("a required property is not declared");
            }
        }

        @Override
        public ObjectNode toJson() {
            ObjectNode node = NODES.objectNode().put("type", "object");
            if (!description.isEmpty()) {
                node.put("description", description);
            }
            ObjectNode props = node.putObject("properties");
            properties.forEach((name, schema) -> props.set(name, schema.toJson()));
            ArrayNode req = node.putArray("required");
            properties.keySet().stream().filter(required::contains).forEach(req::add);
            node.put("additionalProperties", false);
            return node;
        }

        @Override
        public void check(JsonNode value, String path) {
            if (!value.isObject()) {
                throw new InvalidArgumentException((path.isEmpty() ? "The arguments" : path) + " must be a JSON object.");
            }
            for (Iterator<String> names = value.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                if (!properties.containsKey(name)) {
                    throw new InvalidArgumentException("Unknown field " + SafeText.identifier(name)
                            + (path.isEmpty() ? "" : " in " + path) + "; allowed: " + properties.keySet() + ".");
                }
            }
            for (Map.Entry<String, ArgSchema> e : properties.entrySet()) {
                JsonNode child = value.get(e.getKey());
                String childPath = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
                if (child == null) {
                    if (required.contains(e.getKey())) {
                        throw new InvalidArgumentException("Missing required field '" + childPath + "'.");
                    }
                    continue;
                }
                e.getValue().check(child, childPath);
            }
        }

        /** The text of an optional string property, when present. */
        public static Optional<String> text(JsonNode object, String name) {
            JsonNode child = object.get(name);
            return child == null || child.isNull() ? Optional.empty() : Optional.of(child.textValue());
        }
    }

    /** Raised by {@link #check}; its message is safe to show to the model. */
    final class InvalidArgumentException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        private final ErrorCode code;

        public InvalidArgumentException(String safeMessage) {
            this(ErrorCode.INVALID_ARGUMENT, safeMessage);
        }

        public InvalidArgumentException(ErrorCode code, String safeMessage) {
            super(safeMessage, null, false, false);
            this.code = requireNonNull(code, "code is null");
        }

        /** {@code INVALID_ARGUMENT}, or the code of the cause on every surface (an unknown source, a too long SQL text). */
        public ErrorCode code() {
            return code;
        }
    }
}
