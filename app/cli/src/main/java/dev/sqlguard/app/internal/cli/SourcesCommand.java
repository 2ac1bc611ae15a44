package dev.sqlguard.app.internal.cli;

import java.util.List;
import java.util.Optional;

import dev.sqlguard.app.ConfigException;
import dev.sqlguard.app.SqlGuard;
import dev.sqlguard.app.SqlGuardConfig;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.ToolError;
import dev.sqlguard.ports.TableDescription;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "sources", mixinStandardHelpOptions = true,
        description = {"Lists the sources and their allowlisted schema (tables, columns, types, redaction) as JSON.",
                "Exit codes: 0 every source described, 2 a configuration error (the JSON still lists every source), 4 a source could not be reached."})
final class SourcesCommand extends CliCommand {
    @Mixin
    ConfigOptions configOptions;

    @Option(names = "--format", paramLabel = "json|table|csv|tsv|markdown", defaultValue = "json",
            description = "json (default), table, or one row per column as csv, tsv or markdown.")
    OutputFormat format;

    SourcesCommand(CliContext ctx) {
        super(ctx);
    }

    /** One described source, or the error that stopped it. */
    private record Described(String id, String engine, List<TableDescription> tables, Optional<ToolError> error) {
    }

    @Override
    public Integer call() {
        int code = ExitCodes.OK;
        List<Described> described = new java.util.ArrayList<>();
        try (Configs.Resolved resolved = Configs.resolveOrExit(configOptions, ctx); SqlGuard guard = CliWiring.open(resolved, ctx.stderr()).guard()) {
            for (String id : guard.sources()) {
                SqlGuardConfig.SourceConfig source = resolved.config().sources().get(id);
                try {
                    guard.start(id);
                } catch (ConfigException e) {
                    ctx.warn(e.getMessage()); // where it is written; the error below says the same without the path
                }
                try {
                    described.add(new Described(id, source.engine(), guard.describe(id), Optional.empty()));
                } catch (GuardException e) {
                    code = e.code() == ErrorCode.CONFIGURATION_ERROR ? ExitCodes.USAGE
                            : code == ExitCodes.USAGE ? code : ExitCodes.ERROR;
                    described.add(new Described(id, source.engine(), List.of(), Optional.of(ToolError.of(e))));
                }
            }
        }
        if (format.rowsOnly()) {
            ResultPrinter.listing(format, ctx.stdout()).print(flat(described), null);
        } else {
            ctx.stdout().print(format == OutputFormat.table ? table(described) : json(described) + "\n");
        }
        ctx.stdout().flush();
        return code;
    }

    private static String json(List<Described> sources) {
        return CliJson.write(g -> {
            g.writeStartObject();
            g.writeArrayFieldStart("sources");
            for (Described s : sources) {
                g.writeStartObject();
                g.writeStringField("id", s.id());
                g.writeStringField("engine", s.engine());
                g.writeArrayFieldStart("tables");
                for (TableDescription t : s.tables()) {
                    g.writeStartObject();
                    g.writeStringField("name", t.table().qualifiedName());
                    g.writeFieldName("row_count");
                    if (t.rowCount().isPresent()) {
                        g.writeNumber(t.rowCount().getAsLong());
                    } else {
                        g.writeNull();
                    }
                    g.writeArrayFieldStart("columns");
                    for (TableDescription.ColumnDescription c : t.columns()) {
                        g.writeStartObject();
                        g.writeStringField("name", c.name());
                        g.writeStringField("type", c.type());
                        g.writeBooleanField("redacted", c.redacted());
                        g.writeEndObject();
                    }
                    g.writeEndArray();
                    g.writeEndObject();
                }
                g.writeEndArray();
                g.writeFieldName("error");
                if (s.error().isPresent()) {
                    g.writeStartObject();
                    g.writeStringField("code", s.error().get().code().name());
                    g.writeStringField("message", s.error().get().message());
                    g.writeBooleanField("retryable", s.error().get().retryable());
                    g.writeEndObject();
                } else {
                    g.writeNull();
                }
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        });
    }

    /** One row per allowlisted column: {@code source, table, column, type, redacted}. */
    private static dev.sqlguard.domain.ToolResult flat(List<Described> sources) {
        List<List<Object>> rows = new java.util.ArrayList<>();
        for (Described s : sources) {
            for (TableDescription t : s.tables()) {
                for (TableDescription.ColumnDescription c : t.columns()) {
                    rows.add(java.util.Arrays.asList(s.id(), t.table().qualifiedName(), c.name(), c.type(), c.redacted()));
                }
            }
        }
        return new dev.sqlguard.domain.ToolResult("catalog", rows.isEmpty() ? dev.sqlguard.domain.ToolStatus.NO_EVIDENCE
                : dev.sqlguard.domain.ToolStatus.OK, "sources", Optional.empty(), List.of(
                new dev.sqlguard.domain.ResultColumn("source", "VARCHAR"), new dev.sqlguard.domain.ResultColumn("table", "VARCHAR"),
                new dev.sqlguard.domain.ResultColumn("column", "VARCHAR"), new dev.sqlguard.domain.ResultColumn("type", "VARCHAR"),
                new dev.sqlguard.domain.ResultColumn("redacted", "BOOLEAN")), rows, false, java.util.Set.of(), Optional.empty(), 0);
    }

    private static String table(List<Described> sources) {
        StringBuilder out = new StringBuilder();
        for (Described s : sources) {
            out.append("source ").append(s.id()).append(" (").append(s.engine()).append(")\n");
            s.error().ifPresent(e -> out.append("  ERROR ").append(e.code()).append(": ").append(e.message()).append('\n'));
            for (TableDescription t : s.tables()) {
                out.append("  ").append(TableResultPrinter.clean(t.table().qualifiedName()));
                t.rowCount().ifPresent(n -> out.append(" (").append(n).append(n == 1 ? " row)" : " rows)"));
                out.append('\n');
                for (TableDescription.ColumnDescription c : t.columns()) {
                    out.append("    ").append(TableResultPrinter.clean(c.name())).append(' ')
                            .append(TableResultPrinter.clean(c.type())).append(c.redacted() ? "  [redacted]" : "").append('\n');
                }
            }
        }
        return out.toString();
    }
}
