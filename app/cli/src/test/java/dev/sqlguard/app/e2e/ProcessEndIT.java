package dev.sqlguard.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
    /** What the server writes when its last step (the shutdown hook) begins and when it ends (McpCommand). */
    private static final String STOPPING = "sqlguard: stopping: the process is ending";
    private static final String STOPPED = "sqlguard: stopped";

    @TempDir
    Path dir;

    private List<String> sqlguardEntries(Path temp) throws Exception {
        try (Stream<Path> entries = Files.list(temp)) {
            return entries.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("sqlguard")).sorted().toList();
        }
    }

    /**
     * What the temp folder holds, for a failure message: each entry with its last change in ms
     * relative to the SIGTERM, and an owner record's content.
     */
    private static String tree(Path temp, long termMillis) {
        try (Stream<Path> all = Files.walk(temp)) {
            return all.filter(p -> temp.relativize(p).toString().startsWith("sqlguard")).sorted().map(p -> {
                String entry = temp.relativize(p) + " (" + since(p, termMillis) + ")";
                return p.getFileName().toString().equals("owner.pid") ? entry + " '" + read(p) + "'" : entry;
            }).toList().toString();
        } catch (Exception e) {
            return "(unreadable: " + e + ")";
        }
    }

    private static String since(Path p, long termMillis) {
        try {
            return "changed " + (Files.getLastModifiedTime(p).toMillis() - termMillis) + " ms after SIGTERM";
        } catch (Exception e) {
            return "gone";
        }
    }

    private static String read(Path p) {
        try {
            return Files.readString(p).strip();
        } catch (Exception e) {
            return "(unreadable)";
        }
    }

    /** Starts {@code sqlguard mcp} with {@code temp} as its temporary folder and waits until it says it is ready. */
    private Process startServer(Path temp, Path stderr) throws Exception {
        Path home = Files.createDirectories(dir.resolve("home"));
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-Djava.io.tmpdir=" + temp, "-jar", JarRunner.jar().toString(), "mcp")
                .directory(dir.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(stderr.toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("SQLGUARD_"));
        builder.environment().put("HOME", home.toString());
        builder.environment().put("XDG_CACHE_HOME", home.resolve("cache").toString());
        Process server = builder.start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(240);
            while (!Files.readString(stderr).contains("MCP server ready")) {
                // the demo database is built first
                assertThat(server.isAlive()).as(() -> "the server ended before it was ready: " + tail(stderr)).isTrue();
                assertThat(System.nanoTime()).as("the server never said it was ready").isLessThan(deadline);
                Thread.sleep(20);
            }
            return server;
        } catch (Exception | AssertionError e) {
            server.destroyForcibly();
            throw e;
        }
    }

    @Test
    void sigtermLeavesNoWorkingFolderBehind() throws Exception {
        Path temp = Files.createDirectories(dir.resolve("tmp"));
        Path stderr = dir.resolve("server-stderr.txt");
        Process server = startServer(temp, stderr);
        try {
            // two work folders: the engines' (DuckDB spills there) and the one for chart images
            assertThat(sqlguardEntries(temp)).as("the server's folders while it runs").hasSize(2)
                    .allSatisfy(n -> assertThat(n).startsWith("sqlguard-work-"));

            long termMillis = System.currentTimeMillis();
            server.destroy(); // SIGTERM, stdin still open
            int exit = server.waitFor();
            // 143 is 128 + SIGTERM: the JVM ran its shutdown hooks and ended; anything else (a crash in
            // native code while the engines close, say) skips hooks, and the failure shows the server's own words
            assertThat(exit).as(() -> "exit status after SIGTERM; the server wrote: " + tail(stderr) + crashLogs()).isEqualTo(143);
            String said = Files.readString(stderr);
            String left = "left behind: " + tree(temp, termMillis) + "; the server's pid " + server.pid() + "; the server wrote: " + tail(stderr);
            if (said.contains(STOPPING)) {
                assertThat(said).as(() -> "the server's last step ended; " + left).contains(STOPPED);
                assertThat(sqlguardEntries(temp)).as(left).isEmpty();
            } else {
                // the JVM ended on the signal before its shutdown hooks began, so no code of sqlguard's ran at the end
                // (the same as a SIGKILL): what it left names a process that is gone, and the next start removes it
                // (WorkFolders.create sweeps first)
                dev.sqlguard.app.internal.wiring.WorkFolders.removeStale(temp);
                assertThat(sqlguardEntries(temp)).as(() -> "after the next start's sweep; " + left).isEmpty();
            }
        } finally {
            server.destroyForcibly();
        }
    }

    /**
     * A working folder named for the server's pid without an owner record (one whose record a
     * delete took just before an end, or one a closing engine made again at its old path) goes at
     * SIGTERM; one named for a process that is gone goes at the next start's sweep (and so does the first, when
     * the JVM ends on the signal before its shutdown hook began).
     */
    @Test
    void foldersWithoutAnOwnerRecordDoNotOutliveTheirProcess() throws Exception {
        Path temp = Files.createDirectories(dir.resolve("tmp"));
        Path stderr = dir.resolve("server-stderr.txt");
        Process server = startServer(temp, stderr);
        try {
            Path unrecorded = Files.createDirectories(temp.resolve("sqlguard-work-" + server.pid() + "-1").resolve("duckdb-temp"));
            Files.writeString(unrecorded.resolveSibling("leftovers"), "");
            Process gone = new ProcessBuilder("true").start();
            gone.waitFor();
            Path ofGone = Files.createDirectories(temp.resolve("sqlguard-work-" + gone.pid() + "-1").resolve("duckdb-temp"));

            long termMillis = System.currentTimeMillis();
            server.destroy();
            assertThat(server.waitFor()).as(() -> "exit status after SIGTERM; the server wrote: " + tail(stderr)).isEqualTo(143);
            if (Files.readString(stderr).contains(STOPPING)) {
                assertThat(Files.readString(stderr)).contains(STOPPED);
                assertThat(sqlguardEntries(temp)).as(() -> "left behind: " + tree(temp, termMillis))
                        .containsExactly(ofGone.getParent().getFileName().toString());
            }
            // else the JVM ended on the signal before its shutdown hook began (as in the test above, seen in CI):
            // no code of sqlguard's ran at the end, and both folders now name a process that is gone

            dev.sqlguard.app.internal.wiring.WorkFolders.removeStale(temp); // the next start's sweep
            assertThat(sqlguardEntries(temp)).as(() -> "after the next start's sweep: " + tree(temp, termMillis)).isEmpty();
        } finally {
            server.destroyForcibly();
        }
    }

    /** The last lines the server wrote to stderr. */
    private static String tail(Path stderr) {
        try {
            List<String> lines = Files.readAllLines(stderr);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (Exception e) {
            return "(unreadable: " + e + ")";
        }
    }

    /** The names of JVM crash logs the server left in its working directory, if any. */
    private String crashLogs() {
        try (Stream<Path> files = Files.list(dir)) {
            List<String> logs = files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("hs_err")).toList();
            return logs.isEmpty() ? "" : "; crash logs: " + logs;
        } catch (Exception e) {
            return "";
        }
    }
}
