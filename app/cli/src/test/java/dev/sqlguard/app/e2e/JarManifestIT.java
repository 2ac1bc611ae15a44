package dev.sqlguard.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.jar.Attributes;
import java.util.jar.JarFile;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fat jar's manifest, and the jar on a newer JDK: DuckDB loads its native library with
 * {@code System.load}, which JDK 22 and later report on every start ("A restricted method in
 * java.lang.System has been called") unless the jar allows native access.
 */
class JarManifestIT {
    @TempDir
    Path dir;

    @Test
    void theManifestNamesTheMainClassAndAllowsNativeAccess() throws Exception {
        try (JarFile jar = new JarFile(JarRunner.jar().toFile())) {
            Attributes main = jar.getManifest().getMainAttributes();
            assertThat(main.getValue("Main-Class")).isEqualTo("dev.sqlguard.app.internal.cli.Main");
            assertThat(main.getValue("Enable-Native-Access")).isEqualTo("ALL-UNNAMED");
            assertThat(main.getValue("Multi-Release")).isEqualTo("true");
        }
    }

    @Test
    void aQueryOnJdk25WarnsAboutNothing() {
        Optional<Path> java25 = Optional.ofNullable(System.getenv("SQLGUARD_TRINO_JAVA")).map(Path::of).filter(Files::isExecutable);
        assumeTrue(java25.isPresent(), "no JDK 25 named by SQLGUARD_TRINO_JAVA (.ci/run sets it)");
        JarRunner.Run run = new JarRunner(dir.resolve("home"), dir).java(java25.get())
                .run("query", "--sql", "SELECT region, count(*) AS n FROM claims GROUP BY region");
        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.json().get("status").asText()).isEqualTo("OK");
        assertThat(run.err()).doesNotContain("WARNING").doesNotContain("restricted method");
    }
}
