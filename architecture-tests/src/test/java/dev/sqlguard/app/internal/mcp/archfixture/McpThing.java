package dev.sqlguard.app.internal.mcp.archfixture;

/** A stand-in class in the MCP layer's package, for the rule proofs. */
public final class McpThing {
}
