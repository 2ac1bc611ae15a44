package dev.sqlguard.jdbc;

import java.sql.SQLException;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

/**
 * The failures a server reports that every JDBC engine words the same, each with its error code and
 * sqlguard's own sentence: an engine's error mapper decides which of its codes (SQLSTATEs, vendor
 * error numbers, Trino's error codes) is which failure, and takes the refusal from here
 * ({@link #of}), so that the same failure reads the same on every engine. Driver and server text
 * (which can hold hosts, users, SQL and data) never reaches the message; the exception stays as the
 * cause, which is never rendered.
 */
public enum ServerError {
    /** The query ran past its time limit on the server. */
    TIME_LIMIT(ErrorCode.EXCEEDED_TIME_LIMIT, null),
    /** The server ran out of memory for the query. */
    MEMORY_LIMIT(ErrorCode.EXCEEDED_MEMORY_LIMIT, null),
    /** The server ran out of disk (or spill) space for the query. */
    DISK_LIMIT(ErrorCode.EXCEEDED_DISK_LIMIT, null),
    /** The server cannot be reached or does not serve queries now. */
    UNAVAILABLE(ErrorCode.ENGINE_UNAVAILABLE, null),
    /** The server failed the query for a reason sqlguard does not name. */
    FAILED(ErrorCode.QUERY_FAILED, null),
    /** The query was cancelled on the server. */
    CANCELLED(ErrorCode.CANCELLED, null),
    /** Two tables of the query have a column of the name used. */
    AMBIGUOUS_COLUMN(ErrorCode.AMBIGUOUS_COLUMN, null),
    /** The database account lacks a privilege. */
    PERMISSION_DENIED(ErrorCode.PERMISSION_DENIED, "The database account may not do this."),
    /** The server refused a write because the session is read-only. */
    READ_ONLY(ErrorCode.READ_ONLY_NOT_ENFORCED, "The database refused a write: the session is read-only."),
    UNKNOWN_COLUMN(ErrorCode.UNKNOWN_COLUMN, "The database does not know a column of this query."),
    /** A table of the query is not on the server ({@link #as} gives it another code). */
    MISSING_TABLE(ErrorCode.QUERY_FAILED, "A table of this query does not exist on the database."),
    NOT_GROUPED(ErrorCode.QUERY_FAILED, "Every selected column must be in GROUP BY or inside an aggregate function."),
    NO_MATCHING_FUNCTION(ErrorCode.QUERY_FAILED, "No function or operator matches these argument types; add a cast."),
    TYPE_MISMATCH(ErrorCode.QUERY_FAILED, "The types of this expression do not match; add a cast."),
    /** The server could not parse the rendered text (which the checker parsed). */
    UNPARSABLE(ErrorCode.QUERY_FAILED, "The database could not parse the checked query."),
    DIVISION_BY_ZERO(ErrorCode.QUERY_FAILED, "The query divides by zero."),
    /** A value (a cast's input, a function's argument, a result) is out of range or of the wrong type. */
    BAD_VALUE(ErrorCode.QUERY_FAILED, "A value is out of range or has the wrong type."),
    SUBQUERY_ROWS(ErrorCode.QUERY_FAILED, "A subquery used as a value returned more than one row."),
    /** The server's own bound on the size or depth of a statement. */
    TOO_COMPLEX(ErrorCode.QUERY_TOO_COMPLEX, "The query is too large or too deeply nested for the database.");

    private final ErrorCode code;
    private final String message;

    ServerError(ErrorCode code, String message) {
        this.code = code;
        this.message = message == null ? code.defaultMessage() : message;
    }

    /** The refusal of this failure, with {@code e} as its cause. */
    public GuardException of(SQLException e) {
        return new GuardException(code, message, e);
    }

    /** The refusal of this failure under another {@code code}, with the same sentence. */
    public GuardException as(ErrorCode code, SQLException e) {
        return new GuardException(code, message, e);
    }
}
