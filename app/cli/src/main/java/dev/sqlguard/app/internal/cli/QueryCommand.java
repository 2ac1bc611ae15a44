package dev.sqlguard.app.internal.cli;

import dev.sqlguard.domain.Operation;
import picocli.CommandLine.Command;

@Command(name = "query", mixinStandardHelpOptions = true,
        description = {"Runs one checked, read-only, bounded query (or a batch) and prints one ToolResult JSON object per query.",
                "Exit codes with --sql: 0 OK or NO_EVIDENCE, 3 REJECTED, 4 ERROR, 2 usage or configuration error.",
                "With --batch: 0 once every line was processed."})
final class QueryCommand extends AbstractQueryCommand {
    QueryCommand(CliContext ctx) {
        super(ctx);
    }

    @Override
    Operation operation() {
        return Operation.QUERY;
    }
}
