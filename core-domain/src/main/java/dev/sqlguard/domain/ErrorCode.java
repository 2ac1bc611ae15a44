package dev.sqlguard.domain;

import static java.util.Objects.requireNonNull;

/**
 * The stable catalogue of error codes. Codes are a public contract: they appear in every
 * {@link ToolResult}, in audit records and in documentation. Never rename or renumber one; add
 * new ones at the end.
 *
 * <p>{@code retryable} tells a planner whether sending a different query (or the same one later)
 * can succeed. Modelled on Trino's {@code StandardErrorCode}.
 */
public enum ErrorCode {
    // USER: the model wrote something wrong and can fix it
    SYNTAX_ERROR(1, ErrorType.USER, true, "The SQL could not be parsed."),
    EMPTY_QUERY(2, ErrorType.USER, true, "The SQL text contains no statement."),
    PARAMETER_COUNT_MISMATCH(3, ErrorType.USER, true, "The number of parameters does not match the placeholders in the SQL."),
    UNSUPPORTED_PARAMETER(4, ErrorType.USER, true, "A parameter value has a type that cannot be bound."),
    AMBIGUOUS_COLUMN(5, ErrorType.USER, true, "A column name matches more than one table; qualify it."),
    UNKNOWN_COLUMN(6, ErrorType.USER, true, "A column does not exist or is not visible."),
    QUERY_FAILED(7, ErrorType.USER, true, "The engine could not run the query."),
    UNKNOWN_SOURCE(8, ErrorType.USER, false, "No data source has that name."),
    INVALID_ARGUMENT(9, ErrorType.USER, true, "An argument is missing or has an invalid value."),
    LOAD_FAILED(10, ErrorType.USER, false, "The file could not be loaded; the database is unchanged."),

    // POLICY: a guardrail refused the request
    STATEMENT_NOT_ALLOWED(100, ErrorType.POLICY, true, "Only a single read-only SELECT statement is allowed."),
    MULTIPLE_STATEMENTS(101, ErrorType.POLICY, true, "Exactly one statement is allowed per call."),
    TABLE_NOT_ALLOWED(102, ErrorType.POLICY, true, "The query references a table that is not allowlisted."),
    COLUMN_NOT_ALLOWED(103, ErrorType.POLICY, true, "The query references a column that is not allowlisted."),
    FUNCTION_NOT_ALLOWED(104, ErrorType.POLICY, true, "The query calls a function that is not allowlisted."),
    TABLE_FUNCTION_NOT_ALLOWED(105, ErrorType.POLICY, true, "The query calls a table function that is not allowlisted."),
    CONSTRUCT_NOT_ALLOWED(106, ErrorType.POLICY, true, "The query uses a SQL construct that this source does not allow."),
    JOIN_NOT_ALLOWED(107, ErrorType.POLICY, true, "This kind of join is not allowed."),
    UNSAFE_SYNTAX(108, ErrorType.POLICY, true, "The SQL contains syntax that parsers may read differently (executable comments, ambiguous comments or escapes)."),
    EXTERNAL_ACCESS_DENIED(109, ErrorType.POLICY, true, "The query tried to read or write files, the network or other databases."),
    PERMISSION_DENIED(110, ErrorType.POLICY, true, "The engine refused the operation as not permitted."),
    WILDCARD_NOT_ALLOWED(111, ErrorType.POLICY, true, "Select named columns instead of * or table.*."),
    VARIABLE_NOT_ALLOWED(112, ErrorType.POLICY, true, "User and system variables are not allowed."),

    // RESOURCES
    QUERY_TOO_LONG(200, ErrorType.RESOURCES, true, "The SQL text is longer than the allowed maximum."),
    QUERY_TOO_COMPLEX(201, ErrorType.RESOURCES, true, "The SQL text is nested too deeply."),
    EXCEEDED_TIME_LIMIT(202, ErrorType.RESOURCES, true, "The query ran longer than the time limit and was stopped."),
    EXCEEDED_MEMORY_LIMIT(203, ErrorType.RESOURCES, true, "The query needed more memory than the limit allows."),
    CANCELLED(204, ErrorType.RESOURCES, false, "The query was cancelled."),
    UNBOUNDED_COST(205, ErrorType.RESOURCES, true, "A function call could build a value or do work beyond the limits; use literal arguments within the bound."),
    EXCEEDED_DISK_LIMIT(206, ErrorType.RESOURCES, true, "The query needed more temporary disk space than the limit allows; filter or aggregate first."),

    // EXTERNAL
    ENGINE_UNAVAILABLE(300, ErrorType.EXTERNAL, true, "The database could not be reached."),
    READ_ONLY_NOT_ENFORCED(301, ErrorType.EXTERNAL, false, "The database connection is not read-only, so no query was run."),
    MODEL_UNAVAILABLE(302, ErrorType.EXTERNAL, true, "The model endpoint could not be reached."),
    AUDIT_UNAVAILABLE(303, ErrorType.EXTERNAL, true, "The call could not be written to the audit log, so no result is returned."),

    // INTERNAL
    INTERNAL_ERROR(400, ErrorType.INTERNAL, false, "An internal error occurred."),
    CONFIGURATION_ERROR(401, ErrorType.INTERNAL, false, "The data source is misconfigured."),

    // added later (RESOURCES)
    SERVER_BUSY(207, ErrorType.RESOURCES, true, "The server is busy with other calls; try again in a moment."),

    // added later (POLICY)
    SENSITIVE_OUTPUT_NOT_MASKED(113, ErrorType.POLICY, true, "A sensitive output column cannot be kept inside the engine by this source; leave it out of the select list."),
    MISSING_ATTRIBUTE(114, ErrorType.POLICY, false, "The query reads rows filtered by a caller attribute that this call does not carry.");

    private final int number;
    private final ErrorType type;
    private final boolean retryable;
    private final String defaultMessage;

    ErrorCode(int number, ErrorType type, boolean retryable, String defaultMessage) {
        this.number = number;
        this.type = requireNonNull(type, "type is null");
        this.retryable = retryable;
        this.defaultMessage = requireNonNull(defaultMessage, "defaultMessage is null");
    }

    /** A stable number, unique across the catalogue. */
    public int number() {
        return number;
    }

    public ErrorType type() {
        return type;
    }

    /** Whether a planner may usefully try again, with a different query or later. */
    public boolean retryable() {
        return retryable;
    }

    /** A safe, generic message that names no data, path or credential. */
    public String defaultMessage() {
        return defaultMessage;
    }
}
