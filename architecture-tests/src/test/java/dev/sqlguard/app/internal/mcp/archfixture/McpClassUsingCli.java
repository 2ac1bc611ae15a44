package dev.sqlguard.app.internal.mcp.archfixture;

import dev.sqlguard.app.internal.cli.archfixture.CliThing;

/** Deliberately bad: the MCP server reaching up into the CLI. */
public final class McpClassUsingCli {
    public String up() {
        return new CliThing().toString();
    }
}
