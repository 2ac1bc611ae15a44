package dev.sqlguard.app.internal.mcp.archfixture;

import dev.sqlguard.app.tools.archfixture.ToolsThing;

/** Allowed: the MCP server using the tools. */
public final class McpClassUsingTheTools {
    public String down() {
        return new ToolsThing().toString();
    }
}
