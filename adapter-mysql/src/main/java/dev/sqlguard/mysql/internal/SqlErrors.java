package dev.sqlguard.mysql.internal;

import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.jdbc.ServerError;
import dev.sqlguard.jdbc.ansi.SqlStates;

/**
 * Maps driver and server errors to the kit's {@link ServerError} (the refusals every engine words
 * the same) or, for what only MySQL and MariaDB report, to their own sentences. Driver text (which
 * can hold hosts, users, SQL and data) never leaves this class; the exception stays as the cause,
 * which is never rendered.
 */
final class SqlErrors {
    private SqlErrors() {
    }

    /** A recursive CTE went past the pinned iteration limit (MariaDB warns 1931 and cuts the result; MySQL fails 3636). */
    static final String RECURSION_MESSAGE = "A recursive query went past this source's limit of "
            + ServerFlavor.RECURSION_LIMIT + " iterations; its result would be incomplete. Bound the recursion in the query.";

    static GuardException map(SQLException e) {
        int code = e.getErrorCode();
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        if (e instanceof SQLTimeoutException || code == 1969 || code == 3024) {
            return ServerError.TIME_LIMIT.of(e);
        }
        if (code == 1317) {
            return new GuardException(ErrorCode.CANCELLED, "The query was stopped on the server.", e);
        }
        switch (code) {
            case 1044, 1142, 1143, 1227, 1370, 1045, 1698, 1794 -> {
                return ServerError.PERMISSION_DENIED.of(e);
            }
            case 1792, 1290, 1836 -> {
                return new GuardException(ErrorCode.PERMISSION_DENIED, "The database refused the operation: the session is read-only.", e);
            }
            case 1054 -> {
                return ServerError.UNKNOWN_COLUMN.of(e);
            }
            case 1052 -> {
                return ServerError.AMBIGUOUS_COLUMN.of(e);
            }
            case 1146, 1049 -> {
                return ServerError.MISSING_TABLE.of(e);
            }
            case 1055, 1056, 1140, 3029 -> {
                return ServerError.NOT_GROUPED.of(e);
            }
            case 1221 -> {
                return new GuardException(ErrorCode.QUERY_FAILED, "This database does not allow ORDER BY in a query block with GROUP BY ... WITH ROLLUP;"
                        + " select from it as a derived table and order the outer query.", e);
            }
            case 1111 -> {
                return new GuardException(ErrorCode.QUERY_FAILED, "An aggregate function is used where it is not allowed (use HAVING, not WHERE).", e);
            }
            case 1064, 1149 -> {
                return ServerError.UNPARSABLE.of(e);
            }
            case 1037, 1038, 1041, 1114, 1104, 1206, 3015 -> {
                return ServerError.MEMORY_LIMIT.of(e);
            }
            case 1040, 1129, 1130, 1203, 2002, 2003, 2006, 2013 -> {
                return ServerError.UNAVAILABLE.of(e);
            }
            case 1931, 3636 -> {
                return new GuardException(ErrorCode.QUERY_FAILED, RECURSION_MESSAGE, e);
            }
            case 1365 -> {
                return ServerError.DIVISION_BY_ZERO.of(e);
            }
            case 1690, 1264, 1292, 1366, 1367 -> {
                return ServerError.BAD_VALUE.of(e);
            }
            case 1210, 1318, 1582, 1583 -> {
                return new GuardException(ErrorCode.QUERY_FAILED, "A function got the wrong number or kind of arguments.", e);
            }
            default -> {
                // fall through to SQLSTATE classes
            }
        }
        if (e instanceof SQLTransientConnectionException) {
            return ServerError.UNAVAILABLE.of(e);
        }
        return SqlStates.byClass(state, e);
    }
}
