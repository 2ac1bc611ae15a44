package dev.sqlguard.app.internal.mcp;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the MCP server process needs around its protocol: where its audit lines go by default, and
 * closing what it opened within a bound, so that the process ends soon after its input does or
 * after SIGTERM, whatever is still running.
 */
public final class McpProcess {
    private static final Logger LOG = LoggerFactory.getLogger(McpProcess.class);

    private McpProcess() {
    }

    /**
     * The audit file of an MCP server whose configuration names none:
     * {@code $XDG_STATE_HOME/sqlguard/audit.jsonl}, else {@code ~/.local/state/sqlguard/audit.jsonl}.
     * Never stderr: a client that does not read stderr would block the server once the pipe is full,
     * and one that closes it would lose every line.
     *
     * @param env the process environment ({@code XDG_STATE_HOME}, {@code HOME})
     */
    public static Path defaultAuditFile(Map<String, String> env) {
        String state = env.get("XDG_STATE_HOME");
        Path folder;
        if (state != null && !state.isBlank() && Path.of(state).isAbsolute()) {
            folder = Path.of(state); // the XDG spec ignores a relative value
        } else {
            String home = env.get("HOME");
            folder = Path.of(home != null && !home.isBlank() ? home : System.getProperty("user.home"), ".local", "state");
        }
        return folder.resolve("sqlguard").resolve("audit.jsonl");
    }

    /**
     * Closes {@code resource} on a daemon thread and waits at most {@code max}: a close that waits
     * for a statement stuck in its engine does not hold the process. Returns whether it finished.
     */
    public static boolean closeWithin(AutoCloseable resource, Duration max) {
        requireNonNull(resource, "resource is null");
        Thread closer = new Thread(() -> {
            try {
                resource.close();
            } catch (Exception | LinkageError e) {
                LOG.debug("close failed", e);
            }
        }, "sqlguard-mcp-close");
        closer.setDaemon(true);
        closer.start();
        try {
            closer.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(max.toNanos())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !closer.isAlive();
    }
}
