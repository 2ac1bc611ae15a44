package dev.sqlguard.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * The published jars (issue 28): each carries an {@code Automatic-Module-Name} (its package root),
 * comes with a sources and a javadoc jar, is built reproducibly (every entry stamped with
 * {@code project.build.outputTimestamp}), and the BOM pins every one of them. The reactor builds
 * every module before this one, so their jars are in their {@code target} folders.
 */
class PublishedJarsTest {
    /** Module folder to its automatic module name: every artifact a user may depend on. */
    static final Map<String, String> PUBLISHED = new LinkedHashMap<>();

    static {
        PUBLISHED.put("core-domain", "dev.sqlguard.domain");
        PUBLISHED.put("ports", "dev.sqlguard.ports");
        PUBLISHED.put("testing", "dev.sqlguard.testing");
        PUBLISHED.put("jdbc-support", "dev.sqlguard.jdbc");
        PUBLISHED.put("adapter-duckdb", "dev.sqlguard.duckdb");
        PUBLISHED.put("adapter-duckdb-ingest", "dev.sqlguard.duckdb.ingest");
        PUBLISHED.put("adapter-mysql", "dev.sqlguard.mysql");
        PUBLISHED.put("adapter-postgresql", "dev.sqlguard.postgresql");
        PUBLISHED.put("adapter-trino", "dev.sqlguard.trino");
        PUBLISHED.put("adapter-llm", "dev.sqlguard.llm");
        PUBLISHED.put("app/api", "dev.sqlguard.app");
        PUBLISHED.put("app/tools", "dev.sqlguard.app.tools");
        PUBLISHED.put("app/agent", "dev.sqlguard.app.agent");
        PUBLISHED.put("app/mcp", "dev.sqlguard.app.mcp");
        PUBLISHED.put("app/cli", "dev.sqlguard.app.cli");
    }

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern ARTIFACT = Pattern.compile("<artifactId>([^<]+)</artifactId>");

    static Iterable<String> modules() {
        return PUBLISHED.keySet();
    }

    private static String artifactId(String module) throws IOException {
        String pom = Files.readString(ROOT.resolve(module).resolve("pom.xml"));
        Matcher m = ARTIFACT.matcher(pom.substring(pom.indexOf("</parent>")));
        assertThat(m.find()).as("artifactId of %s", module).isTrue();
        return m.group(1);
    }

    private static Path jar(String module, String classifier) throws IOException {
        String name = artifactId(module) + "-" + version() + (classifier.isEmpty() ? "" : "-" + classifier) + ".jar";
        Path jar = ROOT.resolve(module).resolve("target").resolve(name);
        assertThat(jar).as("%s (built by the reactor before this module; run the whole build)", jar).isRegularFile();
        return jar;
    }

    private static String version() throws IOException {
        String pom = Files.readString(ROOT.resolve("pom.xml"));
        Matcher m = Pattern.compile("<artifactId>sqlguard-parent</artifactId>\\s*<version>([^<]+)</version>").matcher(pom);
        assertThat(m.find()).isTrue();
        return m.group(1);
    }

    @ParameterizedTest
    @MethodSource("modules")
    void eachPublishedJarHasItsModuleNameSourcesAndJavadoc(String module) throws IOException {
        try (JarFile jar = new JarFile(jar(module, "").toFile())) {
            assertThat(jar.getManifest().getMainAttributes().getValue("Automatic-Module-Name")).isEqualTo(PUBLISHED.get(module));
            // reproducible: entries carry the fixed output timestamp, not the time of the build
            Instant stamp = Instant.parse(timestamp());
            assertThat(jar.stream().filter(e -> e.getName().endsWith(".class")).findFirst().orElseThrow().getLastModifiedTime().toInstant())
                    .isBetween(stamp.minusSeconds(24 * 3600), stamp.plusSeconds(24 * 3600));
        }
        try (JarFile sources = new JarFile(jar(module, "sources").toFile())) {
            assertThat(sources.stream().anyMatch(e -> e.getName().endsWith(".java"))).isTrue();
        }
        assertThat(Files.size(jar(module, "javadoc"))).isPositive();
    }

    private static String timestamp() throws IOException {
        Matcher m = Pattern.compile("<project.build.outputTimestamp>([^<]+)</project.build.outputTimestamp>")
                .matcher(Files.readString(ROOT.resolve("pom.xml")));
        assertThat(m.find()).isTrue();
        return m.group(1);
    }

    @Test
    void everyModuleNamesItsOwnAutomaticModuleName() throws IOException {
        String root = Files.readString(ROOT.resolve("pom.xml"));
        Matcher modules = Pattern.compile("<module>([^<]+)</module>").matcher(root);
        java.util.Set<String> seen = new java.util.HashSet<>();
        while (modules.find()) {
            for (String module : modules.group(1).equals("app") ? java.util.List.of("app/api", "app/tools", "app/agent", "app/mcp", "app/cli")
                    : java.util.List.of(modules.group(1))) {
                String pom = Files.readString(ROOT.resolve(module).resolve("pom.xml"));
                if (pom.contains("<packaging>pom</packaging>")) {
                    continue;
                }
                Matcher name = Pattern.compile("<automatic.module.name>([^<]+)</automatic.module.name>").matcher(pom);
                assertThat(name.find()).as("%s sets automatic.module.name (else it inherits the parent's)", module).isTrue();
                assertThat(seen.add(name.group(1))).as("%s's module name %s is unique", module, name.group(1)).isTrue();
            }
        }
    }

    @Test
    void theBomPinsEveryPublishedArtifactAtTheProjectVersion() throws IOException {
        String bom = Files.readString(ROOT.resolve("bom").resolve("pom.xml"));
        assertThat(bom).doesNotContain("<parent>"); // importing it pins sqlguard only, never the libraries sqlguard uses
        for (String module : PUBLISHED.keySet()) {
            assertThat(bom).as(module).contains("<artifactId>" + artifactId(module) + "</artifactId><version>${project.version}</version>");
        }
        assertThat(bom).contains("<version>" + version() + "</version>");
    }
}
