package dev.sqlguard.app.agent.archfixture;

import dev.sqlguard.app.internal.mcp.archfixture.McpThing;

/** Deliberately bad: the agent reaching up into the MCP server. */
public final class AgentClassUsingMcp {
    public String up() {
        return new McpThing().toString();
    }
}
