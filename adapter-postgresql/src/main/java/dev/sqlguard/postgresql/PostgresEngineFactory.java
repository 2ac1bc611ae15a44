package dev.sqlguard.postgresql;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.EngineDefaults;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.port.CachingValidator;
import dev.sqlguard.jdbc.DriverSource;
import dev.sqlguard.jdbc.JdbcEngineStart;
import dev.sqlguard.jdbc.JdbcPool;
import dev.sqlguard.jdbc.JdbcStartup;
import dev.sqlguard.jdbc.SourceSettings;
import dev.sqlguard.jdbc.SourceThreads;
import dev.sqlguard.jdbc.Watchdogs;
import dev.sqlguard.jdbc.ansi.RowPolicyCheck;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot;
import dev.sqlguard.postgresql.internal.CatalogLoader;
import dev.sqlguard.postgresql.internal.FunctionCatalog;
import dev.sqlguard.postgresql.internal.PostgresExecutor;
import dev.sqlguard.postgresql.internal.PostgresSettings;
import dev.sqlguard.postgresql.internal.PostgresValidator;
import dev.sqlguard.postgresql.internal.PrivilegeAudit;
import dev.sqlguard.postgresql.internal.SessionPin;
import dev.sqlguard.ports.AbstractEngineFactory;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineCapability;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;
import dev.sqlguard.ports.EngineDialect;
import dev.sqlguard.ports.EngineParts;
import dev.sqlguard.ports.PropertySpec;

/**
 * The {@code postgresql} engine: PostgreSQL 13+ through pgjdbc.
 *
 * <p>Settings ({@link #properties()}): {@code url} ({@code jdbc:postgresql://host[:port]/database}),
 * {@code username}, {@code password}, {@code defaultSchema} (default {@code public}),
 * {@code requireReadOnlyAccount} (default true) and {@code poolSize} (default 4). The policy must
 * carry a table allowlist. See {@code docs/engines/postgresql.md}.
 */
public final class PostgresEngineFactory extends AbstractEngineFactory {
    private static final Logger LOG = LoggerFactory.getLogger(PostgresEngineFactory.class);
    /** Plans kept by the validator's cache. */
    static final int PLANS = 512;

    private static final List<PropertySpec> PROPERTIES = List.of(
            PropertySpec.required(SourceSettings.URL, "jdbc:postgresql://host[:port]/database[?property=value&...], one plain host. "
                    + "Only TLS and timeout properties are accepted in the URL."),
            PropertySpec.required(SourceSettings.USERNAME, "The database role; give it SELECT on the allowlisted tables only."),
            PropertySpec.optional(SourceSettings.PASSWORD, "empty", "The role's password.").asSensitive(),
            PropertySpec.optional(SourceSettings.DEFAULT_SCHEMA, PostgresSettings.DEFAULT_SCHEMA_VALUE,
                    "The schema unqualified table names resolve to (after pg_catalog, which always comes first)."),
            PropertySpec.optional(SourceSettings.REQUIRE_READ_ONLY_ACCOUNT, "true",
                    "true refuses to start when the role can write, owns tables, is a superuser or reaches server files or programs;"
                            + " false only warns."),
            PropertySpec.optional(SourceSettings.POOL_SIZE, Integer.toString(SourceSettings.DEFAULT_POOL_SIZE),
                    "Connections in the query pool, 1 to 64."));

    /**
     * PostgreSQL's SQL as the host writes it: double-quoted identifiers, percentile_cont for
     * quantiles, date buckets from {@code date_trunc} (ISO weeks start on Monday), which a source's
     * function list must allow.
     */
    private static final EngineDialect DIALECT = new EngineDialect("PostgreSQL", Optional.of('"'),
            Optional.of("percentile_cont({fraction}) WITHIN GROUP (ORDER BY {column})"), List.of(
            "Quote identifiers with double quotes and text with single quotes; no dollar quotes, E'' strings or $1 parameters.",
            "Dates: DATE '2024-01-31', date_trunc('month', d), d + INTERVAL '7 days', EXTRACT(YEAR FROM d).",
            "Median: percentile_cont(0.5) WITHIN GROUP (ORDER BY x). Casts: CAST(x AS numeric(12,2)) or x::numeric.",
            "No regular-expression operators (~), JSON operators or array subscripts; use LIKE or ILIKE."), Map.of())
            .withDateBuckets(EngineDialect.dateTruncBuckets("date"));

    public PostgresEngineFactory() {
        super("postgresql", PROPERTIES, DIALECT);
    }

    @Override
    public Engine create(EngineConfig config, EngineContext context) {
        config.check(PROPERTIES);
        PostgresSettings settings = PostgresSettings.parse(config);
        String source = config.sourceId();
        GuardrailPolicy allowlisted = RowPolicyCheck.inSchema(source, SourceSettings.allowlistIn(name(), config, settings.schema(),
                schema -> schema), settings.schema());
        // the engine reports its schema and function classes; the domain fills them into the configured policy
        EngineDefaults defaults = EngineDefaults.inSchema(settings.schema(), FunctionCatalog.classes());
        GuardrailPolicy policy = allowlisted.effective(defaults);

        JdbcEngineStart start = new JdbcEngineStart(source, e -> startupFailure(source, settings.username(), e));

        JdbcEngineStart.Opener connect = () -> JdbcStartup.connect(DRIVER.get(), settings.jdbcUrl(), driverProperties(settings));
        Server server = start.onBootstrap(connect, bootstrap -> {
            bootstrap.setAutoCommit(true);
            SessionPin pin = SessionPin.of(settings.schema(), policy.limits(), canSetTempFileLimit(bootstrap)).capture(bootstrap);
            start.readOnlyAccount(LOG, settings.requireReadOnlyAccount(), PrivilegeAudit.riskyPrivileges(bootstrap),
                    "the database role holds privileges beyond reading: ", "Use a role with SELECT on the allowlisted tables only.");
            if (!pin.tempFileLimitPinned() && TEMP_FILE_LIMIT_SAID.add(source + "\n" + settings.jdbcUrl())) {
                // once per source and process, and only at info: a CLI call is a process, and the role's grant is the operator's
                // standing choice, not news on every call (docs/engines/postgresql.md says what it means)
                LOG.info("Source '" + source + "': the role may not set temp_file_limit; temporary files are bounded only by the"
                        + " server's own setting (GRANT SET ON PARAMETER temp_file_limit to the role to let sqlguard bound them).");
            }
            SchemaSnapshot schema = CatalogLoader.load(bootstrap, source, settings.schema(), policy.tables());
            PostgresValidator.checkRowPolicy(bootstrap, source, schema, policy);
            return new Server(pin, schema);
        });
        SessionPin pin = server.pin();
        SchemaSnapshot schema = server.schema();

        return start.compose(resources -> {
            // two threads: a pg_cancel_backend to a slow server must not hold up another query's deadline
            ScheduledExecutorService watchdog = resources.add(Watchdogs.forSource(name(), source, 2), ExecutorService::shutdownNow);
            HikariDataSource queries = resources.add(pool(settings, source + "-queries", settings.poolSize(), pin, 5_000,
                    policy.limits().memoryBytes()));
            // a cancel waits at most the executor's grace for a control connection
            HikariDataSource control = resources.add(pool(settings, source + "-control", 2, pin, PostgresExecutor.GRACE.toMillis(),
                    CONTROL_BUFFER_BYTES));
            // closed before the pools (the newest first): the rollbacks still queued end first
            ExecutorService releaser = resources.add(releaser(source, settings.poolSize()), PostgresEngineFactory::drain);
            PostgresExecutor executor = new PostgresExecutor(queries, control, pin, watchdog, releaser);
            executor.confirmSession();
            // EXPLAIN gets a pool of its own, so a burst of validations never delays a pg_cancel_backend
            HikariDataSource explain = resources.add(pool(settings, source + "-explain", 2, pin, 5_000, EXPLAIN_BUFFER_BYTES));
            CachingValidator validator = new CachingValidator(new PostgresValidator(source, schema, policy, explain), PLANS);
            // the planner's estimates at startup, shown as approximate row counts (none for a governed table)
            return new EngineParts(source, policy, validator, executor, () -> schema.describe(policy),
                    EngineCapability.all(), defaults, FunctionCatalog::facts);
        });
    }

    /** What the bootstrap connection found: the session every pooled connection pins, and the catalog. */
    private record Server(SessionPin pin, SchemaSnapshot schema) {
    }

    /** What a control connection's answer may buffer: a one-row boolean. */
    private static final long CONTROL_BUFFER_BYTES = 1L << 20;
    /** What an EXPLAIN's plan may buffer (a JSON plan of a long query runs to some hundred kB). */
    private static final long EXPLAIN_BUFFER_BYTES = 64L << 20;

    /**
     * The threads that end each call's transaction and return its connection after the caller has its
     * answer: as many as the pool has connections, so that a rollback stuck on a dead connection holds
     * up no other; when all are busy, the caller ends its own.
     */
    private static ExecutorService releaser(String source, int threads) {
        return SourceThreads.handOff("postgresql", "release", source, threads, Duration.ofSeconds(60));
    }

    /** Lets the rollbacks already handed over finish (for a bounded time), then stops the releaser. */
    private static void drain(ExecutorService releaser) {
        releaser.shutdown();
        try {
            if (!releaser.awaitTermination(PostgresExecutor.GRACE.toMillis() * 4, TimeUnit.MILLISECONDS)) {
                releaser.shutdownNow();
            }
        } catch (InterruptedException e) {
            releaser.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    /** Whether this role may set temp_file_limit (a superuser, or GRANT SET ON PARAMETER on PostgreSQL 15+). */
    private static boolean canSetTempFileLimit(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("SET temp_file_limit = '1MB'");
            s.execute("RESET temp_file_limit");
            return true;
        } catch (SQLException e) {
            if ("42501".equals(e.getSQLState())) {
                return false;
            }
            throw e;
        }
    }

    /** The sources whose temp_file_limit note this process has logged. */
    private static final Set<String> TEMP_FILE_LIMIT_SAID = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private static GuardException startupFailure(String source, String user, Exception e) {
        return JdbcStartup.failure(source, e, s -> {
            String state = s.getSQLState() != null ? s.getSQLState() : "";
            if (state.startsWith("28")) {
                return Optional.of("the database refused the login of user " + JdbcStartup.user(user)
                    + " (check the username and password).");
            }
            return state.equals("3D000") || state.equals("42501") ? Optional.of("the role cannot use the configured database.")
                    : Optional.empty();
        }, "the database could not be reached.");
    }

    private static HikariDataSource pool(PostgresSettings settings, String name, int size, SessionPin pin, long checkoutMillis,
                                         long resultBufferBytes) {
        Properties props = forcedProperties();
        props.setProperty("options", pin.startupOptions());
        // what one round trip may buffer in this JVM; past it pgjdbc fails the query (and closes the connection)
        props.setProperty("maxResultBuffer", Long.toString(resultBufferBytes));
        props.setProperty("user", settings.username());
        props.setProperty("password", settings.password());
        // a spare idle connection: a stopped query's connection is evicted, and the next call (whose one
        // deadline covers its checkout) should not wait for a new login while the pool refills.
        // The init SQL is committed (isolated): SET is transactional, and queries end in a rollback
        HikariConfig hc = new HikariConfig(JdbcPool.named(name).size(size).minimumIdle(Math.min(size, 2)).autoCommit(false)
                .initSql(pin.initSql()).isolateInternalQueries().checkoutMillis(checkoutMillis).hikariProperties());
        // the driver instance, never DriverManager (which HikariCP asks for a jdbcUrl): it starts in a plug-in folder too
        hc.setDataSource(new DriverSource(DRIVER.get(), settings.jdbcUrl(), props));
        return new HikariDataSource(hc);
    }

    /** pgjdbc, from this adapter's class loader, made once. */
    private static final java.util.function.Supplier<java.sql.Driver> DRIVER = JdbcStartup.lazyDriver(PostgresEngineFactory.class, "org.postgresql.Driver");

    private static Properties driverProperties(PostgresSettings settings) {
        Properties p = forcedProperties();
        p.setProperty("user", settings.username());
        p.setProperty("password", settings.password());
        return p;
    }

    /**
     * Driver settings sqlguard forces: the extended protocol (parameters never enter the SQL text),
     * read-only transactions from {@code setReadOnly}, strings sent untyped so the server infers
     * parameter types, no client-side logging, and a fixed application name.
     */
    static Properties forcedProperties() {
        Properties p = new Properties();
        p.setProperty("preferQueryMode", "extended");
        p.setProperty("readOnly", "true");
        p.setProperty("readOnlyMode", "always");
        p.setProperty("stringtype", "unspecified");
        p.setProperty("autosave", "never");
        p.setProperty("ApplicationName", "sqlguard");
        p.setProperty("escapeSyntaxCallMode", "select");
        return p;
    }

}
