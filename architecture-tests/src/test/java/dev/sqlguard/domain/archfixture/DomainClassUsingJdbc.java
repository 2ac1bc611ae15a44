package dev.sqlguard.domain.archfixture;

import java.sql.Connection;
import java.sql.SQLException;

/** Deliberately bad: a domain class that touches JDBC. Only the rule proofs import it. */
public final class DomainClassUsingJdbc {
    public boolean readOnly(Connection connection) throws SQLException {
        return connection.isReadOnly();
    }
}
