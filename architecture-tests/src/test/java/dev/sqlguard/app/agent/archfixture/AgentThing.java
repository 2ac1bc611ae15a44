package dev.sqlguard.app.agent.archfixture;

/** A stand-in class in the agent layer's package, for the rule proofs. */
public final class AgentThing {
}
