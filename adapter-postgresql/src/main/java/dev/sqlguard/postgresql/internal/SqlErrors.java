package dev.sqlguard.postgresql.internal;

import java.sql.SQLException;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.jdbc.ansi.SqlStates;

/**
 * Maps PostgreSQL SQLSTATEs to error codes with sqlguard's own sentences. Driver and server text
 * (which can hold hosts, users, SQL and data) never leaves this class; the exception stays as the
 * cause, which is never rendered.
 */
final class SqlErrors {
    private SqlErrors() {
    }

    /** The message of a result that outgrew the client's buffer bound (pgjdbc's {@code maxResultBuffer}). */
    static final String RESULT_TOO_LARGE = "The result rows are larger than the memory limit allows; select fewer or narrower"
            + " columns, or aggregate first.";

    static GuardException map(SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        if (state.equals("08S01") && e.getMessage() != null && e.getMessage().contains("maxResultBuffer")) {
            // pgjdbc's own bound on what one round trip buffers; the driver closes the connection after it
            return new GuardException(ErrorCode.EXCEEDED_MEMORY_LIMIT, RESULT_TOO_LARGE, e);
        }
        switch (state) {
            case "57014" -> {
                return new GuardException(ErrorCode.EXCEEDED_TIME_LIMIT, ErrorCode.EXCEEDED_TIME_LIMIT.defaultMessage(), e);
            }
            case "25006" -> {
                return new GuardException(ErrorCode.READ_ONLY_NOT_ENFORCED, "The database refused a write: the session is read-only.", e);
            }
            case "42501" -> {
                return new GuardException(ErrorCode.PERMISSION_DENIED, "The database account may not do this.", e);
            }
            case "42703" -> {
                return new GuardException(ErrorCode.UNKNOWN_COLUMN, "The database does not know a column of this query.", e);
            }
            case "42702" -> {
                return new GuardException(ErrorCode.AMBIGUOUS_COLUMN, ErrorCode.AMBIGUOUS_COLUMN.defaultMessage(), e);
            }
            case "42P01" -> {
                return new GuardException(ErrorCode.TABLE_NOT_ALLOWED, "A table of this query does not exist on the database.", e);
            }
            case "42803" -> {
                return new GuardException(ErrorCode.QUERY_FAILED, "Every selected column must be in GROUP BY or inside an aggregate function.", e);
            }
            case "42883" -> {
                return new GuardException(ErrorCode.QUERY_FAILED, "No function or operator matches these argument types; add a cast.", e);
            }
            case "42804" -> {
                return new GuardException(ErrorCode.QUERY_FAILED, "The types of this expression do not match; add a cast.", e);
            }
            case "42601" -> {
                return new GuardException(ErrorCode.QUERY_FAILED, "The database could not parse the checked query.", e);
            }
            case "22012" -> {
                return new GuardException(ErrorCode.QUERY_FAILED, "The query divides by zero.", e);
            }
            case "53400" -> {
                return new GuardException(ErrorCode.EXCEEDED_DISK_LIMIT, ErrorCode.EXCEEDED_DISK_LIMIT.defaultMessage(), e);
            }
            case "53200", "53100" -> {
                return new GuardException(ErrorCode.EXCEEDED_MEMORY_LIMIT, ErrorCode.EXCEEDED_MEMORY_LIMIT.defaultMessage(), e);
            }
            case "54000", "54001" -> {
                return new GuardException(ErrorCode.QUERY_TOO_COMPLEX, "The query is too large or too deeply nested for the database.", e);
            }
            case "21000" -> {
                return new GuardException(ErrorCode.QUERY_FAILED, "A subquery used as a value returned more than one row.", e);
            }
            case "55P03", "40P01" -> {
                return new GuardException(ErrorCode.QUERY_FAILED, "The database could not take a lock in time.", e);
            }
            default -> {
                // SQLSTATE classes below
            }
        }
        if (state.startsWith("57P")) {
            return new GuardException(ErrorCode.ENGINE_UNAVAILABLE, ErrorCode.ENGINE_UNAVAILABLE.defaultMessage(), e);
        }
        if (state.startsWith("53")) {
            return new GuardException(ErrorCode.EXCEEDED_MEMORY_LIMIT, ErrorCode.EXCEEDED_MEMORY_LIMIT.defaultMessage(), e);
        }
        return SqlStates.byClass(state, e);
    }
}
