package dev.sqlguard.app.tools.internal;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;

import dev.sqlguard.app.tools.ToolOutcome;

/**
 * One fixed tool of the agent: its name, description and argument schema as the model sees them, and
 * whether it runs SQL. No tool runs model-written code: SQL goes through the guarded path only.
 */
public abstract class Tool {
    private final String name;
    private final String description;
    private final ArgSchema.Obj schema;
    private final boolean runsSql;

    protected Tool(String name, String description, ArgSchema.Obj schema, boolean runsSql) {
        this.name = requireNonNull(name, "name is null");
        this.description = requireNonNull(description, "description is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.runsSql = runsSql;
    }

    public final String name() {
        return name;
    }

    public final String description() {
        return description;
    }

    /** The arguments' schema; {@link #call} only ever sees arguments it accepted. */
    public final ArgSchema.Obj schema() {
        return schema;
    }

    /** Whether the tool runs SQL (its refusals are then audited by the use case). */
    public final boolean runsSql() {
        return runsSql;
    }

    /**
     * Runs the call with checked arguments. May throw {@link dev.sqlguard.domain.GuardException} or
     * {@link ArgSchema.InvalidArgumentException} for a refusal found before any SQL ran.
     */
    public abstract ToolOutcome call(JsonNode arguments);
}
