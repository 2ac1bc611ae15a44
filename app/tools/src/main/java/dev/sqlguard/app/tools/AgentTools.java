package dev.sqlguard.app.tools;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.databind.JsonNode;

import dev.sqlguard.app.GuardedCalls;
import dev.sqlguard.app.GuardedPath;
import dev.sqlguard.app.SqlGuard;
import dev.sqlguard.app.tools.internal.AgentJson;
import dev.sqlguard.app.tools.internal.ArgSchema;
import dev.sqlguard.app.tools.internal.ClarifyTool;
import dev.sqlguard.app.tools.internal.DescribeSourceTool;
import dev.sqlguard.app.tools.internal.PlotChartTool;
import dev.sqlguard.app.tools.internal.QueryDataTool;
import dev.sqlguard.app.tools.internal.SummaryStatsTool;
import dev.sqlguard.app.tools.internal.Tool;
import dev.sqlguard.app.tools.internal.ToolContext;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.ErrorType;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.ports.model.ToolCall;
import dev.sqlguard.ports.model.ToolSpec;

/**
 * The model's whole action space: {@code describe_source}, {@code query_data}, {@code summary_stats},
 * {@code plot_chart} and {@code clarify}. No tool runs model-written code; every statement runs
 * through {@link GuardedCalls}, the guarded entry: checked, bounded, audited and, on a facade's
 * path, masked and waited for by {@link SqlGuard#close()}.
 *
 * <p>{@link #call} never throws: malformed JSON, unknown or missing fields, wrong types and unknown
 * tool names become a {@code REJECTED} outcome with code {@code INVALID_ARGUMENT}. Thread-safe.
 */
public final class AgentTools {
    private static final Logger LOG = LoggerFactory.getLogger(AgentTools.class);

    public static final String DESCRIBE_SOURCE = DescribeSourceTool.NAME;
    public static final String QUERY_DATA = QueryDataTool.NAME;
    public static final String SUMMARY_STATS = SummaryStatsTool.NAME;
    public static final String PLOT_CHART = PlotChartTool.NAME;
    public static final String CLARIFY = ClarifyTool.NAME;

    private final Map<String, Tool> tools = new LinkedHashMap<>();
    private final ToolContext context;

    /**
     * @param calls the guarded entry every statement runs through
     * @param sources the sources the model may use (at least one, unique ids)
     * @param chartDirectory where {@code plot_chart} writes PNG files
     */
    public AgentTools(GuardedCalls calls, List<AgentSource> sources, Path chartDirectory) {
        this.context = new ToolContext(calls, sources);
        for (Tool tool : List.of(new DescribeSourceTool(context), new QueryDataTool(context), new SummaryStatsTool(context),
                new PlotChartTool(context, chartDirectory), new ClarifyTool())) {
            tools.put(tool.name(), tool);
        }
    }

    /**
     * The tools on {@code sourceIds} of {@code guard}, running every statement through its guarded
     * path and audit sink (as {@link SqlGuard#query} does). Starts those sources' engines.
     *
     * @param chartDirectory where {@code plot_chart} writes PNG files
     * @throws GuardException {@code UNKNOWN_SOURCE}, or the engine's error when one cannot start
     * @throws IllegalArgumentException when {@code sourceIds} is empty
     */
    public static AgentTools of(SqlGuard guard, Path chartDirectory, List<String> sourceIds) {
        return of(guard.guardedPath(sourceIds), chartDirectory);
    }

    /**
     * The tools on a guarded path, for example a caller's ({@link dev.sqlguard.app.GuardedCaller#guardedPath}):
     * every statement carries the path's attributes.
     *
     * @param chartDirectory where {@code plot_chart} writes PNG files
     */
    public static AgentTools of(GuardedPath path, Path chartDirectory) {
        return new AgentTools(path.calls(), AgentSource.of(path), chartDirectory);
    }

    /** The tool specifications to offer the model, each with the JSON Schema of its arguments. */
    public List<ToolSpec> specs() {
        return tools.values().stream()
                .map(t -> new ToolSpec(t.name(), t.description(), AgentJson.write(t.schema().toJson())))
                .toList();
    }

    /** The ids of the sources these tools serve, in order. */
    public List<String> sourceIds() {
        return context.sourceIds();
    }

    /** Whether {@code name} is a tool that queries data (its failures count against the SQL retry budget). */
    public static boolean isDataTool(String name) {
        return QUERY_DATA.equals(name) || SUMMARY_STATS.equals(name) || PLOT_CHART.equals(name);
    }

    /**
     * Runs one tool call. Never throws. While it runs, {@link #cancel} with its id stops it.
     */
    public ToolOutcome call(ToolCall call) {
        return context.within(call.id(), () -> run(call.name(), () -> {
            JsonNode arguments = AgentJson.parseArguments(call.argumentsJson());
            return new AgentJson.Parsed(arguments, call.argumentsJson().length());
        }));
    }

    /**
     * Runs one tool call whose arguments the caller has already parsed (the MCP server reads each
     * message once): the same checks and outcome as {@link #call(ToolCall)} with the arguments
     * written out as text, without writing and parsing them again. Never throws. While it runs,
     * {@link #cancel} with {@code callId} stops it.
     *
     * @param arguments the arguments as the caller's JSON reader built them (Jackson's defaults); null for none
     */
    public ToolOutcome call(String callId, String name, JsonNode arguments) {
        return context.within(callId, () -> run(name, () -> AgentJson.adoptArguments(arguments)));
    }

    /**
     * Stops the running call with this {@link ToolCall#id()}, as a timeout does: its running
     * statement is cancelled on the engine and the call ends with {@code CANCELLED}. Returns
     * whether such a call was running. Safe from any thread.
     */
    public boolean cancel(String callId) {
        return context.cancel(callId);
    }

    private ToolOutcome run(String name, java.util.function.Supplier<AgentJson.Parsed> parse) {
        Tool tool = tools.get(name);
        if (tool == null) {
            GuardException error = new GuardException(ErrorCode.INVALID_ARGUMENT,
                    "Unknown tool; the tools are " + tools.keySet() + ".");
            return ToolContext.outcome("unknown", ToolContext.failure("", ToolStatus.REJECTED, error));
        }
        JsonNode arguments = null;
        try {
            AgentJson.Parsed parsed = parse.get();
            arguments = parsed.arguments();
            tool.schema().check(arguments, "");
            if (parsed.textLength() > AgentJson.MAX_ARGUMENT_CHARS) {
                // each field is within its bounds (else its own code, QUERY_TOO_LONG for a long sql, came above)
                throw new ArgSchema.InvalidArgumentException(
                        "The arguments are longer than " + AgentJson.MAX_ARGUMENT_CHARS + " characters.");
            }
            return tool.call(arguments);
        } catch (ArgSchema.InvalidArgumentException e) {
            return refused(tool, arguments, new GuardException(e.code(), e.getMessage()));
        } catch (GuardException e) {
            if (e.code().type() == ErrorType.USER || e.code().type() == ErrorType.POLICY) {
                return refused(tool, arguments, e);
            }
            return ToolContext.outcome(tool.name(), ToolContext.failure(sourceOf(arguments), ToolStatus.ERROR, e));
        } catch (RuntimeException e) {
            LOG.warn("tool " + tool.name() + " failed: " + e.getClass().getSimpleName());
            LOG.debug("tool failure", e);
            GuardException error = new GuardException(ErrorCode.INTERNAL_ERROR);
            return ToolContext.outcome(tool.name(), ToolContext.failure(sourceOf(arguments), ToolStatus.ERROR, error));
        }
    }

    private ToolOutcome refused(Tool tool, JsonNode arguments, GuardException error) {
        String source = sourceOf(arguments);
        ToolResult result;
        if (tool.runsSql()) {
            JsonNode sql = arguments == null ? null : arguments.get("sql");
            result = context.reject(source, sql != null && sql.isTextual() ? sql.textValue() : "", error);
        } else {
            result = ToolContext.failure(source, ToolStatus.REJECTED, error);
        }
        return ToolContext.outcome(tool.name(), result);
    }

    /** The source id the call sent (an unknown one too, so that the answer names what was asked), or "". */
    private static String sourceOf(JsonNode arguments) {
        JsonNode source = arguments == null || !arguments.isObject() ? null : arguments.get("source");
        return source != null && source.isTextual() && source.textValue().length() <= MAX_SOURCE_ECHO
                ? source.textValue() : "";
    }

    /** The longest source id repeated in an answer (the schema's bound for a source id). */
    private static final int MAX_SOURCE_ECHO = 256;

    /** For tests and the MCP layer: the outcome of a call given by name and raw arguments. */
    public ToolOutcome call(String name, String argumentsJson) {
        return call(new ToolCall("call-" + ToolContext.newRequestId(), name, argumentsJson));
    }
}
