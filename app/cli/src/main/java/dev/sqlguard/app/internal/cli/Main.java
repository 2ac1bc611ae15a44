package dev.sqlguard.app.internal.cli;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import java.util.logging.ConsoleHandler;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

import picocli.CommandLine;

/**
 * The {@code sqlguard} command line. Standard output carries results only: everything a library
 * might print with {@code System.out} is sent to standard error instead, and so are all logs
 * (level from the environment variable {@code SQLGUARD_LOG}, default {@code warn}).
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        configureLogging(System.getenv("SQLGUARD_LOG"));
        PrintStream stdout = new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16),
                false, StandardCharsets.UTF_8);
        PrintStream stderr = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        System.setOut(stderr);
        int code = run(args, new CliContext(System.in, stdout, stderr, System.getenv(), Path.of("").toAbsolutePath()));
        stdout.flush();
        stderr.flush();
        System.exit(code);
    }

    /**
     * Sends every log line (java.util.logging and slf4j-simple) to stderr, one line each, at
     * {@code level}: {@code error}, {@code warn} (the default), {@code info}, {@code debug} or {@code trace}.
     */
    static void configureLogging(String level) {
        String name = level == null ? "warn" : level.trim().toLowerCase(Locale.ROOT);
        Level jul = switch (name) {
            case "error" -> Level.SEVERE;
            case "info" -> Level.INFO;
            case "debug" -> Level.FINE;
            case "trace" -> Level.FINEST;
            default -> Level.WARNING;
        };
        String slf4j = switch (name) {
            case "error", "info", "debug", "trace" -> name;
            default -> "warn";
        };
        System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", slf4j);
        System.setProperty("java.util.logging.SimpleFormatter.format", "%1$tFT%1$tT.%1$tL %4$s %3$s - %5$s%6$s%n");
        Logger root = Logger.getLogger("");
        for (Handler handler : root.getHandlers()) {
            root.removeHandler(handler);
        }
        ConsoleHandler stderr = new ConsoleHandler(); // writes to System.err
        stderr.setFormatter(new SimpleFormatter());
        stderr.setLevel(jul);
        root.setLevel(jul);
        root.addHandler(stderr);
    }

    /** Runs one command line and returns its exit code. */
    public static int run(String[] args, CliContext ctx) {
        return commandLine(ctx).execute(args);
    }

    /**
     * Whether help may use colours: not on a terminal that says it cannot show them
     * ({@code TERM=dumb}) nor when {@code NO_COLOR} is set (no-color.org); otherwise picocli decides
     * (only on a terminal).
     */
    static boolean colours(java.util.Map<String, String> env) {
        String term = env.get("TERM");
        return !"dumb".equals(term) && env.get("NO_COLOR") == null;
    }

    static CommandLine commandLine(CliContext ctx) {
        CommandLine cmd = new CommandLine(new SqlGuardCommand(ctx))
                .addSubcommand(new CommandLine(new LoadCommand(ctx)))
                .addSubcommand(new CommandLine(new QueryCommand(ctx)))
                .addSubcommand(new CommandLine(new CheckCommand(ctx)))
                .addSubcommand(new CommandLine(new SourcesCommand(ctx)))
                .addSubcommand(new CommandLine(new AskCommand(ctx)))
                .addSubcommand(new CommandLine(new EvalCommand(ctx)))
                .addSubcommand(new CommandLine(new McpCommand(ctx)))
                .addSubcommand(new CommandLine(new CompletionCommand(ctx)))
                .addSubcommand("help", new CommandLine.HelpCommand());
        cmd.setCaseInsensitiveEnumValuesAllowed(true);
        if (!colours(ctx.env())) {
            cmd.setColorScheme(CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF));
        }
        cmd.setOut(new PrintWriter(ctx.stdout(), true, StandardCharsets.UTF_8));
        cmd.setErr(new PrintWriter(ctx.stderr(), true, StandardCharsets.UTF_8));
        cmd.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof CommandExit exit) {
                ctx.warn(exit.getMessage());
                return exit.code();
            }
            ctx.warn("internal error (" + e.getClass().getSimpleName() + ").");
            return ExitCodes.ERROR;
        });
        return cmd;
    }
}
