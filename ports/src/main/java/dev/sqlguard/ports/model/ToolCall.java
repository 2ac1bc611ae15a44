package dev.sqlguard.ports.model;

import static java.util.Objects.requireNonNull;

/** A tool call requested by the model; {@code argumentsJson} is the raw, untrusted JSON text. */
public record ToolCall(String id, String name, String argumentsJson) {
    public ToolCall {
        requireNonNull(id, "id is null");
        requireNonNull(name, "name is null");
        requireNonNull(argumentsJson, "argumentsJson is null");
    }
}
