package dev.sqlguard.testing.differential;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One raw connection per thread, for a {@link Target} that {@link Differential} calls from several
 * workers at once (a JDBC connection runs one statement at a time). Each is opened on the thread's first
 * use and set up like the first; {@link #close()} closes them all.
 */
public final class RawConnections implements AutoCloseable {
    /** Opens one raw connection (the engine's read-only account, the fixture's schema). */
    @FunctionalInterface
    public interface Opener {
        Connection open() throws SQLException;
    }

    private final Opener opener;
    private final List<Connection> opened = new CopyOnWriteArrayList<>();
    private final ThreadLocal<Connection> mine = new ThreadLocal<>();

    public RawConnections(Opener opener) {
        this.opener = requireNonNull(opener, "opener is null");
    }

    /** This thread's connection. */
    public Connection get() {
        Connection c = mine.get();
        if (c == null) {
            try {
                c = opener.open();
            } catch (SQLException e) {
                throw new IllegalStateException("could not open a raw connection", e);
            }
            opened.add(c);
            mine.set(c);
        }
        return c;
    }

    @Override
    public void close() throws SQLException {
        SQLException first = null;
        for (Connection c : opened) {
            try {
                c.close();
            } catch (SQLException e) {
                first = first == null ? e : first;
            }
        }
        opened.clear();
        if (first != null) {
            throw first;
        }
    }
}
