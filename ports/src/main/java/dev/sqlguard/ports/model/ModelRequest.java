package dev.sqlguard.ports.model;

import static java.util.Objects.requireNonNull;

import java.util.List;

/** One chat-completions request. */
public record ModelRequest(List<ChatMessage> messages, List<ToolSpec> tools) {
    public ModelRequest {
        messages = List.copyOf(requireNonNull(messages, "messages is null"));
        tools = List.copyOf(requireNonNull(tools, "tools is null"));
        if (messages.isEmpty()) {
            throw new IllegalArgumentException("messages is empty");
        }
    }
}
