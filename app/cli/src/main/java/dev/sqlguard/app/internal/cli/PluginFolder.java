package dev.sqlguard.app.internal.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import dev.sqlguard.app.ConfigException;
import dev.sqlguard.ports.EnginePlugins;

/**
 * The plug-in folder: every {@code *.jar} in it joins one class loader whose parent is the CLI's
 * own, and engines (and model plug-ins) are discovered through it with {@link java.util.ServiceLoader}.
 * An adapter is added without a rebuild. Flat and parent-first: a jar cannot replace a class that
 * sqlguard already has, and an engine name found twice is an error as it is on the class path.
 */
final class PluginFolder {
    private PluginFolder() {
    }

    /**
     * @param option how the folder was named ({@code --plugins} or the environment variable), for messages
     * @throws ConfigException when the folder does not exist or cannot be listed
     */
    static URLClassLoader open(Path folder, String option, ClassLoader parent, CliContext ctx) {
        if (!Files.isDirectory(folder)) {
            throw new ConfigException(option + ": the plug-in folder " + folder + " does not exist or is not a folder.");
        }
        List<Path> jars;
        try (Stream<Path> files = Files.list(folder)) {
            jars = files.filter(p -> p.getFileName().toString().endsWith(".jar") && Files.isRegularFile(p)).sorted().toList();
        } catch (IOException | UncheckedIOException e) {
            throw new ConfigException(option + ": the plug-in folder " + folder + " cannot be read.");
        }
        if (jars.isEmpty()) {
            ctx.warn(option + ": the plug-in folder " + folder + " holds no .jar file.");
        }
        URL[] urls = new URL[jars.size()];
        for (int i = 0; i < urls.length; i++) {
            try {
                urls[i] = jars.get(i).toUri().toURL();
            } catch (MalformedURLException e) {
                throw new ConfigException(option + ": the plug-in " + jars.get(i).getFileName() + " cannot be opened.");
            }
        }
        return EnginePlugins.loader(java.util.Arrays.asList(urls), parent);
    }
}
