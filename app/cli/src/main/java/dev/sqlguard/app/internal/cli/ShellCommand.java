package dev.sqlguard.app.internal.cli;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;

import dev.sqlguard.app.ConfigException;
import dev.sqlguard.app.GuardedCaller;
import dev.sqlguard.app.SqlGuard;
import dev.sqlguard.app.SqlGuardConfig;
import dev.sqlguard.app.internal.cli.shell.JLineInput;
import dev.sqlguard.app.internal.cli.shell.ShellCommands;
import dev.sqlguard.app.internal.cli.shell.ShellCompleter;
import dev.sqlguard.app.internal.cli.shell.ShellInput;
import dev.sqlguard.app.internal.cli.shell.StatementBuffer;
import dev.sqlguard.app.internal.json.JsonParams;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.ports.TableDescription;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "shell", mixinStandardHelpOptions = true,
        description = {"An interactive SQL shell on one source, in one process: statements end with ;, \\? lists the shell's commands.",
                "Every statement goes through the same checks, limits, redaction and audit as `query`.",
                "At a terminal: line editing, history, Tab completion of table and column names; `sqlguard` alone at a terminal starts it.",
                "Lines piped on stdin run without prompts. Exit codes: 0, or when stdin is not a terminal the worst result's"
                        + " (3 a statement was REJECTED, 4 one failed); 2 usage or configuration error."})
final class ShellCommand extends CliCommand {
    @Mixin
    ConfigOptions configOptions;

    @Option(names = "--source", paramLabel = "NAME",
            description = "The source to start on (\\c NAME switches); default: the only source, else the first.")
    String source;

    @Mixin
    AttributeOptions attributeOptions;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--format", paramLabel = "table|json|csv|tsv|markdown", defaultValue = "table",
            description = "How results print (\\format switches): table (the default), json, csv, tsv or markdown.")
    OutputFormat format;

    private SqlGuard guard;
    /** The caller the statements run as: the attributes of --attribute and SQLGUARD_ATTRIBUTE_*. */
    private GuardedCaller caller;
    private SqlGuardConfig config;
    private String current;
    private volatile List<TableDescription> catalog = List.of();
    private ResultPrinter printer;
    private List<Object> bound = List.of();
    private int worst = ExitCodes.OK;

    ShellCommand(CliContext ctx) {
        super(ctx);
    }

    @Override
    public Integer call() {
        java.util.Map<String, String> attributes = attributeOptions.resolve(spec, ctx.env());
        try (Configs.Resolved found = Configs.resolveOrExit(configOptions, ctx)) {
            Configs.Resolved resolved = format.forPeople() || ctx.terminal()
                    ? AbstractQueryCommand.auditBesideTables(found, ctx) : found;
            config = resolved.config();
            CliWiring.App app = CliWiring.open(resolved, ctx.stderr());
            guard = app.guard();
            caller = guard.withAttributes(attributes);
            try (SqlGuard owned = guard) {
                List<String> sources = guard.sources();
                String first = source != null ? source : sources.isEmpty() ? null : sources.get(0);
                if (first == null || !sources.contains(first)) {
                    ctx.warn("no source is named '" + TableResultPrinter.clean(String.valueOf(first)) + "'; the sources are: "
                            + String.join(", ", sources) + ".");
                    return ExitCodes.USAGE;
                }
                if (!connect(first)) {
                    return ExitCodes.USAGE;
                }
                printer = ResultPrinter.of(format, ctx.stdout(), ctx.stderr());
                return loop();
            }
        }
    }

    private int loop() {
        boolean lineEditor = ctx.terminal() && ctx.stdin() == System.in;
        ShellInput input = lineEditor
                ? new JLineInput(new ShellCompleter(() -> catalog),
                        AbstractQueryCommand.stateAuditFile(ctx.env()).map(p -> p.resolveSibling("shell_history")))
                : ShellInput.plain(ctx.stdin(), ctx.terminal() ? ctx.stdout() : null);
        if (ctx.terminal()) {
            ctx.stdout().println(new VersionProvider().getVersion()[0] + " shell on source " + current + " ("
                    + engine(current) + "). End statements with ; \\? for help, \\q to leave.");
            ctx.stdout().flush();
        }
        StatementBuffer buffer = new StatementBuffer();
        try (input) {
            while (true) {
                String line;
                try {
                    line = input.readLine(prompt(buffer));
                } catch (ShellInput.Interrupted e) {
                    buffer.clear();
                    continue;
                } catch (IOException e) {
                    ctx.warn("reading the input failed.");
                    return ExitCodes.ERROR;
                }
                if (line == null) {
                    String rest = buffer.drain();
                    if (!rest.isEmpty() && !ctx.terminal()) {
                        run(rest, input);
                    }
                    if (ctx.terminal()) {
                        ctx.stdout().println();
                        ctx.stdout().flush();
                    }
                    return ctx.terminal() ? ExitCodes.OK : worst;
                }
                if (buffer.isEmpty() && ShellCommands.isCommand(line)) {
                    buffer.clear();
                    if (!command(line)) {
                        return ctx.terminal() ? ExitCodes.OK : worst;
                    }
                    continue;
                }
                for (String statement : buffer.add(line)) {
                    run(statement, input);
                }
            }
        }
    }

    private String prompt(StatementBuffer buffer) {
        if (buffer.isEmpty()) {
            return current + "=> ";
        }
        return current + (buffer.insideQuote() ? "'> " : "-> ");
    }

    /** Runs one statement through the guarded path, as `query` does, and prints its result. */
    private void run(String sql, ShellInput input) {
        String requestId = UUID.randomUUID().toString();
        List<Object> params = bound;
        bound = List.of();
        ToolResult result;
        input.onInterrupt(() -> guard.cancel(requestId));
        try {
            result = caller.query(new QueryRequest(current, sql, params, requestId));
        } catch (GuardException e) {
            ctx.warn(e.code() + ": " + e.safeMessage());
            worst = Math.max(worst, ExitCodes.REJECTED);
            return;
        } finally {
            input.onInterrupt(null);
        }
        printer.print(result, null);
        worst = Math.max(worst, ExitCodes.of(result.status()));
    }

    /** Runs one shell command; false when it ends the shell. */
    private boolean command(String line) {
        ShellCommands.Command command = ShellCommands.parse(line);
        if (command == null) {
            ctx.warn("unknown command '" + TableResultPrinter.clean(line.strip()) + "'; \\? lists the commands.");
            return true;
        }
        switch (command.kind()) {
            case QUIT -> {
                return false;
            }
            case HELP -> ctx.stdout().print(ShellCommands.HELP);
            case TABLES -> ResultPrinter.listing(format, ctx.stdout()).print(CatalogResults.tables(current, catalog), null);
            case DESCRIBE -> describe(command.args());
            case FORMAT -> format(command.args());
            case SOURCES -> {
                StringBuilder out = new StringBuilder();
                for (String id : guard.sources()) {
                    out.append(id.equals(current) ? "* " : "  ").append(id).append(" (").append(engine(id)).append(")\n");
                }
                ctx.stdout().print(out);
            }
            case CONNECT -> {
                if (command.args().size() != 1) {
                    ctx.warn(command.name() + " takes one source name; \\sources lists them.");
                } else if (!guard.sources().contains(command.args().get(0))) {
                    ctx.warn("no source is named '" + TableResultPrinter.clean(command.args().get(0)) + "'; the sources are: "
                            + String.join(", ", guard.sources()) + ".");
                } else {
                    connect(command.args().get(0));
                }
            }
            case BIND -> {
                List<Object> values = new ArrayList<>();
                try {
                    for (int i = 0; i < command.args().size(); i++) {
                        values.add(JsonParams.fromCommandLine(command.args().get(i), i + 1));
                    }
                    bound = values;
                } catch (GuardException e) {
                    ctx.warn("\\bind: " + e.safeMessage());
                }
            }
        }
        ctx.stdout().flush();
        return true;
    }

    private void describe(List<String> args) {
        if (args.isEmpty()) {
            ResultPrinter.listing(format, ctx.stdout()).print(CatalogResults.allColumns(current, catalog), null);
            return;
        }
        for (String name : args) {
            Optional<TableDescription> table = CatalogResults.find(catalog, name);
            if (table.isPresent()) {
                ResultPrinter.listing(format, ctx.stdout()).print(CatalogResults.columns(current, table.get()), null);
            } else {
                ctx.warn(CatalogResults.unknownTable(current, catalog, name));
            }
        }
    }

    private void format(List<String> args) {
        if (args.size() != 1) {
            ctx.warn("output format is " + format + "; choose table, json, csv, tsv or markdown.");
            return;
        }
        OutputFormat chosen = switch (args.get(0).toLowerCase(Locale.ROOT)) {
            case "table", "box", "duckbox", "column", "aligned" -> OutputFormat.table;
            case "json", "jsonlines", "ndjson" -> OutputFormat.json;
            case "csv" -> OutputFormat.csv;
            case "tsv", "tabs" -> OutputFormat.tsv;
            case "markdown", "md" -> OutputFormat.markdown;
            default -> null;
        };
        if (chosen == null) {
            ctx.warn("unknown output format '" + TableResultPrinter.clean(args.get(0)) + "'; choose table, json, csv, tsv or markdown.");
            return;
        }
        format = chosen;
        printer = ResultPrinter.of(format, ctx.stdout(), ctx.stderr());
    }

    /** Starts {@code id} and reads its catalog; false (after a warning) when its configuration is refused. */
    private boolean connect(String id) {
        try {
            guard.start(id); // an unreachable source: each statement reports ENGINE_UNAVAILABLE
        } catch (ConfigException e) {
            ctx.warn(e.getMessage());
            return false;
        } catch (GuardException e) {
            ctx.warn("source " + id + ": " + e.code() + ": " + e.safeMessage());
        }
        current = id;
        try {
            catalog = guard.describe(id);
        } catch (GuardException e) {
            catalog = List.of();
            ctx.warn("source " + id + ": " + e.code() + ": " + e.safeMessage());
        }
        return true;
    }

    private String engine(String id) {
        SqlGuardConfig.SourceConfig source = config.sources().get(id);
        return source == null ? "?" : source.engine();
    }
}
