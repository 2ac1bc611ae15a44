package dev.sqlguard.duckdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.sqlguard.testing.ThreadProbe;

/** No thread the engine started (spill watch, query watchdogs) outlives its close. */
@Timeout(180)
class DuckDbCleanEndTest {
    @TempDir
    Path dir;

    @Test
    void noThreadTheEngineStartedIsAliveAfterItsClose() throws Exception {
        Path db = Files.createDirectories(dir.resolve("db")).resolve("d.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE claims AS SELECT range AS id FROM range(1000)");
        }
        List<String> lines = ThreadProbe.output(new ProcessBuilder(ThreadProbe.command(DuckDbEngineFactory.class, "claims", Map.of("database", db.toString()))).redirectErrorStream(true).start());
        assertThat(lines).as("%s", lines).contains("DONE");
        assertThat(lines).filteredOn(l -> l.startsWith("RESULT")).hasSize(3).allSatisfy(l -> assertThat(l).isEqualTo("RESULT OK"));
        assertThat(lines).as("threads alive after close").noneMatch(l -> l.startsWith("LEFT"));
    }
}
