package dev.sqlguard.app.tools.internal;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.sqlguard.app.tools.ToolOutcome;
import dev.sqlguard.domain.ToolStatus;

/** {@code clarify}: hands a question back to the user; the planner stops there. */
public final class ClarifyTool extends Tool {
    public static final String NAME = "clarify";

    public ClarifyTool() {
        super(NAME, "Asks the user one question when the request is ambiguous or cannot be answered from the sources."
                + " The conversation ends and the user sees the question.",
                new ArgSchema.Obj("", Map.of("question", ArgSchema.Str.of(
                        "One short question for the user that resolves the ambiguity.", 1000)), Set.of("question")), false);
    }

    @Override
    public ToolOutcome call(JsonNode arguments) {
        String question = arguments.get("question").textValue().strip();
        String json = AgentJson.write(AgentJson.NODES.objectNode().put("status", ToolStatus.OK.name())
                .put("note", "The question was handed to the user."));
        return new ToolOutcome(NAME, ToolStatus.OK, json, List.of(), List.of(), Optional.empty(), Optional.of(question),
                Optional.empty());
    }
}
