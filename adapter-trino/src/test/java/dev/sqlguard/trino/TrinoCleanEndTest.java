package dev.sqlguard.trino;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.sqlguard.testing.ThreadProbe;

/** No driver thread (Trino JDBC's OkHttp dispatcher and connection pool) outlives the engine's close. */
@Timeout(600)
class TrinoCleanEndTest {
    @Test
    void noThreadTheEngineStartedIsAliveAfterItsClose() throws Exception {
        String schema = TestCluster.createSchema();
        List<String> lines = ThreadProbe.run(TrinoEngineFactory.class, "claims", TestCluster.properties(schema, TestCluster.READ_ONLY));
        assertThat(lines).as("%s", lines).contains("DONE");
        assertThat(lines).filteredOn(l -> l.startsWith("RESULT")).hasSize(3).allSatisfy(l -> assertThat(l).isEqualTo("RESULT OK"));
        assertThat(lines).as("threads alive after close").noneMatch(l -> l.startsWith("LEFT"));
    }
}
