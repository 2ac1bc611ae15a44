package dev.sqlguard.app.internal.mcp;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.TreeSet;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;

import dev.sqlguard.app.tools.AgentTools;
import dev.sqlguard.app.tools.ChartOutput;
import dev.sqlguard.app.tools.ToolOutcome;
import dev.sqlguard.app.internal.json.ToolResultJson;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.ToolError;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.ports.model.ToolSpec;

/**
 * The tools sqlguard offers over MCP: {@code list_sources} plus the agent's data tools
 * ({@code describe_source}, {@code query_data}, {@code summary_stats}, {@code plot_chart}) with the
 * same input schemas and the same guarded path and audit ({@link AgentTools}).
 *
 * <p>A call never fails at the protocol level: refusals, errors and invalid arguments are tool
 * results with {@code isError: true}. Every result carries the JSON twice: as
 * {@code structuredContent} (protocol 2025-06-18 and later, matching the tool's
 * {@code outputSchema}) and as the first text content, for older clients. Thread-safe.
 */
public final class McpToolServer {
    private static final Logger LOG = LoggerFactory.getLogger(McpToolServer.class);

    public static final String LIST_SOURCES = "list_sources";
    /** The agent tools offered over MCP; {@code clarify} is for the planner's own user only. */
    public static final List<String> DATA_TOOLS = List.of(AgentTools.DESCRIBE_SOURCE, AgentTools.QUERY_DATA,
            AgentTools.SUMMARY_STATS, AgentTools.PLOT_CHART);

    private static final Map<String, String> TITLES = Map.of(
            LIST_SOURCES, "List data sources",
            AgentTools.DESCRIBE_SOURCE, "Describe a data source",
            AgentTools.QUERY_DATA, "Query data (read-only SQL)",
            AgentTools.SUMMARY_STATS, "Summary statistics of columns",
            AgentTools.PLOT_CHART, "Plot a chart");

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
    private final Map<String, ObjectNode> definitions = new LinkedHashMap<>();

    /**
     * @param tools the agent's tools on the served sources
     * @param sources every configured source, served or not
     */
    public McpToolServer(AgentTools tools, List<SourceInfo> sources) {
        this(tools, fixed(sources));
    }

    /**
     * @param tools the agent's tools on the served sources
     * @param sources every configured source, served or not, read afresh by each {@code list_sources}
     *     (a source that was down shows as available once it is back)
     */
    public McpToolServer(AgentTools tools, Supplier<List<SourceInfo>> sources) {
        this.tools = requireNonNull(tools, "tools is null");
        this.sources = requireNonNull(sources, "sources is null");
        definitions.put(LIST_SOURCES, definition(LIST_SOURCES,
                "Lists the configured data sources: id, engine, and whether it is available. Takes no arguments.",
                parse("{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}")));
        for (ToolSpec spec : tools.specs()) {
            if (DATA_TOOLS.contains(spec.name())) {
                definitions.put(spec.name(), definition(spec.name(), spec.description(), parse(spec.parametersSchemaJson())));
            }
        }
    }

    /** The sources as configured, served or not, with their state now. */
    public List<SourceInfo> sources() {
        return sources.get();
    }

    private static Supplier<List<SourceInfo>> fixed(List<SourceInfo> sources) {
        List<SourceInfo> copy = List.copyOf(sources);
        return () -> copy;
    }

    /** The {@code tools/list} entries, {@code list_sources} first (fresh copies). */
    public List<ObjectNode> definitions() {
        return definitions.values().stream().map(ObjectNode::deepCopy).toList();
    }

    /** Whether a tool of this name exists. */
    public boolean has(String name) {
        return definitions.containsKey(name);
    }

    private static ObjectNode definition(String name, String description, JsonNode inputSchema) {
        ObjectNode tool = NODES.objectNode().put("name", name).put("title", TITLES.get(name)).put("description", description);
        tool.set("inputSchema", inputSchema);
        tool.set("outputSchema", OutputSchemas.of(name));
        ObjectNode annotations = tool.putObject("annotations");
        annotations.put("title", TITLES.get(name)).put("readOnlyHint", true).put("destructiveHint", false)
                .put("idempotentHint", true).put("openWorldHint", false);
        return tool;
    }

    /**
     * Runs one call by name with the client's arguments (a JSON object, or null for none) and
     * returns the {@code CallToolResult}. While it runs, {@link #cancel} with {@code callId} stops
     * it. Never throws.
     */
    public ObjectNode call(String name, JsonNode arguments, String callId) {
        try {
            if (LIST_SOURCES.equals(name)) {
                return listSources(arguments);
            }
            if (!DATA_TOOLS.contains(name)) {
                return failure(ToolStatus.REJECTED, new GuardException(ErrorCode.INVALID_ARGUMENT,
                        "Unknown tool; the tools are " + definitions.keySet() + "."));
            }
            // the arguments as the JSON-RPC reader parsed them: checked as text would be, never written and parsed again
            return result(tools.call(callId, name, arguments));
        } catch (RuntimeException e) {
            LOG.warn("tool " + name + " failed: " + e.getClass().getSimpleName());
            LOG.debug("tool failure", e);
            return failure(ToolStatus.ERROR, new GuardException(ErrorCode.INTERNAL_ERROR));
        }
    }

    /**
     * Stops the running call {@code callId} as a timeout does (its statement is cancelled on the
     * engine). Returns whether it was running.
     */
    public boolean cancel(String callId) {
        return tools.cancel(callId);
    }

    private ObjectNode listSources(JsonNode arguments) {
        if (arguments != null && !arguments.isNull() && !(arguments.isObject() && arguments.isEmpty())) {
            String detail = arguments.isObject() ? "unknown field " + new TreeSet<>(fieldNames(arguments)).first() : "arguments must be an object";
            return failure(ToolStatus.REJECTED, new GuardException(ErrorCode.INVALID_ARGUMENT,
                    "list_sources takes no arguments; " + detail + "."));
        }
        ObjectNode root = NODES.objectNode().put("status", ToolStatus.OK.name());
        ArrayNode list = root.putArray("sources");
        for (SourceInfo source : sources.get()) {
            list.addObject().put("source", source.id()).put("engine", source.engine())
                    .put("available", source.error().isEmpty())
                    .set("error", ToolResultJson.error(source.error()));
        }
        return envelope(ToolResultJson.write(root), List.of(), false);
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static ObjectNode result(ToolOutcome outcome) {
        List<ObjectNode> more = new ArrayList<>();
        if (!outcome.failed() && outcome.chart().isPresent()) {
            ChartOutput chart = outcome.chart().get();
            chart.png().flatMap(McpToolServer::readAndDelete).ifPresent(png -> more.add(NODES.objectNode()
                    .put("type", "image").put("data", Base64.getEncoder().encodeToString(png)).put("mimeType", "image/png")));
            more.add(text(chart.vegaLite()));
        }
        return envelope(outcome.modelJson(), more, outcome.failed());
    }

    /** A failure result that no tool produced (the server is busy or stopping, an internal error). */
    public static ObjectNode failure(ToolStatus status, GuardException error) {
        ToolResult result = ToolResult.failure("mcp-" + UUID.randomUUID(), status, "", Optional.empty(), Set.of(), error, 0);
        return envelope(ToolResultJson.write(result), List.of(), true);
    }

    /**
     * A {@code CallToolResult}: the JSON object as {@code structuredContent} (written as is, so that
     * decimals stay exact) and as the first text content, then {@code more} contents.
     */
    private static ObjectNode envelope(String json, List<ObjectNode> more, boolean isError) {
        ObjectNode result = NODES.objectNode();
        ArrayNode content = result.putArray("content");
        content.add(text(json));
        more.forEach(content::add);
        result.putRawValue("structuredContent", new RawValue(json));
        result.put("isError", isError);
        return result;
    }

    private static ObjectNode text(String text) {
        return NODES.objectNode().put("type", "text").put("text", text);
    }

    /** The PNG's bytes; the file is removed, since the client gets the image inline. */
    private static Optional<byte[]> readAndDelete(Path png) {
        try {
            byte[] bytes = Files.readAllBytes(png);
            Files.deleteIfExists(png);
            return Optional.of(bytes);
        } catch (IOException e) {
            LOG.warn("chart image unreadable: " + e.getClass().getSimpleName());
            return Optional.empty();
        }
    }

    /** Builds every tool's definition once, without a server, and writes them: see {@link McpStdioServer#warmUpInBackground()}. */
    static void warmUp() {
        ArrayNode all = NODES.arrayNode();
        all.add(definition(LIST_SOURCES, "warm-up", parse("{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}")));
        for (String name : DATA_TOOLS) {
            all.add(definition(name, "warm-up", NODES.objectNode()));
        }
        ToolResultJson.write(all);
    }

    private static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tool schema is not JSON", e);
        }
    }
}
