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

import picocli.CommandLine;

/**
 * The {@code sqlguard} command line. Standard output carries results only: everything a library
 * might print with {@code System.out} is sent to standard error instead, and so are all logs
 * (level from the environment variable {@code SQLGUARD_LOG}, default {@code warn}), one line per
 * event.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        if (PlainHelp.applies(args, System.console() != null, System.getenv())) {
            try {
                PlainHelp.write(new FileOutputStream(FileDescriptor.out));
                System.exit(ExitCodes.OK);
            } catch (java.io.IOException e) {
                // fall through: picocli prints it
            }
        }
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
     * The loggers of the connection pool and the JDBC drivers: their events carry driver text and
     * stack traces (a restarted server's "Communications link failure"), which the error contract
     * keeps out of default output. They are off unless the level is {@code debug} or {@code trace}.
     */
    static final java.util.List<String> DRIVER_LOGGERS = java.util.List.of("com.zaxxer.hikari", "com.mysql", "org.mariadb", "org.duckdb");

    /** Holds the driver loggers' levels: java.util.logging keeps loggers only weakly. */
    private static final java.util.List<Logger> HELD = new java.util.ArrayList<>();

    /**
     * Sends every log line (java.util.logging, and slf4j through slf4j-jdk14) to stderr, one line
     * per event (an exception shows as its class; full stack traces only at {@code trace}), at
     * {@code level}: {@code error}, {@code warn} (the default), {@code info}, {@code debug} or
     * {@code trace}. The pool's and drivers' loggers are off below {@code debug}.
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
        Logger root = Logger.getLogger("");
        for (Handler handler : root.getHandlers()) {
            root.removeHandler(handler);
        }
        ConsoleHandler stderr = new ConsoleHandler(); // writes to System.err
        stderr.setFormatter(new OneLineFormatter(jul == Level.FINEST));
        stderr.setLevel(jul);
        root.setLevel(jul);
        root.addHandler(stderr);
        synchronized (HELD) {
            HELD.clear();
            for (String driver : DRIVER_LOGGERS) {
                Logger logger = Logger.getLogger(driver);
                logger.setLevel(jul.intValue() <= Level.FINE.intValue() ? jul : Level.OFF);
                HELD.add(logger);
            }
        }
    }

    /** Runs one command line and returns its exit code. */
    public static int run(String[] args, CliContext ctx) {
        if (args.length == 0 && ctx.terminal()) {
            args = new String[] {"shell"}; // `sqlguard` alone at a terminal: the shell, as the DuckDB CLI and psql start
        }
        return commandLine(ctx, args.length > 0 ? args[0] : null).execute(args);
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

    /** The subcommands in the order help lists them, each built only when it is needed. */
    private static java.util.Map<String, java.util.function.Function<CliContext, Object>> subcommands() {
        java.util.Map<String, java.util.function.Function<CliContext, Object>> all = new java.util.LinkedHashMap<>();
        all.put("load", LoadCommand::new);
        all.put("query", QueryCommand::new);
        all.put("check", CheckCommand::new);
        all.put("sources", SourcesCommand::new);
        all.put("tables", TablesCommand::new);
        all.put("describe", DescribeCommand::new);
        all.put("shell", ShellCommand::new);
        all.put("ask", AskCommand::new);
        all.put("eval", EvalCommand::new);
        all.put("mcp", McpCommand::new);
        all.put("policy", PolicyCommand::tree);
        all.put("completion", CompletionCommand::new);
        return all;
    }

    /** The whole command tree. */
    static CommandLine commandLine(CliContext ctx) {
        return commandLine(ctx, null);
    }

    /**
     * The command tree for a command line whose first argument is {@code first}: when it names a
     * subcommand, only that one is built (picocli reads each command's annotations reflectively, a
     * cost every start would pay for all of them), since parsing never leaves it; otherwise
     * ({@code --help}, {@code help}, {@code completion}, no or an unknown command) the whole tree,
     * which help, completion and error messages list.
     */
    static CommandLine commandLine(CliContext ctx, String first) {
        java.util.Map<String, java.util.function.Function<CliContext, Object>> all = subcommands();
        boolean one = first != null && all.containsKey(first) && !"completion".equals(first);
        CommandLine cmd = new CommandLine(new SqlGuardCommand(ctx));
        for (java.util.Map.Entry<String, java.util.function.Function<CliContext, Object>> sub : all.entrySet()) {
            if (!one || sub.getKey().equals(first)) {
                Object command = sub.getValue().apply(ctx);
                // a group of commands (policy export) comes as its own command tree
                cmd.addSubcommand(sub.getKey(), command instanceof CommandLine tree ? tree : new CommandLine(command));
            }
        }
        if (!one) {
            cmd.addSubcommand("help", new CommandLine.HelpCommand());
        }
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
