package dev.sqlguard.app.internal.wiring;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.function.Consumer;

/**
 * Loads plug-ins through {@link ServiceLoader}. A provider that fails to load (its jar or one of
 * its dependencies is missing, its constructor throws) is skipped with a warning, so only that
 * plug-in becomes unavailable.
 */
public final class ServiceDiscovery {
    /** Stops a loader that keeps failing on the same entry from looping forever. */
    private static final int MAX_FAILURES = 100;

    /** Where warnings go when the caller has no channel of its own: one line on standard error. */
    /** Warnings as SLF4J warnings of this class's logger: what a library does (its host owns stderr). */
    public static final Consumer<String> WARN_TO_LOG = message -> org.slf4j.LoggerFactory.getLogger(ServiceDiscovery.class).warn(message);

    private ServiceDiscovery() {
    }

    public static <T> List<T> load(Class<T> type, ClassLoader classLoader, Consumer<String> warn) {
        List<T> found = new ArrayList<>();
        Iterator<ServiceLoader.Provider<T>> it = ServiceLoader.load(type, classLoader).stream().iterator();
        int failures = 0;
        while (failures < MAX_FAILURES) {
            try {
                if (!it.hasNext()) {
                    break;
                }
                ServiceLoader.Provider<T> provider = it.next();
                found.add(provider.get());
            } catch (ServiceConfigurationError | LinkageError e) {
                failures++;
                warn.accept("skipping a " + type.getSimpleName() + " plug-in that failed to load ("
                        + e.getClass().getSimpleName() + ")");
            }
        }
        return found;
    }
}
