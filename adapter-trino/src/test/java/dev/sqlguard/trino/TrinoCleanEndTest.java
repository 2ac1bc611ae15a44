package dev.sqlguard.trino;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.sqlguard.testing.ThreadProbe;

/**
 * No driver thread outlives the engine's close for long. The engine's own driver instance (its
 * OkHttp dispatcher and connection pool) closes with it; what stays a while is JVM-wide and
 * private to Trino JDBC (it shades OkHttp and Okio): the {@code OkHttp TaskRunner} threads, the
 * {@code Okio Watchdog} and the {@code Trino JDBC worker} pool, which end by themselves 60 s after
 * their last use (measured: all four alive 5 s after the close). No API of the driver ends them
 * sooner without breaking the next Trino engine in the same JVM.
 */
@Timeout(600)
class TrinoCleanEndTest {
    @Test
    void noThreadTheEngineStartedIsAliveAfterItsClose() throws Exception {
        String schema = TestCluster.createSchema();
        List<String> lines = ThreadProbe.run(TrinoEngineFactory.class, "claims", TestCluster.properties(schema, TestCluster.READ_ONLY),
                java.time.Duration.ofSeconds(75));
        assertThat(lines).as("%s", lines).contains("DONE");
        assertThat(lines).filteredOn(l -> l.startsWith("RESULT")).hasSize(3).allSatisfy(l -> assertThat(l).isEqualTo("RESULT OK"));
        assertThat(lines).as("threads alive after close").noneMatch(l -> l.startsWith("LEFT"));
    }
}
