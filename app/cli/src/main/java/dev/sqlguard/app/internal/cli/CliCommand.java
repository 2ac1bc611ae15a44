package dev.sqlguard.app.internal.cli;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.Callable;

/**
 * A command of the CLI: it talks to the process only through its {@link CliContext} and answers
 * with an exit code ({@link ExitCodes}).
 */
abstract class CliCommand implements Callable<Integer> {
    final CliContext ctx;

    CliCommand(CliContext ctx) {
        this.ctx = requireNonNull(ctx, "ctx is null");
    }
}
