package dev.sqlguard.app.internal.cli;

import java.nio.file.Path;

import picocli.CommandLine.Option;

/** The options that choose what a command serves: the configuration file and the plug-in folder. */
final class ConfigOptions {
    /** The environment variable read when {@code --plugins} is not given. */
    static final String PLUGINS_ENV = "SQLGUARD_PLUGINS";

    @Option(names = "--config", paramLabel = "FILE",
            description = "The configuration file. Default: ./sqlguard.yaml if it exists, else the built-in 'demo' source.")
    Path config;

    @Option(names = "--plugins", paramLabel = "DIR",
            description = "A folder of extra engine (or model) plug-in jars, found through META-INF/services. "
                    + "Default: the folder named by " + PLUGINS_ENV + ", else none.")
    Path plugins;
}
