package dev.sqlguard.trino.internal;

import static java.util.Objects.requireNonNull;

import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.port.ExecutionPort;
import dev.sqlguard.domain.port.StatementValidator;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot;
import dev.sqlguard.ports.CatalogView;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineCapability;

/** One Trino source: its validator, executor, catalog and the resources behind them. */
public final class TrinoEngine implements Engine {
    private final String sourceId;
    private final GuardrailPolicy policy;
    private final TrinoValidator validator;
    private final TrinoExecutor executor;
    private final SchemaSnapshot schema;
    private final ScheduledExecutorService watchdog;
    private final AutoCloseable driver;

    public TrinoEngine(String sourceId, GuardrailPolicy policy, TrinoValidator validator, TrinoExecutor executor,
                       SchemaSnapshot schema, ScheduledExecutorService watchdog, AutoCloseable driver) {
        this.sourceId = requireNonNull(sourceId, "sourceId is null");
        this.policy = requireNonNull(policy, "policy is null");
        this.validator = requireNonNull(validator, "validator is null");
        this.executor = requireNonNull(executor, "executor is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.watchdog = requireNonNull(watchdog, "watchdog is null");
        this.driver = requireNonNull(driver, "driver is null");
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

    /** The allowlisted tables and columns with their Trino types. */
    @Override
    public CatalogView catalog() {
        return () -> schema.describe(policy);
    }

    @Override
    public Set<EngineCapability> capabilities() {
        return EnumSet.of(EngineCapability.GROUP_BY, EngineCapability.JOINS, EngineCapability.SUBQUERIES, EngineCapability.CTES,
                EngineCapability.SET_OPERATIONS, EngineCapability.WILDCARD, EngineCapability.SCHEMA_INSPECTION);
    }

    @Override
    public void close() {
        watchdog.shutdownNow();
        try {
            driver.close();
        } catch (Exception e) {
            // closing never throws
        }
    }

    /** The allowlist with the engine's default schema, so unqualified names resolve there. */
    public static TableAllowlist withDefaultSchema(TableAllowlist tables, String schema) {
        return new TableAllowlist(Optional.of(schema), tables.tables(), tables.restricted());
    }
}
