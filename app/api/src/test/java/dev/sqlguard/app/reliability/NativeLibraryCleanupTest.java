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
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import dev.sqlguard.app.internal.wiring.WorkFolders;
import dev.sqlguard.ports.EngineContext;

/**
 * DuckDB's JDBC driver extracts its native library (about 69 MiB) into the temporary folder and
 * deletes it only when the JVM exits normally. A process killed with SIGKILL leaves it; the sweep
 * at the next start removes it with the dead process's working folder, and nothing this product
 * did not create.
 */
@Timeout(120)
@EnabledOnOs(OS.LINUX) // the library is found through /proc/self/maps
class NativeLibraryCleanupTest {
    @TempDir
    Path dir;

    @Test
    void theNativeLibraryAKilledProcessExtractedGoesAtTheNextStartAndNothingElse() throws Exception {
        Path temp = Files.createDirectories(dir.resolve("tmp"));
        Path db = Files.createDirectories(dir.resolve("db")).resolve("d.duckdb"); // not a parent of the temp folder
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t AS SELECT 1 AS n");
        }
        Process killed = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.io.tmpdir=" + temp, "-cp", System.getProperty("java.class.path"), ServeUntilKilled.class.getName(),
                db.toString()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        Path folder;
        try {
            String line = new BufferedReader(new InputStreamReader(killed.getInputStream(), StandardCharsets.UTF_8)).readLine();
            assertThat(line).isNotNull();
            folder = Path.of(line);
        } finally {
            killed.destroyForcibly(); // SIGKILL: no shutdown hook, no deleteOnExit
            killed.waitFor();
        }
        List<Path> libraries = libraries(temp);
        assertThat(libraries).as("SIGKILL leaves DuckDB's extracted library").hasSize(1);
        Path library = libraries.get(0);
        assertThat(Files.size(library)).isGreaterThan(10L << 20);
        assertThat(Files.readAllLines(folder.resolve(EngineContext.LEFTOVERS))).containsExactly(library.toString());

        // another program's copy of the library, and a record naming a file elsewhere: neither is ours to remove
        Path notOurs = Files.writeString(temp.resolve("libduckdb_java123456.so"), "another program's");
        Path elsewhere = Files.writeString(dir.resolve("libduckdb_java777.so"), "elsewhere");
        Files.writeString(folder.resolve(EngineContext.LEFTOVERS), elsewhere + "\n" + temp.resolve("..").resolve("x") + "\n",
                java.nio.file.StandardOpenOption.APPEND);

        Path next = WorkFolders.create(temp); // the next start's sweep
        assertThat(folder).as("the dead process's folder").doesNotExist();
        assertThat(library).as("its native library").doesNotExist();
        assertThat(notOurs).exists();
        assertThat(elsewhere).exists();
        WorkFolders.deleteTree(next);
    }

    private static List<Path> libraries(Path temp) throws Exception {
        try (Stream<Path> files = Files.list(temp)) {
            return files.filter(p -> p.getFileName().toString().startsWith("libduckdb_java")).toList();
        }
    }
}
