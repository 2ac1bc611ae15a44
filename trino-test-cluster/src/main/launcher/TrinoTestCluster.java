/*
 * Starts a multi-node Trino for sqlguard's tests. Run by a Java 25 JVM in source-file mode, with the
 * class path that trino-test-cluster's build writes to target/trino-classpath.txt:
 *
 *   java -cp @classpath TrinoTestCluster.java <rules.json> <nodes>
 *
 * One coordinator and nodes - 1 workers (trino-testing's DistributedQueryRunner, which schedules
 * splits on the coordinator too), the memory connector as catalog "memory" and the tpch connector
 * as catalog "tpch", and Trino's file-based system access control with the given rules. Prints one
 * line "TRINO_URL http://host:port" once every node is visible, then runs until its standard input
 * closes, so the cluster never outlives the test JVM that started it.
 */

import java.io.PrintStream;
import java.lang.reflect.Field;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.trino.Session;
import io.trino.plugin.memory.MemoryPlugin;
import io.trino.plugin.tpch.TpchPlugin;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.trino.testing.DistributedQueryRunner;

import static io.trino.testing.TestingSession.testSessionBuilder;

public class TrinoTestCluster {
    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: TrinoTestCluster <rules.json> <nodes>");
            System.exit(2);
        }
        int nodes = Integer.parseInt(args[1]);
        PrintStream out = System.out; // airlift's logging takes System.out over when the cluster starts
        Session session = testSessionBuilder().setCatalog("memory").setSchema("default").build();
        DistributedQueryRunner runner = DistributedQueryRunner.builder(session)
                .setWorkerCount(nodes - 1)
                .setSystemAccessControl("file", Map.of("security.config-file", args[0]))
                .build();
        forgetSpans(runner);
        runner.installPlugin(new MemoryPlugin());
        runner.createCatalog("memory", "memory", Map.of());
        runner.installPlugin(new TpchPlugin());
        runner.createCatalog("tpch", "tpch", Map.of());
        out.println("TRINO_URL " + runner.getCoordinator().getBaseUrl());
        out.flush();
        while (System.in.read() != -1) {
            // until the test JVM goes away
        }
        runner.close();
        System.exit(0);
    }

    /**
     * DistributedQueryRunner keeps every tracing span of every query in an in-memory exporter, for
     * tests that read them; nothing here does. A test run of tens of thousands of queries filled a
     * 3 GB heap with 2.3 million spans (measured with a class histogram), and the cluster then spent
     * its time in full collections, so queries timed out. Empty the exporter every few seconds.
     */
    private static void forgetSpans(DistributedQueryRunner runner) throws ReflectiveOperationException {
        Field field = DistributedQueryRunner.class.getDeclaredField("spanExporter");
        field.setAccessible(true);
        InMemorySpanExporter spans = (InMemorySpanExporter) field.get(runner);
        ScheduledExecutorService cleaner = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "forget-spans");
            thread.setDaemon(true);
            return thread;
        });
        cleaner.scheduleWithFixedDelay(spans::reset, 5, 5, TimeUnit.SECONDS);
    }
}
