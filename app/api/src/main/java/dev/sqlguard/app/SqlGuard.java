package dev.sqlguard.app;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.stream.Collectors;

import dev.sqlguard.app.SqlGuardConfig.AuditConfig;
import dev.sqlguard.app.SqlGuardConfig.ModelConfig;
import dev.sqlguard.app.SqlGuardConfig.SourceConfig;
import dev.sqlguard.app.internal.config.ConfigErrorLocator;
import dev.sqlguard.app.internal.config.ConfigReader;
import dev.sqlguard.app.internal.json.ToolResultJson;
import dev.sqlguard.app.internal.wiring.EngineRegistry;
import dev.sqlguard.app.internal.wiring.JsonLinesAuditSink;
import dev.sqlguard.app.internal.wiring.LoggerAuditSink;
import dev.sqlguard.app.internal.wiring.SecretMasker;
import dev.sqlguard.app.internal.wiring.ServiceDiscovery;
import dev.sqlguard.app.internal.wiring.SourceRetries;
import dev.sqlguard.app.internal.wiring.WorkDirectory;
import dev.sqlguard.domain.EngineDefaults;
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
import dev.sqlguard.domain.SourceBinding;
import dev.sqlguard.domain.port.ExecutionPort;
import dev.sqlguard.domain.port.StatementValidator;
import dev.sqlguard.ports.CatalogView;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineCapability;
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
 *
 * <p>A source whose engine cannot open (the server is down, the DuckDB file is locked by a
 * writer) is not lost: calls on it fail with the engine's error ({@code ENGINE_UNAVAILABLE},
 * retryable), a call that names it tries to open it again at once, and a background thread
 * retries with backoff ({@value #FIRST_RETRY_MS} ms doubling to {@value #MAX_RETRY_MS} ms), so
 * the source is served again soon after it comes back, without a restart.
 */
public final class SqlGuard implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SqlGuard.class);
    /** The first background retry of a source that could not open, after this many milliseconds. */
    static final long FIRST_RETRY_MS = 100;
    /** Background retries double their wait up to this many milliseconds. */
    static final long MAX_RETRY_MS = 2_000;

    private final Map<String, Slot> slots = new LinkedHashMap<>();
    private final EngineRegistry engines;
    private final QueryService service;
    private final AuditSink audit;
    private final Clock clock;
    private final SecretMasker masker;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private volatile boolean closed;
    /** The engines' working folder, deleted by {@link #close()}, or at SIGTERM by a shutdown hook that closes. */
    private final WorkDirectory work = new WorkDirectory(this::close, "sqlguard-work-cleanup");
    /** Retries sources that could not open. */
    private final SourceRetries retries = new SourceRetries();

    private SqlGuard(SqlGuardConfig config, EngineRegistry engines, AuditSink audit, Clock clock) {
        this.engines = requireNonNull(engines, "engines is null");
        this.audit = requireNonNull(audit, "audit is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.service = new QueryService(audit, clock, config.audit().onFailure());
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
     * else the configured file, else the SLF4J logger {@code sqlguard.audit}), so that a refused
     * configuration leaves no file open. A library never writes its audit on stderr unless asked
     * ({@link Builder#auditToStderr()}).
     */
    private static SqlGuard open(SqlGuardConfig config, EngineRegistry registry, Optional<AuditSink> auditSink) {
        for (SourceConfig source : config.sources().values()) {
            registry.require(source.engine(), "source '" + source.id() + "': ");
        }
        AuditSink audit = auditSink.orElseGet(() -> config.audit().file().isPresent()
                ? JsonLinesAuditSink.of(config.audit(), System.err) : new LoggerAuditSink());
        return new SqlGuard(config, registry, audit, Clock.systemUTC());
    }

    /** The logical source ids, in configuration order. */
    public List<String> sources() {
        return List.copyOf(slots.keySet());
    }

    /** Validates and runs {@code sql} on {@code source} with positional parameters. */
    public ToolResult query(String source, String sql, List<?> params) {
        return call(source, sql, params, UUID.randomUUID().toString(), Operation.QUERY, Map.of());
    }

    public ToolResult query(String source, String sql) {
        return query(source, sql, List.of());
    }

    /**
     * Runs a prepared request; its id appears in the result and in the audit event. Its
     * {@link QueryRequest#attributes()} are the caller's, bound by the source's row filters; for a
     * caller whose attributes are fixed, see {@link #withAttributes}.
     */
    public ToolResult query(QueryRequest request) {
        return request == null ? call(null, null, List.of(), UUID.randomUUID().toString(), Operation.QUERY, Map.of())
                : call(request.sourceId(), request.sql(), request.params(), request.requestId(), Operation.QUERY, request.attributes());
    }

    /**
     * A handle for one caller (a tenant, a user): every call made through it carries these
     * attributes, which the sources' row filters bind ({@code policy.rows}, {@code :tenant}). A query
     * on a filtered table through a handle that lacks an attribute its filter needs is refused with
     * {@code MISSING_ATTRIBUTE}; the audit record of each call names the attributes that applied.
     * Attributes are who the host knows the caller to be: never take them from the model's input.
     *
     * @param attributes names ({@link CallerAttributes}) to values
     * @throws IllegalArgumentException when a name or value is invalid ({@link CallerAttributes#checked})
     */
    public GuardedCaller withAttributes(Map<String, String> attributes) {
        return new GuardedCaller(this, CallerAttributes.checked(attributes));
    }

    /**
     * Stops the call with this request id ({@link QueryRequest#requestId()}), as a timeout does:
     * its running statement is cancelled on the engine, on the server too, and the call returns
     * {@code CANCELLED}; a call that has not started yet starts cancelled. Returns whether a
     * running statement was found. Safe from any thread; an unknown id changes nothing else.
     */
    public boolean cancel(String requestId) {
        requireNonNull(requestId, "request id is null");
        return service.cancel(requestId);
    }

    /** Validates {@code sql} without running it: status OK (with the SQL that would run) or REJECTED. */
    public ToolResult check(String source, String sql, List<?> params) {
        return call(source, sql, params, UUID.randomUUID().toString(), Operation.CHECK, Map.of());
    }

    public ToolResult check(String source, String sql) {
        return check(source, sql, List.of());
    }

    public ToolResult check(QueryRequest request) {
        return request == null ? call(null, null, List.of(), UUID.randomUUID().toString(), Operation.CHECK, Map.of())
                : call(request.sourceId(), request.sql(), request.params(), request.requestId(), Operation.CHECK, request.attributes());
    }

    /**
     * The allowlisted tables of {@code source} with their allowlisted columns and types. Unlike
     * {@link #query}, this returns no {@link ToolResult}: the failures below are exceptions.
     *
     * @throws GuardException {@code UNKNOWN_SOURCE} (also for a null id), or the engine's error when
     *     it cannot start ({@code ENGINE_UNAVAILABLE}, retryable, or {@code CONFIGURATION_ERROR})
     */
    public List<TableDescription> describe(String source) {
        return whileOpen(() -> {
            Slot slot = slot(source);
            try {
                return slot.engine().catalog().tables();
            } catch (GuardException e) {
                throw masked(e);
            } catch (RuntimeException e) {
                LOG.debug("catalog failed", e);
                throw new GuardException(ErrorCode.INTERNAL_ERROR);
            }
        });
    }

    /** The row filters and masks of {@code source} as configured ({@code UNKNOWN_SOURCE} for an unknown one). */
    dev.sqlguard.domain.RowPolicy rowPolicy(String source) {
        return whileOpen(() -> slot(source).config.policy().rows());
    }

    /**
     * Starts the engine of {@code source} now rather than on first use, so that a configuration
     * problem shows at once. A source that cannot be reached is not an exception: its status says
     * so ({@code ENGINE_UNAVAILABLE}, retryable) and it is retried in the background.
     *
     * @return the source's status after the attempt
     * @throws GuardException {@code UNKNOWN_SOURCE}
     * @throws ConfigException a setting or allowlist the engine refuses ({@code CONFIGURATION_ERROR}:
     *     retrying cannot help, so it is never retried in the background); for a source read from a
     *     file, the message names the file, the line and the key path
     */
    public SourceStatus start(String source) {
        return whileOpen(() -> {
            Slot slot = slot(source);
            slot.open();
            return slot.status();
        });
    }

    /**
     * Whether each source is served now, in configuration order. A source never used yet is
     * available until a call shows otherwise; one that failed to open carries its error.
     */
    public List<SourceStatus> status() {
        return whileOpen(() -> slots.values().stream().map(Slot::status).toList());
    }

    /**
     * The guarded path on {@code sourceIds}, for the layers built on this facade (the agent's tools
     * and planner, the MCP server): this instance's {@link GuardedCalls} entry, so every statement run
     * through it is checked, bounded, recorded by this instance's audit sink and masked as
     * {@link #query} is, and waited for by {@link #close()}; and the sources' engines, started now. A source that cannot be reached now is still on the path: its
     * engine throws {@code ENGINE_UNAVAILABLE} until the source comes back, then serves as usual.
     *
     * @throws GuardException {@code UNKNOWN_SOURCE}
     * @throws ConfigException when an engine refuses its configuration, as {@link #start} says
     * @throws IllegalArgumentException when {@code sourceIds} is empty
     */
    public GuardedPath guardedPath(List<String> sourceIds) {
        return guardedPath(sourceIds, Map.of());
    }

    /** {@link #guardedPath(List)} for a caller with these (checked) attributes. */
    GuardedPath guardedPath(List<String> sourceIds, Map<String, String> attributes) {
        if (sourceIds.isEmpty()) {
            throw new IllegalArgumentException("no source");
        }
        return whileOpen(() -> {
            List<GuardedPath.Source> out = new ArrayList<>();
            for (String id : sourceIds) {
                Slot slot = slot(requireNonNull(id, "source id is null"));
                slot.open();
                EngineFactory factory = engines.require(slot.config.engine(), "source '" + id + "': ");
                out.add(new GuardedPath.Source(new SlotEngine(slot), factory.name(), factory.dialect()));
            }
            return new GuardedPath(GuardedCalls.of(this, attributes), out);
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
            retries.stop();
            for (Slot slot : slots.values()) {
                slot.close();
            }
            if (audit instanceof AutoCloseable closeable) {
                try {
                    closeable.close();
                } catch (Exception e) {
                    LOG.debug("audit sink close failed", e);
                }
            }
            deleteWorkDirectory();
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** One call, made by a caller with {@code attributes} (checked, or a request's own). */
    ToolResult call(String source, String sql, List<?> params, String requestId, Operation operation,
                    Map<String, String> attributes) {
        long accepted = System.nanoTime(); // the call's one deadline counts from here, the engine's start included
        return whileOpen(() -> {
            String text = sql == null ? "" : sql;
            Slot slot = source == null ? null : slots.get(source);
            if (slot == null) {
                return service.reject(requestId, source == null || source.isBlank() ? "(none)" : source, text,
                        unknownSource(source), operation);
            }
            if (sql == null) {
                return service.reject(requestId, source, text, new GuardException(ErrorCode.INVALID_ARGUMENT, "The SQL is missing."),
                        operation);
            }
            if (params == null) {
                return service.reject(requestId, source, text,
                        new GuardException(ErrorCode.INVALID_ARGUMENT, "The parameter list is missing; pass an empty list for none."),
                        operation);
            }
            QueryRequest request;
            try {
                request = new QueryRequest(source, sql, new ArrayList<>(params), requestId, attributes);
            } catch (GuardException e) {
                return service.reject(requestId, source, sql, e, operation);
            } catch (NullPointerException e) {
                return service.reject(requestId, source, sql, new GuardException(ErrorCode.INVALID_ARGUMENT, "A parameter is invalid."),
                        operation);
            }
            Engine engine;
            try {
                engine = slot.engineWithin(accepted + slot.config.policy().limits().timeout().toNanos());
            } catch (GuardException e) {
                return service.sourceFailed(request, e, operation, (System.nanoTime() - accepted) / 1_000_000);
            }
            // the policy enforced is the configured one with the engine's reported defaults, never the engine's own
            return masked(service.run(operation, engine.binding(slot.config.policy()), request, accepted));
        });
    }

    /** A call refused before any engine sees it (audited as {@link QueryService#reject} audits). */
    ToolResult refuse(String source, String sql, String requestId, Operation operation, GuardException error) {
        return whileOpen(() -> service.reject(requestId, source, sql, error, operation));
    }

    /** Runs {@code body} while this instance is open; {@link #close()} waits for it. */
    private <T> T whileOpen(Supplier<T> body) {
        return whileOpen(body, () -> {
            throw new IllegalStateException("this SqlGuard is closed");
        });
    }

    /** Runs {@code body} while this instance is open ({@link #close()} waits for it), else {@code ifClosed}. */
    private <T> T whileOpen(Supplier<T> body, Supplier<T> ifClosed) {
        lock.readLock().lock();
        try {
            if (closed) {
                return ifClosed.get();
            }
            return body.get();
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * {@link #call} for a {@link GuardedCalls} entry: after {@link #close()} the call runs nothing and
     * its result is {@code ENGINE_UNAVAILABLE} (not audited: the audit sink is closed).
     */
    ToolResult callWhileOpen(String source, String sql, List<?> params, String requestId, Operation operation,
                             Map<String, String> attributes) {
        return whileOpen(() -> call(source, sql, params, requestId, operation, attributes), () -> closedResult(requestId, source));
    }

    /** {@link #refuse} for a {@link GuardedCalls} entry, which never throws once closed. */
    ToolResult refuseWhileOpen(String source, String sql, String requestId, Operation operation, GuardException error) {
        return whileOpen(() -> masked(service.reject(requestId, source, sql, error, operation)), () -> closedResult(requestId, source));
    }

    /**
     * Runs {@code body} (a read of an engine) while this instance is open, with any known secret
     * removed from the message of a {@link GuardException} it throws.
     *
     * @throws GuardException {@code ENGINE_UNAVAILABLE} once this instance is closed
     */
    <T> T guarded(Supplier<T> body) {
        return whileOpen(() -> {
            try {
                return body.get();
            } catch (GuardException e) {
                throw masked(e);
            }
        }, () -> {
            throw closedError();
        });
    }

    /** {@link #cancel} for a {@link GuardedCalls} entry: after close there is nothing left running to stop. */
    boolean cancelQuietly(String requestId) {
        return service.cancel(requestId);
    }

    private static GuardException closedError() {
        return new GuardException(ErrorCode.ENGINE_UNAVAILABLE, "This sqlguard instance is closed.");
    }

    private static ToolResult closedResult(String requestId, String source) {
        return ToolResult.failure(requestId, dev.sqlguard.domain.ToolStatus.ERROR, source == null ? "" : source, Optional.empty(),
                Set.of(), closedError(), 0);
    }

    /** The slot of {@code source}, or {@code UNKNOWN_SOURCE}. */
    private Slot slot(String source) {
        Slot slot = source == null ? null : slots.get(source);
        if (slot == null) {
            throw unknownSource(source);
        }
        return slot;
    }

    private GuardException unknownSource(String source) {
        return new GuardException(ErrorCode.UNKNOWN_SOURCE, (source == null ? "No data source was named"
                : "No data source is named " + SafeText.identifier(source)) + "; the sources are: " + String.join(", ", slots.keySet()) + ".");
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

    private synchronized Path workDirectory() {
        if (closed) {
            // an engine opened while (or after) the facade closes would get a folder that nothing removes:
            // close() has deleted the folder, and at SIGTERM a new shutdown hook cannot be added
            throw new GuardException(ErrorCode.ENGINE_UNAVAILABLE, "This sqlguard instance is closed.");
        }
        try {
            return work.get();
        } catch (IOException e) {
            throw new GuardException(ErrorCode.ENGINE_UNAVAILABLE, "The engine working folder could not be created.", e);
        }
    }

    private synchronized void deleteWorkDirectory() {
        if (!work.delete()) {
            LOG.debug("could not remove the engines' working folder");
        }
    }

    /** Schedules {@code slot}'s next background attempt to open, after {@code delayMs}. */
    private void scheduleRetry(Slot slot, long delayMs) {
        if (closed) {
            return;
        }
        retries.schedule(() -> retry(slot), delayMs);
    }

    /**
     * One background attempt to open {@code slot}; a failure schedules the next one. It holds no
     * facade lock, so {@link #close()} never waits for a connect that hangs: an engine that opens
     * after the facade closed is closed at once.
     */
    private void retry(Slot slot) {
        if (closed) {
            return;
        }
        try {
            slot.retry();
        } catch (GuardException e) {
            // recorded by the slot, which scheduled the next attempt
        } catch (RuntimeException e) {
            LOG.debug("background source retry failed", e);
        }
    }

    /**
     * One source: its configuration and, once started, its engine. A failed start is remembered
     * (its error and how many times in a row) and, when the source may come back, retried.
     */
    private final class Slot {
        private final SourceConfig config;
        /** Held while the engine is opened or closed; the fields below are written under it. */
        private final java.util.concurrent.locks.ReentrantLock opening = new java.util.concurrent.locks.ReentrantLock();
        private volatile Engine engine;
        private volatile Optional<GuardException> lastError = Optional.empty();
        private int failures;
        private boolean retryScheduled;

        Slot(SourceConfig config) {
            this.config = config;
        }

        /** The start a call is waiting for, shared by the calls that come while it runs; guarded by this slot. */
        private java.util.concurrent.CompletableFuture<Engine> starting;

        /**
         * {@link #engine()} within a call's deadline (a {@link System#nanoTime()} value): the start
         * runs on a thread of its own, and a call whose time is up before the engine is open is
         * answered {@code ENGINE_UNAVAILABLE} (retryable) while the start goes on for the next call.
         * A start once held a first call 11 s over its 5 s limit (issue 26).
         */
        Engine engineWithin(long deadlineNanos) {
            Engine open = engine;
            if (open != null) {
                return open;
            }
            java.util.concurrent.CompletableFuture<Engine> start;
            synchronized (this) {
                if (starting == null || starting.isDone()) {
                    starting = new java.util.concurrent.CompletableFuture<>();
                    java.util.concurrent.CompletableFuture<Engine> future = starting;
                    Thread thread = new Thread(() -> {
                        try {
                            future.complete(engine());
                        } catch (RuntimeException e) {
                            future.completeExceptionally(e);
                        }
                    }, "sqlguard-source-start-" + config.id());
                    thread.setDaemon(true);
                    thread.start();
                }
                start = starting;
            }
            try {
                return start.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                throw new GuardException(ErrorCode.ENGINE_UNAVAILABLE,
                        "The source is still starting and did not open within the call's time limit; retry in a moment.");
            } catch (java.util.concurrent.ExecutionException e) {
                if (e.getCause() instanceof GuardException g) {
                    throw g;
                }
                LOG.debug("source start failed", e.getCause());
                throw new GuardException(ErrorCode.ENGINE_UNAVAILABLE, ErrorCode.ENGINE_UNAVAILABLE.defaultMessage(), e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new GuardException(ErrorCode.CANCELLED);
            }
        }

        /**
         * The open engine, opening it when it is not. The first start is waited for by every
         * caller; once the source has failed, a call never waits behind another attempt (a
         * connect to an unreachable host may take long): it gets the last error at once.
         */
        Engine engine() {
            Engine open = engine;
            if (open != null) {
                return open;
            }
            Optional<GuardException> failed = lastError;
            if (failed.isPresent()) {
                if (!opening.tryLock()) {
                    throw failed.get();
                }
            } else {
                opening.lock();
            }
            try {
                return openLocked();
            } finally {
                opening.unlock();
            }
        }

        private Engine openLocked() {
            if (engine != null) {
                return engine;
            }
            if (closed) { // a use after close() (or a retry that was under way) opens nothing
                throw new GuardException(ErrorCode.ENGINE_UNAVAILABLE, "This sqlguard instance is closed.");
            }
            try {
                engine = create();
                if (closed) { // opened by a background attempt while the facade closed
                    closeEngine();
                    throw new GuardException(ErrorCode.ENGINE_UNAVAILABLE, "This sqlguard instance is closed.");
                }
            } catch (GuardException e) {
                lastError = Optional.of(e);
                failures++;
                if (e.code() == ErrorCode.ENGINE_UNAVAILABLE && !retryScheduled) {
                    retryScheduled = true;
                    scheduleRetry(this, Math.min(MAX_RETRY_MS, FIRST_RETRY_MS << Math.min(failures - 1, 20)));
                }
                throw e;
            }
            if (failures > 0) {
                int failed = failures;
                LOG.atInfo().log(() -> "source '" + config.id() + "' is available again after " + failed + " failed attempt(s)");
            }
            lastError = Optional.empty();
            failures = 0;
            return engine;
        }

        /**
         * Opens the engine now if it can be: an unreachable source is left to its retries, a
         * configuration the engine refuses is a {@link ConfigException} saying where it is written.
         */
        void open() {
            try {
                engine();
            } catch (GuardException e) {
                if (e.code() != ErrorCode.ENGINE_UNAVAILABLE) {
                    throw ConfigErrorLocator.located(config, e);
                }
            }
        }

        /** The background attempt: the next failure schedules another. */
        void retry() {
            opening.lock();
            try {
                retryScheduled = false;
                openLocked();
            } finally {
                opening.unlock();
            }
        }

        SourceStatus status() {
            Engine open = engine;
            return new SourceStatus(config.id(), config.engine(), open == null ? lastError.map(ToolError::of) : Optional.empty());
        }

        private Engine create() {
            EngineFactory factory = engines.require(config.engine(), "source '" + config.id() + "': ");
            EngineConfig engineConfig = new EngineConfig(config.id(), config.properties(), config.policy());
            LOG.atDebug().log(() -> "starting source " + config);
            try {
                Engine created = dev.sqlguard.ports.EngineStart.open(factory, engineConfig, EngineContext.of(workDirectory(), clock));
                return requireNonNull(created, "engine factory returned null");
            } catch (GuardException e) {
                throw masked(e);
            } catch (RuntimeException | LinkageError e) {
                LOG.debug("engine start failed", e);
                throw new GuardException(ErrorCode.ENGINE_UNAVAILABLE,
                        "The engine '" + config.engine() + "' of source '" + config.id() + "' could not start.");
            }
        }

        /**
         * Closes the engine. Does not wait for an attempt to open it that is under way (a connect
         * that hangs): that attempt closes what it opens, since the facade is closed.
         */
        void close() {
            if (!opening.tryLock()) {
                return;
            }
            try {
                closeEngine();
            } finally {
                opening.unlock();
            }
        }

        private void closeEngine() {
            if (engine != null) {
                try {
                    engine.close();
                } catch (RuntimeException e) {
                    LOG.debug("engine close failed", e);
                }
                engine = null;
            }
        }
    }

    /**
     * A source's engine as the guarded path sees it: each use reaches the slot's engine, opening it
     * when it is not open yet, so a source that was down serves again once it is back. Closing it
     * does nothing: the facade owns its engines.
     */
    private static final class SlotEngine implements Engine {
        private final Slot slot;

        SlotEngine(Slot slot) {
            this.slot = slot;
        }

        @Override
        public String sourceId() {
            return slot.config.id();
        }

        @Override
        public GuardrailPolicy policy() {
            return slot.config.policy().effective(slot.engine().defaults());
        }

        @Override
        public EngineDefaults defaults() {
            return slot.engine().defaults();
        }

        @Override
        public StatementValidator validator() {
            return slot.engine().validator();
        }

        @Override
        public ExecutionPort execution() {
            return slot.engine().execution();
        }

        @Override
        public CatalogView catalog() {
            return slot.engine().catalog();
        }

        @Override
        public Set<EngineCapability> capabilities() {
            return slot.engine().capabilities();
        }

        @Override
        public SourceBinding binding() {
            return slot.engine().binding(slot.config.policy());
        }

        @Override
        public void close() {
            // the facade closes the engine
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
        private boolean auditToStderr;
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

        /*
         * The audit destination: exactly one of auditToLogger() (the default), auditFile, auditToStderr
         * and auditSink; the last one called wins.
         */

        /** Audit events go to {@code sink} (its own destination; it may throw to refuse a call, see {@link #onAuditFailure}). */
        public Builder auditSink(AuditSink sink) {
            this.auditSink = Optional.of(requireNonNull(sink, "sink is null"));
            this.auditConfig = new AuditConfig(Optional.empty(), auditConfig.onFailure());
            this.auditToStderr = false;
            return this;
        }

        /** Audit events are appended as JSON lines to {@code file} (created with its folder when needed). */
        public Builder auditFile(Path file) {
            this.auditSink = Optional.empty();
            this.auditConfig = new AuditConfig(Optional.of(requireNonNull(file, "file is null")), auditConfig.onFailure());
            this.auditToStderr = false;
            return this;
        }

        /**
         * The default: one JSON line per call at INFO on the SLF4J logger {@code sqlguard.audit} (the
         * statements' lifecycle records at DEBUG), written where the application's logging sends it.
         * With no SLF4J provider on the class path the lines are dropped.
         */
        public Builder auditToLogger() {
            this.auditSink = Optional.empty();
            this.auditConfig = new AuditConfig(Optional.empty(), auditConfig.onFailure());
            this.auditToStderr = false;
            return this;
        }

        /** Audit events as JSON lines on standard error, as the CLI writes them. */
        public Builder auditToStderr() {
            this.auditSink = Optional.empty();
            this.auditConfig = new AuditConfig(Optional.empty(), auditConfig.onFailure());
            this.auditToStderr = true; // the stderr of build() time
            return this;
        }

        /**
         * What a call does when its audit record cannot be written: {@code REFUSE} (the default) fails
         * it with {@code AUDIT_UNAVAILABLE} and no rows; {@code CONTINUE} returns its result and logs the loss.
         */
        public Builder onAuditFailure(QueryService.AuditFailure onFailure) {
            this.auditConfig = new AuditConfig(auditConfig.file(), requireNonNull(onFailure, "onFailure is null"));
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
                    () -> ServiceDiscovery.load(EngineFactory.class, classLoader, ServiceDiscovery.WARN_TO_LOG));
            EngineRegistry registry = EngineRegistry.of(base).with(addedEngines);
            Map<String, SourceConfig> checked = new LinkedHashMap<>();
            for (SourceConfig source : sources.values()) {
                checked.put(source.id(), unchecked.contains(source.id()) ? checked(source, registry) : source);
            }
            return open(new SqlGuardConfig(checked, model, auditConfig), registry,
                    auditToStderr ? Optional.of(JsonLinesAuditSink.to(System.err)) : auditSink);
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
