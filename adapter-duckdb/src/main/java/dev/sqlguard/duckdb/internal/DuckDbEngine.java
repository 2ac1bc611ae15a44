package dev.sqlguard.duckdb.internal;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;

import dev.sqlguard.domain.EngineDefaults;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.port.CachingValidator;
import dev.sqlguard.jdbc.Watchdogs;
import dev.sqlguard.ports.ComposedEngine;
import dev.sqlguard.ports.EngineCapability;
import dev.sqlguard.ports.EngineParts;
import dev.sqlguard.ports.EngineResources;
import dev.sqlguard.ports.FunctionLookup;

/**
 * One DuckDB source: the shared locked instance, DuckDB's own parser, the checker and the executor.
 * It adds to a {@link ComposedEngine} only what its tests read: the instance's settings and the plan
 * cache's size.
 */
public final class DuckDbEngine extends ComposedEngine {
    private final DuckDbSettings settings;
    private final CachingValidator validator;

    private DuckDbEngine(EngineParts parts, EngineResources resources, DuckDbSettings settings, CachingValidator validator) {
        super(parts, resources);
        this.settings = settings;
        this.validator = validator;
    }

    /**
     * Opens (or shares) the locked instance for {@code settings} and reads its catalog under
     * {@code policy}. A failure releases what was opened, the instance included.
     */
    public static DuckDbEngine open(String sourceId, GuardrailPolicy policy, DuckDbSettings settings) {
        requireNonNull(sourceId, "sourceId is null");
        requireNonNull(policy, "policy is null");
        EngineResources resources = new EngineResources();
        DuckDbInstance instance = resources.add(DuckDbInstance.acquire(settings), DuckDbInstance::release);
        try {
            DuckDbCatalog catalog;
            synchronized (instance) {
                catalog = DuckDbCatalog.load(instance.root(), policy);
            }
            DuckDbParser parser = resources.add(new DuckDbParser(instance));
            // each row filter and mask binds against its table once, here: a broken one stops the engine
            GovernedTables governed = GovernedTables.load(catalog, policy.rows(), parser);
            ScheduledExecutorService watchdog = Watchdogs.forSource("duckdb", sourceId);
            DuckDbExecution execution = resources.add(new DuckDbExecution(instance, watchdog, sourceId));
            // added last, so closed first: no deadline fires while the execution closes (its constructor cannot fail)
            resources.add(watchdog, ExecutorService::shutdownNow);
            // the engine reports its function classes; the domain fills them into the configured policy
            EngineDefaults defaults = EngineDefaults.of(FunctionDefaults.CLASSES);
            GuardrailPolicy effective = policy.effective(defaults);
            CachingValidator validator = new CachingValidator(new DuckDbValidator(sourceId, effective, catalog, parser, governed));
            // what DuckDB's catalog knows about the function names a configuration lists; the host decides on them
            FunctionLookup lookup = (functions, tableFunctions) -> {
                synchronized (instance) {
                    return ConfiguredFunctions.facts(instance.root(), functions, tableFunctions);
                }
            };
            return new DuckDbEngine(new EngineParts(sourceId, effective, validator, execution, catalog, EngineCapability.all(),
                    defaults, lookup),
                    resources, instance.settings(), validator);
        } catch (RuntimeException e) {
            resources.close();
            throw e;
        }
    }

    /** The instance-wide settings in force. */
    public DuckDbSettings settings() {
        return settings;
    }

    /** Number of plans in the reuse cache. */
    public int cachedPlans() {
        return validator.size();
    }
}
