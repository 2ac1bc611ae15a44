package dev.sqlguard.duckdb.internal;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;

import org.duckdb.DuckDBDriver;

/**
 * Opens DuckDB connections through DuckDB's own driver, not {@link java.sql.DriverManager}: the
 * first {@code DriverManager.getConnection} in a process loads and initializes every JDBC driver on
 * the class path (in the shipped jar that is also MySQL's, which starts a cleanup thread,
 * PostgreSQL's and Trino's), which a process that only reads DuckDB never needs.
 */
public final class DuckDbDriver {
    private static final DuckDBDriver DRIVER = new DuckDBDriver();

    private DuckDbDriver() {
    }

    /** A connection to {@code url} ({@code jdbc:duckdb:...}) with {@code properties}. */
    public static Connection connect(String url, Properties properties) throws SQLException {
        Connection connection = DRIVER.connect(url, properties);
        if (connection == null) {
            throw new SQLException("not a DuckDB URL");
        }
        return connection;
    }
}
