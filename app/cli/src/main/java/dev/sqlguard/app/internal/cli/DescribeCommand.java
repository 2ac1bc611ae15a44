package dev.sqlguard.app.internal.cli;

import java.util.List;
import java.util.Optional;

import dev.sqlguard.ports.TableDescription;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "describe", mixinStandardHelpOptions = true,
        description = {"Lists the allowlisted columns of one table (or of every table), their types and whether they are redacted.",
                "No query runs. Exit codes: 0 described, 2 usage or configuration error (or no such table), 4 the source could not be reached."})
final class DescribeCommand extends CatalogCommand {
    @Parameters(paramLabel = "TABLE", arity = "0..1", description = "The table; leave it out for every table's columns.")
    String table;

    DescribeCommand(CliContext ctx) {
        super(ctx);
    }

    @Override
    int print(String source, List<TableDescription> tables) {
        List<TableDescription> shown = tables;
        if (table != null) {
            Optional<TableDescription> found = CatalogResults.find(tables, table);
            if (found.isEmpty()) {
                ctx.warn(CatalogResults.unknownTable(source, tables, table));
                return ExitCodes.USAGE;
            }
            shown = List.of(found.get());
        }
        if (format == OutputFormat.json) {
            List<TableDescription> described = shown;
            ctx.stdout().println(CliJson.write(g -> {
                g.writeStartObject();
                g.writeStringField("source", source);
                g.writeArrayFieldStart("tables");
                for (TableDescription t : described) {
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
                g.writeEndObject();
            }));
            ctx.stdout().flush();
        } else if (table != null) {
            ResultPrinter.listing(format, ctx.stdout()).print(CatalogResults.columns(source, shown.get(0)), null);
        } else {
            ResultPrinter.listing(format, ctx.stdout()).print(CatalogResults.allColumns(source, shown), null);
        }
        return ExitCodes.OK;
    }
}
