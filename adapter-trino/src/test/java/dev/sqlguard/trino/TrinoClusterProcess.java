package dev.sqlguard.trino;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One Trino test cluster in a JVM of its own: trino-test-cluster's launcher, run in source-file mode
 * by a Java 25 on the class path that module's build wrote. The launcher prints
 * {@code TRINO_URL http://host:port} once the cluster serves, and closes the cluster and exits when
 * its standard input ends. {@link TestCluster} (the tests) and the benchmarks' Trino part both start
 * their cluster through this class. It lives in adapter-trino's test jar, never in shipped code.
 */
public final class TrinoClusterProcess implements AutoCloseable {
    private final Process process;
    private final Path log;

    private TrinoClusterProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /**
     * Starts the launcher; its standard error goes to {@code log}.
     *
     * @param java a Java 25 binary
     * @param classpath the class path file trino-test-cluster's build wrote
     * @param launcher trino-test-cluster's launcher source file
     * @param rules the file-based access-control rules the cluster enforces
     * @param nodes the number of nodes (a coordinator and {@code nodes - 1} workers)
     */
    public static TrinoClusterProcess start(Path java, Path classpath, Path launcher, Path rules, int nodes, Path log) throws IOException {
        List<String> command = List.of(java.toString(), "-Xmx3g", "-XX:+UseSerialGC",
                "--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED",
                "--sun-misc-unsafe-memory-access=allow", "-Djdk.attach.allowAttachSelf=true",
                "-cp", Files.readString(classpath).strip(), launcher.toAbsolutePath().toString(),
                rules.toAbsolutePath().toString(), Integer.toString(nodes));
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(log.toFile());
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        return new TrinoClusterProcess(pb.start(), log);
    }

    /** Waits until the cluster serves and returns the coordinator's JDBC URL ({@code jdbc:trino://host:port}). */
    public String awaitUrl() throws IOException {
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            if (line.startsWith("TRINO_URL http://")) {
                return "jdbc:trino://" + line.substring("TRINO_URL http://".length()).strip();
            }
        }
        throw new IOException("the Trino test cluster exited before it served (see " + log + ")");
    }

    /** Closes the launcher's standard input (it then closes the cluster and exits), and kills it if it lingers. */
    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        try {
            process.getOutputStream().close();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroy();
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            }
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    /** Ends the cluster's JVM by a signal, as at a test JVM's exit, where there is no time for {@link #close()}'s wait. */
    public void terminate() {
        process.destroy();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process.destroyForcibly();
    }

    /** The Java 25 to run Trino with: {@code SQLGUARD_TRINO_JAVA} (a binary or a JDK folder), else a JDK 25 under /usr/lib/jvm. */
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
}
