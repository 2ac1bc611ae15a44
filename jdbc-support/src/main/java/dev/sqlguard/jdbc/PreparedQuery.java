package dev.sqlguard.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * The first steps of an execution port that runs each call on a connection of its own: prepare the
 * plan's statement on the call's connection and bind its values, closing both when either step
 * fails, then hand them to a {@link JdbcCursor}. An executor that keeps its connections in a pool
 * with its own release (MySQL, PostgreSQL) takes these steps itself.
 */
public final class PreparedQuery {
    /** Prepares the statement on the call's connection (after any round trip of its own the connection needs first). */
    @FunctionalInterface
    public interface Preparer {
        PreparedStatement prepare(Connection connection) throws SQLException;
    }

    /** Binds the statement's parameters ({@link JdbcParameters#bind}, usually). */
    @FunctionalInterface
    public interface Binder {
        void bind(PreparedStatement statement) throws SQLException;
    }

    private PreparedQuery() {
    }

    /**
     * A cursor over the statement {@code prepare} gives on {@code connection}, bound by {@code bind},
     * whose driver errors {@code errors} maps; set its deadline (and what else is the engine's) and
     * start it.
     *
     * @throws dev.sqlguard.domain.GuardException when preparing or binding fails: a refusal as it
     *     was thrown, a driver error as {@code errors} maps it; the statement and the connection are
     *     closed first
     */
    public static JdbcCursor.Builder on(Connection connection, Preparer prepare, Binder bind, JdbcCursor.ErrorMapper errors) {
        PreparedStatement statement = null;
        try {
            statement = prepare.prepare(connection);
            bind.bind(statement);
        } catch (SQLException | RuntimeException e) {
            JdbcCursor.closeQuietly(statement);
            JdbcCursor.closeQuietly(connection);
            throw e instanceof SQLException s ? errors.map(s) : (RuntimeException) e;
        }
        return JdbcCursor.over(connection, statement).errors(errors);
    }
}
