package dev.sqlguard.app.agent.internal;

import com.fasterxml.jackson.databind.JsonNode;

import dev.sqlguard.app.agent.ToolOutcome;

/** One fixed tool of the agent. No tool runs model-written code: SQL goes through the guarded path only. */
public interface Tool {
    String name();

    String description();

    /** The arguments' schema; {@link #call} only ever sees arguments it accepted. */
    ArgSchema.Obj schema();

    /** Whether the tool runs SQL (its refusals are then audited by the use case). */
    boolean runsSql();

    /**
     * Runs the call with checked arguments. May throw {@link dev.sqlguard.domain.GuardException} or
     * {@link ArgSchema.InvalidArgumentException} for a refusal found before any SQL ran.
     */
    ToolOutcome call(JsonNode arguments);
}
