package dev.sqlguard.app.internal.config;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;

/**
 * A YAML value with the line it starts on, so that every configuration error can name the line.
 * Scalars keep their text; {@code kind} tells how YAML typed them.
 */
public record YamlNode(Kind kind, String text, Map<String, YamlNode> map, Map<String, Integer> keyLines,
                       List<YamlNode> list, int line) {
    public enum Kind { MAP, LIST, STRING, NUMBER, BOOLEAN, NULL }

    public YamlNode {
        requireNonNull(kind, "kind is null");
        map = map == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(map));
        keyLines = keyLines == null ? Map.of() : Map.copyOf(keyLines);
        list = list == null ? List.of() : List.copyOf(list);
    }

    /** The line of {@code key} in this mapping, or this node's line. */
    public int lineOf(String key) {
        return keyLines.getOrDefault(key, line);
    }

    public boolean isScalar() {
        return kind == Kind.STRING || kind == Kind.NUMBER || kind == Kind.BOOLEAN;
    }

    public String describeKind() {
        return switch (kind) {
            case MAP -> "a mapping";
            case LIST -> "a list";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case NULL -> "empty";
        };
    }
}
