package dev.sqlguard.app.internal.cli;

import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * Prints a completion script for bash and zsh, generated from the command tree as built (picocli's
 * own {@code generate-completion} subcommand instantiates commands itself, which commands built
 * with their context cannot allow).
 */
@Command(name = "completion", mixinStandardHelpOptions = true,
        description = {"Prints a bash/zsh completion script for sqlguard on stdout.",
                "bash: source <(java -jar sqlguard.jar completion)",
                "zsh:  autoload -U +X compinit && compinit; autoload -U +X bashcompinit && bashcompinit; "
                        + "source <(java -jar sqlguard.jar completion)",
                "The script completes the command 'sqlguard': define it as an alias or a wrapper script."})
final class CompletionCommand extends CliCommand {
    @Spec
    CommandSpec spec;

    CompletionCommand(CliContext ctx) {
        super(ctx);
    }

    @Override
    public Integer call() {
        ctx.stdout().print(AutoComplete.bash("sqlguard", spec.root().commandLine()));
        ctx.stdout().flush();
        return ExitCodes.OK;
    }
}
