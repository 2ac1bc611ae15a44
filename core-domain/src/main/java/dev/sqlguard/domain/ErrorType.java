package dev.sqlguard.domain;

/** Who is at fault for an error, in the style of Trino's {@code ErrorType}. */
public enum ErrorType {
    /** The request itself is wrong: syntax, unknown names, wrong parameter count. */
    USER,
    /** The request is well formed but a guardrail refuses it. */
    POLICY,
    /** A resource bound was exceeded: time, memory, size. */
    RESOURCES,
    /** Something outside sqlguard failed: the database, the network, the model endpoint. */
    EXTERNAL,
    /** A bug or misconfiguration inside sqlguard. */
    INTERNAL
}
