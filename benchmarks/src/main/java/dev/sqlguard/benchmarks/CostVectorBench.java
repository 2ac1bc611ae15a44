package dev.sqlguard.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.duckdb.CostVectors;
import dev.sqlguard.duckdb.DuckDbEngineFactory;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;
import dev.sqlguard.testing.ContractDataset;

/**
 * Runs every DuckDB cost vector of the hostile tests ({@link CostVectors}) once through the guarded
 * engine, under the default limits (10 s timeout, 256 MB memory, 1 GB spill folder), and reports for each how it ended,
 * how long the call took and the JVM's peak resident memory meanwhile (sampled from
 * {@code /proc/self/status} every 2 ms). The targets: each is refused, or stopped within the timeout
 * plus 100 ms, and resident memory stays at most the memory limit plus 300 MB.
 *
 * <p>{@link Harness} starts it in a JVM of its own with a fixed heap, so that the resident memory is
 * this run's alone.
 */
public final class CostVectorBench {
    private static final long MIB = 1024 * 1024;

    private CostVectorBench() {
    }

    public static void main(String[] args) throws Exception {
        Path work = Files.createTempDirectory("sqlguard-cost");
        Path data = Files.createDirectories(work.resolve("data"));
        Path db = data.resolve("contract.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db); Statement st = c.createStatement()) {
            for (String sql : ContractDataset.ddl()) {
                st.execute(sql);
            }
            for (String sql : ContractDataset.inserts()) {
                st.execute(sql);
            }
        }
        Limits limits = Limits.defaults();
        GuardrailPolicy policy = GuardrailPolicy.defaults();
        QueryService service = new QueryService(AuditSink.discarding());
        List<String> vectors = new ArrayList<>(CostVectors.amplifications());
        vectors.addAll(CostVectors.constantGrowth());
        vectors.addAll(CostVectors.runaways());
        long timeoutMs = limits.timeout().toMillis();
        long rssTarget = limits.memoryBytes() + 300 * MIB;
        int refused = 0;
        int stopped = 0;
        int answered = 0;
        long worstRefusal = 0;
        long worstStop = 0;
        long worstRss = 0;
        List<String> misses = new ArrayList<>();
        try (Engine engine = new DuckDbEngineFactory().create(new EngineConfig("cost", Map.of("database", db.toString()), policy),
                EngineContext.of(work.resolve("duckdb-work")))) {
            service.query(engine.binding(), QueryRequest.of("cost", "SELECT count(*) AS n FROM users")); // warm up
            System.out.printf(Locale.ROOT, "  cost vectors (%d), timeout %d ms, memory limit %d MB; resident memory before: %d MB%n",
                    vectors.size(), timeoutMs, limits.memoryBytes() / 1_000_000, residentBytes() / MIB);
            for (String sql : vectors) {
                Peak peak = Peak.start();
                long start = System.nanoTime();
                ToolResult result = service.query(engine.binding(), QueryRequest.of("cost", sql));
                long elapsedMs = (System.nanoTime() - start) / 1_000_000;
                long rss = peak.stop();
                worstRss = Math.max(worstRss, rss);
                String outcome;
                if (result.status() == ToolStatus.REJECTED) {
                    refused++;
                    if (result.error().map(e -> e.code() != ErrorCode.UNBOUNDED_COST).orElse(true)) {
                        misses.add("refused with another code: " + abbreviated(sql));
                    }
                    worstRefusal = Math.max(worstRefusal, elapsedMs);
                    outcome = "refused " + result.error().map(e -> e.code().name()).orElse("?");
                } else if (result.status() == ToolStatus.ERROR) {
                    stopped++;
                    worstStop = Math.max(worstStop, elapsedMs);
                    outcome = "stopped " + result.error().map(e -> e.code().name()).orElse("?");
                    if (elapsedMs > timeoutMs + 100) {
                        misses.add("late: " + abbreviated(sql));
                    }
                    if (result.error().map(e -> !expectedStop(e.code())).orElse(true)) {
                        misses.add("stopped with another code: " + abbreviated(sql));
                    }
                } else {
                    answered++;
                    outcome = "ANSWERED";
                    misses.add("answered: " + abbreviated(sql));
                }
                if (rss > rssTarget) {
                    misses.add("memory: " + abbreviated(sql));
                }
                System.out.printf(Locale.ROOT, "    %-36s %7d ms %6d MB  %s%n", outcome, elapsedMs, rss / MIB, abbreviated(sql));
            }
        }
        System.out.printf(Locale.ROOT, "  cost vectors: %d refused (slowest refusal %d ms), %d stopped (slowest %d ms; target <= %d ms), "
                        + "%d answered (target 0); peak resident memory %d MB (target <= %d MB)%n",
                refused, worstRefusal, stopped, worstStop, timeoutMs + 100, answered, worstRss / MIB, rssTarget / MIB);
        if (!misses.isEmpty()) {
            System.out.println("  cost vectors missing a target: " + misses);
        }
    }

    private static String abbreviated(String sql) {
        String oneLine = sql.replaceAll("\\s+", " ");
        return oneLine.length() <= 90 ? oneLine : oneLine.substring(0, 87) + "...";
    }

    /** The JVM's resident set size now, from /proc/self/status (0 where there is none). */
    static long residentBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
        return 0;
    }

    /** Samples the resident set size every 2 ms on a daemon thread and keeps the highest. */
    private static final class Peak {
        private final AtomicLong highest = new AtomicLong(residentBytes());
        private final AtomicBoolean running = new AtomicBoolean(true);
        private Thread sampler;

        static Peak start() {
            Peak peak = new Peak();
            peak.sampler = new Thread(() -> {
                while (peak.running.get()) {
                    peak.highest.accumulateAndGet(residentBytes(), Math::max);
                    try {
                        Thread.sleep(2);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "rss-sampler");
            peak.sampler.setDaemon(true);
            peak.sampler.start();
            return peak;
        }

        long stop() throws InterruptedException {
            running.set(false);
            sampler.join();
            return highest.accumulateAndGet(residentBytes(), Math::max);
        }
    }

    /**
     * The codes of a call stopped while it ran: the deadline, the spill-folder bound, or the memory
     * limit (which DuckDB's JDBC driver reports as a plain failure once results stream).
     */
    private static boolean expectedStop(ErrorCode code) {
        return code == ErrorCode.EXCEEDED_TIME_LIMIT || code == ErrorCode.EXCEEDED_DISK_LIMIT
                || code == ErrorCode.EXCEEDED_MEMORY_LIMIT || code == ErrorCode.QUERY_FAILED;
    }
}
