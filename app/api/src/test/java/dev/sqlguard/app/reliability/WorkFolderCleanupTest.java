package dev.sqlguard.app.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engines' working folder ({@code sqlguard-work-<pid>-*}, DuckDB's spill folder inside) does
 * not outlive its process: SIGTERM removes it through a shutdown hook, and the folder a SIGKILLed
 * process left is removed by the next process that starts an engine.
 */
@Timeout(120)
class WorkFolderCleanupTest {
    @TempDir
    Path dir;

    private Path database() throws Exception {
        Path db = dir.resolve("d.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t AS SELECT 1 AS n");
        }
        return db;
    }

    private static Process serve(Path db) throws Exception {
        return new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), ServeUntilKilled.class.getName(), db.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }

    private static Path workFolderOf(Process process) throws Exception {
        String line = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)).readLine();
        assertThat(line).isNotNull();
        Path folder = Path.of(line);
        assertThat(folder).isDirectory();
        return folder;
    }

    @Test
    void sigtermRemovesTheWorkingFolder() throws Exception {
        Process server = serve(database());
        try {
            Path folder = workFolderOf(server);
            server.destroy(); // SIGTERM
            server.waitFor();
            assertThat(folder).doesNotExist();
        } finally {
            server.destroyForcibly();
        }
    }

    @Test
    void theFolderOfAKilledProcessIsRemovedByTheNextStart() throws Exception {
        Path db = database();
        Process killed = serve(db);
        Path stale;
        try {
            stale = workFolderOf(killed);
        } finally {
            killed.destroyForcibly(); // SIGKILL: no hook runs
            killed.waitFor();
        }
        assertThat(stale).as("SIGKILL leaves the folder").isDirectory();
        Path notOurs = Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")).resolve("sqlguard-work-notapid"));

        Process next = serve(db);
        try {
            workFolderOf(next);
            assertThat(stale).as("removed by the next process that started an engine").doesNotExist();
            assertThat(notOurs).as("a folder not named by a pid is left alone").isDirectory();
        } finally {
            next.destroy();
            next.waitFor();
            Files.deleteIfExists(notOurs);
        }
    }
}
