package dev.sqlguard.app.internal.cli;

import java.util.List;

import dev.sqlguard.app.ConfigException;
import dev.sqlguard.app.SqlGuard;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.ports.TableDescription;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * What {@code tables} and {@code describe} share: one source's allowlisted catalog, read with the
 * facade's {@code describe()} (no query, no audit, no redaction of names), printed in any format.
 */
abstract class CatalogCommand extends CliCommand {
    @Mixin
    ConfigOptions configOptions;

    @Option(names = "--source", paramLabel = "NAME",
            description = "The source; may be left out when the configuration has exactly one.")
    String source;

    @Option(names = "--format", paramLabel = "json|table|csv|tsv|markdown", defaultValue = "json",
            description = "json (the default), table, csv, tsv or markdown.")
    OutputFormat format;

    CatalogCommand(CliContext ctx) {
        super(ctx);
    }

    @Override
    public Integer call() {
        try (Configs.Resolved resolved = Configs.resolveOrExit(configOptions, ctx);
             SqlGuard guard = CliWiring.open(resolved, ctx.stderr()).guard()) {
            String id = AbstractQueryCommand.chooseSource(guard, source, ctx);
            if (id == null) {
                return ExitCodes.USAGE;
            }
            List<TableDescription> tables;
            try {
                guard.start(id);
                tables = guard.describe(id);
            } catch (ConfigException e) {
                ctx.warn(e.getMessage());
                return ExitCodes.USAGE;
            } catch (GuardException e) {
                ctx.warn("source " + id + ": " + e.code() + ": " + e.safeMessage());
                return e.code() == ErrorCode.CONFIGURATION_ERROR ? ExitCodes.USAGE : ExitCodes.ERROR;
            }
            return print(id, tables);
        }
    }

    /** Prints the listing of {@code tables} and returns the exit code. */
    abstract int print(String source, List<TableDescription> tables);
}
