package dev.sqlguard.jdbc.ansi;

import java.sql.SQLException;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.jdbc.ServerError;

/**
 * The standard SQLSTATE classes (ISO SQL), mapped the same for every engine whose driver sets them,
 * with sqlguard's own sentences ({@link ServerError}): an engine maps its own codes first and leaves the rest to
 * {@link #byClass}. Driver and server text never leaves; the exception stays as the cause, which is
 * never rendered.
 */
public final class SqlStates {
    private SqlStates() {
    }

    /**
     * By the class of {@code state}: {@code 08} connection exception, {@code 28} invalid authorization,
     * {@code 22} data exception, {@code 42} syntax error or access rule violation; any other state
     * (or none) is {@code QUERY_FAILED} with its default message.
     */
    public static GuardException byClass(String state, SQLException e) {
        if (state.startsWith("08")) {
            return ServerError.UNAVAILABLE.of(e);
        }
        if (state.startsWith("28")) {
            return ServerError.PERMISSION_DENIED.of(e);
        }
        if (state.startsWith("22")) {
            return ServerError.BAD_VALUE.of(e);
        }
        if (state.startsWith("42")) {
            return new GuardException(ErrorCode.QUERY_FAILED, "The database refused the query as invalid.", e);
        }
        return ServerError.FAILED.of(e);
    }
}
