package dev.sqlguard.trino;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.trino.jdbc.TrinoDriver;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.jdbc.Watchdogs;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;
import dev.sqlguard.ports.EngineDialect;
import dev.sqlguard.ports.EngineFactory;
import dev.sqlguard.ports.PropertySpec;
import dev.sqlguard.trino.internal.CatalogLoader;
import dev.sqlguard.trino.internal.FunctionCatalog;
import dev.sqlguard.trino.internal.TrinoEngine;
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
public final class TrinoEngineFactory implements EngineFactory {
    private static final Logger LOG = Logger.getLogger(TrinoEngineFactory.class.getName());

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
            .withDateBuckets(Map.of(
                    "day", "CAST(date_trunc('day', {column}) AS date)",
                    "week", "CAST(date_trunc('week', {column}) AS date)",
                    "month", "CAST(date_trunc('month', {column}) AS date)",
                    "year", "CAST(date_trunc('year', {column}) AS date)"));

    @Override
    public String name() {
        return "trino";
    }

    @Override
    public List<PropertySpec> properties() {
        return PROPERTIES;
    }

    @Override
    public EngineDialect dialect() {
        return DIALECT;
    }

    @Override
    public Engine create(EngineConfig config, EngineContext context) {
        config.check(PROPERTIES);
        TrinoSettings settings = TrinoSettings.parse(config);
        String source = config.sourceId();
        GuardrailPolicy policy = config.policy();
        if (!policy.tables().restricted()) {
            throw new GuardException(ErrorCode.CONFIGURATION_ERROR,
                    "Source '" + source + "': the trino engine needs a table allowlist (no allowlist, no queries).");
        }
        Optional<String> policySchema = policy.tables().defaultSchema();
        if (policySchema.isPresent() && !policySchema.get().equals(settings.schema())) {
            throw new GuardException(ErrorCode.CONFIGURATION_ERROR,
                    "Source '" + source + "': the allowlist's default schema differs from 'schema'.");
        }
        FunctionCatalog.checkPolicy(source, policy.functions());
        GuardrailPolicy effective = policy.withTables(TrinoEngine.withDefaultSchema(policy.tables(), settings.schema()))
                .withFunctions(policy.functionsOr(FunctionCatalog.defaults()));

        TrinoDriver driver = new TrinoDriver();
        ScheduledExecutorService watchdog = Watchdogs.forSource("trino", source, 2);
        try {
            Limits limits = effective.limits();
            SchemaSnapshot schema;
            try (Connection bootstrap = open(driver, settings, limits)) {
                TrinoStartup.verifySession(bootstrap, limits);
                Set<String> risky = TrinoStartup.writes(bootstrap, settings.catalog(), settings.schema(), effective.tables().tables().keySet());
                if (!risky.isEmpty()) {
                    String message = "Source '" + source + "': the Trino user may write: " + risky
                            + ". Make the catalog read-only for it in the cluster's access control.";
                    if (settings.requireReadOnlyAccount()) {
                        throw new GuardException(ErrorCode.CONFIGURATION_ERROR, message);
                    }
                    LOG.warning(message + " sqlguard's own controls still apply.");
                }
                schema = CatalogLoader.load(bootstrap, source, settings.catalog(), settings.schema(), effective.tables());
            }
            TrinoExecutor executor = new TrinoExecutor(l -> open(driver, settings, l), watchdog);
            TrinoValidator validator = new TrinoValidator(source, schema, effective, () -> open(driver, settings, limits));
            return new TrinoEngine(source, effective, validator, executor, schema, watchdog, driver);
        } catch (SQLException | RuntimeException e) {
            watchdog.shutdownNow();
            dev.sqlguard.jdbc.JdbcCursor.closeQuietly(driver);
            if (e instanceof GuardException g) {
                throw g;
            }
            throw startupFailure(source, e);
        }
    }

    private static Connection open(TrinoDriver driver, TrinoSettings settings, Limits limits) throws SQLException {
        Connection c = driver.connect(settings.jdbcUrl(), settings.driverProperties(limits));
        if (c == null) {
            throw new SQLException("the driver does not accept the URL");
        }
        return c;
    }

    private static GuardException startupFailure(String source, Exception e) {
        LOG.log(Level.FINE, "startup failed", e);
        if (e instanceof SQLException s && s.getErrorCode() == 4) {
            return new GuardException(ErrorCode.CONFIGURATION_ERROR, "Source '" + source + "': the user may not read the configured catalog.", e);
        }
        if (e instanceof SQLException s && (s.getErrorCode() == 44 || s.getErrorCode() == 45)) {
            return new GuardException(ErrorCode.CONFIGURATION_ERROR, "Source '" + source + "': the configured catalog or schema does not exist.", e);
        }
        return new GuardException(ErrorCode.ENGINE_UNAVAILABLE, "Source '" + source + "': the Trino cluster could not be reached.", e);
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

    @Override
    public String toString() {
        return "TrinoEngineFactory[trino]";
    }
}
