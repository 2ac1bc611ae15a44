package dev.sqlguard.app.internal.mcp;

import java.util.List;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.sqlguard.app.tools.AgentTools;
import dev.sqlguard.domain.ToolStatus;

/**
 * The {@code outputSchema} of each MCP tool: what its {@code structuredContent} holds. A failure
 * of any tool is the ToolResult object (with {@code status} and {@code error}), so every schema
 * requires {@code status} only and admits the ToolResult fields beside the tool's own. No schema
 * uses a {@code type} array: a value that can be null is an {@code anyOf}, which strict clients
 * accept.
 */
final class OutputSchemas {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private OutputSchemas() {
    }

    /** The output schema of the tool {@code name}. */
    static ObjectNode of(String name) {
        ObjectNode schema = NODES.objectNode().put("type", "object");
        ObjectNode props = schema.putObject("properties");
        ArrayNode statuses = props.putObject("status").put("type", "string")
                .put("description", "OK, NO_EVIDENCE (ran, no rows), REJECTED (refused, nothing ran) or ERROR.")
                .putArray("enum");
        for (ToolStatus status : ToolStatus.values()) {
            statuses.add(status.name());
        }
        props.set("error", nullable(error()));
        switch (name) {
            case McpToolServer.LIST_SOURCES -> {
                ObjectNode source = object();
                source.withObjectProperty("properties").set("source", type("string"));
                source.withObjectProperty("properties").set("engine", type("string"));
                source.withObjectProperty("properties").set("available", type("boolean"));
                source.withObjectProperty("properties").set("error", nullable(error()));
                props.set("sources", array(source));
            }
            case AgentTools.DESCRIBE_SOURCE -> {
                ObjectNode column = object();
                column.withObjectProperty("properties").set("name", type("string"));
                column.withObjectProperty("properties").set("type", type("string"));
                column.withObjectProperty("properties").set("redacted", type("boolean"));
                ObjectNode table = object();
                table.withObjectProperty("properties").set("table", type("string"));
                table.withObjectProperty("properties").set("row_count", NODES.objectNode().put("description", "The table's row count."));
                table.withObjectProperty("properties").set("columns", array(column));
                ObjectNode source = object();
                source.withObjectProperty("properties").set("source", type("string"));
                source.withObjectProperty("properties").set("engine", type("string"));
                source.withObjectProperty("properties").set("tables", array(table));
                props.set("sources", array(source));
                toolResultFields(props);
            }
            case AgentTools.QUERY_DATA -> toolResultFields(props);
            case AgentTools.SUMMARY_STATS -> {
                toolResultFields(props);
                props.set("table", type("string"));
                props.set("row_count", NODES.objectNode().put("description", "The table's row count."));
                ObjectNode stat = object();
                stat.withObjectProperty("properties").set("column", type("string"));
                stat.withObjectProperty("properties").set("type", type("string"));
                props.set("stats", array(stat));
                props.set("notes", array(type("string")));
                props.set("query", toolResult());
            }
            case AgentTools.PLOT_CHART -> {
                toolResultFields(props);
                ObjectNode chart = object();
                chart.withObjectProperty("properties").set("type", type("string"));
                chart.withObjectProperty("properties").set("title", type("string"));
                chart.withObjectProperty("properties").set("points", type("integer"));
                chart.withObjectProperty("properties").set("rendered", type("boolean"));
                chart.withObjectProperty("properties").set("notes", array(type("string")));
                props.set("chart", chart);
                props.set("query", toolResult());
            }
            default -> throw new IllegalArgumentException("no output schema for " + name);
        }
        schema.putArray("required").add("status");
        return schema;
    }

    /** The ToolResult object (query_data's result, and any tool's failure). */
    private static ObjectNode toolResult() {
        ObjectNode schema = object();
        ObjectNode props = schema.withObjectProperty("properties");
        props.set("status", type("string"));
        props.set("error", nullable(error()));
        toolResultFields(props);
        return schema;
    }

    private static void toolResultFields(ObjectNode props) {
        props.set("id", type("string"));
        props.set("source", type("string"));
        props.set("sql", nullable(type("string")));
        ObjectNode column = object();
        column.withObjectProperty("properties").set("name", type("string"));
        column.withObjectProperty("properties").set("type", type("string"));
        props.set("columns", array(column));
        props.set("rows", array(NODES.objectNode().put("type", "array")));
        props.set("returned_count", type("integer"));
        props.set("truncated", type("boolean"));
        props.set("limits_hit", array(type("string")));
        props.set("elapsed_ms", type("integer"));
    }

    private static ObjectNode error() {
        ObjectNode error = object();
        error.withObjectProperty("properties").set("code", type("string"));
        error.withObjectProperty("properties").set("message", type("string"));
        error.withObjectProperty("properties").set("retryable", type("boolean"));
        error.putArray("required").add("code").add("message").add("retryable");
        return error;
    }

    private static ObjectNode object() {
        ObjectNode node = NODES.objectNode().put("type", "object");
        node.putObject("properties");
        return node;
    }

    private static ObjectNode type(String type) {
        return NODES.objectNode().put("type", type);
    }

    private static ObjectNode array(ObjectNode items) {
        ObjectNode node = type("array");
        node.set("items", items);
        return node;
    }

    private static ObjectNode nullable(ObjectNode schema) {
        ObjectNode node = NODES.objectNode();
        node.putArray("anyOf").addAll(List.of(schema, type("null")));
        return node;
    }
}
