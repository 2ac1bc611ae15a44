package dev.sqlguard.app.e2e;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;

import dev.sqlguard.trino.TrinoClusterProcess;

/**
 * The end-to-end tests' Trino: the real test cluster (Trino 483, module trino-test-cluster) in a Java 25 JVM
 * of its own, started by adapter-trino's {@link TrinoClusterProcess} with the rules a test gives. With no
 * Java 25 ({@code SQLGUARD_TRINO_JAVA}) or no class path file (build trino-test-cluster first) the calling
 * test skips and says why; a cluster that could run and does not start fails it.
 */
final class TrinoClusters {
    /** A started cluster and its JDBC URL. Closing stops the cluster. */
    record Cluster(TrinoClusterProcess process, String url) implements AutoCloseable {
        @Override
        public void close() {
            process.close();
        }
    }

    private TrinoClusters() {
    }

    /** The test cluster's own rules ({@code admin} may do anything, {@code sqlguard_ro} may read memory and tpch). */
    static String testRules() throws IOException {
        try (InputStream in = TrinoClusterProcess.class.getResourceAsStream("test-cluster-rules.json")) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    /**
     * Starts a cluster of {@code nodes} nodes enforcing {@code rules} (file-based access control) and waits until
     * it serves.
     *
     * @throws IllegalStateException when a cluster could run here and did not start
     */
    static Cluster start(String rules, int nodes, String label) throws IOException {
        Optional<Path> java = TrinoClusterProcess.java25();
        assumeTrue(java.isPresent(), "no Java 25 found (set SQLGUARD_TRINO_JAVA to a Java 25 binary or JDK): Trino 483 needs Java 25");
        String classpath = System.getProperty("sqlguard.trino.classpath", "");
        assumeTrue(!classpath.isEmpty() && Files.isRegularFile(Path.of(classpath)),
                "the Trino class path file is missing (build trino-test-cluster first): " + classpath);
        Path launcher = Path.of(System.getProperty("sqlguard.trino.launcher", ""));
        assumeTrue(Files.isRegularFile(launcher), "the Trino test-cluster launcher is missing: " + launcher);
        Path work = Files.createDirectories(Path.of(System.getProperty("sqlguard.it.tmp", "target/it-tmp")));
        String id = UUID.randomUUID().toString();
        Path file = work.resolve("trino-rules-" + id + ".json");
        Files.writeString(file, rules);
        Path log = work.resolve("trino-cluster-" + label + "-" + id + ".log");
        long startedAt = System.nanoTime();
        TrinoClusterProcess process = TrinoClusterProcess.start(java.get(), Path.of(classpath), launcher, file, nodes, log);
        try {
            String url = process.awaitUrl();
            System.err.printf(Locale.ROOT, "[%s] Trino cluster serving after %.1f s%n", label, (System.nanoTime() - startedAt) / 1e9);
            return new Cluster(process, url);
        } catch (IOException | RuntimeException e) {
            process.close();
            throw new IllegalStateException("the Trino test cluster could not start: " + e.getMessage(), e);
        }
    }
}
