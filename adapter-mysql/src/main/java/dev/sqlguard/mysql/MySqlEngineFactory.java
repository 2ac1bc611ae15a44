package dev.sqlguard.mysql;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.EngineDefaults;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Names;
import dev.sqlguard.domain.port.CachingValidator;
import dev.sqlguard.mysql.internal.CatalogLoader;
import dev.sqlguard.mysql.internal.MySqlExecutor;
import dev.sqlguard.mysql.internal.MySqlSettings;
import dev.sqlguard.mysql.internal.MySqlFunctions;
import dev.sqlguard.mysql.internal.MySqlValidator;
import dev.sqlguard.mysql.internal.PrivilegeAudit;
import dev.sqlguard.mysql.internal.RowPolicyCheck;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot;
import dev.sqlguard.mysql.internal.ServerFlavor;
import dev.sqlguard.mysql.internal.ServerReading;
import dev.sqlguard.ports.AbstractEngineFactory;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineCapability;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;
import dev.sqlguard.ports.EngineDialect;
import dev.sqlguard.ports.EngineParts;
import dev.sqlguard.ports.FunctionLookup;
import dev.sqlguard.ports.PropertySpec;
import dev.sqlguard.jdbc.DriverSource;
import dev.sqlguard.jdbc.JdbcEngineStart;
import dev.sqlguard.jdbc.JdbcPool;
import dev.sqlguard.jdbc.JdbcStartup;
import dev.sqlguard.jdbc.SourceSettings;
import dev.sqlguard.jdbc.Watchdogs;

/**
 * The {@code mysql} engine: MySQL 8 and MariaDB 10.6+ through Connector/J.
 *
 * <p>Settings ({@link #properties()}): {@code url} ({@code jdbc:mysql://host[:port][/database]}),
 * {@code username}, {@code password}, {@code defaultSchema} (else the URL's database),
 * {@code requireReadOnlyAccount} (default false), {@code poolSize} (default 4) and
 * {@code maxConcurrentQueries} (default: the pool size). The policy must
 * carry a restricted table allowlist. See {@code docs/engines/mysql.md}.
 */
public final class MySqlEngineFactory extends AbstractEngineFactory {
    private static final Logger LOG = LoggerFactory.getLogger(MySqlEngineFactory.class);
    /** Connector/J's switch for its JVM-wide {@code mysql-cj-abandoned-connection-cleanup} thread. */
    static final String NO_CLEANUP_THREAD = "com.mysql.cj.disableAbandonedConnectionCleanup";

    static {
        // Connector/J starts a thread when its driver class loads (also when DriverManager loads every driver on the
        // class path for another engine) and never ends it; sqlguard's pools close every connection they open, so the
        // thread only outlives close(). Off unless the application chose otherwise, and only for a driver loaded after this.
        if (System.getProperty(NO_CLEANUP_THREAD) == null) {
            System.setProperty(NO_CLEANUP_THREAD, "true");
        }
    }

    /** Time at startup for exact row counts of the allowlisted tables, over all of them. */
    static final long ROW_COUNT_BUDGET_MILLIS = 2_000;

    private static final List<PropertySpec> PROPERTIES = List.of(
            PropertySpec.required(SourceSettings.URL, "jdbc:mysql://host[:port][/database][?property=value&...], one plain host. "
                    + "Only TLS, timeout and time-zone properties are accepted in the URL."),
            PropertySpec.required(SourceSettings.USERNAME, "The database account; give it SELECT on the allowlisted tables only."),
            PropertySpec.optional(SourceSettings.PASSWORD, "empty", "The account's password.").asSensitive(),
            PropertySpec.optional(SourceSettings.DEFAULT_SCHEMA, "the URL's database",
                    "The database unqualified table names resolve to; it or the URL's database is required."),
            PropertySpec.optional(SourceSettings.REQUIRE_READ_ONLY_ACCOUNT, "false",
                    "true refuses to start when the account holds any privilege beyond reading; false only warns."),
            PropertySpec.optional(SourceSettings.POOL_SIZE, Integer.toString(SourceSettings.DEFAULT_POOL_SIZE),
                    "Connections in the query pool, 1 to 64."),
            PropertySpec.optional(MySqlSettings.MAX_CONCURRENT_QUERIES, "poolSize",
                    "Queries of this source on the server at once, running or killed and still unwinding, 1 to 256; past it a call is refused (retryable)."));

    /**
     * MySQL's and MariaDB's SQL as the host writes it: backtick identifiers, no quantile aggregate,
     * date buckets from {@code DATE}, {@code SUBDATE}, {@code WEEKDAY} (Monday is 0),
     * {@code DAYOFMONTH}, {@code MAKEDATE} and {@code YEAR}, which a source's function list must allow.
     */
    private static final EngineDialect DIALECT = new EngineDialect("MySQL/MariaDB", Optional.of('`'), Optional.empty(), List.of(
            "Quote identifiers with backticks and text with single quotes; double quotes may mean text.",
            "There is no median or quantile aggregate."), Map.of(
            "day", "DATE({column})",
            "week", "SUBDATE(DATE({column}), WEEKDAY({column}))",
            "month", "SUBDATE(DATE({column}), DAYOFMONTH({column}) - 1)",
            "year", "MAKEDATE(YEAR({column}), 1)"));

    public MySqlEngineFactory() {
        super("mysql", PROPERTIES, DIALECT);
    }

    @Override
    public Engine create(EngineConfig config, EngineContext context) {
        config.check(PROPERTIES);
        MySqlSettings settings = MySqlSettings.parse(config);
        String source = config.sourceId();
        JdbcEngineStart start = new JdbcEngineStart(source, e -> startupFailure(source, settings.username(), e));
        GuardrailPolicy allowlisted = SourceSettings.allowlistIn(name(), config, settings.schema(), Names::fold);
        long timeoutMillis = Math.max(1, allowlisted.limits().timeout().toMillis());

        JdbcEngineStart.Opener connect = () -> JdbcStartup.connect(DRIVER.get(), settings.jdbcUrl(),
                driverProperties(settings, timeoutMillis));
        Server server = start.onBootstrap(connect, bootstrap -> {
            ServerFlavor flavor = ServerFlavor.fromVersion(bootstrap.getMetaData().getDatabaseProductVersion());
            String serverMode = sqlMode(bootstrap);
            ServerReading reading = ServerReading.of(serverMode, lowerCaseTableNames(bootstrap));
            ServerFlavor.Pins pins = pin(bootstrap, flavor, source, new ServerFlavor.Pins(ServerFlavor.pinnedMode(serverMode),
                    timeoutMillis, ServerFlavor.groupConcatMaxLen(allowlisted.limits().maxCellChars()), ServerFlavor.RECURSION_LIMIT));
            start.readOnlyAccount(LOG, settings.requireReadOnlyAccount(), PrivilegeAudit.riskyPrivileges(bootstrap),
                    "the database account holds privileges beyond reading: ", "Use an account with SELECT on the allowlisted tables only.");
            SchemaSnapshot schema = CatalogLoader.load(bootstrap, source, settings.schema(), allowlisted.tables(), flavor,
                    Math.min(ROW_COUNT_BUDGET_MILLIS, timeoutMillis));
            // every row filter and column mask runs once on the server before any query can use it
            RowPolicyCheck.check(bootstrap, source, schema, allowlisted.rows());
            // the default list the engine reports keeps what this server has (MySQL 8 and MariaDB differ: any_value is
            // MySQL's only); the domain fills it in. The names a configuration lists are the host's question (functionFacts)
            EngineDefaults defaults = EngineDefaults.inSchema(settings.schema(), MySqlFunctions.classes(
                    CatalogLoader.knownFunctions(bootstrap, MySqlValidator.DEFAULT_FUNCTIONS)));
            return new Server(flavor, pins, schema, defaults, reading);
        });
        ServerFlavor flavor = server.flavor();
        GuardrailPolicy policy = allowlisted.effective(server.defaults());

        return start.compose(resources -> {
            // two threads: a deadline kill must not wait behind a watch of a killed query on a hung server
            ScheduledExecutorService watchdog = resources.add(Watchdogs.forSource("mysql", source, 2), ExecutorService::shutdownNow);
            String pinSql = flavor.pinSql(server.pins());
            // the kill path's connection is reserved first, so a full server cannot lock it out later
            MySqlExecutor.KillChannel control = resources.add(new MySqlExecutor.KillChannel(() -> {
                Connection c = JdbcStartup.connect(DRIVER.get(), settings.jdbcUrl(), driverProperties(settings, timeoutMillis));
                try (Statement s = c.createStatement()) {
                    s.execute(pinSql);
                } catch (SQLException e) {
                    c.close();
                    throw e;
                }
                return c;
            }, watchdog));
            // a checkout (a wait for a free connection, a new connection, a validation) is bounded by the time limit
            HikariConfig pool = new HikariConfig(JdbcPool.named(source + "-queries").size(settings.poolSize()).minimumIdle(1)
                    .autoCommit(true).initSql(pinSql).checkoutWithin(timeoutMillis).hikariProperties());
            // the driver instance, never DriverManager (which HikariCP asks for a jdbcUrl): it starts in a plug-in folder too
            pool.setDataSource(new DriverSource(DRIVER.get(), settings.jdbcUrl(), driverProperties(settings, timeoutMillis)));
            HikariDataSource queries = resources.add(new HikariDataSource(pool));
            MySqlExecutor executor = new MySqlExecutor(queries, control, flavor, server.pins(), watchdog, settings.maxConcurrentQueries());
            try (Connection c = queries.getConnection()) {
                executor.verifySessionForStartup(c);
            }
            Optional<Long> hint = flavor == ServerFlavor.MYSQL ? Optional.of(timeoutMillis) : Optional.empty();
            CachingValidator validator = new CachingValidator(new MySqlValidator(source, server.schema(), policy, hint, server.reading()));
            // what the server and the catalogue know about the function names a configuration lists; the host decides
            String serverName = flavor == ServerFlavor.MARIADB ? "MariaDB" : "MySQL";
            FunctionLookup lookup = (functions, tableFunctions) -> {
                try (Connection c = queries.getConnection()) {
                    return CatalogLoader.functionFacts(c, serverName, functions, tableFunctions);
                } catch (SQLException e) {
                    throw start.failure(e);
                }
            };
            return new EngineParts(source, policy, validator, executor, CatalogLoader.view(server.schema(), policy),
                    EngineCapability.all(), server.defaults(), lookup);
        });
    }

    /** What the bootstrap connection found: the server, its pinned session, the catalog, the defaults it reports and how it reads quotes and table names. */
    private record Server(ServerFlavor flavor, ServerFlavor.Pins pins, SchemaSnapshot schema, EngineDefaults defaults,
            ServerReading reading) {
    }

    private static long lowerCaseTableNames(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SELECT @@lower_case_table_names")) {
            // unknown counts as the strictest reading: names compared exactly
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    private static String sqlMode(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SELECT @@SESSION.sql_mode")) {
            return rs.next() && rs.getString(1) != null ? rs.getString(1) : "";
        }
    }

    /**
     * Pins the bootstrap session and returns the pins with the sql_mode as the server reports it
     * back, which every pooled session must then match exactly.
     */
    private static ServerFlavor.Pins pin(Connection bootstrap, ServerFlavor flavor, String source, ServerFlavor.Pins wanted)
            throws SQLException {
        try (Statement s = bootstrap.createStatement()) {
            s.execute(flavor.pinSql(wanted));
        }
        String actual = sqlMode(bootstrap);
        if (!ServerFlavor.parsingSafe(ServerFlavor.modes(actual))) {
            throw new GuardException(ErrorCode.CONFIGURATION_ERROR,
                    "Source '" + source + "': the server does not keep the sql_mode sqlguard needs (NO_BACKSLASH_ESCAPES on, ANSI_QUOTES and PIPES_AS_CONCAT off).");
        }
        return new ServerFlavor.Pins(String.join(",", ServerFlavor.modes(actual)), wanted.timeoutMillis(),
                wanted.groupConcatMaxLen(), wanted.recursionLimit());
    }

    private static GuardException startupFailure(String source, String user, Exception e) {
        return JdbcStartup.failure(source, e, s -> switch (s.getErrorCode()) {
            case 1045, 1698 -> Optional.of("the database refused the login of user " + JdbcStartup.user(user)
                    + " (check the username and password).");
            case 1044, 1049 -> Optional.of("the account cannot use the configured database.");
            default -> Optional.empty();
        }, "the database could not be reached.");
    }

    /** Connector/J, from this adapter's class loader, made once. */
    private static final java.util.function.Supplier<java.sql.Driver> DRIVER = JdbcStartup.lazyDriver(MySqlEngineFactory.class, "com.mysql.cj.jdbc.Driver");

    private static Properties driverProperties(MySqlSettings settings, long timeoutMillis) {
        Properties p = networkProperties(settings, forcedProperties(), timeoutMillis);
        p.setProperty("user", settings.username());
        p.setProperty("password", settings.password());
        return p;
    }

    /**
     * Socket timeouts derived from the time limit unless the URL sets its own: a connect waits at
     * most the limit (at least 1 s, at most 10 s), and no read blocks longer than the limit plus 2 s
     * even before the executor narrows it per call, so a hung server cannot hold a call.
     */
    static Properties networkProperties(MySqlSettings settings, Properties p, long timeoutMillis) {
        if (settings.urlProperty("connectTimeout").isEmpty()) {
            p.setProperty("connectTimeout", Long.toString(Math.max(1_000, Math.min(10_000, timeoutMillis))));
        }
        if (settings.urlProperty("socketTimeout").isEmpty()) {
            p.setProperty("socketTimeout", Long.toString(timeoutMillis + 2_000));
        }
        return p;
    }

    /**
     * Driver settings sqlguard forces: one statement per call, no LOCAL INFILE, no
     * deserialization, no reconnect (it would lose the pinned session), no client-side escape
     * rewriting, server-side prepared statements (parameters never enter the SQL text), errors
     * without connection details, and no {@code SET net_write_timeout} around each streamed result
     * (two extra round trips per call; the call's own deadline bounds a stalled result instead).
     */
    static Properties forcedProperties() {
        Properties p = new Properties();
        p.setProperty("allowMultiQueries", "false");
        p.setProperty("allowLoadLocalInfile", "false");
        p.setProperty("allowUrlInLocalInfile", "false");
        p.setProperty("autoDeserialize", "false");
        p.setProperty("autoReconnect", "false");
        p.setProperty("useCursorFetch", "false");
        p.setProperty("processEscapeCodesForPrepStmts", "false");
        p.setProperty("useServerPrepStmts", "true");
        p.setProperty("cachePrepStmts", "true");
        p.setProperty("prepStmtCacheSize", "256");
        p.setProperty("readOnlyPropagatesToServer", "true");
        p.setProperty("characterEncoding", "UTF-8");
        p.setProperty("zeroDateTimeBehavior", "CONVERT_TO_NULL");
        p.setProperty("yearIsDateType", "false");
        p.setProperty("paranoid", "true");
        p.setProperty("connectionAttributes", "none");
        p.setProperty("netTimeoutForStreamingResults", "0");
        return p;
    }

}
