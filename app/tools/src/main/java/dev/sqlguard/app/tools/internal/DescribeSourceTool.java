package dev.sqlguard.app.tools.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.sqlguard.app.tools.AgentSource;
import dev.sqlguard.app.tools.ToolOutcome;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.ports.TableDescription;
import dev.sqlguard.ports.TableDescription.ColumnDescription;

/** {@code describe_source}: the allowlisted tables, columns, types and row counts. */
public final class DescribeSourceTool extends Tool {
    public static final String NAME = "describe_source";

    private final ToolContext context;

    public DescribeSourceTool(ToolContext context) {
        super(NAME, "Lists the allowlisted tables of a data source with their columns, types, row counts and which columns"
                + " are redacted, and the source's SQL dialect. Call it first to learn the names you may use.",
                new ArgSchema.Obj("", Map.of("source", ArgSchema.Str.sourceId(
                        "The source to describe; omit it to describe every source.", context.sourceIds())), Set.of()), false);
        this.context = context;
    }

    @Override
    public ToolOutcome call(JsonNode arguments) {
        Optional<String> only = ArgSchema.Obj.text(arguments, "source");
        List<AgentSource> sources = only.map(id -> List.of(context.source(id))).orElseGet(context::sources);
        ObjectNode out = AgentJson.NODES.objectNode();
        out.put("status", ToolStatus.OK.name());
        ArrayNode list = out.putArray("sources");
        List<Object> evidence = new ArrayList<>();
        for (AgentSource source : sources) {
            ObjectNode s = list.addObject();
            s.put("source", source.id());
            s.put("engine", source.engineName());
            s.put("dialect", source.dialect().name());
            ArrayNode notes = s.putArray("dialect_notes");
            source.dialect().notes().forEach(notes::add);
            ArrayNode tables = s.putArray("tables");
            dev.sqlguard.domain.RowPolicy rows = source.engine().policy().rows();
            for (TableDescription table : context.catalog(source)) {
                ObjectNode t = tables.addObject();
                t.put("table", table.table().qualifiedName());
                // a filtered table's count is every caller's rows: the model sees none
                if (table.rowCount().isPresent() && !rows.governs(table.table())) {
                    t.put("row_count", table.rowCount().getAsLong());
                    evidence.add(table.rowCount().getAsLong());
                } else {
                    t.putNull("row_count");
                }
                ArrayNode columns = t.putArray("columns");
                for (ColumnDescription column : table.columns()) {
                    columns.addObject().put("name", column.name()).put("type", column.type()).put("redacted", column.redacted());
                }
                evidence.add((long) table.columns().size());
            }
            evidence.add((long) tables.size());
        }
        return new ToolOutcome(NAME, ToolStatus.OK, AgentJson.write(out), List.of(), evidence, Optional.empty(),
                Optional.empty(), Optional.empty());
    }
}
