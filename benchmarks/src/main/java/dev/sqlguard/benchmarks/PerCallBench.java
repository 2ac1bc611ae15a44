package dev.sqlguard.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;

import org.duckdb.DuckDBConnection;

import dev.sqlguard.app.SqlGuard;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;

/**
 * DuckDB's per-call cost and throughput (issue 15), side by side with raw JDBC in one run:
 *
 * <ul>
 *   <li>the 3 ms GROUP BY over 1M rows, guarded ({@code QueryService} over the engine) vs raw JDBC
 *       on one reused connection, paired per round (target: at most 1.05);
 *   <li>what a per-call connection costs when it is opened and closed on the critical path: raw
 *       JDBC on a fresh {@code duplicate()} closed after the call, vs the reused connection;
 *   <li>throughput with 8 threads through the embedding API ({@link SqlGuard#query}) vs raw JDBC
 *       with 8 connections, on a small query (a 3,000-row table, the demo's size) and on the
 *       1M-row GROUP BY, as alternating one-second phases (target: at least 0.8).
 * </ul>
 *
 * <pre>
 * java -jar benchmarks/target/sqlguard-benchmarks.jar 21 percall
 * </pre>
 */
final class PerCallBench {
    static final String SMALL = "SELECT region, avg(amount) AS avg_amount, count(*) AS n FROM claims_small GROUP BY region";
    static final int THREADS = 8;
    private static final long PHASE_NANOS = 1_000_000_000L;

    private PerCallBench() {
    }

    /** The benchmark's files: the guarded database, and byte-identical copies for raw JDBC, plain and streamed. */
    private record BenchFiles(Path db, String rawUrl, String streamedUrl, Properties props, Properties streaming) {
    }

    private static BenchFiles prepare(Path work) throws Exception {
        Path db = Harness.claimsDatabase(work);
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE claims_small AS SELECT * FROM claims WHERE id < 3000");
        }
        // raw runs use a byte-identical copy: the driver keeps one instance per path, so the copy lets
        // guarded and raw runs interleave with the same settings (2 threads, 1 GB)
        Path rawCopy = db.resolveSibling("bench-raw.duckdb");
        Files.copy(db, rawCopy);
        Path streamedCopy = db.resolveSibling("bench-raw-streamed.duckdb"); // the stream setting is instance-wide
        Files.copy(db, streamedCopy);
        Properties props = new Properties();
        props.setProperty("duckdb.read_only", "true");
        props.setProperty("threads", "2");
        props.setProperty("memory_limit", "1GB");
        Properties streaming = new Properties();
        streaming.putAll(props);
        streaming.setProperty("jdbc_stream_results", "true");
        return new BenchFiles(db, "jdbc:duckdb:" + rawCopy, "jdbc:duckdb:" + streamedCopy, props, streaming);
    }

    /** Only the 8-thread breakdown ({@link #throughputBreakdown}): the harness part {@code steps}. */
    static void steps(Path work, int rounds) throws Exception {
        System.out.println("duckdb per call, 8-thread steps (load average " + load() + "):");
        BenchFiles f = prepare(work);
        throughputBreakdown(work, f.db(), f.rawUrl(), f.streamedUrl(), f.props(), f.streaming(), rounds);
        System.out.println("  (load average " + load() + ")");
    }

    static void run(Path work, int rounds) throws Exception {
        System.out.println("duckdb per call (load average " + load() + "):");
        BenchFiles f = prepare(work);
        Path db = f.db();
        Properties props = f.props();
        Properties streaming = f.streaming();
        String rawUrl = f.rawUrl();
        // the baseline is plain JDBC with the driver's defaults (results materialized), as in the
        // harness's duckdb part; the breakdown also shows the same query streamed
        try (Connection raw = DriverManager.getConnection(rawUrl, props);
             Connection rawStreaming = DriverManager.getConnection(f.streamedUrl(), streaming)) {
            try (Engine engine = Harness.factory("duckdb").create(
                    new EngineConfig("bench", Map.of("database", db.toString()), Harness.BENCH_POLICY),
                    EngineContext.of(work.resolve("duckdb-work")))) {
                Runnable guarded = () -> Harness.requireOk(Harness.SERVICE.query(engine.binding(),
                        QueryRequest.of("bench", Harness.GROUP_BY)));
                Runnable plain = () -> Harness.drain(raw, Harness.GROUP_BY);
                Runnable fresh = () -> {
                    try (Connection d = ((DuckDBConnection) raw).duplicate()) {
                        Harness.drain(d, Harness.GROUP_BY);
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                };
                for (int w = 0; w < 20; w++) { // warm every path
                    guarded.run();
                    plain.run();
                    fresh.run();
                }
                breakdown(engine, raw, rawStreaming, rounds, SMALL, "small GROUP BY (3,000 rows)");
                breakdown(engine, raw, rawStreaming, rounds, Harness.GROUP_BY, "1M-row GROUP BY");
                long[][] times = Harness.paired(rounds * 5, guarded, plain);
                Harness.report("  1M-row GROUP BY, guarded vs raw JDBC (target <= 1.05)", times[0], times[1]);
                Runnable smallGuarded = () -> Harness.requireOk(Harness.SERVICE.query(engine.binding(),
                        QueryRequest.of("bench", SMALL)));
                long[][] small = Harness.paired(rounds * 50, smallGuarded, () -> Harness.drain(raw, SMALL));
                Harness.report("  small GROUP BY (3,000 rows), guarded vs raw JDBC, one thread", small[0], small[1]);
                long[][] opened = Harness.paired(rounds * 5, fresh, plain);
                Harness.report("  raw JDBC on a fresh duplicate() closed after the call vs on one reused connection",
                        opened[0], opened[1]);
            }
            System.out.println("  (load average " + load() + ")");
            try (SqlGuard guard = SqlGuard.builder()
                    .source("bench", "duckdb", Map.of("database", db.toString()), Harness.BENCH_POLICY)
                    .auditSink(AuditSink.discarding())
                    .build()) {
                Connection[] connections = new Connection[THREADS];
                for (int i = 0; i < THREADS; i++) {
                    connections[i] = DriverManager.getConnection(rawUrl, props);
                }
                ExecutorService pool = Executors.newFixedThreadPool(THREADS);
                try {
                    for (String sql : List.of(SMALL, Harness.GROUP_BY)) {
                        String label = sql == SMALL ? "small GROUP BY (3,000 rows)" : "1M-row GROUP BY";
                        Runnable one = () -> Harness.requireOk(guard.query("bench", sql));
                        for (int w = 0; w < 20; w++) {
                            one.run();
                            Harness.drain(raw, sql);
                        }
                        throughput(pool, rounds, "  " + label + ", 8 threads: SqlGuard.query vs raw JDBC with 8 connections "
                                + "(target >= 0.8), queries/s", t -> one, t -> () -> Harness.drain(connections[t], sql));
                    }
                } finally {
                    pool.shutdownNow();
                    for (Connection c : connections) {
                        c.close();
                    }
                }
            }
        }
        System.out.println("  (load average " + load() + ")");
        throughputBreakdown(work, db, rawUrl, f.streamedUrl(), props, streaming, rounds);
        System.out.println("  (load average " + load() + ")");
    }

    /**
     * Where the 8-thread throughput goes: the same calls with 8 threads, one step of the guarded
     * path added at a time (raw JDBC, streamed, the checked text, a fresh {@code duplicate()} per
     * call, the execution port, {@code QueryService}, {@code SqlGuard.query}), as one-second phases
     * in random order per round; per step, the median rate, the median per-round ratio to raw JDBC,
     * and the process CPU time per call (all threads), which a loaded machine disturbs less.
     */
    private static void throughputBreakdown(Path work, Path db, String rawUrl, String streamedUrl, Properties props,
                                            Properties streaming, int rounds) throws Exception {
        Connection[] plain = new Connection[THREADS];
        Connection[] streamed = new Connection[THREADS];
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        // the facade's engine and this one share DuckDB's instance, so they name the same spill folder
        Map<String, String> source = Map.of("database", db.toString(),
                "tempDirectory", Files.createDirectories(work.resolve("spill-steps")).toString());
        try (SqlGuard guard = SqlGuard.builder()
                .source("bench", "duckdb", source, Harness.BENCH_POLICY)
                .auditSink(AuditSink.discarding())
                .build();
             Engine engine = Harness.factory("duckdb").create(new EngineConfig("bench", source, Harness.BENCH_POLICY),
                     EngineContext.of(work.resolve("duckdb-work-steps")))) {
            for (int i = 0; i < THREADS; i++) {
                plain[i] = DriverManager.getConnection(rawUrl, props);
                streamed[i] = DriverManager.getConnection(streamedUrl, streaming);
            }
            for (String sql : List.of(SMALL, Harness.GROUP_BY)) {
                dev.sqlguard.domain.QueryPlan plan = engine.validator().validate(QueryRequest.of("bench", sql));
                String checked = plan.executableSql();
                Map<String, IntFunction<Runnable>> steps = new java.util.LinkedHashMap<>();
                steps.put("raw JDBC, 8 connections (the baseline)", t -> () -> Harness.drain(plain[t], sql));
                steps.put("raw JDBC, streamed", t -> () -> Harness.drain(streamed[t], sql));
                steps.put("the checked text, streamed", t -> () -> Harness.drain(streamed[t], checked));
                steps.put("the same, on a fresh duplicate() per call", t -> () -> {
                    try (Connection d = ((DuckDBConnection) streamed[t]).duplicate()) {
                        Harness.drain(d, checked);
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                });
                steps.put("the engine's execution port (plan validated once)", t -> () -> {
                    try (dev.sqlguard.domain.port.ResultCursor cursor = engine.execution().execute(plan)) {
                        while (cursor.next()) {
                            cursor.get(0);
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                steps.put("QueryService", t -> () -> Harness.requireOk(
                        Harness.SERVICE.query(engine.binding(), QueryRequest.of("bench", sql))));
                steps.put("SqlGuard.query", t -> () -> Harness.requireOk(guard.query("bench", sql)));
                List<String> names = new ArrayList<>(steps.keySet());
                for (String name : names) { // warm every step up
                    phase(pool, steps.get(name));
                }
                long[][] rates = new long[names.size()][rounds];
                long[][] cpu = new long[names.size()][rounds];
                long[][] ratios = new long[names.size()][rounds];
                Random order = new Random(11);
                for (int r = 0; r < rounds; r++) {
                    for (int v : shuffled(names.size(), order)) {
                        long c0 = cpuNanos();
                        rates[v][r] = phase(pool, steps.get(names.get(v)));
                        cpu[v][r] = (cpuNanos() - c0) / Math.max(1, rates[v][r]);
                    }
                    for (int v = 0; v < names.size(); v++) {
                        ratios[v][r] = Math.round(1000.0 * rates[v][r] / Math.max(1, rates[0][r]));
                    }
                }
                System.out.println("  8 threads, one step of the guarded path at a time (" + (sql == SMALL ? "small GROUP BY"
                        : "1M-row GROUP BY") + ", median over " + rounds + " rounds of 1 s phases; CPU = process CPU per call):");
                for (int v = 0; v < names.size(); v++) {
                    System.out.printf(Locale.ROOT, "    %-52s %7.0f calls/s, ratio to raw %.3f, CPU %6.3f ms (%+.3f)%n",
                            names.get(v), Harness.median(rates[v]) / (PHASE_NANOS / 1e9), Harness.median(ratios[v]) / 1000.0,
                            Harness.median(cpu[v]) / 1e6, (Harness.median(cpu[v]) - Harness.median(cpu[0])) / 1e6);
                }
            }
        } finally {
            pool.shutdownNow();
            for (Connection c : plain) {
                if (c != null) {
                    c.close();
                }
            }
            for (Connection c : streamed) {
                if (c != null) {
                    c.close();
                }
            }
        }
    }

    /**
     * A loop of guarded calls of the small query for {@code seconds}, to run under a profiler:
     * {@code java -XX:StartFlightRecording=filename=percall.jfr,settings=profile -jar
     * benchmarks/target/sqlguard-benchmarks.jar 20 profile}. {@code -Dsqlguard.bench.threads=8}
     * runs that many threads; {@code -Dsqlguard.bench.facade=true} calls {@code SqlGuard.query}
     * instead of {@code QueryService}.
     */
    static void profile(Path work, int seconds) throws Exception {
        int threads = Integer.getInteger("sqlguard.bench.threads", 1);
        boolean facade = Boolean.getBoolean("sqlguard.bench.facade");
        Path db = prepare(work).db();
        Map<String, String> source = Map.of("database", db.toString(), // one spill folder: the two share the instance
                "tempDirectory", Files.createDirectories(work.resolve("spill")).toString());
        try (Engine engine = Harness.factory("duckdb").create(new EngineConfig("bench", source, Harness.BENCH_POLICY),
                EngineContext.of(work.resolve("duckdb-work")));
             SqlGuard guard = facade ? SqlGuard.builder().source("bench", "duckdb", source, Harness.BENCH_POLICY)
                     .auditSink(AuditSink.discarding()).build() : null) {
            Runnable call = facade ? () -> Harness.requireOk(guard.query("bench", SMALL))
                    : () -> Harness.requireOk(Harness.SERVICE.query(engine.binding(), QueryRequest.of("bench", SMALL)));
            long end = System.nanoTime() + seconds * 1_000_000_000L;
            java.util.concurrent.atomic.AtomicLong calls = new java.util.concurrent.atomic.AtomicLong();
            long start = System.nanoTime();
            long cpu0 = cpuNanos();
            List<Thread> running = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Thread thread = new Thread(() -> {
                    while (System.nanoTime() - end < 0) {
                        call.run();
                        calls.incrementAndGet();
                    }
                }, "bench-caller-" + t);
                thread.start();
                running.add(thread);
            }
            for (Thread thread : running) {
                thread.join();
            }
            System.out.printf(Locale.ROOT, "  %d %s calls of the small query on %d threads, %.0f calls/s, %.3f ms of process CPU each%n",
                    calls.get(), facade ? "SqlGuard.query" : "QueryService", threads,
                    calls.get() / ((System.nanoTime() - start) / 1e9), (cpuNanos() - cpu0) / 1e6 / calls.get());
        }
    }

    /**
     * Where a guarded call's time goes: the same query run as raw JDBC, as the checked text on the
     * raw connection, on a fresh duplicate, through the engine's execution port, and through the
     * whole {@code QueryService}, in blocks of calls alternated in random order; per call, the
     * median over blocks of the wall time and of the process CPU time (all threads, background
     * work included), which a loaded machine disturbs much less than wall time.
     */
    private static void breakdown(Engine engine, Connection raw, Connection rawStreaming, int rounds, String sql,
                                  String label) {
        dev.sqlguard.domain.QueryPlan plan = engine.validator().validate(QueryRequest.of("bench", sql));
        String checked = plan.executableSql();
        Map<String, Runnable> variants = new java.util.LinkedHashMap<>();
        variants.put("raw JDBC, reused connection", () -> Harness.drain(raw, sql));
        variants.put("raw JDBC, reused connection, streamed", () -> Harness.drain(rawStreaming, sql));
        variants.put("checked text, reused connection, streamed", () -> Harness.drain(rawStreaming, checked));
        variants.put("checked text, fresh duplicate() per call, streamed", () -> {
            try (Connection d = ((DuckDBConnection) rawStreaming).duplicate()) {
                Harness.drain(d, checked);
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
        variants.put("engine execution port (plan validated once)", () -> {
            try (dev.sqlguard.domain.port.ResultCursor cursor = engine.execution().execute(plan)) {
                while (cursor.next()) {
                    cursor.get(0);
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        variants.put("QueryService (validate from cache, authorize, execute, project)", () -> Harness.requireOk(
                Harness.SERVICE.query(engine.binding(), QueryRequest.of("bench", sql))));
        List<String> names = new ArrayList<>(variants.keySet());
        int blocks = Math.max(5, rounds);
        int perBlock = sql.equals(SMALL) ? 100 : 10;
        long[][] wall = new long[names.size()][blocks];
        long[][] cpu = new long[names.size()][blocks];
        long[][] switches = new long[names.size()][blocks];
        Random order = new Random(7);
        for (int b = 0; b < blocks; b++) {
            for (int v : shuffled(names.size(), order)) {
                Runnable r = variants.get(names.get(v));
                long s0 = contextSwitches();
                long c0 = cpuNanos();
                long t0 = System.nanoTime();
                for (int i = 0; i < perBlock; i++) {
                    r.run();
                }
                wall[v][b] = (System.nanoTime() - t0) / perBlock;
                cpu[v][b] = (cpuNanos() - c0) / perBlock;
                switches[v][b] = Math.round(100.0 * (contextSwitches() - s0) / perBlock);
            }
        }
        System.out.println("  where a guarded call's time goes (" + label + ", median per call over " + blocks + " blocks of "
                + perBlock + "; CPU = process CPU time, background threads included; waits = threads that blocked, "
                + "per call):");
        for (int v = 0; v < names.size(); v++) {
            System.out.printf(Locale.ROOT, "    %-66s wall %6.3f ms (%+.3f)  CPU %6.3f ms (%+.3f)  waits %5.2f (%+.2f)%n", names.get(v),
                    Harness.median(wall[v]) / 1e6, (Harness.median(wall[v]) - Harness.median(wall[0])) / 1e6,
                    Harness.median(cpu[v]) / 1e6, (Harness.median(cpu[v]) - Harness.median(cpu[0])) / 1e6,
                    Harness.median(switches[v]) / 100.0, (Harness.median(switches[v]) - Harness.median(switches[0])) / 100.0);
        }
    }

    /**
     * Alternates one-second phases of {@code subject} and {@code baseline}, each run by 8 threads
     * in a loop, in random order per round, and reports both median rates and the median per-round
     * ratio (subject / baseline: higher is better for the subject).
     */
    static void throughput(ExecutorService pool, int rounds, String label, IntFunction<Runnable> subject,
                                   IntFunction<Runnable> baseline) throws Exception {
        phase(pool, subject); // warm the threads
        phase(pool, baseline);
        long[] s = new long[rounds];
        long[] b = new long[rounds];
        long[] ratios = new long[rounds];
        Random order = new Random(42);
        for (int r = 0; r < rounds; r++) {
            if (order.nextBoolean()) {
                s[r] = phase(pool, subject);
                b[r] = phase(pool, baseline);
            } else {
                b[r] = phase(pool, baseline);
                s[r] = phase(pool, subject);
            }
            ratios[r] = Math.round(1000.0 * s[r] / Math.max(1, b[r]));
        }
        double seconds = PHASE_NANOS / 1e9;
        System.out.printf(Locale.ROOT, "%s: median %.0f vs %.0f, ratio of medians %.3f, median per-round ratio %.3f%n", label,
                Harness.median(s) / seconds, Harness.median(b) / seconds,
                Harness.median(s) / (double) Harness.median(b), Harness.median(ratios) / 1000.0);
    }

    /** Calls completed by {@value #THREADS} threads in one phase. */
    private static long phase(ExecutorService pool, IntFunction<Runnable> task) throws Exception {
        CountDownLatch ready = new CountDownLatch(THREADS);
        CountDownLatch go = new CountDownLatch(1);
        long[] end = new long[1];
        List<Future<Long>> counts = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            Runnable r = task.apply(t);
            counts.add(pool.submit(() -> {
                ready.countDown();
                go.await();
                long n = 0;
                while (System.nanoTime() - end[0] < 0) {
                    r.run();
                    n++;
                }
                return n;
            }));
        }
        ready.await();
        end[0] = System.nanoTime() + PHASE_NANOS;
        go.countDown();
        long total = 0;
        for (Future<Long> f : counts) {
            total += f.get();
        }
        return total;
    }

    /** 0 to {@code n - 1} in a random order. */
    private static List<Integer> shuffled(int n, Random order) {
        List<Integer> out = new ArrayList<>(java.util.stream.IntStream.range(0, n).boxed().toList());
        java.util.Collections.shuffle(out, order);
        return out;
    }

    /**
     * Nanoseconds on a CPU of every thread of this process, DuckDB's native threads included, from
     * /proc/self/task/N/schedstat (the JVM's process CPU time counts only in 10 ms ticks).
     */
    static long cpuNanos() {
        return sumOverThreads("schedstat", stat -> Long.parseLong(stat.substring(0, stat.indexOf(' '))));
    }

    /**
     * Voluntary context switches of every thread of this process so far (a thread that blocked: a
     * lock, a queue, a sleep), from /proc/self/task/N/status; a thread woken per call adds one per call.
     */
    static long contextSwitches() {
        String key = "voluntary_ctxt_switches:";
        return sumOverThreads("status", status -> {
            int at = status.indexOf(key) + key.length();
            return Long.parseLong(status.substring(at, status.indexOf('\n', at)).trim());
        });
    }

    /** The sum over the threads of this process of a figure read from /proc/self/task/N/{@code file}. */
    private static long sumOverThreads(String file, java.util.function.ToLongFunction<String> figure) {
        long total = 0;
        try (java.nio.file.DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                try {
                    total += figure.applyAsLong(Files.readString(task.resolve(file)));
                } catch (java.io.IOException | RuntimeException e) {
                    // a thread that ended meanwhile
                }
            }
        } catch (java.io.IOException e) {
            return 0;
        }
        return total;
    }

    static String load() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return parts[0] + " " + parts[1] + " " + parts[2];
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }
}
