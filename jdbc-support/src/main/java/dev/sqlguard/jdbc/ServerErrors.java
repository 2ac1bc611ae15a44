package dev.sqlguard.jdbc;

import java.sql.SQLException;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

/**
 * The refusals a server's errors map to, each with its error code and sqlguard's own sentence,
 * written once for every JDBC engine: an engine's error mapper decides which of its codes (SQLSTATEs,
 * vendor error numbers, Trino's error codes) is which failure, and takes the failure from here, so
 * that the same failure reads the same on every engine. Driver and server text (which can hold
 * hosts, users, SQL and data) never reaches the message; the exception stays as the cause, which is
 * never rendered.
 */
public final class ServerErrors {
    private ServerErrors() {
    }

    /** The query ran past its time limit on the server. */
    public static GuardException timeLimit(SQLException e) {
        return byDefault(ErrorCode.EXCEEDED_TIME_LIMIT, e);
    }

    /** The server ran out of memory for the query. */
    public static GuardException memoryLimit(SQLException e) {
        return byDefault(ErrorCode.EXCEEDED_MEMORY_LIMIT, e);
    }

    /** The server ran out of disk (or spill) space for the query. */
    public static GuardException diskLimit(SQLException e) {
        return byDefault(ErrorCode.EXCEEDED_DISK_LIMIT, e);
    }

    /** The server cannot be reached or does not serve queries now. */
    public static GuardException unavailable(SQLException e) {
        return byDefault(ErrorCode.ENGINE_UNAVAILABLE, e);
    }

    /** The server failed the query for a reason sqlguard does not name. */
    public static GuardException failed(SQLException e) {
        return byDefault(ErrorCode.QUERY_FAILED, e);
    }

    /** The query was cancelled on the server. */
    public static GuardException cancelled(SQLException e) {
        return byDefault(ErrorCode.CANCELLED, e);
    }

    /** Two tables of the query have a column of the name used. */
    public static GuardException ambiguousColumn(SQLException e) {
        return byDefault(ErrorCode.AMBIGUOUS_COLUMN, e);
    }

    /** The database account lacks a privilege. */
    public static GuardException permissionDenied(SQLException e) {
        return new GuardException(ErrorCode.PERMISSION_DENIED, "The database account may not do this.", e);
    }

    /** The server refused a write because the session is read-only. */
    public static GuardException readOnly(SQLException e) {
        return new GuardException(ErrorCode.READ_ONLY_NOT_ENFORCED, "The database refused a write: the session is read-only.", e);
    }

    public static GuardException unknownColumn(SQLException e) {
        return new GuardException(ErrorCode.UNKNOWN_COLUMN, "The database does not know a column of this query.", e);
    }

    /** A table of the query is not on the server, reported with the engine's {@code code}. */
    public static GuardException missingTable(ErrorCode code, SQLException e) {
        return new GuardException(code, "A table of this query does not exist on the database.", e);
    }

    public static GuardException notGrouped(SQLException e) {
        return new GuardException(ErrorCode.QUERY_FAILED, "Every selected column must be in GROUP BY or inside an aggregate function.", e);
    }

    public static GuardException noMatchingFunction(SQLException e) {
        return new GuardException(ErrorCode.QUERY_FAILED, "No function or operator matches these argument types; add a cast.", e);
    }

    public static GuardException typeMismatch(SQLException e) {
        return new GuardException(ErrorCode.QUERY_FAILED, "The types of this expression do not match; add a cast.", e);
    }

    /** The server could not parse the rendered text (which the checker parsed). */
    public static GuardException unparsable(SQLException e) {
        return new GuardException(ErrorCode.QUERY_FAILED, "The database could not parse the checked query.", e);
    }

    public static GuardException divisionByZero(SQLException e) {
        return new GuardException(ErrorCode.QUERY_FAILED, "The query divides by zero.", e);
    }

    /** A value (a cast's input, a function's argument, a result) is out of range or of the wrong type. */
    public static GuardException badValue(SQLException e) {
        return new GuardException(ErrorCode.QUERY_FAILED, "A value is out of range or has the wrong type.", e);
    }

    public static GuardException subqueryRows(SQLException e) {
        return new GuardException(ErrorCode.QUERY_FAILED, "A subquery used as a value returned more than one row.", e);
    }

    /** The server's own bound on the size or depth of a statement. */
    public static GuardException tooComplex(SQLException e) {
        return new GuardException(ErrorCode.QUERY_TOO_COMPLEX, "The query is too large or too deeply nested for the database.", e);
    }

    private static GuardException byDefault(ErrorCode code, SQLException e) {
        return new GuardException(code, code.defaultMessage(), e);
    }
}
