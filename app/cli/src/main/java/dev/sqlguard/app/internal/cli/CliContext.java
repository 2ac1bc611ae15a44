package dev.sqlguard.app.internal.cli;

import static java.util.Objects.requireNonNull;

import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

/**
 * The process as the CLI sees it. {@code stdout} carries results only; everything else (logs,
 * progress, audit lines, error messages) goes to {@code stderr}.
 *
 * @param terminal whether a person is at a terminal: stdin and stdout are both the process's own and
 *     both a terminal ({@link System#console()})
 */
public record CliContext(InputStream stdin, PrintStream stdout, PrintStream stderr, Map<String, String> env, Path cwd,
                         boolean terminal) {
    public CliContext {
        requireNonNull(stdin, "stdin is null");
        requireNonNull(stdout, "stdout is null");
        requireNonNull(stderr, "stderr is null");
        env = Map.copyOf(requireNonNull(env, "env is null"));
        requireNonNull(cwd, "cwd is null");
    }

    /** A context that is at a terminal when {@code stdin} is the process's own and {@link System#console()} exists. */
    public CliContext(InputStream stdin, PrintStream stdout, PrintStream stderr, Map<String, String> env, Path cwd) {
        this(stdin, stdout, stderr, env, cwd, stdin == System.in && System.console() != null);
    }

    /** Prints one diagnostic line on stderr. */
    public void warn(String message) {
        stderr.println("sqlguard: " + message);
        stderr.flush();
    }
}
