package dev.sqlguard.app.internal.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.ports.ingest.DataLoader;
import dev.sqlguard.ports.ingest.LoadReport;
import dev.sqlguard.ports.ingest.LoadRequest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "load", mixinStandardHelpOptions = true,
        description = {"Trusted ingestion: loads CSV, TSV, Parquet, JSON/NDJSON or XLSX files into a DuckDB table.",
                "All inputs go into one table, atomically: on any error the database is unchanged.",
                "Appends to an existing table unless --replace is given.",
                "Prints a JSON report on stdout (with \"mode\": created, appended or replaced, and each column's type and why),"
                        + " progress on stderr.",
                "Exit codes: 0 loaded, 2 usage error, 4 the load failed."})
final class LoadCommand extends CliCommand {
    @Option(names = "--db", paramLabel = "FILE", required = true, description = "The DuckDB database file to create or update.")
    Path database;

    @Option(names = "--table", paramLabel = "NAME", required = true, description = "The target table (a plain identifier).")
    String table;

    @Option(names = "--replace", description = "Replace the table (rows and columns) instead of appending to it,"
            + " which is the default.")
    boolean replace;

    @Option(names = {"-o", "--option"}, paramLabel = "KEY=VALUE",
            description = "A reader hint, repeatable: format (csv, tsv, parquet, json, ndjson, xlsx), header (true/false), "
                    + "delimiter, types (column:TYPE,...), sheet (xlsx), decimal (. or , for CSV/TSV; with , a '.' "
                    + "groups thousands and the default delimiter is ;), dateformat (CSV/TSV, e.g. %%d.%%m.%%Y; default ISO), "
                    + "rejects (CSV/TSV: a table that keeps the rows that do not fit, and why, instead of failing), "
                    + "null_padding (CSV/TSV, true: short rows load with NULLs).")
    Map<String, String> options = new LinkedHashMap<>();

    @Parameters(paramLabel = "INPUT", arity = "1..*", description = "The files to load.")
    List<Path> inputs = new ArrayList<>();

    LoadCommand(CliContext ctx) {
        super(ctx);
    }

    @Override
    public Integer call() {
        Optional<DataLoader> loader = Configs.dataLoader(ctx);
        if (loader.isEmpty()) {
            ctx.warn("the DuckDB loader is not on the class path.");
            return ExitCodes.ERROR;
        }
        List<Path> files = inputs.stream().map(p -> ctx.cwd().resolve(p)).toList();
        LoadReport report;
        try {
            report = loader.get().load(new LoadRequest(ctx.cwd().resolve(database), table, files, replace, options,
                    line -> ctx.stderr().println(line)));
        } catch (GuardException e) {
            ctx.warn("load failed: " + e.code() + ": " + e.safeMessage());
            return e.code() == ErrorCode.INVALID_ARGUMENT ? ExitCodes.USAGE : ExitCodes.ERROR;
        } catch (IllegalArgumentException e) {
            ctx.warn("load failed: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        ctx.stdout().println(json(report));
        ctx.stdout().flush();
        return ExitCodes.OK;
    }

    private static String json(LoadReport report) {
        return CliJson.write(g -> {
            g.writeStartObject();
            g.writeStringField("table", report.table());
            g.writeNumberField("rows_loaded", report.rowsLoaded());
            g.writeNumberField("rows_in_table", report.rowsInTable());
            g.writeStringField("mode", report.mode().name().toLowerCase(Locale.ROOT));
            g.writeArrayFieldStart("columns");
            for (String column : report.columns()) {
                g.writeString(column);
            }
            g.writeEndArray();
            g.writeArrayFieldStart("renamed_columns");
            for (LoadReport.ColumnRename rename : report.renames()) {
                g.writeStartObject();
                g.writeStringField("input", rename.input());
                g.writeStringField("header", rename.header());
                g.writeStringField("column", rename.column());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeArrayFieldStart("column_types");
            for (LoadReport.ColumnType type : report.types()) {
                g.writeStartObject();
                g.writeStringField("name", type.name());
                g.writeStringField("type", type.type());
                g.writeStringField("reason", type.reason());
                g.writeEndObject();
            }
            g.writeEndArray();
            if (report.rejectsTable().isPresent()) {
                g.writeStringField("rejects_table", report.rejectsTable().get());
                g.writeNumberField("rows_rejected", report.rowsRejected());
            }
            g.writeEndObject();
        });
    }
}
