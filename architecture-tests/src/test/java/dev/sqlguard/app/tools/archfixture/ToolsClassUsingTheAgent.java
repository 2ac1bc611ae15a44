package dev.sqlguard.app.tools.archfixture;

import dev.sqlguard.app.agent.archfixture.AgentThing;

/** Deliberately bad: the tools reaching up into the agent. */
public final class ToolsClassUsingTheAgent {
    public String up() {
        return new AgentThing().toString();
    }
}
