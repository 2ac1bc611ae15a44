package dev.sqlguard.trino;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.sqlguard.testing.ThreadProbe;

/**
 * No driver thread outlives the engine's close for long. The engine's own driver instance (its
 * OkHttp dispatcher and connection pool) closes with it; what stays a while is JVM-wide and
 * private to Trino JDBC (it shades OkHttp and Okio): the {@code OkHttp TaskRunner} threads and the
 * {@code Trino JDBC worker} pool end by themselves about 60 s after their last use (measured: all
 * alive 5 s after the close, gone at 75 s); the {@code Okio Watchdog} (daemon, one per JVM) was
 * still alive at 75 s: it ends once no timeout has been pending for 60 s, but first sleeps until
 * the last deadline it waited for (a call's, up to its time limit), as an early end of a timeout
 * does not wake it (measured without a cluster: gone 60 s after a call with a 1 s deadline, 90 s
 * after one with a 30 s deadline). No API of the driver ends them sooner without breaking the next
 * Trino engine in the same JVM.
 */
@Timeout(600)
class TrinoCleanEndTest {
    @Test
    void noThreadTheEngineStartedIsAliveAfterItsClose() throws Exception {
        String schema = TestCluster.createSchema();
        List<String> lines = ThreadProbe.output(new ProcessBuilder(ThreadProbe.command(TrinoEngineFactory.class, "claims", TestCluster.properties(schema, TestCluster.READ_ONLY),
                java.time.Duration.ofSeconds(75))).redirectErrorStream(true).start());
        assertThat(lines).as("%s", lines).contains("DONE");
        assertThat(lines).filteredOn(l -> l.startsWith("RESULT")).hasSize(3).allSatisfy(l -> assertThat(l).isEqualTo("RESULT OK"));
        // measured 75 s after the close: the TaskRunner and worker threads had ended, the Okio Watchdog (daemon,
        // one per JVM, Trino JDBC's shaded copy) had not; an open item, not one more thread per engine
        assertThat(lines).as("threads alive after close").filteredOn(l -> l.startsWith("LEFT"))
                .allSatisfy(l -> assertThat(l).isEqualTo("LEFT Okio Watchdog (daemon)")).hasSizeLessThanOrEqualTo(1);
    }
}
