package dev.sqlguard.app.internal.mcp;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.sqlguard.app.agent.AgentTools;
import dev.sqlguard.app.agent.ChartOutput;
import dev.sqlguard.app.agent.ToolOutcome;
import dev.sqlguard.app.internal.json.ToolResultJson;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.ToolError;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.ports.model.ToolSpec;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Content;
import io.modelcontextprotocol.spec.McpSchema.ImageContent;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;

/**
 * sqlguard as an MCP tool server: {@code list_sources} plus the agent's data tools
 * ({@code describe_source}, {@code query_data}, {@code summary_stats}, {@code plot_chart}) with the
 * same schemas and the same guarded path and audit ({@link AgentTools}).
 *
 * <p>A call never fails at the protocol level: refusals, errors and invalid arguments are tool
 * results with {@code isError: true} whose text is the safe JSON (with its stable code). Handlers
 * run on Reactor's bounded-elastic pool ({@code immediateExecution(false)}), never on the stdio
 * reader thread, so a slow query does not hold up other calls. Thread-safe.
 */
public final class McpToolServer {
    private static final Logger LOG = Logger.getLogger(McpToolServer.class.getName());

    public static final String LIST_SOURCES = "list_sources";
    /** The agent tools offered over MCP; {@code clarify} is for the planner's own user only. */
    public static final List<String> DATA_TOOLS = List.of(AgentTools.DESCRIBE_SOURCE, AgentTools.QUERY_DATA,
            AgentTools.SUMMARY_STATS, AgentTools.PLOT_CHART);

    private static final String LIST_SOURCES_SCHEMA = "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}";
    private static final ToolAnnotations READ_ONLY = new ToolAnnotations(null, true, false, true, false, null);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /**
     * One configured source as {@code list_sources} shows it.
     *
     * @param error why the source is not served (its engine could not start), if it is not
     */
    public record SourceInfo(String id, String engine, Optional<ToolError> error) {
        public SourceInfo {
            requireNonNull(id, "id is null");
            requireNonNull(engine, "engine is null");
            requireNonNull(error, "error is null");
        }
    }

    private final AgentTools tools;
    private final Supplier<List<SourceInfo>> sources;

    private final String serverVersion;

    /**
     * @param tools the agent's tools on the served sources
     * @param sources every configured source, served or not
     * @param serverVersion the version reported in {@code initialize}
     */
    public McpToolServer(AgentTools tools, List<SourceInfo> sources, String serverVersion) {
        this(tools, fixed(sources), serverVersion);
    }

    /**
     * @param sources every configured source, served or not, read afresh by each {@code list_sources}
     *     (a source that was down shows as available once it is back)
     */
    public McpToolServer(AgentTools tools, Supplier<List<SourceInfo>> sources, String serverVersion) {
        this.tools = requireNonNull(tools, "tools is null");
        this.sources = requireNonNull(sources, "sources is null");
        this.serverVersion = requireNonNull(serverVersion, "serverVersion is null");
    }

    private static Supplier<List<SourceInfo>> fixed(List<SourceInfo> sources) {
        List<SourceInfo> copy = List.copyOf(sources);
        return () -> copy;
    }

    /**
     * Starts serving JSON-RPC on {@code in}/{@code out} (the process's real stdin and stdout);
     * nothing else may write to {@code out}.
     */
    public McpSyncServer start(InputStream in, OutputStream out) {
        McpJsonMapper mapper = new JacksonMcpJsonMapper(new ObjectMapper());
        StdioServerTransportProvider transport = new StdioServerTransportProvider(mapper, in, out);
        return McpServer.sync(transport)
                .serverInfo("sqlguard", serverVersion)
                .instructions("Read-only, guarded SQL over the configured sources. Start with list_sources and "
                        + "describe_source; every query is checked, bounded and audited. Errors come back as tool "
                        + "results with isError and a stable code.")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .jsonMapper(mapper)
                // our own checks (the same records as the schemas) answer with INVALID_ARGUMENT results
                .validateToolInputs(false)
                // handlers on boundedElastic, not on the stdio reader: calls overlap
                .immediateExecution(false)
                .requestTimeout(Duration.ofMinutes(10))
                .tools(specifications(mapper))
                .build();
    }

    /** The tool specifications, {@code list_sources} first. */
    List<SyncToolSpecification> specifications(McpJsonMapper mapper) {
        List<SyncToolSpecification> out = new ArrayList<>();
        out.add(specification(mapper, LIST_SOURCES,
                "Lists the configured data sources: id, engine, and whether it is available. Takes no arguments.",
                LIST_SOURCES_SCHEMA));
        for (ToolSpec spec : tools.specs()) {
            if (DATA_TOOLS.contains(spec.name())) {
                out.add(specification(mapper, spec.name(), spec.description(), spec.parametersSchemaJson()));
            }
        }
        return out;
    }

    private SyncToolSpecification specification(McpJsonMapper mapper, String name, String description, String schema) {
        Tool tool = Tool.builder(name, mapper, schema).description(description)
                .annotations(READ_ONLY).build();
        return SyncToolSpecification.builder().tool(tool)
                .callHandler((exchange, request) -> call(name, request.arguments()))
                .build();
    }

    /** Runs one call by name with the client's arguments. Never throws. */
    public CallToolResult call(String name, Map<String, Object> arguments) {
        return run(name, arguments);
    }

    private CallToolResult run(String name, Map<String, Object> arguments) {
        try {
            if (LIST_SOURCES.equals(name)) {
                return listSources(arguments == null ? Map.of() : arguments);
            }
            if (!DATA_TOOLS.contains(name)) {
                return failure(ToolStatus.REJECTED, new GuardException(ErrorCode.INVALID_ARGUMENT,
                        "Unknown tool; the tools are " + names() + "."));
            }
            String json = JSON.writeValueAsString(arguments == null ? Map.of() : arguments);
            return result(tools.call(name, json));
        } catch (JsonProcessingException | RuntimeException e) {
            LOG.log(Level.WARNING, "tool " + name + " failed: " + e.getClass().getSimpleName());
            LOG.log(Level.FINE, "tool failure", e);
            return failure(ToolStatus.ERROR, new GuardException(ErrorCode.INTERNAL_ERROR));
        }
    }

    private List<String> names() {
        List<String> names = new ArrayList<>();
        names.add(LIST_SOURCES);
        names.addAll(DATA_TOOLS);
        return names;
    }

    private CallToolResult listSources(Map<String, Object> arguments) {
        if (!arguments.isEmpty()) {
            return failure(ToolStatus.REJECTED, new GuardException(ErrorCode.INVALID_ARGUMENT,
                    "list_sources takes no arguments; unknown field " + new java.util.TreeSet<>(arguments.keySet()).first() + "."));
        }
        ObjectNode root = NODES.objectNode().put("status", ToolStatus.OK.name());
        ArrayNode list = root.putArray("sources");
        for (SourceInfo source : sources.get()) {
            list.addObject().put("source", source.id()).put("engine", source.engine())
                    .put("available", source.error().isEmpty())
                    .set("error", ToolResultJson.error(source.error()));
        }
        return CallToolResult.builder().content(List.of(TextContent.builder(ToolResultJson.write(root)).build())).isError(false).build();
    }

    private static CallToolResult result(ToolOutcome outcome) {
        List<Content> content = new ArrayList<>();
        content.add(TextContent.builder(outcome.modelJson()).build());
        if (!outcome.failed() && outcome.chart().isPresent()) {
            ChartOutput chart = outcome.chart().get();
            chart.png().flatMap(McpToolServer::readAndDelete)
                    .ifPresent(png -> content.add(ImageContent.builder(Base64.getEncoder().encodeToString(png), "image/png").build()));
            content.add(TextContent.builder(chart.vegaLite()).build());
        }
        return CallToolResult.builder().content(content).isError(outcome.failed()).build();
    }

    /** The PNG's bytes; the file is removed, since the client gets the image inline. */
    private static Optional<byte[]> readAndDelete(Path png) {
        try {
            byte[] bytes = Files.readAllBytes(png);
            Files.deleteIfExists(png);
            return Optional.of(bytes);
        } catch (IOException e) {
            LOG.log(Level.WARNING, "chart image unreadable: " + e.getClass().getSimpleName());
            return Optional.empty();
        }
    }

    private static CallToolResult failure(ToolStatus status, GuardException error) {
        ToolResult result = ToolResult.failure("mcp-" + java.util.UUID.randomUUID(), status, "", Optional.empty(),
                Set.of(), error, 0);
        return CallToolResult.builder().content(List.of(TextContent.builder(ToolResultJson.write(result)).build())).isError(true).build();
    }
}
