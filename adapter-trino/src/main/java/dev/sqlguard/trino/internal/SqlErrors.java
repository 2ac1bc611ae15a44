package dev.sqlguard.trino.internal;

import java.sql.SQLException;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

/**
 * Maps Trino's error codes ({@code SQLException.getErrorCode()}, Trino's {@code StandardErrorCode};
 * the driver sets no SQLSTATE) to error codes with sqlguard's own sentences. Driver and server text
 * (which can hold hosts, users, SQL, query ids and data) never leaves this class; the exception stays
 * as the cause, which is never rendered.
 */
final class SqlErrors {
    /** Trino's StandardErrorCode values that are mapped here (measured on Trino 483). */
    static final int SYNTAX_ERROR = 1;
    static final int USER_CANCELED = 3;
    static final int PERMISSION_DENIED = 4;
    static final int NOT_FOUND = 5;
    static final int FUNCTION_NOT_FOUND = 6;
    static final int INVALID_FUNCTION_ARGUMENT = 7;
    static final int DIVISION_BY_ZERO = 8;
    static final int INVALID_CAST_ARGUMENT = 9;
    static final int OPERATOR_NOT_FOUND = 10;
    static final int NUMERIC_VALUE_OUT_OF_RANGE = 19;
    static final int READ_ONLY_VIOLATION = 23;
    static final int SUBQUERY_MULTIPLE_ROWS = 28;
    static final int QUERY_TEXT_TOO_LARGE = 35;
    static final int EXCEEDED_FUNCTION_MEMORY_LIMIT = 37;
    static final int ADMINISTRATIVELY_KILLED = 38;
    static final int QUERY_HAS_TOO_MANY_STAGES = 40;
    static final int CATALOG_NOT_FOUND = 44;
    static final int SCHEMA_NOT_FOUND = 45;
    static final int TABLE_NOT_FOUND = 46;
    static final int COLUMN_NOT_FOUND = 47;
    static final int TYPE_MISMATCH = 58;
    static final int AMBIGUOUS_NAME = 62;
    static final int MISSING_GROUP_BY = 64;
    static final int EXPRESSION_NOT_AGGREGATE = 73;
    static final int STACK_OVERFLOW = 108;
    static final int QUERY_EXCEEDED_COMPILER_LIMIT = 132;
    static final int EXCEEDED_GLOBAL_MEMORY_LIMIT = 131073;
    static final int QUERY_QUEUE_FULL = 131074;
    static final int EXCEEDED_TIME_LIMIT = 131075;
    static final int CLUSTER_OUT_OF_MEMORY = 131076;
    static final int EXCEEDED_CPU_LIMIT = 131077;
    static final int EXCEEDED_SPILL_LIMIT = 131078;
    static final int EXCEEDED_LOCAL_MEMORY_LIMIT = 131079;
    static final int EXCEEDED_SCAN_LIMIT = 131081;

    private SqlErrors() {
    }

    /**
     * Whether the coordinator answered with a query error: the driver then carries the server's
     * failure as a {@code FailureException} cause. A transport failure carries an
     * {@code IOException}, the client's {@code ClientException} or a plain runtime exception instead.
     */
    static boolean fromServer(SQLException e) {
        for (Throwable t = e.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
            if (t.getClass().getSimpleName().equals("FailureException")) {
                return true;
            }
        }
        return false;
    }

    static GuardException map(SQLException e) {
        int code = e.getErrorCode();
        return switch (code) {
            case EXCEEDED_TIME_LIMIT, EXCEEDED_CPU_LIMIT ->
                    new GuardException(ErrorCode.EXCEEDED_TIME_LIMIT, ErrorCode.EXCEEDED_TIME_LIMIT.defaultMessage(), e);
            case USER_CANCELED, ADMINISTRATIVELY_KILLED -> new GuardException(ErrorCode.CANCELLED, ErrorCode.CANCELLED.defaultMessage(), e);
            case EXCEEDED_GLOBAL_MEMORY_LIMIT, EXCEEDED_LOCAL_MEMORY_LIMIT, CLUSTER_OUT_OF_MEMORY, EXCEEDED_FUNCTION_MEMORY_LIMIT ->
                    new GuardException(ErrorCode.EXCEEDED_MEMORY_LIMIT, ErrorCode.EXCEEDED_MEMORY_LIMIT.defaultMessage(), e);
            case EXCEEDED_SPILL_LIMIT -> new GuardException(ErrorCode.EXCEEDED_DISK_LIMIT, ErrorCode.EXCEEDED_DISK_LIMIT.defaultMessage(), e);
            case EXCEEDED_SCAN_LIMIT, QUERY_QUEUE_FULL ->
                    new GuardException(ErrorCode.ENGINE_UNAVAILABLE, "The cluster refused the query for now; try again later.", e);
            case PERMISSION_DENIED -> new GuardException(ErrorCode.PERMISSION_DENIED, "The database account may not do this.", e);
            case READ_ONLY_VIOLATION ->
                    new GuardException(ErrorCode.READ_ONLY_NOT_ENFORCED, "The database refused a write: the session is read-only.", e);
            case COLUMN_NOT_FOUND -> new GuardException(ErrorCode.UNKNOWN_COLUMN, "The database does not know a column of this query.", e);
            case AMBIGUOUS_NAME -> new GuardException(ErrorCode.AMBIGUOUS_COLUMN, ErrorCode.AMBIGUOUS_COLUMN.defaultMessage(), e);
            // the validator sends only tables the startup snapshot found in the configured catalog and schema:
            // the cluster not finding one now is a cluster that is restarting or has not loaded its catalogs yet,
            // never a policy refusal (issue 26: a restarted coordinator gave TABLE_NOT_ALLOWED on allowlisted tables)
            case TABLE_NOT_FOUND, SCHEMA_NOT_FOUND, CATALOG_NOT_FOUND, NOT_FOUND ->
                    new GuardException(ErrorCode.ENGINE_UNAVAILABLE,
                            "The cluster does not serve this source's tables now (it may be restarting); retry in a moment.", e);
            case MISSING_GROUP_BY, EXPRESSION_NOT_AGGREGATE ->
                    new GuardException(ErrorCode.QUERY_FAILED, "Every selected column must be in GROUP BY or inside an aggregate function.", e);
            case FUNCTION_NOT_FOUND, OPERATOR_NOT_FOUND ->
                    new GuardException(ErrorCode.QUERY_FAILED, "No function or operator matches these argument types; add a cast.", e);
            case TYPE_MISMATCH -> new GuardException(ErrorCode.QUERY_FAILED, "The types of this expression do not match; add a cast.", e);
            case SYNTAX_ERROR -> new GuardException(ErrorCode.QUERY_FAILED, "The database could not parse the checked query.", e);
            case DIVISION_BY_ZERO -> new GuardException(ErrorCode.QUERY_FAILED, "The query divides by zero.", e);
            case INVALID_CAST_ARGUMENT, INVALID_FUNCTION_ARGUMENT, NUMERIC_VALUE_OUT_OF_RANGE ->
                    new GuardException(ErrorCode.QUERY_FAILED, "A value is out of range or has the wrong type.", e);
            case SUBQUERY_MULTIPLE_ROWS -> new GuardException(ErrorCode.QUERY_FAILED, "A subquery used as a value returned more than one row.", e);
            case QUERY_TEXT_TOO_LARGE, QUERY_HAS_TOO_MANY_STAGES, STACK_OVERFLOW, QUERY_EXCEEDED_COMPILER_LIMIT ->
                    new GuardException(ErrorCode.QUERY_TOO_COMPLEX, "The query is too large or too deeply nested for the database.", e);
            default -> {
                if (code >= 65536 && code < 131072) {
                    yield new GuardException(ErrorCode.ENGINE_UNAVAILABLE, ErrorCode.ENGINE_UNAVAILABLE.defaultMessage(), e);
                }
                if (code >= 131072 && code < 196608) {
                    yield new GuardException(ErrorCode.EXCEEDED_MEMORY_LIMIT, ErrorCode.EXCEEDED_MEMORY_LIMIT.defaultMessage(), e);
                }
                if (code == 0 && e.getCause() != null && !fromServer(e)) {
                    // no query error from the cluster: the driver could not reach a serving coordinator (refused, reset,
                    // an HTTP 5xx of one that is starting or stopping); issue 26 counted 1,585 of these as QUERY_FAILED.
                    // The driver's own refusals (measured: "Unsupported object type: java.time.LocalTime" from setObject)
                    // carry no cause: they are the query's, not the cluster's
                    yield new GuardException(ErrorCode.ENGINE_UNAVAILABLE, ErrorCode.ENGINE_UNAVAILABLE.defaultMessage(), e);
                }
                yield new GuardException(ErrorCode.QUERY_FAILED, ErrorCode.QUERY_FAILED.defaultMessage(), e);
            }
        };
    }
}
