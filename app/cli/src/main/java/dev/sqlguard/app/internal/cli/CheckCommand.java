package dev.sqlguard.app.internal.cli;

import dev.sqlguard.domain.Operation;
import picocli.CommandLine.Command;

@Command(name = "check", mixinStandardHelpOptions = true,
        description = {"Validates a query (or a batch) without executing it; prints the same JSON with status OK or REJECTED.",
                "Exit codes with --sql: 0 OK, 3 REJECTED, 2 usage or configuration error. With --batch: 0 once every line was processed."})
final class CheckCommand extends AbstractQueryCommand {
    CheckCommand(CliContext ctx) {
        super(ctx);
    }

    @Override
    Operation operation() {
        return Operation.CHECK;
    }
}
