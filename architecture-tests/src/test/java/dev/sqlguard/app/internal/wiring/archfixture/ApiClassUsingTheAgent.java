package dev.sqlguard.app.internal.wiring.archfixture;

import dev.sqlguard.app.agent.archfixture.AgentThing;

/** Deliberately bad: the embedding API reaching up into the agent. */
public final class ApiClassUsingTheAgent {
    public String up() {
        return new AgentThing().toString();
    }
}
