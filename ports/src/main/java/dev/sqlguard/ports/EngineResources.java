package dev.sqlguard.ports;

import static java.util.Objects.requireNonNull;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What one engine holds open and must release: its pools, connections, threads and files. Add each
 * resource right after it is opened, while {@link EngineFactory#create} starts the engine; when a
 * later step fails, {@link #close()} releases what was opened so far, and the engine built on these
 * resources ({@link ComposedEngine}) releases all of them when it closes.
 *
 * <p>{@link #close()} closes the resources in the reverse of the order they were added (what was
 * opened last closes first, as with try-with-resources), each exactly once, and never throws: a
 * resource that fails to close is logged and the others are still closed. Thread-safe.
 */
public final class EngineResources implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(EngineResources.class.getName());

    private final Deque<AutoCloseable> open = new ArrayDeque<>(); // guarded by this
    private boolean closed; // guarded by this

    /**
     * Adds {@code resource} and returns it.
     *
     * @throws IllegalStateException when these resources are already closed; {@code resource} is then
     *     closed at once
     */
    public <T extends AutoCloseable> T add(T resource) {
        requireNonNull(resource, "resource is null");
        synchronized (this) {
            if (!closed) {
                open.push(resource);
                return resource;
            }
        }
        closeQuietly(resource);
        throw new IllegalStateException("the resources are closed");
    }

    /**
     * Adds {@code resource}, released with {@code release}, and returns it: for what has no
     * {@code close()} of its own, e.g. {@code add(watchdog, ExecutorService::shutdownNow)}.
     */
    public <T> T add(T resource, Consumer<? super T> release) {
        requireNonNull(resource, "resource is null");
        requireNonNull(release, "release is null");
        add(() -> release.accept(resource));
        return resource;
    }

    /** Closes every resource added, the last added first, each once; never throws. */
    @Override
    public void close() {
        while (true) {
            AutoCloseable next;
            synchronized (this) {
                closed = true;
                next = open.poll();
            }
            if (next == null) {
                return;
            }
            closeQuietly(next);
        }
    }

    private static void closeQuietly(AutoCloseable resource) {
        try {
            resource.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.log(Level.FINE, "a resource failed to close", e);
        }
    }
}
