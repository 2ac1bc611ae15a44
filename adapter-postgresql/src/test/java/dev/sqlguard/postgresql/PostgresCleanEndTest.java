package dev.sqlguard.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.sqlguard.testing.ThreadProbe;

/**
 * No driver or pool thread outlives the engine's close (HikariCP's housekeeper and connection
 * adders), except pgjdbc's one JDK Cleaner thread per JVM, which no API ends.
 */
@Timeout(180)
class PostgresCleanEndTest {
    @Test
    void noThreadTheEngineStartedIsAliveAfterItsClose() throws Exception {
        assumeTrue(TestServer.available(), "no PostgreSQL server");
        TestServer.Coordinates server = TestServer.defaults();
        String schema = TestServer.createSchema(server);
        try {
            List<String> lines = ThreadProbe.output(new ProcessBuilder(ThreadProbe.command(PostgresEngineFactory.class, "claims", TestServer.properties(server, schema, false))).redirectErrorStream(true).start());
            assertThat(lines).as("%s", lines).contains("DONE");
            assertThat(lines).filteredOn(l -> l.startsWith("RESULT")).hasSize(3).allSatisfy(l -> assertThat(l).isEqualTo("RESULT OK"));
            // pgjdbc 42.7 on Java 11+ keeps one JDK Cleaner thread per JVM (static LazyCleanerImpl, Cleaner.create(), daemon):
            // created at its first connection, never ended, and not one more per engine (ThreadProbe starts one engine)
            assertThat(lines).as("threads alive after close").filteredOn(l -> l.startsWith("LEFT"))
                    .allSatisfy(l -> assertThat(l).matches("LEFT Cleaner-\\d+ \\(daemon\\)")).hasSizeLessThanOrEqualTo(1);
        } finally {
            TestServer.dropSchema(server, schema);
        }
    }
}
