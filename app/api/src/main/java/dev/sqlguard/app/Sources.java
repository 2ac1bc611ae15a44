package dev.sqlguard.app;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.sqlguard.app.SqlGuardConfig.SourceConfig;
import dev.sqlguard.app.internal.config.ConfigErrorLocator;
import dev.sqlguard.app.internal.wiring.EngineRegistry;
import dev.sqlguard.app.internal.wiring.SourceRetries;
import dev.sqlguard.app.internal.wiring.WorkDirectory;
import dev.sqlguard.domain.EngineDefaults;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.SafeText;
import dev.sqlguard.domain.SourceBinding;
import dev.sqlguard.domain.ToolError;
import dev.sqlguard.domain.port.ExecutionPort;
import dev.sqlguard.domain.port.StatementValidator;
import dev.sqlguard.ports.CatalogView;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineCapability;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;
import dev.sqlguard.ports.EngineFactory;

/**
 * The configured sources of one {@link SqlGuard} and their lifecycle: one slot per source, whose
 * engine starts on first use (or {@link SqlGuard#start}), is retried in the background while it
 * cannot open ({@link SourceRetries}), and is closed by {@link #close()}; and the engines' working
 * folder ({@link WorkDirectory}). The facade decides when a call may run (its lock); this class
 * only holds the engines. Thread-safe.
 */
final class Sources {
    /** The facade's logger: a host that configures {@code dev.sqlguard.app.SqlGuard} sees the sources' messages as before. */
    private static final Logger LOG = LoggerFactory.getLogger(SqlGuard.class);

    private final Map<String, Slot> slots = new LinkedHashMap<>();
    private final EngineRegistry engines;
    private final Clock clock;
    /** Removes any known secret from an engine's start error (the facade's masking). */
    private final UnaryOperator<GuardException> masked;
    private volatile boolean closed;
    /** The engines' working folder, deleted by {@link #close()}, or at SIGTERM by a shutdown hook that closes. */
    private final WorkDirectory work;
    /** Retries sources that could not open. */
    private final SourceRetries retries = new SourceRetries();

    /**
     * @param onJvmExit what a SIGTERM runs once the working folder exists: the facade's close, which
     *     waits for running calls and then closes this
     */
    Sources(Iterable<SourceConfig> sources, EngineRegistry engines, Clock clock, UnaryOperator<GuardException> masked,
            Runnable onJvmExit) {
        this.engines = requireNonNull(engines, "engines is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.masked = requireNonNull(masked, "masked is null");
        this.work = new WorkDirectory(onJvmExit, "sqlguard-work-cleanup");
        for (SourceConfig source : sources) {
            slots.put(source.id(), new Slot(source));
        }
    }

    /** The logical source ids, in configuration order. */
    List<String> ids() {
        return List.copyOf(slots.keySet());
    }

    /** The slot of {@code source}, or null when there is none (also for a null id). */
    Slot find(String source) {
        return source == null ? null : slots.get(source);
    }

    /** Each source's status, in configuration order. */
    List<SourceStatus> status() {
        return slots.values().stream().map(Slot::status).toList();
    }

    /** The factory of {@code slot}'s engine. */
    EngineFactory factory(Slot slot) {
        return engines.require(slot.config.engine(), "source '" + slot.config.id() + "': ");
    }

    /** {@code slot}'s engine as the guarded path sees it ({@link SlotEngine}). */
    Engine pathEngine(Slot slot) {
        return new SlotEngine(slot);
    }

    /**
     * Stops the retries, closes every engine and removes the engines' working folder. The facade
     * calls it once, under its write lock (no call is running).
     */
    void close() {
        closed = true;
        retries.stop();
        for (Slot slot : slots.values()) {
            slot.close();
        }
        deleteWorkDirectory();
    }

    /** The slot of {@code source}, or {@code UNKNOWN_SOURCE}. */
    Slot slot(String source) {
        Slot slot = source == null ? null : slots.get(source);
        if (slot == null) {
            throw unknownSource(source);
        }
        return slot;
    }

    GuardException unknownSource(String source) {
        return new GuardException(ErrorCode.UNKNOWN_SOURCE, (source == null ? "No data source was named"
                : "No data source is named " + SafeText.identifier(source)) + "; the sources are: " + String.join(", ", slots.keySet()) + ".");
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
    final class Slot {
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

        /** The source as configured. */
        SourceConfig config() {
            return config;
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
                    scheduleRetry(this, Math.min(SqlGuard.MAX_RETRY_MS, SqlGuard.FIRST_RETRY_MS << Math.min(failures - 1, 20)));
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
                throw masked.apply(e);
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

}
