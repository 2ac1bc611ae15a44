package dev.sqlguard.jdbc.archfixture;

import java.sql.ResultSet;
import java.sql.SQLException;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

/** Allowed: the JDBC kit uses java.sql and the domain. */
public final class JdbcKitThing {
    public Object first(ResultSet rs) throws SQLException {
        if (!rs.next()) {
            throw new GuardException(ErrorCode.QUERY_FAILED);
        }
        return rs.getObject(1);
    }
}
