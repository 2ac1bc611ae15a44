package dev.sqlguard.trino.internal;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.TableRef;

/** The checks a Trino source runs once before it serves: the session the cluster gives it, and whether its user can write. */
public final class TrinoStartup {
    private TrinoStartup() {
    }

    /**
     * Reads the session back from the coordinator ({@code SHOW SESSION}) and refuses to start unless
     * {@code query_max_execution_time} and {@code query_max_run_time} hold the values sqlguard sent
     * (Trino 483 echoes a session property exactly as the client set it, e.g. {@code 10s}).
     */
    public static void verifySession(Connection connection, Limits limits) throws SQLException {
        Map<String, String> expected = new HashMap<>();
        for (String pair : TrinoSettings.sessionProperties(limits).split(";")) {
            int colon = pair.indexOf(':');
            expected.put(pair.substring(0, colon), pair.substring(colon + 1));
        }
        Map<String, String> seen = new HashMap<>();
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SHOW SESSION LIKE 'query_max_%'")) {
            while (rs.next()) {
                seen.put(rs.getString(1), rs.getString(2));
            }
        }
        for (String name : new String[] {"query_max_execution_time", "query_max_run_time"}) {
            if (!expected.get(name).equals(seen.get(name))) {
                throw new GuardException(ErrorCode.CONFIGURATION_ERROR,
                        "The Trino cluster did not take the session's time limit (" + name + "); no query is run.");
            }
        }
    }

    /** What the user could write, as {@link PrivilegeAudit} finds it; empty when every probe was refused. */
    public static Set<String> writes(Connection connection, String catalog, String schema, Set<TableRef> tables) throws SQLException {
        return PrivilegeAudit.writes(connection, catalog, schema, tables);
    }
}
