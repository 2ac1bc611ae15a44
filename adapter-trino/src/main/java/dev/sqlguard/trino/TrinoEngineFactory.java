package dev.sqlguard.trino;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.EngineDefaults;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.jdbc.CallConnection;
import dev.sqlguard.jdbc.JdbcEngineStart;
import dev.sqlguard.jdbc.JdbcStartup;
import dev.sqlguard.jdbc.SourceSettings;
import dev.sqlguard.jdbc.SourceThreads;
import dev.sqlguard.jdbc.Watchdogs;
import dev.sqlguard.jdbc.ansi.RowPolicyCheck;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot;
import dev.sqlguard.ports.AbstractEngineFactory;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineCapability;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;
import dev.sqlguard.ports.EngineDialect;
import dev.sqlguard.ports.EngineParts;
import dev.sqlguard.ports.PropertySpec;
import dev.sqlguard.trino.internal.BoundedTrinoDriver;
import dev.sqlguard.trino.internal.CatalogLoader;
import dev.sqlguard.trino.internal.FunctionCatalog;
import dev.sqlguard.trino.internal.TrinoExecutor;
import dev.sqlguard.trino.internal.TrinoSettings;
import dev.sqlguard.trino.internal.TrinoStartup;
import dev.sqlguard.trino.internal.TrinoValidator;

/**
 * The {@code trino} engine: a Trino cluster through trino-jdbc.
 *
 * <p>Settings ({@link #properties()}): {@code url} ({@code jdbc:trino://host[:port]}), {@code user},
 * {@code catalog}, {@code schema}, {@code password} (TLS only), {@code ssl},
 * {@code sslTrustStorePath}, {@code sslTrustStorePassword} and {@code requireReadOnlyAccount}
 * (default true). The policy must carry a table allowlist. See {@code docs/engines/trino.md}.
 */
public final class TrinoEngineFactory extends AbstractEngineFactory {
    private static final Logger LOG = LoggerFactory.getLogger(TrinoEngineFactory.class);
    /** The least time the start's round trips get together, however short a query's limit. */
    private static final java.time.Duration START_BUDGET = java.time.Duration.ofSeconds(60);
    /** The most EXPLAINs a source asks at once on threads of its own (a statement asks four). */
    static final int EXPLAIN_THREADS = 16;

    private static final List<PropertySpec> PROPERTIES = List.of(
            PropertySpec.required(TrinoSettings.URL, "jdbc:trino://host[:port], one plain host; nothing else in the URL."),
            PropertySpec.required(TrinoSettings.USER, "The Trino user; the cluster's access control should let it read the allowlisted tables only."),
            PropertySpec.required(TrinoSettings.CATALOG, "The catalog every table name resolves to."),
            PropertySpec.required(TrinoSettings.SCHEMA, "The schema unqualified table names resolve to."),
            PropertySpec.optional(TrinoSettings.PASSWORD, "empty", "The user's password (needs ssl: true).").asSensitive(),
            PropertySpec.optional(TrinoSettings.SSL, "false", "true speaks TLS to the coordinator."),
            PropertySpec.optional(TrinoSettings.SSL_TRUST_STORE_PATH, "the JVM's", "A trust store for the coordinator's certificate.").asPath(),
            PropertySpec.optional(TrinoSettings.SSL_TRUST_STORE_PASSWORD, "empty", "The trust store's password.").asSensitive(),
            PropertySpec.optional(TrinoSettings.REQUIRE_READ_ONLY_ACCOUNT, "true",
                    "true refuses to start when the user may create tables or insert into an allowlisted table; false only warns."));

    /** Trino's SQL as the host writes it: double-quoted identifiers, approx_percentile, date buckets from date_trunc. */
    private static final EngineDialect DIALECT = new EngineDialect("Trino", Optional.of('"'),
            Optional.of("approx_percentile({column}, {fraction})"), List.of(
            "Quote identifiers with double quotes and text with single quotes; names are case-insensitive.",
            "Dates: DATE '2024-01-31', date_trunc('month', d), d + INTERVAL '7' DAY, EXTRACT(YEAR FROM d), year(d).",
            "Median: approx_percentile(x, 0.5). Casts: CAST(x AS decimal(12,2)); no ::, ILIKE or DISTINCT ON.",
            "No regular expressions, lambdas, arrays, JSON or table functions; use LIKE and CASE."), Map.of())
            .withDateBuckets(EngineDialect.dateTruncBuckets("date"));

    public TrinoEngineFactory() {
        super("trino", PROPERTIES, DIALECT);
    }

    @Override
    public Engine create(EngineConfig config, EngineContext context) {
        config.check(PROPERTIES);
        TrinoSettings settings = TrinoSettings.parse(config);
        String source = config.sourceId();
        GuardrailPolicy policy = RowPolicyCheck.inSchema(source, SourceSettings.allowlistIn(name(), config, TrinoSettings.SCHEMA,
                settings.schema(), schema -> schema), settings.schema());
        // the engine reports its schema and function classes; the domain fills them into the configured policy
        EngineDefaults defaults = EngineDefaults.inSchema(settings.schema(), FunctionCatalog.classes());
        GuardrailPolicy effective = policy.effective(defaults);

        JdbcEngineStart start = new JdbcEngineStart(source, e -> startupFailure(source, e));

        // the driver is the first resource: the bootstrap connection is opened through it
        return start.compose(resources -> {
            BoundedTrinoDriver driver = resources.add(new BoundedTrinoDriver());
            ScheduledExecutorService watchdog = resources.add(Watchdogs.forSource("trino", source, 2), ExecutorService::shutdownNow);
            Limits limits = effective.limits();
            SchemaSnapshot schema;
            // the start's round trips (SHOW SESSION, the privilege probes, the catalog) may take longer than one
            // query's limit on a cold or loaded cluster (measured: past 2 s in CI); they get at least 30 s, and
            // the check that the cluster takes the session's time limit is made on these values
            Limits startup = limits.timeout().compareTo(java.time.Duration.ofSeconds(30)) >= 0 ? limits
                    : limits.withTimeout(java.time.Duration.ofSeconds(30));
            // the start's round trips together get at least a minute (each HTTP round trip of a connection ends by its deadline)
            long startDeadline = System.nanoTime() + Math.max(startup.timeout().toNanos(), START_BUDGET.toNanos());
            try (Connection bootstrap = open(driver, settings, startup, startDeadline)) {
                TrinoStartup.verifySession(bootstrap, startup);
                start.readOnlyAccount(LOG, settings.requireReadOnlyAccount(),
                        TrinoStartup.writes(bootstrap, settings.catalog(), settings.schema(), effective.tables().tables().keySet()),
                        "the Trino user may write: ", "Make the catalog read-only for it in the cluster's access control.");
                schema = CatalogLoader.load(bootstrap, source, settings.catalog(), settings.schema(), effective.tables());
                TrinoValidator.checkRowPolicy(bootstrap, source, schema, effective);
            }
            TrinoExecutor executor = new TrinoExecutor(l -> open(driver, settings, l), watchdog);
            ExecutorService explaining = resources.add(explaining(source), ExecutorService::shutdownNow);
            TrinoValidator validator = new TrinoValidator(source, schema, effective, () -> open(driver, settings, limits), explaining);
            return new EngineParts(source, effective, validator, executor, () -> schema.describe(effective),
                    EngineCapability.all(), defaults, FunctionCatalog::facts);
        });
    }

    /**
     * The threads that ask a statement's EXPLAINs at once: at most {@link #EXPLAIN_THREADS}, idle ones ended after a
     * while; when all are busy, a call asks its EXPLAINs on its own thread, one after another, so that many calls at
     * once never start more than that many EXPLAINs beside their own.
     */
    private static ExecutorService explaining(String source) {
        return SourceThreads.handOff("trino", "explain", source, EXPLAIN_THREADS, java.time.Duration.ofSeconds(30));
    }

    /**
     * A connection for one call (a query, or validation's {@code EXPLAIN}s), opened on the calling
     * thread: each of its HTTP round trips ends by the call's one deadline (or, outside a call, by
     * the limit from now), so a coordinator that stops answering cannot hold the call past it.
     */
    private static Connection open(BoundedTrinoDriver driver, TrinoSettings settings, Limits limits) throws SQLException {
        return open(driver, settings, limits, CallConnection.deadlineNanos(limits.timeout()));
    }

    private static Connection open(BoundedTrinoDriver driver, TrinoSettings settings, Limits limits, long deadlineNanos) throws SQLException {
        Connection c = driver.connect(settings.jdbcUrl(), settings.driverProperties(limits), deadlineNanos);
        if (c == null) {
            throw new SQLException("the driver does not accept the URL");
        }
        return c;
    }

    private static GuardException startupFailure(String source, Exception e) {
        return JdbcStartup.failure(source, e, s -> switch (s.getErrorCode()) {
            case 4 -> Optional.of("the user may not read the configured catalog.");
            case 44, 45 -> Optional.of("the configured catalog or schema does not exist.");
            default -> Optional.empty();
        }, "the Trino cluster could not be reached.");
    }

    /** The session properties a source's queries carry, for tests and docs. */
    static Map<String, String> sessionProperties(Limits limits) {
        Map<String, String> out = new HashMap<>();
        for (String pair : TrinoSettings.sessionProperties(limits).split(";")) {
            int colon = pair.indexOf(':');
            out.put(pair.substring(0, colon), pair.substring(colon + 1));
        }
        return out;
    }

}
