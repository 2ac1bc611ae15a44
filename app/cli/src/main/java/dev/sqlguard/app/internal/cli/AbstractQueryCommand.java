package dev.sqlguard.app.internal.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;

import dev.sqlguard.app.ConfigException;
import dev.sqlguard.app.GuardedCaller;
import dev.sqlguard.app.GuardedCalls;
import dev.sqlguard.app.SqlGuard;
import dev.sqlguard.app.SqlGuardConfig;
import dev.sqlguard.app.internal.json.JsonParams;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.Operation;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.ToolResult;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The options and flow shared by {@code query} and {@code check}. */
abstract class AbstractQueryCommand extends CliCommand {
    /** Longest batch line read; longer lines are refused with QUERY_TOO_LONG. */
    static final int MAX_LINE_CHARS = 1 << 20;

    static final class Input {
        @Option(names = "--sql", paramLabel = "SQL|-", required = true,
                description = "The SQL text of one query; '-' reads it from stdin (as does leaving out both --sql and --batch "
                        + "when stdin is not a terminal).")
        String sql;

        @Option(names = "--batch", paramLabel = "FILE|-", required = true,
                description = "JSON Lines, one {\"id\": ..., \"sql\": ..., \"params\": [...]} per line; '-' reads stdin. "
                        + "Prints one result line per input line, in order, echoing \"id\".")
        String batch;
    }

    @Mixin
    ConfigOptions configOptions;

    @Option(names = "--source", paramLabel = "NAME",
            description = "The source to query; may be left out when the configuration has exactly one.")
    String source;

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Input input;

    @Option(names = "--param", paramLabel = "VALUE",
            description = "A positional parameter for ?, repeatable. Read as a JSON literal when it is one "
                    + "(42, 4.5, true, null, \"text\"); anything else is a string as written.")
    List<String> params = new ArrayList<>();

    @Mixin
    AttributeOptions attributeOptions;

    @Option(names = "--format", paramLabel = "json|table|csv|tsv|markdown", defaultValue = "json",
            description = "json (one JSON object per result, the default), table (for terminals), csv (RFC 4180), "
                    + "tsv or markdown. csv, tsv and markdown print only the rows on stdout; the SQL, status, limits "
                    + "hit and errors go to stderr.")
    OutputFormat format;

    @Spec
    CommandSpec spec;

    AbstractQueryCommand(CliContext ctx) {
        super(ctx);
    }

    /** Whether the command runs queries or only checks them. */
    abstract Operation operation();

    @Override
    public Integer call() {
        if (input == null) {
            if (ctx.terminal()) {
                throw new ParameterException(spec.commandLine(),
                        "Missing --sql or --batch (or SQL piped on stdin).");
            }
            input = new Input();
            input.sql = "-";
        }
        if (input.batch != null && !params.isEmpty()) {
            throw new ParameterException(spec.commandLine(),
                    "--param cannot be combined with --batch; give each line its own \"params\".");
        }
        List<Object> typed = new ArrayList<>();
        for (int i = 0; i < params.size(); i++) {
            try {
                typed.add(JsonParams.fromCommandLine(params.get(i), i + 1));
            } catch (GuardException e) {
                throw new ParameterException(spec.commandLine(), "--param: " + e.safeMessage());
            }
        }
        java.util.Map<String, String> attributes = attributeOptions.resolve(spec, ctx.env());
        try (Configs.Resolved resolved = Configs.resolveOrExit(configOptions, ctx)) {
            return run(format.forPeople() || ctx.terminal() ? auditBesideTables(resolved, ctx) : resolved, typed, attributes);
        }
    }

    /**
     * A person at a terminal, or one reading a table, should not see audit JSON between the results:
     * unless {@code audit.file} says where audit goes, it goes to the user's state folder
     * ({@code $XDG_STATE_HOME/sqlguard/audit.jsonl}, else {@code $HOME/.local/state/...}), said on
     * stderr when that file is first made. Without either variable it stays on stderr.
     */
    static Configs.Resolved auditBesideTables(Configs.Resolved resolved, CliContext ctx) {
        SqlGuardConfig config = resolved.config();
        if (config.audit().file().isPresent()) {
            return resolved;
        }
        Optional<Path> file = stateAuditFile(ctx.env());
        if (file.isEmpty()) {
            return resolved;
        }
        if (!Files.exists(file.get())) {
            ctx.warn("audit lines go to " + file.get() + " (set audit.file to choose; audit.file: /dev/stderr shows them).");
        }
        SqlGuardConfig moved = new SqlGuardConfig(config.sources(), config.model(),
                new SqlGuardConfig.AuditConfig(file, config.audit().onFailure()));
        return new Configs.Resolved(moved, resolved.engines(), resolved.loader(), resolved.demo());
    }

    /** {@code $XDG_STATE_HOME/sqlguard/audit.jsonl}, else {@code $HOME/.local/state/sqlguard/audit.jsonl}. */
    static Optional<Path> stateAuditFile(java.util.Map<String, String> env) {
        String xdg = env.get("XDG_STATE_HOME");
        if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
            return Optional.of(Path.of(xdg, "sqlguard", "audit.jsonl"));
        }
        String home = env.get("HOME");
        if (home != null && !home.isBlank() && Path.of(home).isAbsolute()) {
            return Optional.of(Path.of(home, ".local", "state", "sqlguard", "audit.jsonl"));
        }
        return Optional.empty();
    }

    private int run(Configs.Resolved resolved, List<Object> typed, java.util.Map<String, String> attributes) {
        CliWiring.App app = CliWiring.open(resolved, ctx.stderr());
        SqlGuard guard = app.guard();
        try (guard) {
            GuardedCaller caller = guard.withAttributes(attributes);
            String sourceId = chooseSource(guard);
            if (sourceId == null) {
                return ExitCodes.USAGE;
            }
            try {
                guard.start(sourceId); // ENGINE_UNAVAILABLE: each call reports it as an ERROR result
            } catch (ConfigException e) {
                ctx.warn(e.getMessage());
                return ExitCodes.USAGE;
            }
            ResultPrinter printer = ResultPrinter.of(format, ctx.stdout(), ctx.stderr());
            if (input.sql != null) {
                ToolResult result;
                if ("-".equals(input.sql)) {
                    Optional<String> sql = sqlFromStdin();
                    if (sql.isEmpty()) {
                        result = caller.calls().reject(UUID.randomUUID().toString(), sourceId, "",
                                BatchLine.tooLong(MAX_LINE_CHARS).error().orElseThrow(), operation());
                    } else if (sql.get().isBlank()) {
                        ctx.warn("no SQL on stdin.");
                        return ExitCodes.USAGE;
                    } else {
                        result = operation() == Operation.QUERY ? caller.query(sourceId, sql.get(), typed)
                                : caller.check(sourceId, sql.get(), typed);
                    }
                } else {
                    result = operation() == Operation.QUERY ? caller.query(sourceId, input.sql, typed)
                            : caller.check(sourceId, input.sql, typed);
                }
                printer.print(result, null);
                return ExitCodes.of(result.status());
            }
            return batch(caller, printer, sourceId);
        }
    }

    /**
     * All of stdin as SQL (UTF-8, a leading byte-order mark and the final line breaks dropped, as a
     * shell's command substitution drops them, so that {@code echo SQL |} runs and audits the same
     * text as {@code --sql SQL}), or empty when it is longer than a batch line may be.
     */
    private Optional<String> sqlFromStdin() {
        StringBuilder text = new StringBuilder();
        try (Reader reader = new InputStreamReader(ctx.stdin(), StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE))) {
            char[] buffer = new char[8192];
            for (int n = reader.read(buffer); n >= 0; n = reader.read(buffer)) {
                text.append(buffer, 0, n);
                if (text.length() > MAX_LINE_CHARS) {
                    return Optional.empty();
                }
            }
        } catch (IOException e) {
            throw new CommandExit(ExitCodes.ERROR, "reading the SQL from stdin failed.");
        }
        int end = text.length();
        while (end > 0 && (text.charAt(end - 1) == '\n' || text.charAt(end - 1) == '\r')) {
            end--;
        }
        String sql = text.substring(0, end);
        return Optional.of(sql.startsWith("\uFEFF") ? sql.substring(1) : sql);
    }

    private String chooseSource(SqlGuard guard) {
        return chooseSource(guard, source, ctx);
    }

    /**
     * The source {@code source} names, or the only one when it is null; null (after a warning) when
     * it names none or there are several to choose from.
     */
    static String chooseSource(SqlGuard guard, String source, CliContext ctx) {
        List<String> sources = guard.sources();
        if (source != null) {
            if (!sources.contains(source)) {
                ctx.warn("no source is named '" + TableResultPrinter.clean(source) + "'; the sources are: "
                        + String.join(", ", sources) + ".");
                return null;
            }
            return source;
        }
        if (sources.size() != 1) {
            ctx.warn("the configuration has " + sources.size() + " sources (" + String.join(", ", sources)
                    + "); choose one with --source.");
            return null;
        }
        return sources.get(0);
    }

    private int batch(GuardedCaller guard, ResultPrinter printer, String sourceId) {
        GuardedCalls calls = guard.calls();
        InputStream stream;
        if ("-".equals(input.batch)) {
            stream = ctx.stdin();
        } else {
            String named = "--batch " + TableResultPrinter.clean(input.batch);
            try {
                Path file = ctx.cwd().resolve(input.batch);
                if (Files.isDirectory(file)) {
                    ctx.warn(named + ": is a folder, not a file.");
                    return ExitCodes.USAGE;
                }
                stream = Files.newInputStream(file);
            } catch (NoSuchFileException e) {
                ctx.warn(named + ": the file does not exist.");
                return ExitCodes.USAGE;
            } catch (IOException | RuntimeException e) {
                ctx.warn(named + ": the file cannot be read.");
                return ExitCodes.USAGE;
            }
        }
        Reader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE)), 1 << 16);
        try (reader) {
            BoundedLineReader lines = new BoundedLineReader(reader, MAX_LINE_CHARS);
            boolean first = true;
            for (BoundedLineReader.Line line = lines.next(); line != null; line = lines.next(), first = false) {
                String text = first && line.text().startsWith("\uFEFF") ? line.text().substring(1) : line.text();
                if (!line.tooLong() && text.isBlank()) {
                    continue;
                }
                BatchLine parsed = line.tooLong() ? BatchLine.tooLong(MAX_LINE_CHARS) : BatchLine.parse(text);
                String requestId = requestId(parsed);
                ToolResult result = run(guard, calls, sourceId, parsed, requestId);
                JsonNode echo = !parsed.readable() ? NullNode.getInstance() : parsed.hasId() ? parsed.id() : null;
                printer.print(result, echo);
            }
        } catch (IOException e) {
            ctx.warn("--batch: reading the input failed; the batch stopped.");
            return ExitCodes.ERROR;
        }
        return ExitCodes.OK;
    }

    private ToolResult run(GuardedCaller guard, GuardedCalls calls, String sourceId, BatchLine line, String requestId) {
        if (line.error().isPresent()) {
            return calls.reject(requestId, sourceId, line.sql(), line.error().get(), operation());
        }
        try {
            QueryRequest request = new QueryRequest(sourceId, line.sql(), line.params(), requestId);
            return operation() == Operation.QUERY ? guard.query(request) : guard.check(request);
        } catch (GuardException e) {
            return calls.reject(requestId, sourceId, line.sql(), e, operation());
        } catch (RuntimeException e) {
            return calls.reject(requestId, sourceId, line.sql(), new GuardException(ErrorCode.INTERNAL_ERROR), operation());
        }
    }

    /** The line's id as the audit request id when it is a short printable one, else a fresh UUID. */
    private static String requestId(BatchLine line) {
        if (line.hasId()) {
            String text = line.id().isIntegralNumber() ? line.id().bigIntegerValue().toString() : line.id().asText();
            if (!text.isBlank() && text.length() <= 128 && text.chars().noneMatch(Character::isISOControl)) {
                return text;
            }
        }
        return UUID.randomUUID().toString();
    }
}
