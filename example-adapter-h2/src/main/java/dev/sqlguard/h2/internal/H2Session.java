package dev.sqlguard.h2.internal;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

/** The checks of the database's own lock, on the first connection, before anything runs. */
public final class H2Session {
    /** The schema unqualified names resolve to. */
    public static final String SCHEMA = "PUBLIC";

    private H2Session() {
    }

    /**
     * Refuses to start unless H2 itself reads the database as read-only ({@code READONLY()}: another
     * connection of this process may have opened it read-write first, and H2 then shares that one),
     * and unless it holds no sequence: H2 advances a sequence even in a read-only database (measured on
     * 2.3.232: {@code NEXT VALUE FOR s} gave 1, then 2), which one call could leave for the next.
     */
    public static void requireReadOnly(Connection connection, String source) throws SQLException {
        try (Statement s = connection.createStatement();
             ResultSet rs = s.executeQuery("SELECT READONLY(), (SELECT COUNT(*) FROM INFORMATION_SCHEMA.SEQUENCES)")) {
            rs.next();
            if (!rs.getBoolean(1)) {
                throw new GuardException(ErrorCode.READ_ONLY_NOT_ENFORCED, "Source '" + source
                        + "': H2 does not hold the database read-only (it was opened read-write in this process first).");
            }
            if (rs.getLong(2) > 0) {
                throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "Source '" + source
                        + "': the H2 database holds sequences, which H2 advances even when read-only; drop them or use a copy without.");
            }
        }
    }
}
