package dev.sqlguard.app.internal.cli;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import picocli.CommandLine;

/**
 * The {@code sqlguard} command line. Standard output carries results only: everything a library
 * might print with {@code System.out} is sent to standard error instead.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        PrintStream stdout = new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16),
                false, StandardCharsets.UTF_8);
        PrintStream stderr = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        System.setOut(stderr);
        int code = run(args, new CliContext(System.in, stdout, stderr, System.getenv(), Path.of("").toAbsolutePath()));
        stdout.flush();
        stderr.flush();
        System.exit(code);
    }

    /** Runs one command line and returns its exit code. */
    public static int run(String[] args, CliContext ctx) {
        return commandLine(ctx).execute(args);
    }

    static CommandLine commandLine(CliContext ctx) {
        CommandLine cmd = new CommandLine(new SqlGuardCommand(ctx))
                .addSubcommand(new CommandLine(new LoadCommand(ctx)))
                .addSubcommand(new CommandLine(new QueryCommand(ctx)))
                .addSubcommand(new CommandLine(new CheckCommand(ctx)))
                .addSubcommand(new CommandLine(new SourcesCommand(ctx)));
        cmd.setCaseInsensitiveEnumValuesAllowed(true);
        cmd.setOut(new PrintWriter(ctx.stdout(), true, StandardCharsets.UTF_8));
        cmd.setErr(new PrintWriter(ctx.stderr(), true, StandardCharsets.UTF_8));
        cmd.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            ctx.warn("internal error (" + e.getClass().getSimpleName() + ").");
            return ExitCodes.ERROR;
        });
        return cmd;
    }
}
