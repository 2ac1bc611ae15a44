package dev.sqlguard.jdbc;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.util.Properties;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

/**
 * What a JDBC engine's {@code create} throws when it could not start. The host retries a source
 * whose start failed with {@code ENGINE_UNAVAILABLE} and never one that failed with
 * {@code CONFIGURATION_ERROR}, so the choice is the engine's to make from the server's error: a
 * refused login or a database the account may not use is the configuration's fault, anything else
 * (a refused connect, a timeout, a server that went away) may pass. Each message is the engine's own
 * sentence after "Source 'id': ", never the driver's text, the host, the URL or the password; a refused
 * login names the user ({@link #user}), so that the operator knows which account to check.
 */
public final class JdbcStartup {
    private static final Logger LOG = LoggerFactory.getLogger(JdbcStartup.class);

    private JdbcStartup() {
    }

    /**
     * The failure to throw for {@code e}: {@code e} itself when it is a {@link GuardException} (a
     * check of {@code create}'s own); {@code CONFIGURATION_ERROR} with the sentence
     * {@code configuration} gives for the first {@link SQLException} among {@code e} and its causes;
     * else {@code ENGINE_UNAVAILABLE} with the sentence {@code unreachable}. The result keeps
     * {@code e} as its cause, for the logs.
     *
     * @param configuration the sentence for a server error that is the configuration's fault, e.g.
     *     "the database refused the login.", or empty
     */
    public static GuardException failure(String source, Exception e, Function<SQLException, Optional<String>> configuration,
                                         String unreachable) {
        if (LOG.isDebugEnabled()) {
            LOG.debug("Source '{}': start failed: {}", source, cause(e));
        }
        if (e instanceof GuardException g) {
            return g;
        }
        Throwable root = e;
        while (root.getCause() != null && !(root instanceof SQLException)) {
            root = root.getCause();
        }
        if (root instanceof SQLException s) {
            Optional<String> sentence = configuration.apply(s);
            if (sentence.isPresent()) {
                return new GuardException(ErrorCode.CONFIGURATION_ERROR, "Source '" + source + "': " + sentence.get(), e);
            }
        }
        return new GuardException(ErrorCode.ENGINE_UNAVAILABLE, "Source '" + source + "': " + unreachable, e);
    }

    /**
     * The driver {@code driverClass}, loaded by {@code adapter}'s own class loader and instantiated
     * directly: the way to open connections that works in a plug-in folder too, where
     * {@code java.sql.DriverManager} does not hand out a driver the plug-in loader loaded (it checks
     * the caller's class loader), and where {@code getConnection} on a fat jar would initialise every
     * driver in it. Use {@link #connect} with it.
     *
     * @param adapter a class of the adapter, whose class loader sees the driver (the plug-in's)
     * @throws IllegalStateException when the driver class is missing or cannot be made
     */
    public static Driver driver(Class<?> adapter, String driverClass) {
        try {
            Class<?> type = Class.forName(driverClass, true, adapter.getClassLoader());
            return (Driver) type.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | ClassCastException | LinkageError e) {
            throw new IllegalStateException("the JDBC driver " + driverClass + " cannot be loaded by " + adapter.getName(), e);
        }
    }

    /**
     * {@link #driver} made on first use and kept: a factory's one driver instance, loaded only when a
     * source of that engine starts (not when the factory is discovered).
     */
    public static java.util.function.Supplier<Driver> lazyDriver(Class<?> adapter, String driverClass) {
        return new java.util.function.Supplier<>() {
            private volatile Driver made;

            @Override
            public Driver get() {
                Driver d = made;
                if (d == null) {
                    d = driver(adapter, driverClass);
                    made = d;
                }
                return d;
            }
        };
    }

    /** A connection from {@code driver}; an SQLException, never null, when the driver does not take the URL. */
    public static Connection connect(Driver driver, String url, Properties properties) throws SQLException {
        Connection c = driver.connect(url, properties);
        if (c == null) {
            throw new SQLException("the driver does not accept the URL", "08001");
        }
        return c;
    }

    /**
     * What a failed start leaves in the debug log: the exception classes of the chain with their
     * SQLSTATEs and vendor codes, never a message (drivers put hosts, users and URLs in theirs).
     */
    static String cause(Throwable e) {
        StringBuilder out = new StringBuilder();
        int depth = 0;
        for (Throwable t = e; t != null && depth < 8; t = t.getCause(), depth++) {
            if (depth > 0) {
                out.append(" <- ");
            }
            out.append(t.getClass().getName());
            if (t instanceof SQLException s) {
                out.append(" [SQLSTATE ").append(s.getSQLState()).append(", code ").append(s.getErrorCode()).append(']');
            }
        }
        return out.toString();
    }

    /** A user name for a message: quoted when short and plain ({@code [A-Za-z0-9_.@-]}), else a placeholder. */
    public static String user(String name) {
        if (name == null || name.isEmpty() || name.length() > 64
                || !name.chars().allMatch(c -> c < 0x80 && (Character.isLetterOrDigit(c) || "_.@-".indexOf(c) >= 0))) {
            return "(name withheld)";
        }
        return "'" + name + "'";
    }
}
