package dev.sqlguard.llm.internal;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.SafeText;
import dev.sqlguard.ports.model.ChatMessage;
import dev.sqlguard.ports.model.ModelReply;
import dev.sqlguard.ports.model.ModelRequest;
import dev.sqlguard.ports.model.ToolCall;
import dev.sqlguard.ports.model.ToolSpec;

/**
 * Writes chat-completions requests and reads their replies, tolerating the ways
 * OpenAI-compatible servers differ: missing tool-call ids, arguments sent as a JSON object
 * instead of a string, {@code content} that is null or a list of text parts, the legacy
 * {@code function_call} field, and a missing {@code finish_reason}.
 */
public final class ChatCompletionsJson {
    /** The finish reason reported when the endpoint sends none. */
    public static final String UNKNOWN_FINISH_REASON = "unknown";

    private final ObjectMapper mapper;

    public ChatCompletionsJson(ObjectMapper mapper) {
        this.mapper = requireNonNull(mapper, "mapper is null");
    }

    /** The request body for {@code POST /chat/completions}. */
    public byte[] requestBody(String model, ModelRequest request, Optional<Double> temperature) {
        ObjectNode root = mapper.createObjectNode();
        root.put("model", model);
        ArrayNode messages = root.putArray("messages");
        for (ChatMessage message : request.messages()) {
            messages.add(message(message));
        }
        if (!request.tools().isEmpty()) {
            ArrayNode tools = root.putArray("tools");
            for (ToolSpec spec : request.tools()) {
                ObjectNode tool = tools.addObject();
                tool.put("type", "function");
                ObjectNode function = tool.putObject("function");
                function.put("name", spec.name());
                function.put("description", spec.description());
                function.set("parameters", schema(spec));
            }
            root.put("tool_choice", "auto");
        }
        temperature.ifPresent(t -> root.put("temperature", t));
        root.put("stream", false);
        try {
            return mapper.writeValueAsBytes(root);
        } catch (JsonProcessingException e) {
            throw new GuardException(ErrorCode.INTERNAL_ERROR, "The model request could not be written as JSON.", e);
        }
    }

    private ObjectNode message(ChatMessage message) {
        ObjectNode node = mapper.createObjectNode();
        node.put("role", message.role());
        if (message.content().isPresent()) {
            node.put("content", message.content().get());
        } else {
            node.putNull("content");
        }
        if (!message.toolCalls().isEmpty()) {
            ArrayNode calls = node.putArray("tool_calls");
            for (ToolCall call : message.toolCalls()) {
                ObjectNode c = calls.addObject();
                c.put("id", call.id());
                c.put("type", "function");
                ObjectNode function = c.putObject("function");
                function.put("name", call.name());
                function.put("arguments", call.argumentsJson());
            }
        }
        message.toolCallId().ifPresent(id -> node.put("tool_call_id", id));
        return node;
    }

    private JsonNode schema(ToolSpec spec) {
        JsonNode schema;
        try {
            schema = mapper.readTree(spec.parametersSchemaJson());
        } catch (JsonProcessingException e) {
            schema = null;
        }
        if (schema == null || !schema.isObject()) {
            throw new GuardException(ErrorCode.INTERNAL_ERROR,
                    "The parameters schema of tool " + SafeText.identifier(spec.name()) + " is not a JSON object.");
        }
        return schema;
    }

    /**
     * Reads {@code choices[0].message} of a chat-completions reply.
     *
     * @param idPrefix a prefix for the ids generated for tool calls that come without one; the
     *     caller makes it unique within a conversation (the same reply always gets the same ids)
     * @throws GuardException {@code MODEL_UNAVAILABLE} when the body is not a chat completion
     */
    public ModelReply reply(byte[] body, String idPrefix) {
        JsonNode root;
        try {
            root = mapper.readTree(body);
        } catch (IOException e) {
            throw notACompletion(e);
        }
        if (root == null || !root.isObject()) {
            throw notACompletion(null);
        }
        JsonNode choices = root.get("choices");
        if (choices == null || !choices.isArray() || choices.isEmpty()) {
            if (root.has("error")) {
                throw new GuardException(ErrorCode.MODEL_UNAVAILABLE, "The model endpoint reported an error instead of a reply.");
            }
            throw notACompletion(null);
        }
        JsonNode choice = choices.get(0);
        JsonNode message = choice.get("message");
        if (message == null || !message.isObject()) {
            throw notACompletion(null);
        }
        Optional<String> content = content(message.get("content"));
        List<ToolCall> calls = new ArrayList<>();
        JsonNode toolCalls = message.get("tool_calls");
        if (toolCalls != null && toolCalls.isArray()) {
            for (JsonNode call : toolCalls) {
                calls.add(toolCall(call, call.get("function"), idPrefix, calls.size()));
            }
        } else if (message.get("function_call") instanceof ObjectNode legacy) {
            calls.add(toolCall(legacy, legacy, idPrefix, 0));
        }
        JsonNode finish = choice.get("finish_reason");
        String finishReason = finish != null && finish.isTextual() && !finish.asText().isBlank()
                ? finish.asText() : UNKNOWN_FINISH_REASON;
        return new ModelReply(content, calls, finishReason);
    }

    private ToolCall toolCall(JsonNode call, JsonNode function, String idPrefix, int index) {
        JsonNode id = call.get("id");
        String callId = id != null && id.isTextual() && !id.asText().isBlank() ? id.asText() : idPrefix + index;
        String name = "";
        String arguments = "{}";
        if (function != null && function.isObject()) {
            JsonNode n = function.get("name");
            name = n != null && n.isTextual() ? n.asText() : "";
            JsonNode args = function.get("arguments");
            if (args != null && args.isTextual()) {
                arguments = args.asText();
            } else if (args != null && (args.isObject() || args.isArray())) {
                arguments = args.toString();
            }
        }
        return new ToolCall(callId, name, arguments);
    }

    private static Optional<String> content(JsonNode content) {
        if (content == null || content.isNull()) {
            return Optional.empty();
        }
        if (content.isTextual()) {
            return content.asText().isEmpty() ? Optional.empty() : Optional.of(content.asText());
        }
        if (content.isArray()) {
            StringBuilder text = new StringBuilder();
            for (JsonNode part : content) {
                JsonNode t = part.isTextual() ? part : part.get("text");
                if (t != null && t.isTextual()) {
                    text.append(t.asText());
                }
            }
            return text.length() == 0 ? Optional.empty() : Optional.of(text.toString());
        }
        throw notACompletion(null);
    }

    private static GuardException notACompletion(Throwable cause) {
        return new GuardException(ErrorCode.MODEL_UNAVAILABLE, "The model endpoint sent a reply that is not a chat completion.", cause);
    }
}
