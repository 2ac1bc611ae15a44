package dev.sqlguard.app.internal.cli;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import dev.sqlguard.app.ConfigException;
import dev.sqlguard.app.SqlGuardConfig;
import dev.sqlguard.app.internal.config.ConfigReader;
import dev.sqlguard.app.internal.demo.DemoDatabase;
import dev.sqlguard.app.internal.wiring.EngineRegistry;
import dev.sqlguard.app.internal.wiring.ModelRegistry;
import dev.sqlguard.app.internal.wiring.ServiceDiscovery;
import dev.sqlguard.ports.ingest.DataLoader;

/**
 * Finds the configuration: {@code --config FILE}, else {@code ./sqlguard.yaml}, else the built-in
 * {@code demo} source (built into the user cache folder on first use); and the engines, on the
 * class path and in the plug-in folder ({@link PluginFolder}).
 */
final class Configs {
    static final String DEFAULT_FILE = "sqlguard.yaml";

    /**
     * What a command serves: the configuration, the engines found, and the class loader they were
     * found through (the plug-in folder's, when there is one; closing this closes it).
     */
    record Resolved(SqlGuardConfig config, EngineRegistry engines, ClassLoader loader, boolean demo) implements AutoCloseable {
        Resolved {
            requireNonNull(config, "config is null");
            requireNonNull(engines, "engines is null");
            requireNonNull(loader, "loader is null");
        }

        @Override
        public void close() {
            closeLoader(loader);
        }
    }

    private Configs() {
    }

    /**
     * @throws dev.sqlguard.app.ConfigException for a configuration error
     * @throws dev.sqlguard.domain.GuardException when the demo database cannot be built
     */
    static Resolved resolve(ConfigOptions options, CliContext ctx) {
        ClassLoader loader = loader(options, ctx);
        try {
            EngineRegistry engines = EngineRegistry.discover(loader, ctx::warn);
            Path file = ctx.cwd().resolve(options.config != null ? options.config : Path.of(DEFAULT_FILE));
            if (options.config != null || Files.exists(file)) {
                ModelRegistry models = ModelRegistry.discover(loader, ctx::warn);
                return new Resolved(ConfigReader.read(file, ctx.env()::get, engines, models), engines, loader, false);
            }
            Path database = DemoDatabase.ensure(DemoDatabase.cacheDirectory(ctx.env()), () -> dataLoader(ctx),
                    line -> ctx.stderr().println(line));
            return new Resolved(DemoDatabase.config(database), engines, loader, true);
        } catch (RuntimeException e) {
            closeLoader(loader);
            throw e;
        }
    }

    private static void closeLoader(ClassLoader loader) {
        if (loader instanceof URLClassLoader plugins) {
            try {
                plugins.close();
            } catch (IOException e) {
                // the jars are released when the process ends
            }
        }
    }

    /** The CLI's own class loader, or one over the plug-in folder ({@code --plugins}, else {@code SQLGUARD_PLUGINS}). */
    private static ClassLoader loader(ConfigOptions options, CliContext ctx) {
        ClassLoader own = Configs.class.getClassLoader();
        if (options.plugins != null) {
            return PluginFolder.open(ctx.cwd().resolve(options.plugins), "--plugins", own, ctx);
        }
        String env = ctx.env().get(ConfigOptions.PLUGINS_ENV);
        if (env != null && !env.isBlank()) {
            return PluginFolder.open(ctx.cwd().resolve(env), ConfigOptions.PLUGINS_ENV, own, ctx);
        }
        return own;
    }

    /**
     * {@link #resolve} for a command: a configuration error ends it with exit code 2, a demo
     * database that cannot be built with exit code 4.
     *
     * @throws CommandExit with that code and the safe message
     */
    static Resolved resolveOrExit(ConfigOptions options, CliContext ctx) {
        try {
            return resolve(options, ctx);
        } catch (ConfigException e) {
            throw new CommandExit(ExitCodes.USAGE, e.getMessage());
        } catch (dev.sqlguard.domain.GuardException e) {
            throw new CommandExit(ExitCodes.ERROR, e.safeMessage());
        }
    }

    /** The trusted DuckDB loader, if its jar is present. */
    static Optional<DataLoader> dataLoader(CliContext ctx) {
        return ServiceDiscovery.load(DataLoader.class, Configs.class.getClassLoader(), ctx::warn).stream()
                .filter(l -> "duckdb".equals(l.name()))
                .findFirst();
    }
}
