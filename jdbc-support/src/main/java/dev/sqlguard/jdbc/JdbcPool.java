package dev.sqlguard.jdbc;

import static java.util.Objects.requireNonNull;

import java.util.Properties;

/**
 * The settings of a HikariCP pool of a JDBC source, the same for every JDBC adapter: named
 * {@code sqlguard-<name>} (characters outside {@code [A-Za-z0-9_.-]} replaced by {@code _}),
 * read-only connections, the adapter's auto-commit and session SQL, a checkout (a wait for a free
 * connection, a new connection, a validation) bounded in time, and the validation of an idle
 * connection bounded by a quarter of that (250 ms to 1 s): a frozen server costs at most this past
 * the call's time left. {@link #hikariProperties()} gives them under HikariCP's own property names,
 * for {@code new HikariConfig(properties)} (the kit itself does not depend on HikariCP, ArchUnit
 * {@code JDBC_KIT_USES_ONLY_PORTS_AND_JDBC}); the adapter adds the driver instance as a
 * {@link DriverSource}, never {@code java.sql.DriverManager} (which HikariCP asks for a
 * {@code jdbcUrl}), so that it starts in a plug-in folder too:
 *
 * <pre>{@code
 * HikariConfig hc = new HikariConfig(JdbcPool.named(source + "-queries").size(4).minimumIdle(1)
 *         .autoCommit(true).initSql(pinSql).checkoutWithin(timeoutMillis).hikariProperties());
 * hc.setDataSource(new DriverSource(DRIVER.get(), url, driverProperties));
 * HikariDataSource queries = resources.add(new HikariDataSource(hc));
 * }</pre>
 *
 * Not thread-safe; one per pool.
 */
public final class JdbcPool {
    /** The least time a checkout or a validation gets. */
    static final long MIN_MILLIS = 250;
    /** The most time {@link #checkoutWithin} gives a checkout. */
    static final long MAX_CHECKOUT_MILLIS = 30_000;
    /** The most time the validation of an idle connection gets. */
    static final long MAX_VALIDATION_MILLIS = 1_000;

    private final String name;
    private int size = SourceSettings.DEFAULT_POOL_SIZE;
    private int minimumIdle = 1;
    private boolean autoCommit = true;
    private String initSql;
    private boolean isolateInternalQueries;
    private long checkoutMillis = MAX_CHECKOUT_MILLIS;

    private JdbcPool(String name) {
        this.name = requireNonNull(name, "name is null");
    }

    /** A pool named {@code sqlguard-<name>}, e.g. {@code named(source + "-queries")}. */
    public static JdbcPool named(String name) {
        return new JdbcPool(name);
    }

    /** The most connections (default {@link SourceSettings#DEFAULT_POOL_SIZE}). */
    public JdbcPool size(int connections) {
        this.size = connections;
        return this;
    }

    /** The idle connections the pool keeps (default 1). */
    public JdbcPool minimumIdle(int connections) {
        this.minimumIdle = connections;
        return this;
    }

    /** Auto-commit of every connection (default true). */
    public JdbcPool autoCommit(boolean on) {
        this.autoCommit = on;
        return this;
    }

    /** SQL each new connection runs once before it is handed out (the session pins); none by default. */
    public JdbcPool initSql(String sql) {
        this.initSql = requireNonNull(sql, "sql is null");
        return this;
    }

    /**
     * Runs the init SQL (and HikariCP's other internal statements) in a transaction of its own that is
     * committed: for a connection without auto-commit whose SET statements are transactional.
     */
    public JdbcPool isolateInternalQueries() {
        this.isolateInternalQueries = true;
        return this;
    }

    /** A checkout waits at most the time limit {@code limitMillis}, at least 250 ms and at most 30 s. */
    public JdbcPool checkoutWithin(long limitMillis) {
        this.checkoutMillis = Math.max(MIN_MILLIS, Math.min(MAX_CHECKOUT_MILLIS, limitMillis));
        return this;
    }

    /** A checkout waits at most {@code millis} (HikariCP's own floor is 250 ms). */
    public JdbcPool checkoutMillis(long millis) {
        this.checkoutMillis = millis;
        return this;
    }

    /** The pool's name: {@code sqlguard-} and the name given, each character outside {@code [A-Za-z0-9_.-]} a {@code _}. */
    public String poolName() {
        return "sqlguard-" + name.replaceAll("[^A-Za-z0-9_.-]", "_");
    }

    /** How long a checkout waits at most. */
    public long checkoutMillis() {
        return checkoutMillis;
    }

    /** How long the validation of an idle connection at a checkout takes at most: a quarter of the checkout, 250 ms to 1 s. */
    public long validationMillis() {
        return Math.max(MIN_MILLIS, Math.min(MAX_VALIDATION_MILLIS, checkoutMillis / 4));
    }

    /**
     * These settings under HikariCP's property names ({@code poolName}, {@code maximumPoolSize},
     * {@code minimumIdle}, {@code readOnly} (always true), {@code autoCommit},
     * {@code connectionInitSql}, {@code isolateInternalQueries}, {@code connectionTimeout},
     * {@code validationTimeout}), for {@code new HikariConfig(properties)}; a new copy each time.
     */
    public Properties hikariProperties() {
        Properties p = new Properties();
        p.setProperty("poolName", poolName());
        p.setProperty("maximumPoolSize", Integer.toString(size));
        p.setProperty("minimumIdle", Integer.toString(minimumIdle));
        p.setProperty("readOnly", "true");
        p.setProperty("autoCommit", Boolean.toString(autoCommit));
        if (initSql != null) {
            p.setProperty("connectionInitSql", initSql);
        }
        p.setProperty("isolateInternalQueries", Boolean.toString(isolateInternalQueries));
        p.setProperty("connectionTimeout", Long.toString(checkoutMillis));
        p.setProperty("validationTimeout", Long.toString(validationMillis()));
        return p;
    }
}
