package dev.sqlguard.app.agent.internal;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.sqlguard.app.internal.json.ToolResultJson;
import dev.sqlguard.app.agent.AnalyticalResponse;
import dev.sqlguard.app.agent.AnalyticalResponse.ExecutedQuery;
import dev.sqlguard.app.tools.ChartOutput;
import dev.sqlguard.app.agent.ClaimCheck;
import dev.sqlguard.app.tools.internal.AgentJson;
import dev.sqlguard.domain.LimitKind;
import dev.sqlguard.domain.ResultColumn;

/** JSON and text renderings of an {@link AnalyticalResponse}. */
public final class ResponseFormat {
    private static final int TEXT_CELL = 40;

    private ResponseFormat() {
    }

    public static ObjectNode tree(AnalyticalResponse r) {
        ObjectNode root = AgentJson.NODES.objectNode();
        root.put("status", r.status().wireName());
        root.put("question", r.question());
        root.put("answer", r.answer());
        ArrayNode findings = root.putArray("key_findings");
        r.keyFindings().forEach(findings::add);
        ArrayNode queries = root.putArray("queries");
        for (ExecutedQuery q : r.queries()) {
            ObjectNode node = queries.addObject();
            node.put("tool", q.tool());
            node.put("source", q.source());
            node.put("status", q.status().name());
            node.set("sql", q.sql().<JsonNode>map(AgentJson.NODES::textNode).orElse(AgentJson.NODES.nullNode()));
            node.set("columns", ToolResultJson.columns(q.columns()));
            node.set("preview_rows", ToolResultJson.rows(q.previewRows()));
            node.put("returned_count", q.returnedCount());
            node.put("truncated", q.truncated());
            node.set("limits_hit", ToolResultJson.limitsHit(q.limitsHit()));
            node.set("error", ToolResultJson.error(q.error()));
        }
        if (r.chart().isPresent()) {
            ChartOutput chart = r.chart().get();
            ObjectNode node = root.putObject("chart");
            AgentJson.putText(node, "png", chart.png().map(Path::toString));
            node.set("vega_lite", AgentJson.parseTrusted(chart.vegaLite()));
            ArrayNode notes = node.putArray("notes");
            chart.notes().forEach(notes::add);
        } else {
            root.putNull("chart");
        }
        ObjectNode v = root.putObject("verification");
        v.put("policy", r.verification().policy().name().toLowerCase(Locale.ROOT));
        v.put("performed", r.verification().performed());
        v.put("fully_verified", r.verification().fullyVerified());
        ClaimCheck check = r.verification().check();
        check.supported().forEach(v.putArray("supported")::add);
        check.derived().forEach(v.putArray("derived")::add);
        check.unsupported().forEach(v.putArray("unsupported")::add);
        check.exempt().forEach(v.putArray("exempt")::add);
        root.put("turns_used", r.turnsUsed());
        root.put("tool_calls_used", r.toolCallsUsed());
        AgentJson.putText(root, "clarification", r.clarification());
        return root;
    }

    public static String json(AnalyticalResponse r) {
        return AgentJson.writePretty(tree(r));
    }

    public static String text(AnalyticalResponse r) {
        StringBuilder out = new StringBuilder();
        out.append("Status: ").append(r.status().wireName().replace('_', ' ')).append('\n');
        out.append("Question: ").append(r.question()).append("\n\n");
        if (r.clarification().isPresent()) {
            out.append("Clarification needed: ").append(r.clarification().get()).append("\n\n");
        } else {
            out.append(r.answer().strip()).append("\n\n");
        }
        if (!r.keyFindings().isEmpty()) {
            out.append("Key findings:\n");
            r.keyFindings().forEach(f -> out.append("  - ").append(f).append('\n'));
            out.append('\n');
        }
        AnalyticalResponse.Verification v = r.verification();
        out.append("Verification (policy ").append(v.policy().name().toLowerCase(Locale.ROOT)).append("): ");
        if (!v.performed()) {
            out.append("no answer to verify");
        } else if (v.check().verified()) {
            out.append("every number is supported by a tool result (").append(v.check().supported().size()).append(" matched");
            if (!v.check().derived().isEmpty()) {
                out.append(", derived: ").append(String.join("; ", v.check().derived()));
            }
            out.append(')');
        } else {
            out.append("UNSUPPORTED numbers: ").append(String.join(", ", v.check().unsupported()));
        }
        out.append('\n');
        r.chart().ifPresent(c -> {
            out.append("Chart: ").append(c.png().map(Object::toString).orElse("(not rendered; Vega-Lite spec in JSON output)")).append('\n');
            c.notes().forEach(n -> out.append("  note: ").append(n).append('\n'));
        });
        out.append("\nQueries (").append(r.queries().size()).append("):\n");
        int i = 1;
        for (ExecutedQuery q : r.queries()) {
            out.append("  ").append(i++).append(". ").append(q.tool()).append(" on ").append(q.source().isEmpty() ? "-" : q.source())
                    .append(": ").append(q.status().name());
            if (q.error().isPresent()) {
                out.append(" ").append(q.error().get().code().name()).append(" - ").append(q.error().get().message());
            } else {
                out.append(", ").append(q.returnedCount()).append(q.returnedCount() == 1 ? " row" : " rows");
            }
            if (!q.limitsHit().isEmpty()) {
                out.append(" [limits hit: ").append(q.limitsHit().stream().map(LimitKind::wireName).sorted()
                        .collect(Collectors.joining(", "))).append(']');
            }
            out.append('\n');
            q.sql().ifPresent(sql -> out.append("     ").append(sql.replace("\n", " ")).append('\n'));
            if (!q.columns().isEmpty()) {
                out.append("     ").append(q.columns().stream().map(ResultColumn::name).collect(Collectors.joining(" | "))).append('\n');
                for (List<Object> row : q.previewRows()) {
                    out.append("     ").append(row.stream().map(ResponseFormat::cell).collect(Collectors.joining(" | "))).append('\n');
                }
                if (q.previewRows().size() < q.returnedCount()) {
                    out.append("     (").append(q.returnedCount() - q.previewRows().size()).append(" more rows)\n");
                }
            }
        }
        out.append("\nTurns used: ").append(r.turnsUsed()).append(", tool calls: ").append(r.toolCallsUsed()).append('\n');
        return out.toString();
    }

    private static String cell(Object value) {
        String text = value instanceof java.math.BigDecimal d ? d.toPlainString() : String.valueOf(value);
        text = text.replace('\n', ' ');
        return text.length() > TEXT_CELL ? text.substring(0, TEXT_CELL - 1) + "…" : text;
    }
}
