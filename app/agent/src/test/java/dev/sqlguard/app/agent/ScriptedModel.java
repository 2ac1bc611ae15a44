package dev.sqlguard.app.agent;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.ports.model.ChatMessage;
import dev.sqlguard.ports.model.ModelPort;
import dev.sqlguard.ports.model.ModelReply;
import dev.sqlguard.ports.model.ModelRequest;
import dev.sqlguard.ports.model.ToolCall;

/** A fake model that replays a script, one step per turn, and records every request. */
final class ScriptedModel implements ModelPort {
    private final List<Function<ModelRequest, ModelReply>> steps;
    private final Function<ModelRequest, ModelReply> afterwards;
    final List<ModelRequest> requests = new ArrayList<>();

    @SafeVarargs
    ScriptedModel(Function<ModelRequest, ModelReply>... steps) {
        this(copy(steps), null);
    }

    @SafeVarargs
    private static List<Function<ModelRequest, ModelReply>> copy(Function<ModelRequest, ModelReply>... steps) {
        List<Function<ModelRequest, ModelReply>> list = new ArrayList<>();
        for (Function<ModelRequest, ModelReply> step : steps) {
            list.add(step);
        }
        return list;
    }

    private ScriptedModel(List<Function<ModelRequest, ModelReply>> steps, Function<ModelRequest, ModelReply> afterwards) {
        this.steps = steps;
        this.afterwards = afterwards;
    }

    /** A model that repeats {@code step} forever. */
    static ScriptedModel forever(Function<ModelRequest, ModelReply> step) {
        return new ScriptedModel(List.of(), step);
    }

    @Override
    public synchronized ModelReply complete(ModelRequest request) {
        requests.add(request);
        int turn = requests.size() - 1;
        if (turn < steps.size()) {
            return steps.get(turn).apply(request);
        }
        if (afterwards != null) {
            return afterwards.apply(request);
        }
        throw new GuardException(ErrorCode.MODEL_UNAVAILABLE, "The script has no more replies.");
    }

    static Function<ModelRequest, ModelReply> call(String tool, String argumentsJson) {
        return request -> new ModelReply(Optional.empty(), List.of(new ToolCall("call_" + request.messages().size(), tool,
                argumentsJson)), "tool_calls");
    }

    static Function<ModelRequest, ModelReply> answer(String text) {
        return request -> new ModelReply(Optional.of(text), List.of(), "stop");
    }

    /** The content of the last tool message the model was sent. */
    static String lastToolMessage(ModelRequest request) {
        List<ChatMessage> messages = request.messages();
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).role().equals("tool")) {
                return messages.get(i).content().orElse("");
            }
        }
        return "";
    }
}
