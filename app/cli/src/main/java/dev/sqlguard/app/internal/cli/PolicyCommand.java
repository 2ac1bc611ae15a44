package dev.sqlguard.app.internal.cli;

import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.sqlguard.app.SqlGuardConfig.SourceConfig;
import dev.sqlguard.domain.RowPolicy;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code sqlguard policy}: a group whose one command is {@code export}. */
@Command(name = "policy", mixinStandardHelpOptions = true,
        description = {"Writes a source's row filters and column masks for the engine to enforce itself (sqlguard policy export)."})
final class PolicyCommand extends CliCommand {
    @Spec
    CommandSpec spec;

    PolicyCommand(CliContext ctx) {
        super(ctx);
    }

    /** The group with its subcommands. */
    static CommandLine tree(CliContext ctx) {
        return new CommandLine(new PolicyCommand(ctx)).addSubcommand("export", new CommandLine(new Export(ctx)));
    }

    @Override
    public Integer call() {
        ctx.warn("a subcommand is required: sqlguard policy export --source NAME --format postgres-rls|trino-rules.");
        spec.commandLine().usage(ctx.stderr());
        return ExitCodes.USAGE;
    }

    enum Format {
        POSTGRES_RLS("postgres-rls", "postgresql"),
        TRINO_RULES("trino-rules", "trino");

        final String label;
        final String engine;

        Format(String label, String engine) {
            this.label = label;
            this.engine = engine;
        }

        static Format parse(String text) {
            for (Format f : values()) {
                if (f.label.equals(text)) {
                    return f;
                }
            }
            throw new IllegalArgumentException(text);
        }
    }

    @Command(name = "export", mixinStandardHelpOptions = true,
            description = {"Prints a source's policy.rows and policy.masks as the engine's own rules, on stdout.",
                    "postgres-rls: ALTER TABLE ... ENABLE/FORCE ROW LEVEL SECURITY and CREATE POLICY ... FOR SELECT; a filter's :NAME",
                    "reads the session setting sqlguard.NAME, which sqlguard's PostgreSQL executor sets per call. Masks cannot be",
                    "expressed as row-level security; the output lists them in a comment.",
                    "trino-rules: Trino file-based access-control 'tables' rules with filter and columns[].mask. A filter's attribute",
                    "is the Trino user (current_user), or with --user USER=VALUE a value fixed per Trino user (other users are denied",
                    "the governed tables).",
                    "Exit codes: 0 written, 2 usage or configuration error."})
    static final class Export extends CliCommand {
        @Mixin
        ConfigOptions configOptions;

        @Spec
        CommandSpec spec;

        @Option(names = "--source", paramLabel = "NAME",
                description = "The source whose policy to export; may be left out when the configuration has exactly one.")
        String source;

        @Option(names = "--format", paramLabel = "postgres-rls|trino-rules", required = true,
                description = "postgres-rls (for a postgresql source) or trino-rules (for a trino source).")
        String format;

        @Option(names = "--user", paramLabel = "USER=VALUE",
                description = "trino-rules: a Trino user and the attribute value its rows carry, repeatable. "
                        + "Without it, the filters compare with current_user.")
        List<String> users = new java.util.ArrayList<>();

        Export(CliContext ctx) {
            super(ctx);
        }

        @Override
        public Integer call() {
            Format chosen;
            try {
                chosen = Format.parse(format);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--format " + TableResultPrinter.clean(format)
                        + ": expected postgres-rls or trino-rules.");
            }
            Map<String, String> userValues = users(chosen);
            if (configOptions.config == null && !Files.exists(ctx.cwd().resolve(Configs.DEFAULT_FILE))) {
                throw new ParameterException(spec.commandLine(),
                        "policy export needs a configuration: --config FILE, or ./" + Configs.DEFAULT_FILE + ".");
            }
            try (Configs.Resolved resolved = Configs.resolveOrExit(configOptions, ctx)) {
                Map<String, SourceConfig> sources = resolved.config().sources();
                SourceConfig config = chooseSource(sources);
                if (config == null) {
                    return ExitCodes.USAGE;
                }
                if (!config.engine().equals(chosen.engine)) {
                    ctx.warn("source '" + config.id() + "' uses engine '" + config.engine() + "'; " + chosen.label + " is for a "
                            + chosen.engine + " source (its filters are written in that engine's SQL).");
                    return ExitCodes.USAGE;
                }
                RowPolicy rows = config.policy().rows();
                if (rows.isEmpty()) {
                    ctx.warn("source '" + config.id() + "' has no policy.rows or policy.masks to export.");
                    return ExitCodes.USAGE;
                }
                String text;
                try {
                    text = chosen == Format.POSTGRES_RLS
                            ? PolicyExport.postgresRls(config.id(), rows, schemaOf(config, "defaultSchema"))
                            : PolicyExport.trinoRules(rows, config.properties().get("catalog"), schemaOf(config, "schema"), userValues);
                } catch (IllegalArgumentException e) {
                    ctx.warn("source '" + config.id() + "': " + e.getMessage() + ".");
                    return ExitCodes.USAGE;
                }
                ctx.stdout().print(text);
                ctx.stdout().flush();
                return ExitCodes.OK;
            }
        }

        /** The schema of a table named without one: {@code policy.defaultSchema}, else the source's own setting. */
        private static Optional<String> schemaOf(SourceConfig config, String property) {
            return config.policy().rows().defaultSchema()
                    .or(() -> Optional.ofNullable(config.properties().get(property)).filter(s -> !s.isBlank()));
        }

        private Map<String, String> users(Format chosen) {
            if (!users.isEmpty() && chosen != Format.TRINO_RULES) {
                throw new ParameterException(spec.commandLine(), "--user is for --format trino-rules only.");
            }
            Map<String, String> out = new LinkedHashMap<>();
            for (String given : users) {
                int eq = given.indexOf('=');
                String user = eq < 0 ? "" : given.substring(0, eq);
                String value = eq < 0 ? "" : given.substring(eq + 1);
                if (user.isBlank() || value.isEmpty() || given.chars().anyMatch(Character::isISOControl)) {
                    throw new ParameterException(spec.commandLine(), "--user " + TableResultPrinter.clean(given)
                            + ": expected USER=VALUE, e.g. --user alice=north.");
                }
                if (out.put(user, value) != null) {
                    throw new ParameterException(spec.commandLine(), "--user " + TableResultPrinter.clean(user) + " is given twice.");
                }
            }
            return out;
        }

        private SourceConfig chooseSource(Map<String, SourceConfig> sources) {
            if (source != null) {
                SourceConfig found = sources.get(source);
                if (found == null) {
                    ctx.warn("no source is named '" + TableResultPrinter.clean(source) + "'; the sources are: "
                            + String.join(", ", sources.keySet()) + ".");
                }
                return found;
            }
            if (sources.size() != 1) {
                ctx.warn("the configuration has " + sources.size() + " sources (" + String.join(", ", sources.keySet())
                        + "); choose one with --source.");
                return null;
            }
            return sources.values().iterator().next();
        }
    }
}
