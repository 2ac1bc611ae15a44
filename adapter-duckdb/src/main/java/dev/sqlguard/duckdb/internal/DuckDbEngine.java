package dev.sqlguard.duckdb.internal;

import static java.util.Objects.requireNonNull;

import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.port.ExecutionPort;
import dev.sqlguard.domain.port.CachingValidator;
import dev.sqlguard.domain.port.StatementValidator;
import dev.sqlguard.ports.CatalogView;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineCapability;
import dev.sqlguard.jdbc.Watchdogs;

/** One DuckDB source: the shared locked instance, DuckDB's own parser, the checker and the executor. */
public final class DuckDbEngine implements Engine {
    private static final Set<EngineCapability> CAPABILITIES = Set.copyOf(EnumSet.allOf(EngineCapability.class));

    private final String sourceId;
    private final GuardrailPolicy policy;
    private final DuckDbInstance instance;
    private final DuckDbCatalog catalog;
    private final DuckDbParser parser;
    private final CachingValidator validator;
    private final DuckDbExecution execution;
    private final ScheduledExecutorService watchdog;
    private final AtomicBoolean closed = new AtomicBoolean();

    private DuckDbEngine(String sourceId, GuardrailPolicy policy, DuckDbInstance instance, DuckDbCatalog catalog,
                         DuckDbParser parser, ScheduledExecutorService watchdog) {
        this.sourceId = sourceId;
        this.policy = policy;
        this.instance = instance;
        this.catalog = catalog;
        this.parser = parser;
        this.watchdog = watchdog;
        this.validator = new CachingValidator(new DuckDbValidator(sourceId, policy, catalog, parser));
        this.execution = new DuckDbExecution(instance, watchdog, sourceId);
    }

    /** Opens (or shares) the locked instance for {@code settings} and reads its catalog under {@code policy}. */
    public static DuckDbEngine open(String sourceId, GuardrailPolicy policy, DuckDbSettings settings) {
        requireNonNull(sourceId, "sourceId is null");
        requireNonNull(policy, "policy is null");
        DuckDbInstance instance = DuckDbInstance.acquire(settings);
        DuckDbParser parser = null;
        try {
            DuckDbCatalog catalog;
            synchronized (instance) {
                catalog = DuckDbCatalog.load(instance.root(), policy);
                ConfiguredFunctions.check(instance.root(), policy);
            }
            parser = new DuckDbParser(instance);
            return new DuckDbEngine(sourceId, policy, instance, catalog, parser, Watchdogs.forSource("duckdb", sourceId));
        } catch (RuntimeException e) {
            if (parser != null) {
                parser.close();
            }
            instance.release();
            throw e;
        }
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
        return execution;
    }

    @Override
    public CatalogView catalog() {
        return catalog;
    }

    @Override
    public Set<EngineCapability> capabilities() {
        return CAPABILITIES;
    }

    /** The instance-wide settings in force. */
    public DuckDbSettings settings() {
        return instance.settings();
    }

    /** Number of plans in the reuse cache. */
    public int cachedPlans() {
        return validator.size();
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        watchdog.shutdownNow();
        execution.close();
        parser.close();
        instance.release();
    }
}
