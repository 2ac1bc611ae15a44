package dev.sqlguard.trino.internal;

import java.sql.SQLException;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.jdbc.ServerError;

/**
 * Maps Trino's error codes ({@code SQLException.getErrorCode()}, Trino's {@code StandardErrorCode};
 * the driver sets no SQLSTATE) to the kit's {@link ServerError} (the refusals every engine words the
 * same) or, for what only a cluster reports, to its own sentences. Driver and server text
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
    /** The first code of Trino's internal errors; alone, a fault of the engine's own code on this statement. */
    static final int GENERIC_INTERNAL_ERROR = 65536;
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
            case EXCEEDED_TIME_LIMIT, EXCEEDED_CPU_LIMIT -> ServerError.TIME_LIMIT.of(e);
            case USER_CANCELED, ADMINISTRATIVELY_KILLED -> ServerError.CANCELLED.of(e);
            case EXCEEDED_GLOBAL_MEMORY_LIMIT, EXCEEDED_LOCAL_MEMORY_LIMIT, CLUSTER_OUT_OF_MEMORY, EXCEEDED_FUNCTION_MEMORY_LIMIT ->
                    ServerError.MEMORY_LIMIT.of(e);
            case EXCEEDED_SPILL_LIMIT -> ServerError.DISK_LIMIT.of(e);
            case EXCEEDED_SCAN_LIMIT, QUERY_QUEUE_FULL ->
                    new GuardException(ErrorCode.ENGINE_UNAVAILABLE, "The cluster refused the query for now; try again later.", e);
            case PERMISSION_DENIED -> ServerError.PERMISSION_DENIED.of(e);
            case READ_ONLY_VIOLATION -> ServerError.READ_ONLY.of(e);
            case COLUMN_NOT_FOUND -> ServerError.UNKNOWN_COLUMN.of(e);
            case AMBIGUOUS_NAME -> ServerError.AMBIGUOUS_COLUMN.of(e);
            // the validator sends only tables the startup snapshot found in the configured catalog and schema:
            // the cluster not finding one now is a cluster that is restarting or has not loaded its catalogs yet,
            // never a policy refusal (issue 26: a restarted coordinator gave TABLE_NOT_ALLOWED on allowlisted tables)
            case TABLE_NOT_FOUND, SCHEMA_NOT_FOUND, CATALOG_NOT_FOUND, NOT_FOUND ->
                    new GuardException(ErrorCode.ENGINE_UNAVAILABLE,
                            "The cluster does not serve this source's tables now (it may be restarting); retry in a moment.", e);
            case MISSING_GROUP_BY, EXPRESSION_NOT_AGGREGATE -> ServerError.NOT_GROUPED.of(e);
            case FUNCTION_NOT_FOUND, OPERATOR_NOT_FOUND -> ServerError.NO_MATCHING_FUNCTION.of(e);
            case TYPE_MISMATCH -> ServerError.TYPE_MISMATCH.of(e);
            case SYNTAX_ERROR -> ServerError.UNPARSABLE.of(e);
            case DIVISION_BY_ZERO -> ServerError.DIVISION_BY_ZERO.of(e);
            case INVALID_CAST_ARGUMENT, INVALID_FUNCTION_ARGUMENT, NUMERIC_VALUE_OUT_OF_RANGE -> ServerError.BAD_VALUE.of(e);
            case SUBQUERY_MULTIPLE_ROWS -> ServerError.SUBQUERY_ROWS.of(e);
            case QUERY_TEXT_TOO_LARGE, QUERY_HAS_TOO_MANY_STAGES, STACK_OVERFLOW, QUERY_EXCEEDED_COMPILER_LIMIT -> ServerError.TOO_COMPLEX.of(e);
            default -> {
                if (code >= 65536 && code < 131072) {
                    yield ServerError.UNAVAILABLE.of(e);
                }
                if (code >= 131072 && code < 196608) {
                    yield ServerError.MEMORY_LIMIT.of(e);
                }
                if (code == 0 && e.getCause() != null && !fromServer(e)) {
                    // no query error from the cluster: the driver could not reach a serving coordinator (refused, reset,
                    // an HTTP 5xx of one that is starting or stopping); issue 26 counted 1,585 of these as QUERY_FAILED.
                    // The driver's own refusals (measured: "Unsupported object type: java.time.LocalTime" from setObject)
                    // carry no cause: they are the query's, not the cluster's
                    yield ServerError.UNAVAILABLE.of(e);
                }
                yield ServerError.FAILED.of(e);
            }
        };
    }
}
