package dev.sqlguard.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The installed distribution: the tarball unpacks to bin/sqlguard and lib/sqlguard.jar; the launcher
 * finds the JDK, makes a class-data archive on a command's first run and uses it on the next, and keeps
 * JVM messages off stdout. (Its CPU is measured by app/cli/perf/startup-cpu.py, not asserted here.)
 */
class DistributionIT {
    @TempDir
    Path dir;

    private Path home;

    @BeforeEach
    void unpack() throws Exception {
        Path tarball = Path.of(System.getProperty("sqlguard.dist", "../target/sqlguard-missing.tar.gz"));
        assertThat(tarball).as("built by `./mvnw package`").exists();
        Process tar = new ProcessBuilder("tar", "-xzf", tarball.toAbsolutePath().toString(), "-C", dir.toString())
                .redirectErrorStream(true).start();
        assertThat(tar.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(tar.exitValue()).isZero();
        try (Stream<Path> unpacked = Files.list(dir)) {
            home = unpacked.filter(p -> p.getFileName().toString().startsWith("sqlguard-")).findFirst().orElseThrow();
        }
    }

    private record Run(int code, String out, String err) {
    }

    private Run launch(Map<String, String> env, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(home.resolve("bin/sqlguard").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("XDG_CACHE_HOME", dir.resolve("cache").toString());
        builder.environment().put("XDG_STATE_HOME", dir.resolve("state").toString());
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().remove("SQLGUARD_JAVA");
        builder.environment().remove("JAVA_OPTS");
        builder.environment().putAll(env);
        Process p = builder.start();
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }

    private List<String> archives() throws IOException {
        Path cds = dir.resolve("cache/sqlguard/cds");
        if (!Files.isDirectory(cds)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(cds)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void theLauncherIsExecutableAndTheJarIsInLib() throws IOException {
        assertThat(Files.getPosixFilePermissions(home.resolve("bin/sqlguard"))).contains(PosixFilePermission.OWNER_EXECUTE,
                PosixFilePermission.OTHERS_EXECUTE);
        assertThat(home.resolve("lib/sqlguard.jar")).isRegularFile();
        assertThat(home.resolve("README.md")).isRegularFile();
    }

    @Test
    void theFirstRunMakesTheArchiveAndTheNextUsesItWithNothingButTheResultOnStdout() throws Exception {
        Run first = launch(Map.of(), "--version");
        assertThat(first.code()).as(first.err()).isZero();
        assertThat(first.out()).startsWith("sqlguard ").hasLineCount(1);
        List<String> made = archives();
        assertThat(made).hasSize(1).allSatisfy(name -> assertThat(name).startsWith("other-").endsWith(
                Runtime.version().feature() >= 25 ? ".aot" : ".jsa"));

        Run second = launch(Map.of(), "--version");
        assertThat(second.out()).isEqualTo(first.out());
        assertThat(second.err()).isEmpty();
        assertThat(archives()).isEqualTo(made);

        Run off = launch(Map.of("SQLGUARD_CDS", "off"), "--version");
        assertThat(off.out()).isEqualTo(first.out());
    }

    @Test
    void aMissingOrOldJavaIsSaidClearly() throws Exception {
        Run missing = launch(Map.of("SQLGUARD_JAVA", dir.resolve("no-java").toString()), "--version");
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err()).startsWith("sqlguard: cannot tell the version of");

        Path fake = dir.resolve("old/bin/java");
        Files.createDirectories(fake.getParent());
        Files.writeString(dir.resolve("old/release"), "JAVA_VERSION=\"11.0.2\"\n");
        Files.writeString(fake, "#!/bin/sh\nexit 0\n");
        fake.toFile().setExecutable(true);
        Run old = launch(Map.of("SQLGUARD_JAVA", fake.toString()), "--version");
        assertThat(old.code()).isEqualTo(2);
        assertThat(old.err()).contains("is Java 11.0.2; sqlguard needs Java 17 or newer");
    }
}
