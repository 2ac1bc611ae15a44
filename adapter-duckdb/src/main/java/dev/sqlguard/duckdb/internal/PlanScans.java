package dev.sqlguard.duckdb.internal;

import java.util.function.BiConsumer;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The scans ({@code LOGICAL_GET}) of a bound plan from {@code json_serialize_plan}, wherever they are
 * (subquery plans inside expressions included), each with the operator it is a direct input of.
 */
final class PlanScans {
    private PlanScans() {
    }

    /**
     * Calls {@code scan} with each {@code LOGICAL_GET} under {@code node} and the operator whose
     * {@code children} list holds it directly ({@code null} when it is not such an input: the plan's
     * root, or a plan nested in an expression).
     */
    static void collect(JsonNode node, BiConsumer<JsonNode, JsonNode> scan) {
        walk(node, null, null, scan);
    }

    private static void walk(JsonNode node, JsonNode operator, JsonNode parentOfInput, BiConsumer<JsonNode, JsonNode> scan) {
        if (node.isArray()) {
            for (JsonNode element : node) {
                walk(element, operator, null, scan);
            }
            return;
        }
        if (!node.isObject()) {
            return;
        }
        boolean isOperator = node.path("type").asText("").startsWith("LOGICAL_");
        if (isOperator && "LOGICAL_GET".equals(node.path("type").asText())) {
            scan.accept(node, parentOfInput);
        }
        JsonNode current = isOperator ? node : operator;
        for (java.util.Map.Entry<String, JsonNode> field : node.properties()) {
            JsonNode value = field.getValue();
            if (isOperator && "children".equals(field.getKey()) && value.isArray()) {
                for (JsonNode child : value) {
                    walk(child, current, node, scan);
                }
            } else if (value.isContainerNode()) {
                walk(value, current, null, scan);
            }
        }
    }

    /** Whether a scan reads the base table {@code table} (a sequential scan of it, not a table function). */
    static boolean isScanOf(JsonNode get, DuckDbCatalog.Table table) {
        JsonNode data = get.path("function_data");
        JsonNode path = get.path("qname").path("path");
        return path.size() == 1 && "seq_scan".equals(path.get(0).asText()) && data.has("table")
                && table.schema().equalsIgnoreCase(data.path("schema").asText(""))
                && table.name().equalsIgnoreCase(data.path("table").asText(""));
    }

    /** The catalog table a scan reads, if it is a sequential scan of one. */
    static java.util.Optional<DuckDbCatalog.Table> tableOf(JsonNode get, DuckDbCatalog catalog) {
        JsonNode data = get.path("function_data");
        JsonNode path = get.path("qname").path("path");
        if (path.size() != 1 || !"seq_scan".equals(path.get(0).asText()) || !data.has("table")) {
            return java.util.Optional.empty();
        }
        return catalog.find(data.path("catalog").asText(""), data.path("schema").asText(""), data.path("table").asText(""));
    }
}
