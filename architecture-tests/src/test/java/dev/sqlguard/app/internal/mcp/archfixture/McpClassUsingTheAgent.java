package dev.sqlguard.app.internal.mcp.archfixture;

import dev.sqlguard.app.agent.archfixture.AgentThing;

/** Deliberately bad: the MCP server reaching into the agent (its planner) instead of the tools. */
public final class McpClassUsingTheAgent {
    public String across() {
        return new AgentThing().toString();
    }
}
