package dev.sqlguard.app.internal.cli;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import java.util.stream.Stream;

import dev.sqlguard.app.ConfigException;
import dev.sqlguard.app.SqlGuard;
import dev.sqlguard.app.SourceStatus;
import dev.sqlguard.app.agent.AgentTools;
import dev.sqlguard.app.internal.mcp.McpToolServer;
import dev.sqlguard.app.internal.mcp.McpToolServer.SourceInfo;
import dev.sqlguard.app.internal.mcp.StdioLifecycle;
import io.modelcontextprotocol.server.McpSyncServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "mcp", mixinStandardHelpOptions = true,
        description = {"Runs an MCP server on stdio with the guarded data tools.",
                "Tools list_sources, describe_source, query_data, summary_stats and plot_chart serve the configured sources,",
                "on the same guarded path and audit as the CLI.",
                "stdout carries protocol messages only; logs and audit lines go to stderr. Stops when stdin closes.",
                "A source that cannot be reached is listed as unavailable and retried until it comes back.",
                "Exit codes: 0 stdin closed, 2 a configuration error."})
final class McpCommand implements Callable<Integer> {
    @Mixin
    ConfigOptions configOptions;

    private final CliContext ctx;

    McpCommand(CliContext ctx) {
        this.ctx = requireNonNull(ctx, "ctx is null");
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        try (Configs.Resolved resolved = Configs.resolveOrExit(configOptions, ctx)) {
            return serve(resolved);
        }
    }

    private int serve(Configs.Resolved resolved) throws IOException, InterruptedException {
        SqlGuard guard = Configs.open(resolved, ctx);
        Path charts = Files.createTempDirectory("sqlguard-mcp-charts");
        // SIGTERM ends the JVM through its shutdown hooks: the finally below would not run
        Thread cleanup = new Thread(() -> deleteQuietly(charts), "sqlguard-mcp-charts-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        try (guard) {
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
            AgentTools tools = AgentTools.of(guard, charts, served);
            Supplier<List<SourceInfo>> sources = () -> guard.status().stream()
                    .map(s -> new SourceInfo(s.id(), s.engine(), s.error())).toList();
            String version = Optional.ofNullable(McpCommand.class.getPackage().getImplementationVersion()).orElse("development");
            StdioLifecycle stdio = new StdioLifecycle(ctx::warn);
            McpSyncServer server = new McpToolServer(tools, sources, version)
                    .start(stdio.input(ctx.stdin()), stdio.output(ctx.stdout()));
            ctx.stderr().println("sqlguard: MCP server ready on stdio (sources: " + String.join(", ", served) + ")");
            stdio.awaitEnd(); // requests still running when input ended are answered first
            server.closeGracefully();
            return ExitCodes.OK;
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException e) {
                // shutting down: the hook runs
            }
            deleteTree(charts);
        }
    }

    private static void deleteQuietly(Path dir) {
        try {
            deleteTree(dir);
        } catch (IOException | RuntimeException e) {
            // the JVM is ending; nothing else to do
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
