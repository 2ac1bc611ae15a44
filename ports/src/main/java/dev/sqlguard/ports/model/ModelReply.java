package dev.sqlguard.ports.model;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/** The model's next message: text, tool calls, or both. */
public record ModelReply(Optional<String> content, List<ToolCall> toolCalls, String finishReason) {
    public ModelReply {
        requireNonNull(content, "content is null");
        toolCalls = List.copyOf(requireNonNull(toolCalls, "toolCalls is null"));
        requireNonNull(finishReason, "finishReason is null");
    }
}
