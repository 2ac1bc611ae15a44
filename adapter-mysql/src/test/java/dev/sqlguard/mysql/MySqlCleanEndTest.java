package dev.sqlguard.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.sqlguard.testing.ThreadProbe;

/**
 * No driver or pool thread outlives the engine's close: HikariCP's housekeeper and connection
 * adders, and Connector/J's {@code mysql-cj-abandoned-connection-cleanup}.
 */
@Timeout(180)
class MySqlCleanEndTest {
    @Test
    void noThreadTheEngineStartedIsAliveAfterItsClose() throws Exception {
        assumeTrue(TestServer.available(), "no MySQL server");
        String database = TestServer.createDatabase();
        try {
            List<String> lines = ThreadProbe.output(new ProcessBuilder(ThreadProbe.command(MySqlEngineFactory.class, "claims", Map.of("url", TestServer.url() + "/" + database,
                    "username", TestServer.adminUser(), "password", TestServer.adminPassword(), "requireReadOnlyAccount", "false"))).redirectErrorStream(true).start());
            assertThat(lines).as("%s", lines).contains("DONE");
            assertThat(lines).filteredOn(l -> l.startsWith("RESULT")).hasSize(3).allSatisfy(l -> assertThat(l).isEqualTo("RESULT OK"));
            assertThat(lines).as("threads alive after close").noneMatch(l -> l.startsWith("LEFT"));
        } finally {
            TestServer.dropDatabase(database);
        }
    }
}
