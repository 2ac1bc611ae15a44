package dev.sqlguard.app.internal.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import dev.sqlguard.app.ConfigException;
import dev.sqlguard.app.SqlGuard;
import dev.sqlguard.app.SourceStatus;
import dev.sqlguard.app.tools.AgentTools;
import dev.sqlguard.app.SqlGuardConfig;
import dev.sqlguard.app.internal.mcp.CallerAudit;
import dev.sqlguard.app.internal.mcp.McpProcess;
import dev.sqlguard.app.internal.mcp.McpStdioServer;
import dev.sqlguard.app.internal.mcp.McpToolServer;
import dev.sqlguard.app.internal.mcp.McpToolServer.SourceInfo;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.ToolError;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "mcp", mixinStandardHelpOptions = true,
        description = {"Runs an MCP server on stdio with the guarded data tools.",
                "Tools list_sources, describe_source, query_data, summary_stats and plot_chart serve the configured sources,",
                "on the same guarded path and audit as the CLI.",
                "stdout carries protocol messages only; logs go to stderr; audit lines go to audit.file, by default",
                "$XDG_STATE_HOME/sqlguard/audit.jsonl (else ~/.local/state/sqlguard/audit.jsonl). Stops when stdin closes.",
                "A source that cannot be reached is listed as unavailable and retried until it comes back.",
                "Caller attributes (--attribute, SQLGUARD_ATTRIBUTE_<NAME>) are fixed for the process: every tool call carries them",
                "and no client can set or change them.",
                "Exit codes: 0 stdin closed, 2 a configuration error."})
final class McpCommand extends CliCommand {
    @Mixin
    ConfigOptions configOptions;

    @Mixin
    AttributeOptions attributeOptions;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    McpCommand(CliContext ctx) {
        super(ctx);
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        java.util.Map<String, String> attributes = attributeOptions.resolve(spec, ctx.env());
        try (Configs.Resolved resolved = Configs.resolveOrExit(configOptions, ctx)) {
            return serve(withDefaultAudit(resolved), attributes);
        }
    }

    /** Audit lines go to the configured file, else to a file in the user's state folder, never to stderr. */
    private Configs.Resolved withDefaultAudit(Configs.Resolved resolved) {
        SqlGuardConfig config = resolved.config();
        if (config.audit().file().isPresent()) {
            return resolved;
        }
        SqlGuardConfig.AuditConfig audit = new SqlGuardConfig.AuditConfig(Optional.of(McpProcess.defaultAuditFile(ctx.env())));
        return new Configs.Resolved(new SqlGuardConfig(config.sources(), config.model(), audit), resolved.engines(),
                resolved.loader(), resolved.demo());
    }

    private int serve(Configs.Resolved resolved, java.util.Map<String, String> attributes) throws IOException, InterruptedException {
        // what the first request needs loads on another core while the engines start
        McpStdioServer.warmUpInBackground();
        // each audit record of a tool call names its MCP request id and the client (CallerAudit)
        SqlGuard guard = CliWiring.open(resolved, ctx.stderr(), CallerAudit::tagging).guard();
        // a work folder with its owner on record: one left by a killed server goes at the next start
        Path charts = dev.sqlguard.app.internal.wiring.WorkFolders.create();
        try {
            for (String id : guard.sources()) {
                SourceStatus status;
                try {
                    status = guard.start(id);
                } catch (ConfigException e) {
                    // CONFIGURATION_ERROR: retrying cannot help
                    ctx.warn(e.getMessage());
                    return ExitCodes.USAGE;
                }
                status.error().ifPresent(error -> ctx.warn("source '" + id + "' is unavailable for now (it is retried): "
                        + error.message()));
            }
            List<String> served = guard.sources();
            // the process's caller: every tool call's statements carry these attributes; the tools take none from the client
            AgentTools tools = AgentTools.of(guard.withAttributes(attributes).guardedPath(served), charts);
            Supplier<List<SourceInfo>> sources = () -> guard.status().stream()
                    .map(s -> new SourceInfo(s.id(), s.engine(), s.error())).toList();
            String version = Optional.ofNullable(McpCommand.class.getPackage().getImplementationVersion()).orElse("development");
            McpStdioServer server = new McpStdioServer(new McpToolServer(tools, sources), version,
                    McpStdioServer.Settings.defaults(), ctx::warn);
            // SIGTERM: running calls are cancelled, the engines closed and their work folder removed
            Thread onTerm = new Thread(() -> {
                ctx.warn(STOPPING);
                try {
                    server.stop();
                    // SIGTERM has no one-second promise: let the engines close, so that their work folder goes too
                    McpProcess.closeWithin(guard, TERM_CLOSE_BOUND);
                } finally {
                    deleteQuietly(charts);
                    // the process ends here: no working folder of its own may outlive it, whoever made it
                    dev.sqlguard.app.internal.wiring.WorkFolders.removeOwn(OWN_FOLDERS_PATIENCE);
                    for (Path left : dev.sqlguard.app.internal.wiring.WorkFolders.own()) {
                        // the next start removes it (it names this process, which is then gone)
                        ctx.warn("a working folder could not be removed yet: " + left.getFileName());
                    }
                    ctx.warn(STOPPED);
                }
            }, "sqlguard-mcp-shutdown");
            Runtime.getRuntime().addShutdownHook(onTerm);
            ctx.stderr().println("sqlguard: MCP server ready on stdio (sources: " + String.join(", ", served)
                    + (attributes.isEmpty() ? "" : "; caller attributes: " + String.join(", ", attributes.keySet())) + ")");
            server.serve(ctx.stdin(), ctx.stdout()); // returns soon after stdin ends, whatever is running
            removeHook(onTerm);
            return ExitCodes.OK;
        } finally {
            McpProcess.closeWithin(guard, CLOSE_BOUND);
            deleteQuietly(charts);
        }
    }

    /** What the server says when the process is ending (SIGTERM) before it stops calls and closes the engines. */
    static final String STOPPING = "stopping: the process is ending";
    /** What it says once the engines are closed and its working folders removed. */
    static final String STOPPED = "stopped";

    /** How long closing the engines may hold the exit (a statement stuck in its engine can hold a close). */
    private static final java.time.Duration CLOSE_BOUND = java.time.Duration.ofMillis(300);
    /** How long the last step at SIGTERM keeps removing this process's working folders while an engine still closes. */
    private static final java.time.Duration OWN_FOLDERS_PATIENCE = java.time.Duration.ofSeconds(2);
    /** How long closing the engines may hold the exit after SIGTERM. */
    private static final java.time.Duration TERM_CLOSE_BOUND = java.time.Duration.ofSeconds(5);

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the process is already shutting down: the hook runs
        }
    }

    private static void deleteQuietly(Path dir) {
        // a leftover chart folder is harmless (it holds nothing the client did not receive), and the next start removes it
        dev.sqlguard.app.internal.wiring.WorkFolders.deleteTree(dir);
    }
}
