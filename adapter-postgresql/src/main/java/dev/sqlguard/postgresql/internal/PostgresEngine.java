package dev.sqlguard.postgresql.internal;

import static java.util.Objects.requireNonNull;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;

import com.zaxxer.hikari.HikariDataSource;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.port.CachingValidator;
import dev.sqlguard.domain.port.ExecutionPort;
import dev.sqlguard.domain.port.StatementValidator;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot;
import dev.sqlguard.ports.CatalogView;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineCapability;

/** One PostgreSQL source: its validator, executor, catalog and the pools behind them. */
public final class PostgresEngine implements Engine {
    /** Plans kept by the validator's cache. */
    static final int PLANS = 512;

    private final String sourceId;
    private final GuardrailPolicy policy;
    private final CachingValidator validator;
    private final PostgresExecutor executor;
    private final SchemaSnapshot schema;
    private final List<HikariDataSource> pools;
    private final ScheduledExecutorService watchdog;

    public PostgresEngine(String sourceId, GuardrailPolicy policy, PostgresValidator validator, PostgresExecutor executor,
                          SchemaSnapshot schema, List<HikariDataSource> pools, ScheduledExecutorService watchdog) {
        this.sourceId = requireNonNull(sourceId, "sourceId is null");
        this.policy = requireNonNull(policy, "policy is null");
        this.validator = new CachingValidator(requireNonNull(validator, "validator is null"), PLANS);
        this.executor = requireNonNull(executor, "executor is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.pools = List.copyOf(pools);
        this.watchdog = requireNonNull(watchdog, "watchdog is null");
    }

    @Override
    public String sourceId() {
        return sourceId;
    }

    @Override
    public GuardrailPolicy policy() {
        return policy;
    }

    @Override
    public StatementValidator validator() {
        return validator;
    }

    @Override
    public ExecutionPort execution() {
        return executor;
    }

    /** The executor, for tests and metrics. */
    public PostgresExecutor executor() {
        return executor;
    }

    /** The allowlisted tables and columns with their server types; row counts are the planner's estimates at startup. */
    @Override
    public CatalogView catalog() {
        return () -> schema.describe(policy);
    }

    @Override
    public Set<EngineCapability> capabilities() {
        return EnumSet.of(EngineCapability.GROUP_BY, EngineCapability.JOINS, EngineCapability.SUBQUERIES, EngineCapability.CTES,
                EngineCapability.SET_OPERATIONS, EngineCapability.WILDCARD, EngineCapability.SCHEMA_INSPECTION);
    }

    /** How many plans the validator's cache holds (tests and metrics). */
    public int cachedPlans() {
        return validator.size();
    }

    @Override
    public void close() {
        watchdog.shutdownNow();
        pools.forEach(HikariDataSource::close);
    }
}
