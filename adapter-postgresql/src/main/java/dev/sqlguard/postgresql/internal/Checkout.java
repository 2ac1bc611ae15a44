package dev.sqlguard.postgresql.internal;

import java.sql.Connection;
import java.sql.SQLException;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;

/** A pool checkout bounded by the time a call has left (the pool's own checkout timeout is fixed at startup). */
final class Checkout {
    private Checkout() {
    }

    /**
     * A connection from {@code source} within {@code timeoutMillis}: HikariCP's
     * {@code HikariPool.getConnection(long)} (it waits for a free connection, a new one and the
     * validation of an idle one at most that long, plus one validation); any other data source's own checkout.
     */
    static Connection within(DataSource source, long timeoutMillis) throws SQLException {
        if (source instanceof HikariDataSource hikari && hikari.getHikariPoolMXBean() instanceof HikariPool pool) {
            return pool.getConnection(Math.max(1, timeoutMillis));
        }
        return source.getConnection();
    }
}
