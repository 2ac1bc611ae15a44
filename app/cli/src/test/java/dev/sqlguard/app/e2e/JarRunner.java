package dev.sqlguard.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;

/**
 * Runs the packaged {@code sqlguard.jar} as a subprocess, with HOME and XDG_CACHE_HOME pointed at
 * a private folder so that the demo cache never touches the real user's.
 */
final class JarRunner {
    static final ObjectMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
            .build();

    record Run(int code, String out, String err) {
        /** Every stdout line, each of which must be a JSON object. */
        List<JsonNode> lines() {
            List<JsonNode> nodes = new ArrayList<>();
            for (String line : out.split("\n")) {
                if (line.isEmpty()) {
                    continue;
                }
                try {
                    JsonNode node = JSON.readTree(line);
                    assertThat(node.isObject()).as("stdout line is a JSON object: %s", line).isTrue();
                    nodes.add(node);
                } catch (IOException e) {
                    throw new AssertionError("stdout line is not JSON: " + line + "\nstderr: " + err, e);
                }
            }
            return nodes;
        }

        /** The whole of stdout as one (possibly multi-line) JSON document. */
        JsonNode document() {
            try {
                return JSON.readTree(out);
            } catch (IOException e) {
                throw new AssertionError("stdout is not one JSON document: " + out + "\nstderr: " + err, e);
            }
        }

        JsonNode json() {
            List<JsonNode> lines = lines();
            assertThat(lines).as("one result on stdout; stderr: %s", err).hasSize(1);
            return lines.get(0);
        }
    }

    private final Path home;
    private final Path workDir;
    private final Map<String, String> env = new HashMap<>();
    private final List<String> jvmOptions = new ArrayList<>();
    private Path java = Path.of(System.getProperty("java.home"), "bin", "java");

    JarRunner(Path home, Path workDir) {
        this.home = home;
        this.workDir = workDir;
    }

    /**
     * A stdio transport to {@code sqlguard mcp <args>} run from the packaged jar in a JVM of its own, with
     * {@code home} as its home, cache and state folders (nothing of the user's own is read or written).
     */
    static StdioClientTransport mcpTransport(Path home, List<String> args) {
        List<String> command = new ArrayList<>(List.of("-Xmx256m", "-jar", jar().toString(), "mcp"));
        command.addAll(args);
        Map<String, String> env = new HashMap<>();
        env.put("HOME", home.toString());
        env.put("XDG_CACHE_HOME", home.resolve("cache").toString());
        env.put("XDG_STATE_HOME", home.resolve("state").toString());
        ServerParameters server = ServerParameters.builder(Path.of(System.getProperty("java.home"), "bin", "java").toString())
                .args(command).env(env).build();
        return new StdioClientTransport(server, new JacksonMcpJsonMapper(new ObjectMapper()));
    }

    static Path jar() {
        String path = System.getProperty("sqlguard.jar");
        assertThat(path).as("system property sqlguard.jar (set by failsafe)").isNotNull();
        Path jar = Path.of(path);
        assertThat(jar).as("the packaged jar").isRegularFile();
        return jar;
    }

    /** Builds the demo database in the private cache (with a plain query) and returns its file. */
    Path demoDatabase() {
        Run build = run("query", "--sql", "SELECT 1");
        assertThat(build.code()).as(build.err()).isZero();
        try (var files = Files.list(home.resolve("cache/sqlguard"))) {
            return files.filter(p -> p.getFileName().toString().endsWith(".duckdb")).findFirst().orElseThrow();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A configuration over the demo database: source {@code demo} with every column of
     * {@code claims}, the given {@code limits} (flow-map entries such as {@code timeout: 1s}; blank for
     * none), then {@code more} (top-level YAML, appended as is).
     */
    String demoConfig(String limits, String more) {
        return "sources:\n  demo:\n    engine: duckdb\n    database: " + demoDatabase() + "\n    policy:\n"
                + "      tables: {claims: [\"*\"]}\n" + (limits.isBlank() ? "" : "      limits: {" + limits + "}\n") + more;
    }

    JarRunner env(String name, String value) {
        env.put(name, value);
        return this;
    }

    /** A JVM option for the runs that follow, before {@code -jar} (such as a class-loading log). */
    JarRunner jvmOption(String option) {
        jvmOptions.add(option);
        return this;
    }

    /** The java launcher for the runs that follow (the test JVM's by default). */
    JarRunner java(Path launcher) {
        java = launcher;
        return this;
    }

    Run run(String... args) {
        return runWithInput(null, args);
    }

    Run runWithInput(String stdin, String... args) {
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.add("-Xmx256m");
        command.addAll(jvmOptions);
        command.add("-jar");
        command.add(jar().toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile());
        // the developer's own model endpoint must not leak into a test
        builder.environment().keySet().removeIf(name -> name.startsWith("SQLGUARD_"));
        builder.environment().put("HOME", home.toString());
        builder.environment().put("XDG_CACHE_HOME", home.resolve("cache").toString());
        builder.environment().putAll(env);
        try {
            Files.createDirectories(home);
            Process process = builder.start();
            CompletableFuture<String> out = read(process.getInputStream());
            CompletableFuture<String> err = read(process.getErrorStream());
            try (OutputStream in = process.getOutputStream()) {
                if (stdin != null) {
                    in.write(stdin.getBytes(StandardCharsets.UTF_8));
                }
            }
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("sqlguard did not finish: " + command);
            }
            return new Run(process.exitValue(), out.join(), err.join());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    private static CompletableFuture<String> read(InputStream stream) {
        return CompletableFuture.supplyAsync(() -> {
            try (stream) {
                return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }
}
