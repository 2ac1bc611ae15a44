package dev.sqlguard.app.agent;

/** What happens to an answer with numbers that no tool result supports. */
public enum ClaimPolicy {
    /** Keep the answer and list the unsupported numbers in the report (the default). */
    FLAG,
    /** Replace the answer with a refusal that lists the unsupported numbers. */
    BLOCK
}
