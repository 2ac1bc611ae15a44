package dev.sqlguard.h2;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;

import dev.sqlguard.domain.EngineDefaults;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Names;
import dev.sqlguard.domain.port.StatementValidator;
import dev.sqlguard.domain.port.Validation;
import dev.sqlguard.h2.internal.H2Catalog;
import dev.sqlguard.h2.internal.H2Dialect;
import dev.sqlguard.h2.internal.H2Executor;
import dev.sqlguard.h2.internal.H2Session;
import dev.sqlguard.jdbc.JdbcStartup;
import dev.sqlguard.jdbc.LexicalCheck;
import dev.sqlguard.jdbc.SourceSettings;
import dev.sqlguard.jdbc.StrictQuotingDialect;
import dev.sqlguard.jdbc.Watchdogs;
import dev.sqlguard.jdbc.ansi.AnsiCheck;
import dev.sqlguard.jdbc.ansi.RowPolicyCheck;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot;
import dev.sqlguard.ports.AbstractEngineFactory;
import dev.sqlguard.ports.ComposedEngine;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineCapability;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;
import dev.sqlguard.ports.EngineDialect;
import dev.sqlguard.ports.EngineParts;
import dev.sqlguard.ports.EngineResources;
import dev.sqlguard.ports.PropertySpec;

/**
 * The {@code h2} engine, the minimal example of docs/writing-an-adapter.md: an embedded H2 database
 * file, opened read-only by H2 itself, each call on a connection of its own, checked and rendered by
 * the kit's {@link AnsiCheck}, streamed and bounded by the kit's cursor. Settings: {@code database}
 * (the file, without {@code .mv.db}), {@code username} (default {@code sa}), {@code password}.
 */
public final class H2EngineFactory extends AbstractEngineFactory {
    /** The database file, without its {@code .mv.db} suffix. */
    public static final String DATABASE = "database";

    private static final List<PropertySpec> PROPERTIES = List.of(
            PropertySpec.required(DATABASE, "The H2 database file, without its .mv.db suffix.").asPath(),
            PropertySpec.optional(SourceSettings.USERNAME, "sa", "The database user."),
            PropertySpec.optional(SourceSettings.PASSWORD, "empty", "The user's password.").asSensitive());

    /**
     * How the host writes SQL for H2: names bare (no quote character), because the host's names are
     * lower case and H2 reads a quoted name exactly but an unquoted one in upper case, as it stores them.
     */
    private static final EngineDialect DIALECT = new EngineDialect("H2", Optional.empty(), Optional.empty(), List.of(
            "Write names unquoted (H2 reads them in upper case, as it stores them) and text with single quotes.",
            "Dates: DATE '2024-01-31', EXTRACT(YEAR FROM d)."), Map.of());

    public H2EngineFactory() {
        super("h2", PROPERTIES, DIALECT);
    }

    @Override
    public Engine create(EngineConfig config, EngineContext context) {
        config.check(PROPERTIES);
        String source = config.sourceId();
        // the engine reports its schema and function classes; the domain fills them into the configured policy
        EngineDefaults defaults = EngineDefaults.inSchema(H2Session.SCHEMA, H2Dialect.INSTANCE.lexicon().functions().functionClasses());
        GuardrailPolicy policy = RowPolicyCheck.inSchema(source, SourceSettings.allowlistIn(name(), config, H2Session.SCHEMA, Names::fold),
                H2Session.SCHEMA).effective(defaults);
        // H2 itself refuses every write: the file is opened read-only, and only if it exists
        String url = "jdbc:h2:file:" + config.properties().get(DATABASE) + ";ACCESS_MODE_DATA=r;IFEXISTS=TRUE";
        Properties login = new Properties();
        login.setProperty("user", config.properties().getOrDefault(SourceSettings.USERNAME, "sa"));
        login.setProperty("password", config.properties().getOrDefault(SourceSettings.PASSWORD, ""));

        EngineResources resources = new EngineResources();
        try {
            // the driver from this adapter's class loader, never DriverManager: it works in a plug-in folder
            Driver driver = JdbcStartup.driver(H2EngineFactory.class, "org.h2.Driver");
            H2Executor.Connections connections = () -> JdbcStartup.connect(driver, url, login);
            // keeps the database open between calls; each call opens a connection of its own
            Connection anchor = resources.add(connections.open());
            H2Session.requireReadOnly(anchor, source);
            SchemaSnapshot schema = H2Catalog.load(anchor, source, policy.tables());
            // each row filter and mask, as the derived table a governed table becomes, prepared once (H2 resolves at prepare)
            RowPolicyCheck.check(source, schema, policy, H2Dialect.INSTANCE, attribute -> "?", (sql, placeholders) -> anchor.prepareStatement(sql).close());
            ScheduledExecutorService watchdog = resources.add(Watchdogs.forSource(name(), source), ExecutorService::shutdownNow);

            AnsiCheck check = new AnsiCheck(source, H2Dialect.INSTANCE, schema, policy,
                    sql -> LexicalCheck.check(sql, policy.limits().maxSqlLength(), 32, StrictQuotingDialect.INSTANCE), null);
            StatementValidator validator = request -> Validation.checked(request.sql(), sql -> check.plan(sql, request.params().size()))
                    .withParameters(request.params());
            H2Executor executor = new H2Executor(connections, watchdog);
            return new ComposedEngine(new EngineParts(source, policy, validator, executor, () -> schema.describe(policy),
                    EngineCapability.all(), defaults, H2Dialect.INSTANCE.lexicon().functions()::facts), resources);
        } catch (SQLException | RuntimeException e) {
            resources.close();
            throw JdbcStartup.failure(source, e, s -> switch (s.getErrorCode()) {
                case 28000 -> Optional.of("H2 refused the login of user " + JdbcStartup.user(login.getProperty("user")) + ".");
                case 90146 -> Optional.of("the H2 database file does not exist.");
                default -> Optional.empty();
            }, "the H2 database could not be opened.");
        }
    }
}
