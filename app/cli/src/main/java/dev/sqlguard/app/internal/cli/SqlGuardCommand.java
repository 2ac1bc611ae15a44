package dev.sqlguard.app.internal.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "sqlguard", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Turns model-written SQL into one checked, read-only, bounded query.",
                "Results go to stdout; logs, progress and audit lines go to stderr.",
                "Without --config and without ./sqlguard.yaml, the built-in 'demo' source (table claims) is used.",
                "At a terminal, sqlguard alone starts the interactive shell (sqlguard shell)."})
final class SqlGuardCommand extends CliCommand {
    @Spec
    CommandSpec spec;

    SqlGuardCommand(CliContext ctx) {
        super(ctx);
    }

    @Override
    public Integer call() {
        ctx.warn("a command is required (sqlguard shell for an interactive shell).");
        spec.commandLine().usage(ctx.stderr());
        return ExitCodes.USAGE;
    }
}
