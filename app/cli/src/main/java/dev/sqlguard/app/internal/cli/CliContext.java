package dev.sqlguard.app.internal.cli;

import static java.util.Objects.requireNonNull;

import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

/**
 * The process as the CLI sees it. {@code stdout} carries results only; everything else (logs,
 * progress, audit lines, error messages) goes to {@code stderr}.
 */
public record CliContext(InputStream stdin, PrintStream stdout, PrintStream stderr, Map<String, String> env, Path cwd) {
    public CliContext {
        requireNonNull(stdin, "stdin is null");
        requireNonNull(stdout, "stdout is null");
        requireNonNull(stderr, "stderr is null");
        env = Map.copyOf(requireNonNull(env, "env is null"));
        requireNonNull(cwd, "cwd is null");
    }

    /** Prints one diagnostic line on stderr. */
    public void warn(String message) {
        stderr.println("sqlguard: " + message);
        stderr.flush();
    }
}
