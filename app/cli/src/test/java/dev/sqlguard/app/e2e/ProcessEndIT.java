package dev.sqlguard.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MCP server ended by SIGTERM (as clients and service managers stop it) leaves nothing in the
 * temp folder: neither the engines' working folder (with DuckDB's spill folder) nor the charts folder.
 */
@Timeout(300)
class ProcessEndIT {
    @TempDir
    Path dir;

    private List<String> sqlguardEntries(Path temp) throws Exception {
        try (Stream<Path> entries = Files.list(temp)) {
            return entries.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("sqlguard")).sorted().toList();
        }
    }

    /** What the temp folder holds, for a failure message. */
    private static String tree(Path temp) {
        try (Stream<Path> all = Files.walk(temp)) {
            return all.map(p -> temp.relativize(p).toString()).filter(n -> n.startsWith("sqlguard")).sorted().toList().toString();
        } catch (Exception e) {
            return "(unreadable: " + e + ")";
        }
    }

    @Test
    void sigtermLeavesNoWorkingFolderBehind() throws Exception {
        Path home = Files.createDirectories(dir.resolve("home"));
        Path temp = Files.createDirectories(dir.resolve("tmp"));
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-Djava.io.tmpdir=" + temp, "-jar", JarRunner.jar().toString(), "mcp")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().keySet().removeIf(name -> name.startsWith("SQLGUARD_"));
        builder.environment().put("HOME", home.toString());
        builder.environment().put("XDG_CACHE_HOME", home.resolve("cache").toString());
        Process server = builder.start();
        try {
            BufferedReader err = new BufferedReader(new InputStreamReader(server.getErrorStream(), StandardCharsets.UTF_8));
            for (String line = err.readLine(); line != null && !line.contains("MCP server ready"); line = err.readLine()) {
                // the demo database is built first
            }
            // two work folders: the engines' (DuckDB spills there) and the one for chart images
            assertThat(sqlguardEntries(temp)).as("the server's folders while it runs").hasSize(2)
                    .allSatisfy(n -> assertThat(n).startsWith("sqlguard-work-"));

            server.destroy(); // SIGTERM, stdin still open
            server.waitFor();
            assertThat(sqlguardEntries(temp)).as(() -> "left behind: " + tree(temp)).isEmpty();
        } finally {
            server.destroyForcibly();
        }
    }
}
