package dev.sqlguard.app.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.sqlguard.app.fake.FakeEngineFactory;
import dev.sqlguard.ports.EngineFactory;

/**
 * Engines from the plug-in folder: a jar built here from the fake engine's classes, whose engine is
 * registered only in the jar's own {@code META-INF/services}, so it is found only through the folder.
 */
class PluginFolderTest {
    @TempDir
    Path dir;

    private Path plugins;

    @BeforeEach
    void writeConfig() throws IOException {
        plugins = Files.createDirectories(dir.resolve("plugins"));
        Files.writeString(dir.resolve("sqlguard.yaml"), "sources: {p: {engine: plugged, rows: 2}}\n");
    }

    @Test
    void anEngineInThePluginFolderIsFoundWithoutARebuild() throws IOException {
        CliRun without = CliRun.of(dir, "", Map.of(), "query", "--sql", "SELECT n FROM t");
        assertThat(without.code()).isEqualTo(2);
        assertThat(without.err()).contains("unknown engine 'plugged'; engines found: ").contains("fake");

        pluginJar("fake-engine.jar", PluginEngines.Plugged.class);

        CliRun option = CliRun.of(dir, "", Map.of(), "query", "--plugins", plugins.toString(), "--sql", "SELECT n FROM t");
        assertThat(option.code()).as(option.err()).isZero();
        assertThat(option.json().get("returned_count").asInt()).isEqualTo(2);

        CliRun env = CliRun.of(dir, "", Map.of(ConfigOptions.PLUGINS_ENV, "plugins"), "sources");
        assertThat(env.code()).as(env.err()).isZero();
        assertThat(env.lines().get(0).get("sources").get(0).get("engine").asText()).isEqualTo("plugged");
    }

    @Test
    void aPluginEngineNamedLikeOneOnTheClassPathIsRefused() throws IOException {
        Files.writeString(dir.resolve("sqlguard.yaml"), "sources: {p: {engine: fake}}\n");
        pluginJar("second-fake.jar", PluginEngines.SecondFake.class);

        CliRun run = CliRun.of(dir, "", Map.of(), "query", "--plugins", "plugins", "--sql", "SELECT n FROM t");

        assertThat(run.code()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).contains("Two engine plug-ins are named 'fake'")
                .contains(FakeEngineFactory.class.getName()).contains(PluginEngines.SecondFake.class.getName());
    }

    @Test
    void aPluginThatFailsToLoadIsSkippedWithOneWarning() throws IOException {
        Files.writeString(dir.resolve("sqlguard.yaml"), "sources: {p: {engine: fake}}\n");
        try (OutputStream file = Files.newOutputStream(plugins.resolve("broken.jar")); JarOutputStream jar = new JarOutputStream(file)) {
            jar.putNextEntry(new JarEntry("META-INF/services/" + EngineFactory.class.getName()));
            jar.write("dev.sqlguard.nowhere.NoSuchEngineFactory\n".getBytes(StandardCharsets.UTF_8));
        }

        CliRun run = CliRun.of(dir, "", Map.of(), "query", "--plugins", "plugins", "--sql", "SELECT n FROM t");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.err()).contains("sqlguard: skipping a EngineFactory plug-in that failed to load")
                .doesNotContain("sqlguard: sqlguard:");
    }

    @Test
    void aMissingPluginFolderIsAUsageError() {
        CliRun option = CliRun.of(dir, "", Map.of(), "query", "--plugins", "nowhere", "--sql", "SELECT 1");
        assertThat(option.code()).isEqualTo(2);
        assertThat(option.err()).contains("--plugins: the plug-in folder ").contains("does not exist");

        CliRun env = CliRun.of(dir, "", Map.of(ConfigOptions.PLUGINS_ENV, "nowhere"), "sources");
        assertThat(env.code()).isEqualTo(2);
        assertThat(env.err()).contains(ConfigOptions.PLUGINS_ENV + ": the plug-in folder ");
    }

    /** A jar in the plug-in folder with the fake engine's classes, {@code provider}'s, and a services file naming {@code provider}. */
    private void pluginJar(String name, Class<? extends EngineFactory> provider) throws IOException {
        try (OutputStream file = Files.newOutputStream(plugins.resolve(name)); JarOutputStream jar = new JarOutputStream(file)) {
            for (Class<?> type : withNested(List.of(FakeEngineFactory.class, provider.getEnclosingClass()))) {
                String entry = type.getName().replace('.', '/') + ".class";
                try (InputStream bytes = type.getClassLoader().getResourceAsStream(entry)) {
                    assertThat(bytes).as(entry).isNotNull();
                    jar.putNextEntry(new JarEntry(entry));
                    bytes.transferTo(jar);
                }
            }
            jar.putNextEntry(new JarEntry("META-INF/services/" + EngineFactory.class.getName()));
            jar.write((provider.getName() + "\n").getBytes(StandardCharsets.UTF_8));
        }
    }

    private static List<Class<?>> withNested(List<Class<?>> types) {
        List<Class<?>> out = new ArrayList<>();
        for (Class<?> type : types) {
            out.add(type);
            out.addAll(withNested(List.of(type.getDeclaredClasses())));
        }
        return out;
    }
}
