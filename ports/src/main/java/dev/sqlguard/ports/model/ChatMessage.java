package dev.sqlguard.ports.model;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * One message of a conversation.
 *
 * @param role {@code system}, {@code user}, {@code assistant} or {@code tool}
 * @param content the text, if any
 * @param toolCalls the tool calls an assistant message makes
 * @param toolCallId for a {@code tool} message, the call it answers
 */
public record ChatMessage(String role, Optional<String> content, List<ToolCall> toolCalls, Optional<String> toolCallId) {
    public ChatMessage {
        requireNonNull(role, "role is null");
        requireNonNull(content, "content is null");
        toolCalls = List.copyOf(requireNonNull(toolCalls, "toolCalls is null"));
        requireNonNull(toolCallId, "toolCallId is null");
    }

    public static ChatMessage system(String text) {
        return new ChatMessage("system", Optional.of(text), List.of(), Optional.empty());
    }

    public static ChatMessage user(String text) {
        return new ChatMessage("user", Optional.of(text), List.of(), Optional.empty());
    }

    public static ChatMessage assistant(Optional<String> text, List<ToolCall> calls) {
        return new ChatMessage("assistant", text, calls, Optional.empty());
    }

    public static ChatMessage tool(String callId, String resultJson) {
        return new ChatMessage("tool", Optional.of(resultJson), List.of(), Optional.of(callId));
    }
}
