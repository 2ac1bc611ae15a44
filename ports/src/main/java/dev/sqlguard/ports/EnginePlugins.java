package dev.sqlguard.ports;

import static java.util.Objects.requireNonNull;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;

/**
 * The class loader of a plug-in folder: the jars of engine plug-ins (an adapter and its driver) in
 * one loader whose parent is the host's own. Flat and parent-first: a jar cannot replace a class the
 * host already has. The CLI opens its {@code --plugins} folder with it, and the contract suite loads
 * the adapter under test with it, so an adapter that starts in the suite starts in the CLI.
 *
 * <p>What it means for an adapter: its driver is visible to its own classes, never to
 * {@code java.sql.DriverManager} on the caller's behalf (the manager hands out only drivers the
 * caller's class loader can see under the same class), so open the driver class directly
 * ({@code new org.h2.Driver().connect(url, properties)}), or through the kit's {@code JdbcStartup.driver}.
 */
public final class EnginePlugins {
    /** The loader's name, as stack traces and class-loading logs show it. */
    public static final String LOADER_NAME = "sqlguard-plugins";

    private EnginePlugins() {
    }

    /** One loader over {@code jars} (jar files or class folders), delegating to {@code parent} first. */
    public static URLClassLoader loader(List<URL> jars, ClassLoader parent) {
        requireNonNull(jars, "jars is null");
        return new URLClassLoader(LOADER_NAME, jars.toArray(URL[]::new), parent);
    }
}
