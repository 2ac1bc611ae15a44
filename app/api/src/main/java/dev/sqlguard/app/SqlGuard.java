package dev.sqlguard.app;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.sqlguard.app.SqlGuardConfig.AuditConfig;
import dev.sqlguard.app.SqlGuardConfig.ModelConfig;
import dev.sqlguard.app.SqlGuardConfig.SourceConfig;
import dev.sqlguard.app.internal.config.ConfigReader;
import dev.sqlguard.app.internal.json.ToolResultJson;
import dev.sqlguard.app.internal.wiring.EngineRegistry;
import dev.sqlguard.app.internal.wiring.JsonLinesAuditSink;
import dev.sqlguard.app.internal.wiring.SecretMasker;
import dev.sqlguard.app.internal.wiring.ServiceDiscovery;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Operation;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.SafeText;
import dev.sqlguard.domain.ToolError;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;
import dev.sqlguard.ports.EngineFactory;
import dev.sqlguard.ports.PropertySpec;
import dev.sqlguard.ports.PropertySpecs;
import dev.sqlguard.ports.TableDescription;

/**
 * The embedding API: one checked, read-only, bounded query per call, on the configured sources.
 *
 * <p>Build it from a configuration file ({@link #fromConfig(Path)}) or in code ({@link #builder()}).
 * Both are plain construction: nothing here needs a dependency-injection container. Engines start
 * on first use of their source and are shared by all threads; every method is thread-safe.
 * {@link #close()} waits for running calls, then closes every engine.
 *
 * <p>{@code query} and {@code check} never throw for a bad request: the outcome, refusals and
 * failures included, is a {@link ToolResult}. Every call emits one audit event to the
 * configured {@link AuditSink}.
 */
public final class SqlGuard implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(SqlGuard.class.getName());

    private final Map<String, Slot> slots = new LinkedHashMap<>();
    private final EngineRegistry engines;
    private final QueryService service;
    private final AuditSink audit;
    private final Clock clock;
    private final SecretMasker masker;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private boolean closed;
    private Path workDirectory;

    private SqlGuard(SqlGuardConfig config, EngineRegistry engines, AuditSink audit, Clock clock) {
        this.engines = requireNonNull(engines, "engines is null");
        this.audit = requireNonNull(audit, "audit is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.service = new QueryService(audit, clock);
        this.masker = SecretMasker.of(config);
        for (SourceConfig source : config.sources().values()) {
            slots.put(source.id(), new Slot(source));
        }
    }

    /** Reads {@code file} (YAML), resolving {@code ${VAR}} from the process environment. */
    public static SqlGuard fromConfig(Path file) {
        return fromConfig(file, System.getenv());
    }

    /** Reads {@code file} (YAML), resolving {@code ${VAR}} from {@code environment}. */
    public static SqlGuard fromConfig(Path file, Map<String, String> environment) {
        requireNonNull(environment, "environment is null");
        EngineRegistry registry = EngineRegistry.discover();
        SqlGuardConfig config = ConfigReader.read(file, environment::get, registry);
        return open(config, registry, Optional.empty());
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Checks that every source's engine exists, and only then opens the audit sink (the given one,
     * else the configured file or stderr), so that a refused configuration leaves no file open.
     */
    private static SqlGuard open(SqlGuardConfig config, EngineRegistry registry, Optional<AuditSink> auditSink) {
        for (SourceConfig source : config.sources().values()) {
            registry.require(source.engine(), "source '" + source.id() + "': ");
        }
        AuditSink audit = auditSink.orElseGet(() -> JsonLinesAuditSink.of(config.audit(), System.err));
        return new SqlGuard(config, registry, audit, Clock.systemUTC());
    }

    /** The logical source ids, in configuration order. */
    public List<String> sources() {
        return List.copyOf(slots.keySet());
    }

    /** Validates and runs {@code sql} on {@code source} with positional parameters. */
    public ToolResult query(String source, String sql, List<?> params) {
        return call(source, sql, params, UUID.randomUUID().toString(), Operation.QUERY);
    }

    public ToolResult query(String source, String sql) {
        return query(source, sql, List.of());
    }

    /** Runs a prepared request; its id appears in the result and in the audit event. */
    public ToolResult query(QueryRequest request) {
        return call(request.sourceId(), request.sql(), request.params(), request.requestId(), Operation.QUERY);
    }

    /** Validates {@code sql} without running it: status OK (with the SQL that would run) or REJECTED. */
    public ToolResult check(String source, String sql, List<?> params) {
        return call(source, sql, params, UUID.randomUUID().toString(), Operation.CHECK);
    }

    public ToolResult check(String source, String sql) {
        return check(source, sql, List.of());
    }

    public ToolResult check(QueryRequest request) {
        return call(request.sourceId(), request.sql(), request.params(), request.requestId(), Operation.CHECK);
    }

    /**
     * The allowlisted tables of {@code source} with their allowlisted columns and types.
     *
     * @throws GuardException {@code UNKNOWN_SOURCE}, or the engine's error when it cannot start
     */
    public List<TableDescription> describe(String source) {
        requireNonNull(source, "source is null");
        return whileOpen(() -> {
            Slot slot = slot(source);
            try {
                return slot.engine().catalog().tables();
            } catch (GuardException e) {
                throw masked(e);
            } catch (RuntimeException e) {
                LOG.log(Level.FINE, "catalog failed", e);
                throw new GuardException(ErrorCode.INTERNAL_ERROR);
            }
        });
    }

    /**
     * Starts the engine of {@code source} now rather than on first use, so that a configuration
     * problem shows at once.
     *
     * @throws GuardException {@code UNKNOWN_SOURCE}, {@code CONFIGURATION_ERROR} or {@code ENGINE_UNAVAILABLE}
     */
    public void start(String source) {
        requireNonNull(source, "source is null");
        whileOpen(() -> slot(source).engine());
    }

    /**
     * The guarded path on {@code sourceIds}, for the layers built on this facade (the agent's tools
     * and planner, the MCP server): this instance's use case, so every statement run through it is
     * checked, bounded and recorded by this instance's audit sink as {@link #query} is, and the
     * sources' engines, started now.
     *
     * @throws GuardException {@code UNKNOWN_SOURCE}, or the engine's error when one cannot start
     * @throws IllegalArgumentException when {@code sourceIds} is empty
     */
    public GuardedPath guardedPath(List<String> sourceIds) {
        if (sourceIds.isEmpty()) {
            throw new IllegalArgumentException("no source");
        }
        return whileOpen(() -> {
            List<GuardedPath.Source> out = new ArrayList<>();
            for (String id : sourceIds) {
                Slot slot = slot(requireNonNull(id, "source id is null"));
                Engine engine = slot.engine();
                EngineFactory factory = engines.require(slot.config.engine(), "source '" + id + "': ");
                out.add(new GuardedPath.Source(engine, factory.name(), factory.dialect()));
            }
            return new GuardedPath(service, out);
        });
    }

    /** The public JSON form of a result (one line): the same text the CLI prints. */
    public static String toJson(ToolResult result) {
        return ToolResultJson.write(result);
    }

    /** Waits for running calls, closes every engine and removes the engines' working folder. */
    @Override
    public void close() {
        lock.writeLock().lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            for (Slot slot : slots.values()) {
                slot.close();
            }
            if (audit instanceof AutoCloseable closeable) {
                try {
                    closeable.close();
                } catch (Exception e) {
                    LOG.log(Level.FINE, "audit sink close failed", e);
                }
            }
            deleteWorkDirectory();
        } finally {
            lock.writeLock().unlock();
        }
    }

    private ToolResult call(String source, String sql, List<?> params, String requestId, Operation operation) {
        requireNonNull(source, "source is null");
        requireNonNull(sql, "sql is null");
        requireNonNull(params, "params is null");
        return whileOpen(() -> {
            Slot slot = slots.get(source);
            if (slot == null) {
                return service.reject(requestId, source.isBlank() ? "(none)" : source, sql, unknownSource(source), operation);
            }
            QueryRequest request;
            try {
                request = new QueryRequest(source, sql, new ArrayList<>(params), requestId);
            } catch (GuardException e) {
                return service.reject(requestId, source, sql, e, operation);
            }
            Engine engine;
            long opening = System.nanoTime();
            try {
                engine = slot.engine();
            } catch (GuardException e) {
                return service.sourceFailed(request, e, operation, (System.nanoTime() - opening) / 1_000_000);
            }
            return masked(service.run(operation, engine.binding(), request));
        });
    }

    /** Runs {@code body} while this instance is open; {@link #close()} waits for it. */
    private <T> T whileOpen(Supplier<T> body) {
        lock.readLock().lock();
        try {
            ensureOpen();
            return body.get();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** The slot of {@code source}, or {@code UNKNOWN_SOURCE}. */
    private Slot slot(String source) {
        Slot slot = slots.get(source);
        if (slot == null) {
            throw unknownSource(source);
        }
        return slot;
    }

    private GuardException unknownSource(String source) {
        return new GuardException(ErrorCode.UNKNOWN_SOURCE, "No data source is named " + SafeText.identifier(source)
                + "; the sources are: " + String.join(", ", slots.keySet()) + ".");
    }

    private GuardException masked(GuardException e) {
        String message = masker.mask(e.safeMessage());
        return message.equals(e.safeMessage()) ? e : new GuardException(e.code(), message);
    }

    /** The result with any known secret removed from its error message (a net behind the engines' own care). */
    private ToolResult masked(ToolResult result) {
        if (result.error().isEmpty()) {
            return result;
        }
        ToolError error = result.error().get();
        String message = masker.mask(error.message());
        if (message.equals(error.message())) {
            return result;
        }
        return new ToolResult(result.id(), result.status(), result.source(), result.sql(), result.columns(), result.rows(),
                result.truncated(), result.limitsHit(), Optional.of(new ToolError(error.code(), message, error.retryable())),
                result.elapsedMs());
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("this SqlGuard is closed");
        }
    }

    private synchronized Path workDirectory() {
        if (workDirectory == null) {
            try {
                workDirectory = dev.sqlguard.app.internal.wiring.WorkFolders.create();
            } catch (IOException e) {
                throw new GuardException(ErrorCode.ENGINE_UNAVAILABLE, "The engine working folder could not be created.", e);
            }
        }
        return workDirectory;
    }

    private synchronized void deleteWorkDirectory() {
        if (workDirectory == null) {
            return;
        }
        try (Stream<Path> walk = Files.walk(workDirectory)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.FINE, "could not remove the working folder", e);
        }
        workDirectory = null;
    }

    /** One source: its configuration and, once started, its engine. */
    private final class Slot {
        private final SourceConfig config;
        private Engine engine;

        Slot(SourceConfig config) {
            this.config = config;
        }

        synchronized Engine engine() {
            if (engine == null) {
                engine = create();
            }
            return engine;
        }

        private Engine create() {
            EngineFactory factory = engines.require(config.engine(), "source '" + config.id() + "': ");
            EngineConfig engineConfig = new EngineConfig(config.id(), config.properties(), config.policy());
            LOG.fine(() -> "starting source " + config);
            try {
                Engine created = factory.create(engineConfig, EngineContext.of(workDirectory(), clock));
                return requireNonNull(created, "engine factory returned null");
            } catch (GuardException e) {
                throw masked(e);
            } catch (RuntimeException | LinkageError e) {
                LOG.log(Level.FINE, "engine start failed", e);
                throw new GuardException(ErrorCode.ENGINE_UNAVAILABLE,
                        "The engine '" + config.engine() + "' of source '" + config.id() + "' could not start.");
            }
        }

        synchronized void close() {
            if (engine != null) {
                try {
                    engine.close();
                } catch (RuntimeException e) {
                    LOG.log(Level.FINE, "engine close failed", e);
                }
                engine = null;
            }
        }
    }

    /** Builds a {@link SqlGuard} in code, without a configuration file. */
    public static final class Builder {
        private final Map<String, SourceConfig> sources = new LinkedHashMap<>();
        /** Sources added by {@link #source}: their properties are checked against their engine in {@link #build}. */
        private final Set<String> unchecked = new HashSet<>();
        private final List<EngineFactory> addedEngines = new ArrayList<>();
        private Optional<List<EngineFactory>> onlyEngines = Optional.empty();
        private Optional<ModelConfig> model = Optional.empty();
        private Optional<AuditSink> auditSink = Optional.empty();
        private AuditConfig auditConfig = AuditConfig.stderr();
        private ClassLoader classLoader = SqlGuard.class.getClassLoader();

        private Builder() {
        }

        /**
         * Adds a source.
         *
         * @param id the logical id the agent sees
         * @param engine the exact engine name, e.g. {@code duckdb}
         * @param properties the engine's settings, e.g. {@code database}
         * @param policy the guardrail policy ({@link GuardrailPolicy#defaults()} for none)
         */
        public Builder source(String id, String engine, Map<String, String> properties, GuardrailPolicy policy) {
            requireNonNull(engine, "engine is null");
            requireNonNull(properties, "properties is null");
            requireNonNull(policy, "policy is null");
            if (!SqlGuardConfig.isValidSourceId(id)) {
                throw new ConfigException("source id " + SafeText.identifier(id)
                        + " is invalid; use letters, digits, '_', '.' or '-' (at most 64).");
            }
            add(new SourceConfig(id, engine, properties, Set.of(), policy));
            unchecked.add(id);
            return this;
        }

        /**
         * Adds every source of a configuration that is already read and checked (for example one
         * built in code, or read from YAML), and takes its audit setting and the model secrets to
         * mask.
         */
        public Builder config(SqlGuardConfig config) {
            requireNonNull(config, "config is null");
            config.sources().values().forEach(this::add);
            this.model = config.model();
            this.auditConfig = config.audit();
            return this;
        }

        private void add(SourceConfig source) {
            if (sources.putIfAbsent(source.id(), source) != null) {
                throw new ConfigException("source '" + source.id() + "' is added twice.");
            }
        }

        /**
         * Plugs in an engine without {@link java.util.ServiceLoader}, next to the discovered ones.
         * An engine whose name a discovered engine also has is an error, in {@link #build}.
         */
        public Builder engine(EngineFactory factory) {
            addedEngines.add(requireNonNull(factory, "factory is null"));
            return this;
        }

        /**
         * Uses exactly these engines (and those added with {@link #engine}): nothing is discovered.
         * Two with one name are an error, in {@link #build}.
         */
        public Builder engines(Collection<? extends EngineFactory> factories) {
            this.onlyEngines = Optional.of(List.copyOf(factories));
            return this;
        }

        /** Where audit events go; by default one JSON line per event on standard error. */
        public Builder auditSink(AuditSink sink) {
            this.auditSink = Optional.of(requireNonNull(sink, "sink is null"));
            return this;
        }

        /** Appends audit events as JSON lines to {@code file} instead of standard error. */
        public Builder auditFile(Path file) {
            this.auditConfig = new AuditConfig(Optional.of(requireNonNull(file, "file is null")));
            return this;
        }

        /** The class loader engines are discovered from (default: the one that loaded sqlguard). */
        public Builder classLoader(ClassLoader loader) {
            this.classLoader = requireNonNull(loader, "loader is null");
            return this;
        }

        /**
         * @throws ConfigException when no source was added, an engine is unknown or named twice, or a
         *     property is not one its engine knows
         */
        public SqlGuard build() {
            if (sources.isEmpty()) {
                throw new ConfigException("add at least one source.");
            }
            List<EngineFactory> base = onlyEngines.orElseGet(
                    () -> ServiceDiscovery.load(EngineFactory.class, classLoader, ServiceDiscovery.WARN_ON_STDERR));
            EngineRegistry registry = EngineRegistry.of(base).with(addedEngines);
            Map<String, SourceConfig> checked = new LinkedHashMap<>();
            for (SourceConfig source : sources.values()) {
                checked.put(source.id(), unchecked.contains(source.id()) ? checked(source, registry) : source);
            }
            return open(new SqlGuardConfig(checked, model, auditConfig), registry, auditSink);
        }

        /** The source with its properties checked against its engine's settings and its secrets marked. */
        private static SourceConfig checked(SourceConfig source, EngineRegistry registry) {
            PropertySpecs settings = PropertySpecs.of(registry.require(source.engine(), "source '" + source.id() + "': "));
            Set<String> keys = source.properties().keySet();
            settings.firstUnknown(keys).ifPresent(key -> {
                throw new ConfigException("source '" + source.id() + "': " + SafeText.identifier(key)
                        + " is not a setting of engine '" + source.engine() + "'; known: " + String.join(", ", settings.names()) + ".");
            });
            List<PropertySpec> missing = settings.missing(keys);
            if (!missing.isEmpty()) {
                throw new ConfigException("source '" + source.id() + "': engine '" + source.engine() + "' needs the setting '"
                        + missing.get(0).name() + "': " + missing.get(0).description());
            }
            Set<String> sensitive = keys.stream().filter(settings::isSensitive).collect(Collectors.toSet());
            return new SourceConfig(source.id(), source.engine(), source.properties(), sensitive, source.policy());
        }
    }
}
