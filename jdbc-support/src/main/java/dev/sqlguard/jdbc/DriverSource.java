package dev.sqlguard.jdbc;

import static java.util.Objects.requireNonNull;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;

import javax.sql.DataSource;

/**
 * A {@link DataSource} over one driver instance, a URL and its properties: what a pool (HikariCP's
 * {@code setDataSource}) opens connections from without {@code java.sql.DriverManager}, so that an
 * adapter whose driver sits in a plug-in folder starts there too. Get the driver from
 * {@link JdbcStartup#driver}. The properties are copied; the only state that changes is the login
 * timeout a pool sets (see {@link #getLoginTimeout()}). Thread-safe.
 */
public final class DriverSource implements DataSource {
    private final Driver driver;
    private final String url;
    private final Properties properties;
    private volatile int loginTimeout;

    public DriverSource(Driver driver, String url, Properties properties) {
        this.driver = requireNonNull(driver, "driver is null");
        this.url = requireNonNull(url, "url is null");
        this.properties = new Properties();
        this.properties.putAll(requireNonNull(properties, "properties is null"));
    }

    @Override
    public Connection getConnection() throws SQLException {
        return JdbcStartup.connect(driver, url, properties);
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        Properties p = new Properties();
        p.putAll(properties);
        p.setProperty("user", username);
        p.setProperty("password", password == null ? "" : password);
        return JdbcStartup.connect(driver, url, p);
    }

    @Override
    public PrintWriter getLogWriter() {
        return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        // no log writer: drivers log through their own loggers
    }

    /**
     * Records the login timeout; it is not passed to the driver, whose own connect timeout property
     * bounds a login.
     */
    @Override
    public void setLoginTimeout(int seconds) {
        loginTimeout = Math.max(0, seconds);
    }

    /**
     * The login timeout last set (0 until then). HikariCP sets it from its connection timeout and, when
     * the pool closes, waits this long for its connection adder to end: at 0 it waited for nothing,
     * logged "Timed-out waiting for add connection executor to shutdown" at every close, and left the
     * adder thread running past close().
     */
    @Override
    public int getLoginTimeout() {
        return loginTimeout;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException("no parent logger");
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        if (type.isInstance(this)) {
            return type.cast(this);
        }
        throw new SQLException("not a wrapper of " + type.getName());
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
        return type.isInstance(this);
    }

    /** The URL, never the properties (they hold the password). */
    @Override
    public String toString() {
        return "DriverSource[" + driver.getClass().getName() + "]";
    }
}
