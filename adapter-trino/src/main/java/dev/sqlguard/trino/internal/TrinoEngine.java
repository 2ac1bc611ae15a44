package dev.sqlguard.trino.internal;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.domain.port.ExecutionPort;
import dev.sqlguard.domain.port.StatementValidator;
import dev.sqlguard.ports.CatalogView;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineCapability;
import dev.sqlguard.ports.TableDescription;
import dev.sqlguard.ports.TableDescription.ColumnDescription;
import dev.sqlguard.trino.internal.SchemaSnapshot.ColumnInfo;
import dev.sqlguard.trino.internal.SchemaSnapshot.TableInfo;

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
        return () -> {
            List<TableDescription> out = new ArrayList<>();
            for (TableInfo t : schema.tables().values()) {
                boolean inDefault = t.schema().equals(schema.defaultSchema());
                TableRef shown = inDefault ? TableRef.of(t.name()) : t.ref();
                List<ColumnDescription> columns = new ArrayList<>();
                for (ColumnInfo c : t.columns()) {
                    if (policy.tables().allowsColumn(t.ref(), c.name())) {
                        columns.add(new ColumnDescription(c.name(), c.type(), policy.isSensitive(c.name())));
                    }
                }
                out.add(new TableDescription(shown, columns, t.approximateRows()));
            }
            out.sort(Comparator.comparing(d -> d.table().qualifiedName()));
            return List.copyOf(out);
        };
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
