package dev.sqlguard.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

/** The connection an execution port runs one call on: from its pool, or a new one to the server. */
public final class CallConnection {
    private static final Logger LOG = LoggerFactory.getLogger(CallConnection.class);

    /** Gives a connection: a pool's {@code getConnection}, or a driver's {@code connect}. */
    @FunctionalInterface
    public interface Opener {
        Connection open() throws SQLException;
    }

    private CallConnection() {
    }

    /**
     * The connection {@code opener} gives, or {@code ENGINE_UNAVAILABLE} with its default message (a
     * model may retry) when it gives none: no pooled connection was free in time, or the server
     * could not be reached. The driver's error stays the cause, for the logs, never the message.
     */
    public static Connection open(Opener opener) {
        try {
            return opener.open();
        } catch (SQLException e) {
            LOG.debug("no connection for a call", e);
            throw new GuardException(ErrorCode.ENGINE_UNAVAILABLE, ErrorCode.ENGINE_UNAVAILABLE.defaultMessage(), e);
        }
    }
}
