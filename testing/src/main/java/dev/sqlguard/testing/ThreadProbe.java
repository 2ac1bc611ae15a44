package dev.sqlguard.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;
import dev.sqlguard.ports.EngineFactory;

/**
 * The clean-end check of an engine, run in a JVM of its own (driver threads are per JVM): lists the
 * live threads, starts the engine, runs a query a few times, closes it, and prints on stdout
 * {@code RESULT <status>} per query and {@code LEFT <thread name>} for every thread that is still
 * alive {@value #PATIENCE_SECONDS} s (or the given patience) after the close and was not alive
 * before the start.
 *
 * <p>Arguments: the engine factory's class name, the table to allowlist and query, then the engine
 * properties as {@code key=value}.
 */
public final class ThreadProbe {
    static final int PATIENCE_SECONDS = 5;
    /** The system property of the child JVM that sets how long it waits for threads to end, in seconds. */
    static final String PATIENCE = "sqlguard.probe.patience.seconds";

    private ThreadProbe() {
    }

    /**
     * The command that runs the probe in a child JVM on this JVM's class path, waiting up to
     * {@code patience} after the close for threads to end. Start it with stderr merged into stdout
     * and read it with {@link #output}.
     */
    public static List<String> command(Class<? extends EngineFactory> factory, String table, Map<String, String> properties,
                                       java.time.Duration patience) {
        List<String> command = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-D" + PATIENCE + "=" + patience.toSeconds(), "-cp", System.getProperty("java.class.path"),
                ThreadProbe.class.getName(), factory.getName(), table));
        properties.forEach((k, v) -> command.add(k + "=" + v));
        return command;
    }

    /** {@link #command} with the default patience ({@value #PATIENCE_SECONDS} s). */
    public static List<String> command(Class<? extends EngineFactory> factory, String table, Map<String, String> properties) {
        return command(factory, table, properties, java.time.Duration.ofSeconds(PATIENCE_SECONDS));
    }

    /** The lines the started probe wrote ({@code RESULT ...}, {@code LEFT ...}, {@code DONE}, and any log lines). */
    public static List<String> output(Process probe) throws java.io.IOException, InterruptedException {
        List<String> lines = new String(probe.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                .lines().toList();
        if (!probe.waitFor(60, TimeUnit.SECONDS)) {
            probe.destroyForcibly();
        }
        return lines;
    }

    public static void main(String[] args) throws Exception {
        EngineFactory factory = (EngineFactory) Class.forName(args[0]).getDeclaredConstructor().newInstance();
        String table = args[1];
        Map<String, String> properties = new LinkedHashMap<>();
        for (String pair : List.of(args).subList(2, args.length)) {
            int eq = pair.indexOf('=');
            properties.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
        GuardrailPolicy policy = GuardrailPolicy.defaults()
                .withTables(TableAllowlist.of(Map.of(table, List.of(TableAllowlist.ALL_COLUMNS))));
        Path work = Files.createTempDirectory("sqlguard-probe-");
        QueryService service = new QueryService(AuditSink.discarding());
        try (Engine engine = factory.create(new EngineConfig("probe", properties, policy), EngineContext.of(work))) {
            for (int i = 0; i < 3; i++) {
                ToolResult result = service.query(engine.binding(),
                        new QueryRequest("probe", "SELECT count(*) AS n FROM " + table, List.of(), "probe-" + i));
                System.out.println("RESULT " + result.status() + result.error().map(e -> " " + e.code()).orElse(""));
            }
        } catch (dev.sqlguard.domain.GuardException e) {
            System.out.println("START_FAILED " + e.code()); // a start that fails must leave nothing running either
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Long.getLong(PATIENCE, PATIENCE_SECONDS));
        List<Thread> left;
        do {
            left = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.isAlive() && !before.contains(t) && t != Thread.currentThread())
                    .filter(t -> !t.getName().startsWith("ForkJoinPool.commonPool")) // the JVM's shared pool
                    .toList();
            if (!left.isEmpty()) {
                Thread.sleep(50);
            }
        } while (!left.isEmpty() && System.nanoTime() < deadline);
        for (Thread t : left) {
            System.out.println("LEFT " + t.getName() + (t.isDaemon() ? " (daemon)" : ""));
        }
        System.out.println("DONE");
        System.out.flush();
        System.exit(0); // a non-daemon thread left over must not hold the probe
    }
}
