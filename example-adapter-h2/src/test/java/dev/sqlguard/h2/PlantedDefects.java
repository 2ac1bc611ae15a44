package dev.sqlguard.h2;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;

import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.IntervalExpression;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Names;
import dev.sqlguard.domain.OutputColumn;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.port.ExecutionPort;
import dev.sqlguard.domain.port.ResultCursor;
import dev.sqlguard.domain.port.StatementValidator;
import dev.sqlguard.domain.port.Validation;
import dev.sqlguard.h2.internal.H2Catalog;
import dev.sqlguard.h2.internal.H2Dialect;
import dev.sqlguard.h2.internal.H2Executor;
import dev.sqlguard.h2.internal.H2Session;
import dev.sqlguard.jdbc.CallConnection;
import dev.sqlguard.jdbc.JdbcParameters;
import dev.sqlguard.jdbc.JdbcStartup;
import dev.sqlguard.jdbc.LexicalCheck;
import dev.sqlguard.jdbc.PreparedQuery;
import dev.sqlguard.jdbc.SourceSettings;
import dev.sqlguard.jdbc.StrictQuotingDialect;
import dev.sqlguard.jdbc.Watchdogs;
import dev.sqlguard.jdbc.ansi.AnsiCheck;
import dev.sqlguard.jdbc.ansi.AnsiDialect;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot;
import dev.sqlguard.jdbc.ansi.SqlStates;
import dev.sqlguard.ports.AbstractEngineFactory;
import dev.sqlguard.ports.ComposedEngine;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineCapability;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;
import dev.sqlguard.ports.EngineParts;
import dev.sqlguard.ports.EngineResources;

/**
 * The example adapter's {@code create}, step for step as {@link H2EngineFactory} has it, with one
 * defect planted by each subclass: the defects a third-party author made on purpose and the old
 * suite passed (issue 29). Each subclass is listed in this module's test {@code META-INF/services},
 * so that the contract suite can load it as a plug-in.
 */
public abstract class PlantedDefects extends AbstractEngineFactory {
    /** The defects. */
    enum Defect {
        /** The file opened read-write, and the check of READONLY() skipped. */
        READ_WRITE,
        /** No row bound in the rendered statement: only the reader stops. */
        NO_ROW_BOUND,
        /** No deadline: the cursor never stops the statement. */
        NO_DEADLINE,
        /** The connection from {@code DriverManager}, which a plug-in class loader's driver never reaches. */
        DRIVER_MANAGER
    }

    private final Defect defect;

    /** The defect this mutant carries. */
    Defect defect() {
        return defect;
    }

    PlantedDefects(Defect defect) {
        super("h2", new H2EngineFactory().properties(), new H2EngineFactory().dialect());
        this.defect = defect;
    }

    public static final class ReadWrite extends PlantedDefects {
        public ReadWrite() {
            super(Defect.READ_WRITE);
        }
    }

    public static final class NoRowBound extends PlantedDefects {
        public NoRowBound() {
            super(Defect.NO_ROW_BOUND);
        }
    }

    public static final class NoDeadline extends PlantedDefects {
        public NoDeadline() {
            super(Defect.NO_DEADLINE);
        }
    }

    public static final class UsesDriverManager extends PlantedDefects {
        public UsesDriverManager() {
            super(Defect.DRIVER_MANAGER);
        }
    }

    @Override
    public Engine create(EngineConfig config, EngineContext context) {
        config.check(properties());
        String source = config.sourceId();
        GuardrailPolicy policy = SourceSettings.allowlistIn(name(), config, H2Session.SCHEMA, Names::fold);
        String url = "jdbc:h2:file:" + config.properties().get(H2EngineFactory.DATABASE)
                + (defect == Defect.READ_WRITE ? "" : ";ACCESS_MODE_DATA=r") + ";IFEXISTS=TRUE";
        Properties login = new Properties();
        login.setProperty("user", config.properties().getOrDefault(SourceSettings.USERNAME, "sa"));
        login.setProperty("password", config.properties().getOrDefault(SourceSettings.PASSWORD, ""));
        EngineResources resources = new EngineResources();
        try {
            // DriverManager as a third-party author wrote it: the driver class is never touched, so in a plug-in
            // folder only a driver of the host's class loader could answer, and the manager hands it to no plug-in
            Driver driver = defect == Defect.DRIVER_MANAGER ? null : JdbcStartup.driver(H2EngineFactory.class, "org.h2.Driver");
            H2Executor.Connections connections = defect == Defect.DRIVER_MANAGER ? () -> DriverManager.getConnection(url, login)
                    : () -> JdbcStartup.connect(driver, url, login);
            Connection anchor = resources.add(connections.open());
            if (defect != Defect.READ_WRITE) {
                H2Session.requireReadOnly(anchor, source);
            }
            SchemaSnapshot schema = H2Catalog.load(anchor, source, policy.tables());
            ScheduledExecutorService watchdog = resources.add(Watchdogs.forSource(name(), source), ExecutorService::shutdownNow);
            AnsiDialect dialect = defect == Defect.NO_ROW_BOUND ? new Unbounded() : H2Dialect.INSTANCE;
            AnsiCheck check = new AnsiCheck(source, dialect, schema, policy,
                    sql -> LexicalCheck.check(sql, policy.limits().maxSqlLength(), 32, StrictQuotingDialect.INSTANCE), null);
            StatementValidator validator = request -> Validation.checked(request.sql(), sql -> check.plan(sql, request.params().size()))
                    .withParameters(request.params());
            ExecutionPort executor = defect == Defect.NO_DEADLINE ? new WithoutDeadline(connections) : new H2Executor(connections, watchdog);
            return new ComposedEngine(new EngineParts(source, policy, validator, executor, () -> schema.describe(policy),
                    EngineCapability.all()), resources);
        } catch (SQLException | RuntimeException e) {
            resources.close();
            throw JdbcStartup.failure(source, e, s -> Optional.empty(), "the H2 database could not be opened.");
        }
    }

    /** H2's dialect without the row limit in the statement. */
    private static final class Unbounded implements AnsiDialect {
        @Override
        public Lexicon lexicon() {
            return H2Dialect.INSTANCE.lexicon();
        }

        @Override
        public String interval(IntervalExpression e) {
            return H2Dialect.INSTANCE.interval(e);
        }

        @Override
        public String label(Expression e, int position) {
            return H2Dialect.INSTANCE.label(e, position);
        }

        @Override
        public String limitClause(Long rows, long offset) {
            return H2Dialect.INSTANCE.limitClause(null, offset);
        }
    }

    /** {@link H2Executor} without {@code .deadline(...)}. */
    private static final class WithoutDeadline implements ExecutionPort {
        private final H2Executor.Connections connections;

        WithoutDeadline(H2Executor.Connections connections) {
            this.connections = connections;
        }

        @Override
        public ResultCursor execute(QueryPlan plan) {
            Connection connection = CallConnection.open(connections::open);
            return PreparedQuery.on(connection, c -> c.prepareStatement(plan.executableSql()),
                            statement -> JdbcParameters.bind(statement, plan.parameters(), Types.NULL, JdbcParameters.OFFSET_TEMPORALS),
                            e -> SqlStates.byClass(e.getSQLState() == null ? "" : e.getSQLState(), e))
                    .expectLabels(plan.outputs().stream().map(OutputColumn::name).toList())
                    .start();
        }
    }
}
