package dev.sqlguard.app.tools.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.sqlguard.app.internal.json.ToolResultJson;
import dev.sqlguard.app.tools.AgentSource;
import dev.sqlguard.app.tools.ToolOutcome;
import dev.sqlguard.domain.ErrorType;
import dev.sqlguard.domain.ToolError;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.ports.TableDescription;
import dev.sqlguard.ports.TableDescription.ColumnDescription;

/**
 * {@code summary_stats}: count, nulls, distinct, min, max, mean, standard deviation and quartiles of
 * allowlisted columns. This class writes the SQL from catalog names only (quoted for the dialect)
 * and runs it on the guarded path, so the source's function allowlist applies to it too.
 *
 * <p>Engines differ: quartiles are computed only where the source's dialect declares a quantile
 * aggregate (DuckDB's {@code quantile_cont}; MySQL and MariaDB have none). The statement is tried at up to three levels (with
 * quartiles; without them; without distinct counts and standard deviations). A level that the
 * source refuses with a USER or POLICY error (say {@code FUNCTION_NOT_ALLOWED}) moves to the next,
 * and a note tells the model which statistics were left out and why. Any other failure (time,
 * memory, engine) is returned as is.
 */
public final class SummaryStatsTool extends Tool {
    public static final String NAME = "summary_stats";
    static final int MAX_COLUMNS = 20;

    private static final List<String> QUARTILES = List.of("p25", "median", "p75");
    private static final List<String> FRACTIONS = List.of("0.25", "0.5", "0.75");

    private final ToolContext context;

    public SummaryStatsTool(ToolContext context) {
        super(NAME, "Computes summary statistics of columns of one table: row count, non-null count, nulls, distinct values,"
                + " min, max and, for numeric columns, mean, standard deviation and quartiles (where the engine has them).",
                schema(context), true);
        this.context = context;
    }

    private static ArgSchema.Obj schema(ToolContext context) {
        Map<String, ArgSchema> props = new LinkedHashMap<>();
        props.put("source", ArgSchema.Str.sourceId("The data source.", context.sourceIds()));
        props.put("table", ArgSchema.Str.of("An allowlisted table, as describe_source lists it.", 256));
        props.put("columns", new ArgSchema.Arr("Allowlisted columns to summarise; omit for every non-redacted column.",
                ArgSchema.Str.of("A column name.", 256), MAX_COLUMNS, true));
        return new ArgSchema.Obj("", props, Set.of("source", "table"));
    }

    private record Target(ColumnDescription column, ColumnKind kind) {
    }

    private enum Level {
        FULL, NO_QUANTILES, BASIC
    }

    @Override
    public ToolOutcome call(JsonNode arguments) {
        AgentSource source = context.source(arguments.get("source").textValue());
        SqlWriter writer = new SqlWriter(source.dialect());
        TableDescription table = context.table(source, arguments.get("table").textValue());
        List<Target> targets = new ArrayList<>();
        JsonNode requested = arguments.get("columns");
        if (requested == null || requested.isEmpty()) {
            for (ColumnDescription column : table.columns()) {
                if (!column.redacted() && targets.size() < MAX_COLUMNS) {
                    targets.add(new Target(column, ColumnKind.of(column.type())));
                }
            }
        } else {
            for (JsonNode name : requested) {
                ColumnDescription column = context.column(table, name.textValue());
                targets.add(new Target(column, ColumnKind.of(column.type())));
            }
        }
        if (targets.isEmpty()) {
            throw new ArgSchema.InvalidArgumentException("The table has no column that can be summarised.");
        }
        boolean numeric = targets.stream().anyMatch(t -> t.kind() == ColumnKind.NUMERIC);
        List<String> notes = new ArrayList<>();
        List<ToolResult> attempts = new ArrayList<>();
        String previousSql = null;
        ToolResult result = null;
        Level used = null;
        for (Level level : Level.values()) {
            if (level == Level.FULL && (!numeric || !writer.hasQuantiles())) {
                if (numeric) {
                    notes.add("Quartiles are not computed on this engine (it has no quantile aggregate the agent uses).");
                }
                continue;
            }
            String sql = sql(writer, table, targets, level);
            if (sql.equals(previousSql)) {
                continue;
            }
            previousSql = sql;
            result = context.run(source, sql, List.of());
            attempts.add(result);
            used = level;
            if (result.error().isEmpty() || !degradable(result.error().get()) || level == Level.BASIC) {
                break;
            }
            ToolError error = result.error().get();
            notes.add((level == Level.FULL ? "Quartiles were left out" : "Distinct counts and standard deviations were left out")
                    + ": the source refused them (" + error.code().name() + ").");
        }
        if (result == null) {
            throw new IllegalStateException("no statistics level applies");
        }
        ObjectNode out = AgentJson.NODES.objectNode();
        out.put("status", result.status().name());
        out.put("source", source.id());
        out.put("table", table.table().qualifiedName());
        List<Object> evidence = new ArrayList<>();
        if (result.error().isEmpty() && !result.rows().isEmpty()) {
            List<Object> row = result.rows().get(0);
            Map<String, Object> byLabel = new LinkedHashMap<>();
            for (int i = 0; i < result.columns().size(); i++) {
                byLabel.put(result.columns().get(i).name().toLowerCase(java.util.Locale.ROOT), row.get(i));
            }
            Object total = byLabel.get("row_count");
            out.set("row_count", ToolResultJson.cell(total));
            ArrayNode stats = out.putArray("stats");
            for (int i = 0; i < targets.size(); i++) {
                Target target = targets.get(i);
                ObjectNode s = stats.addObject();
                s.put("column", target.column().name());
                s.put("type", target.column().type());
                for (String stat : statNames(target, used)) {
                    Object value = byLabel.get(alias(i, stat));
                    s.set(stat, ToolResultJson.cell(value));
                    if (stat.equals("count")) {
                        Object nulls = difference(total, value);
                        s.set("nulls", ToolResultJson.cell(nulls));
                        evidence.add(nulls);
                    }
                }
            }
        }
        ArrayNode noteArray = out.putArray("notes");
        notes.forEach(noteArray::add);
        out.set("query", ToolResultJson.toNode(result));
        return new ToolOutcome(NAME, result.status(), AgentJson.write(out), attempts, evidence, Optional.empty(),
                Optional.empty(), result.error());
    }

    private static boolean degradable(ToolError error) {
        return error.code().type() == ErrorType.USER || error.code().type() == ErrorType.POLICY;
    }

    private static Object difference(Object total, Object count) {
        if (total instanceof Number t && count instanceof Number c) {
            return t.longValue() - c.longValue();
        }
        return null;
    }

    private static List<String> statNames(Target target, Level level) {
        List<String> names = new ArrayList<>(List.of("count"));
        if (level != Level.BASIC) {
            names.add("distinct");
        }
        names.add("min");
        names.add("max");
        if (target.kind() == ColumnKind.NUMERIC) {
            names.add("mean");
            if (level != Level.BASIC) {
                names.add("stddev");
            }
            if (level == Level.FULL) {
                names.addAll(QUARTILES);
            }
        }
        return names;
    }

    static String alias(int index, String stat) {
        return "c" + index + "_" + stat;
    }

    private static String sql(SqlWriter writer, TableDescription table, List<Target> targets, Level level) {
        StringBuilder sql = new StringBuilder("SELECT count(*) AS row_count");
        for (int i = 0; i < targets.size(); i++) {
            Target target = targets.get(i);
            String c = writer.quote(target.column().name());
            for (String stat : statNames(target, level)) {
                String expr = switch (stat) {
                    case "count" -> "count(" + c + ")";
                    case "distinct" -> "count(DISTINCT " + c + ")";
                    case "min" -> "min(" + c + ")";
                    case "max" -> "max(" + c + ")";
                    case "mean" -> "avg(" + c + ")";
                    case "stddev" -> "stddev_samp(" + c + ")";
                    default -> writer.quantile(c, FRACTIONS.get(QUARTILES.indexOf(stat)));
                };
                sql.append(", ").append(expr).append(" AS ").append(alias(i, stat));
            }
        }
        return sql.append(" FROM ").append(writer.table(table.table())).toString();
    }
}
