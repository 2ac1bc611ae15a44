package dev.sqlguard.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;

/**
 * The client-side CPU time of one call on the calling thread, guarded against raw. On a shared,
 * overloaded machine wall time mostly measures the wait for a core; the calling thread's CPU time
 * is what sqlguard adds in this JVM (the server's work, and the engine's watchdog and pool threads,
 * are not in it).
 */
final class ClientCpu {
    private ClientCpu() {
    }

    static void report(String label, int rounds, Runnable guarded, Runnable raw) {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long[] g = new long[rounds];
        long[] r = new long[rounds];
        for (int i = 0; i < rounds; i++) {
            long start = mx.getCurrentThreadCpuTime();
            guarded.run();
            long middle = mx.getCurrentThreadCpuTime();
            raw.run();
            g[i] = middle - start;
            r[i] = mx.getCurrentThreadCpuTime() - middle;
        }
        System.out.printf(Locale.ROOT, "%s: calling thread's CPU per call, median %.3f ms guarded vs %.3f ms raw (+%.3f ms)%n", label,
                Harness.median(g) / 1e6, Harness.median(r) / 1e6, (Harness.median(g) - Harness.median(r)) / 1e6);
    }
}
