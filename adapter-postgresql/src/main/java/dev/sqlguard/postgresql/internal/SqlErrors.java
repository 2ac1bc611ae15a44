package dev.sqlguard.postgresql.internal;

import java.sql.SQLException;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.jdbc.ServerError;
import dev.sqlguard.jdbc.ansi.SqlStates;

/**
 * Maps PostgreSQL SQLSTATEs to the kit's {@link ServerError} (the refusals every engine words the
 * same) or, for what only PostgreSQL reports, to its own sentences. Driver and server text
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
        return switch (state) {
            case "57014" -> ServerError.TIME_LIMIT.of(e);
            case "25006" -> ServerError.READ_ONLY.of(e);
            case "42501" -> ServerError.PERMISSION_DENIED.of(e);
            case "42703" -> ServerError.UNKNOWN_COLUMN.of(e);
            case "42702" -> ServerError.AMBIGUOUS_COLUMN.of(e);
            case "42P01" -> ServerError.MISSING_TABLE.as(ErrorCode.TABLE_NOT_ALLOWED, e);
            case "42803" -> ServerError.NOT_GROUPED.of(e);
            case "42883" -> ServerError.NO_MATCHING_FUNCTION.of(e);
            case "42804" -> ServerError.TYPE_MISMATCH.of(e);
            case "42601" -> ServerError.UNPARSABLE.of(e);
            case "22012" -> ServerError.DIVISION_BY_ZERO.of(e);
            case "53400" -> ServerError.DISK_LIMIT.of(e);
            case "53200", "53100" -> ServerError.MEMORY_LIMIT.of(e);
            case "54000", "54001" -> ServerError.TOO_COMPLEX.of(e);
            case "21000" -> ServerError.SUBQUERY_ROWS.of(e);
            case "55P03", "40P01" -> new GuardException(ErrorCode.QUERY_FAILED, "The database could not take a lock in time.", e);
            // the SQLSTATE classes: PostgreSQL's own first, then the standard ones
            default -> state.startsWith("57P") ? ServerError.UNAVAILABLE.of(e)
                    : state.startsWith("53") ? ServerError.MEMORY_LIMIT.of(e)
                    : SqlStates.byClass(state, e);
        };
    }
}
