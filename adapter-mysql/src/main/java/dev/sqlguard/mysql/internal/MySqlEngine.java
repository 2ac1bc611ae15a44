package dev.sqlguard.mysql.internal;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;

import com.zaxxer.hikari.HikariDataSource;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Names;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.domain.port.CachingValidator;
import dev.sqlguard.domain.port.ExecutionPort;
import dev.sqlguard.domain.port.StatementValidator;
import dev.sqlguard.mysql.internal.SchemaSnapshot.ColumnInfo;
import dev.sqlguard.mysql.internal.SchemaSnapshot.TableInfo;
import dev.sqlguard.ports.CatalogView;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineCapability;
import dev.sqlguard.ports.TableDescription;
import dev.sqlguard.ports.TableDescription.ColumnDescription;

/** One MySQL source: its validator, executor, catalog and the pools behind them. */
public final class MySqlEngine implements Engine {
    private final String sourceId;
    private final GuardrailPolicy policy;
    private final CachingValidator validator;
    private final MySqlExecutor executor;
    private final SchemaSnapshot schema;
    private final HikariDataSource queries;
    private final MySqlExecutor.KillChannel control;
    private final ScheduledExecutorService watchdog;

    public MySqlEngine(String sourceId, GuardrailPolicy policy, MySqlValidator validator, MySqlExecutor executor,
                       SchemaSnapshot schema, HikariDataSource queries, MySqlExecutor.KillChannel control, ScheduledExecutorService watchdog) {
        this.sourceId = requireNonNull(sourceId, "sourceId is null");
        this.policy = requireNonNull(policy, "policy is null");
        this.validator = new CachingValidator(requireNonNull(validator, "validator is null"));
        this.executor = requireNonNull(executor, "executor is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.queries = requireNonNull(queries, "queries is null");
        this.control = requireNonNull(control, "control is null");
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

    /**
     * The allowlisted tables and columns with their server types. Row counts are exact
     * {@code COUNT(*)}s taken at startup within a time budget; a table not counted in time gets only
     * {@code information_schema.TABLES.TABLE_ROWS} as its approximate count (an estimate for InnoDB).
     */
    @Override
    public CatalogView catalog() {
        return () -> {
            List<TableDescription> out = new ArrayList<>();
            for (TableInfo t : schema.tables().values()) {
                boolean inDefault = Names.fold(t.schema()).equals(Names.fold(schema.defaultSchema()));
                TableRef shown = inDefault ? TableRef.of(t.name()) : t.ref();
                List<ColumnDescription> columns = new ArrayList<>();
                for (ColumnInfo c : t.columns()) {
                    if (policy.tables().allowsColumn(shown, c.name())) {
                        columns.add(new ColumnDescription(c.name(), c.type(), policy.isSensitive(c.name())));
                    }
                }
                out.add(t.exactRows().isPresent() ? new TableDescription(shown, columns, t.exactRows())
                        : new TableDescription(shown, columns, OptionalLong.empty(), t.approximateRows()));
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

    /** How many plans the validator's cache holds (tests and metrics). */
    public int cachedPlans() {
        return validator.size();
    }

    @Override
    public void close() {
        watchdog.shutdownNow();
        queries.close();
        control.close();
    }
}
