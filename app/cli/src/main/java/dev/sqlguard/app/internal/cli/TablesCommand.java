package dev.sqlguard.app.internal.cli;

import java.util.List;

import dev.sqlguard.ports.TableDescription;
import picocli.CommandLine.Command;

@Command(name = "tables", mixinStandardHelpOptions = true,
        description = {"Lists the allowlisted tables of a source, with their row counts (no query runs; names are never redacted).",
                "Exit codes: 0 listed, 2 usage or configuration error, 4 the source could not be reached."})
final class TablesCommand extends CatalogCommand {
    TablesCommand(CliContext ctx) {
        super(ctx);
    }

    @Override
    int print(String source, List<TableDescription> tables) {
        if (format == OutputFormat.json) {
            ctx.stdout().println(CliJson.write(g -> {
                g.writeStartObject();
                g.writeStringField("source", source);
                g.writeArrayFieldStart("tables");
                for (TableDescription t : tables) {
                    g.writeStartObject();
                    g.writeStringField("name", t.table().qualifiedName());
                    g.writeFieldName("row_count");
                    if (t.rowCount().isPresent()) {
                        g.writeNumber(t.rowCount().getAsLong());
                    } else {
                        g.writeNull();
                    }
                    g.writeNumberField("columns", t.columns().size());
                    g.writeEndObject();
                }
                g.writeEndArray();
                g.writeEndObject();
            }));
            ctx.stdout().flush();
        } else {
            ResultPrinter.listing(format, ctx.stdout()).print(CatalogResults.tables(source, tables), null);
        }
        return ExitCodes.OK;
    }
}
