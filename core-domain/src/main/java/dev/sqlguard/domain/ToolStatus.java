package dev.sqlguard.domain;

/** The outcome of one tool call. */
public enum ToolStatus {
    /** The query ran and returned at least one row. */
    OK,
    /** The query ran and returned no row. */
    NO_EVIDENCE,
    /** A guardrail refused the query before any database call. */
    REJECTED,
    /** The query was authorized but failed while running or projecting. */
    ERROR
}
