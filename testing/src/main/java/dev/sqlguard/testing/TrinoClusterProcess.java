package dev.sqlguard.testing;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Starts the Trino test cluster of module {@code trino-test-cluster} (a coordinator and workers in one
 * Java 25 process, run from its launcher source file on the class path that module writes) and reads
 * the coordinator's address from the launcher's output. Used by adapter-trino's tests and by the
 * benchmarks; this process itself stays on Java 17.
 */
public final class TrinoClusterProcess {
    private TrinoClusterProcess() {
    }

    /** A started cluster process and its coordinator's JDBC URL ({@code jdbc:trino://host:port}). */
    public record Started(Process process, String url) {
    }

    /** The Java 25 to run Trino with: {@code SQLGUARD_TRINO_JAVA} (a binary or a JDK), else a JDK 25 under /usr/lib/jvm. */
    public static Optional<Path> java25() {
        String configured = System.getenv("SQLGUARD_TRINO_JAVA");
        if (configured != null && !configured.isBlank()) {
            Path p = Path.of(configured.strip());
            Path bin = Files.isDirectory(p) ? p.resolve("bin").resolve("java") : p;
            return Files.isExecutable(bin) ? Optional.of(bin) : Optional.empty();
        }
        File[] jdks = new File("/usr/lib/jvm").listFiles();
        if (jdks == null) {
            return Optional.empty();
        }
        for (File jdk : jdks) {
            String name = jdk.getName().toLowerCase(Locale.ROOT);
            Path bin = jdk.toPath().resolve("bin").resolve("java");
            if ((name.contains("-25") || name.contains("25-") || name.endsWith("25")) && Files.isExecutable(bin)) {
                return Optional.of(bin);
            }
        }
        return Optional.empty();
    }

    /**
     * Starts {@code nodes} nodes with the access-control {@code rules} file, the launcher's standard
     * error going to {@code log}, and waits until the coordinator serves.
     *
     * @throws IOException when the process cannot start or ends before it serves (the log says why)
     */
    public static Started start(Path java, String classpath, Path launcher, Path rules, int nodes, Path log)
            throws IOException {
        List<String> command = new ArrayList<>(List.of(java.toString(), "-Xmx1500m", "-XX:+UseSerialGC",
                "--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED",
                "--sun-misc-unsafe-memory-access=allow", "-Djdk.attach.allowAttachSelf=true",
                "-cp", classpath, launcher.toAbsolutePath().toString(), rules.toAbsolutePath().toString(),
                Integer.toString(nodes)));
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(log.toFile());
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        Process process = builder.start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null) {
            if (line.startsWith("TRINO_URL http://")) {
                return new Started(process, "jdbc:trino://" + line.substring("TRINO_URL http://".length()).strip());
            }
        }
        process.destroyForcibly();
        throw new IOException("the Trino test cluster exited before it served (see " + log + ")");
    }
}
