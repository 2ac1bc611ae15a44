package dev.sqlguard.app.tools.internal;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.sqlguard.app.internal.json.JsonParams;
import dev.sqlguard.app.internal.json.ToolResultJson;
import dev.sqlguard.app.tools.AgentSource;
import dev.sqlguard.app.tools.ChartOutput;
import dev.sqlguard.app.tools.ToolOutcome;
import dev.sqlguard.domain.LimitKind;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.ports.TableDescription;
import dev.sqlguard.ports.TableDescription.ColumnDescription;

/**
 * {@code plot_chart}: builds one aggregate query from a {@link ChartSpec} (catalog names only,
 * quoted; filter values bound as parameters), runs it on the guarded path, renders a PNG and a
 * Vega-Lite specification from the rows.
 */
public final class PlotChartTool extends Tool {
    public static final String NAME = "plot_chart";
    static final int MAX_FILTERS = 5;

    private final ToolContext context;
    private final Path directory;

    public PlotChartTool(ToolContext context, Path directory) {
        super(NAME, "Draws a bar, line, scatter or pie chart of one table from a structured specification (x, y, aggregation,"
                + " optional series and filters). Returns the aggregated rows it plotted.", schema(context), true);
        this.context = context;
        this.directory = directory;
    }

    private static ArgSchema.Obj schema(ToolContext context) {
        ArgSchema.Str name = ArgSchema.Str.of("A column name.", 256);
        Map<String, ArgSchema> filter = new LinkedHashMap<>();
        filter.put("column", name);
        filter.put("op", ArgSchema.Str.oneOf("The comparison.", ChartSpec.OPERATORS));
        filter.put("value", new ArgSchema.Scalar("The value compared with; dates as YYYY-MM-DD. Bound as a parameter."));
        Map<String, ArgSchema> chart = new LinkedHashMap<>();
        chart.put("type", ArgSchema.Str.oneOf("The kind of chart.", List.of("bar", "line", "scatter", "pie")));
        chart.put("table", ArgSchema.Str.of("An allowlisted table.", 256));
        chart.put("x", ArgSchema.Str.of("The column on the horizontal axis (pie: the slice labels).", 256));
        chart.put("y", ArgSchema.Str.of("The measured column; omit it for aggregation 'count'.", 256));
        chart.put("aggregation", ArgSchema.Str.oneOf("How y is aggregated per x (and series); 'none' plots rows as they are.",
                List.of("count", "sum", "avg", "min", "max", "none")));
        chart.put("series", ArgSchema.Str.of("An optional column splitting the data into series (not for pie).", 256));
        chart.put("filter", new ArgSchema.Arr("Optional conditions, all of which must hold.",
                new ArgSchema.Obj("column op value", filter, Set.of("column", "op", "value")), MAX_FILTERS, false));
        chart.put("title", ArgSchema.Str.of("An optional chart title.", 200));
        chart.put("bucket", ArgSchema.Str.oneOf("Optional: group a DATE or TIMESTAMP x into days, weeks (from Monday), months or"
                + " years, for time series with many points; needs an aggregation other than 'none'.", DateBucket.WIRE_NAMES));
        Map<String, ArgSchema> props = new LinkedHashMap<>();
        props.put("source", ArgSchema.Str.sourceId("The data source.", context.sourceIds()));
        props.put("chart", new ArgSchema.Obj("The chart specification.", chart, Set.of("type", "table", "x", "aggregation")));
        return new ArgSchema.Obj("", props, Set.of("source", "chart"));
    }

    @Override
    public ToolOutcome call(JsonNode arguments) {
        AgentSource source = context.source(arguments.get("source").textValue());
        SqlWriter writer = new SqlWriter(source.dialect());
        JsonNode c = arguments.get("chart");
        TableDescription table = context.table(source, c.get("table").textValue());
        ColumnDescription x = context.column(table, c.get("x").textValue());
        Optional<ColumnDescription> y = ArgSchema.Obj.text(c, "y").map(n -> context.column(table, n));
        Optional<ColumnDescription> series = ArgSchema.Obj.text(c, "series").map(n -> context.column(table, n));
        ChartSpec.Aggregation aggregation = ChartSpec.Aggregation.valueOf(c.get("aggregation").textValue().toUpperCase(Locale.ROOT));
        List<ChartSpec.Filter> filters = new ArrayList<>();
        JsonNode filterNode = c.get("filter");
        if (filterNode != null) {
            for (JsonNode f : filterNode) {
                ColumnDescription column = context.column(table, f.get("column").textValue());
                filters.add(new ChartSpec.Filter(column.name(), f.get("op").textValue(), bind(column, f.get("value"))));
            }
        }
        ChartSpec spec = new ChartSpec(ChartSpec.Type.valueOf(c.get("type").textValue().toUpperCase(Locale.ROOT)),
                table.table().qualifiedName(), x.name(), y.map(ColumnDescription::name), aggregation,
                series.map(ColumnDescription::name), filters, ArgSchema.Obj.text(c, "title"),
                ArgSchema.Obj.text(c, "bucket").map(DateBucket::fromWire));
        ColumnKind xKind = ColumnKind.of(x.type());
        if (spec.bucket().isPresent() && !dateOrTimestamp(x)) {
            throw new ArgSchema.InvalidArgumentException("chart.bucket needs a DATE or TIMESTAMP column as chart.x.");
        }
        if (spec.type() == ChartSpec.Type.SCATTER && xKind != ColumnKind.NUMERIC && xKind != ColumnKind.TEMPORAL) {
            throw new ArgSchema.InvalidArgumentException("A scatter chart needs a numeric or date column as chart.x.");
        }
        if (y.isPresent() && aggregation != ChartSpec.Aggregation.COUNT && aggregation != ChartSpec.Aggregation.MIN
                && aggregation != ChartSpec.Aggregation.MAX && ColumnKind.of(y.get().type()) != ColumnKind.NUMERIC) {
            throw new ArgSchema.InvalidArgumentException("chart.y must be a numeric column for aggregation '"
                    + aggregation.wireName() + "'.");
        }
        List<Object> params = new ArrayList<>();
        String sql = sql(writer, table, spec, params);
        ToolResult result = context.run(source, sql, params);
        if (result.error().isPresent()) {
            return ToolContext.outcome(NAME, result);
        }
        List<ChartRenderer.Point> points = new ArrayList<>();
        int skipped = 0;
        int seriesIndex = spec.series().isPresent() ? 1 : -1;
        int yIndex = seriesIndex < 0 ? 1 : 2;
        boolean weighted = weighted(spec);
        for (List<Object> row : result.rows()) {
            Object value = row.get(yIndex);
            if (!(value instanceof Number)) {
                skipped++;
                continue;
            }
            Object s = seriesIndex < 0 ? null : row.get(seriesIndex);
            long weight = weighted && row.get(yIndex + 1) instanceof Number n ? n.longValue() : 1;
            points.add(new ChartRenderer.Point(row.get(0), s, new BigDecimal(value.toString()), weight));
        }
        Optional<ChartData.Cut> cut = result.truncated()
                ? Optional.of(new ChartData.Cut(result.returnedCount(), result.limitsHit().stream().map(LimitKind::wireName).toList()))
                : Optional.empty();
        ChartData data = ChartData.of(spec, xKind, points, cut);
        List<String> notes = new ArrayList<>(data.notes());
        if (skipped > 0) {
            notes.add(skipped + " rows without a numeric value were left out.");
        }
        if (!ChartFonts.installed().canDrawAll(data.texts())) {
            notes.add(ChartFonts.MISSING_GLYPHS);
        }
        Optional<Path> png = ChartRenderer.png(data, directory);
        if (png.isEmpty()) {
            notes.add("The PNG could not be rendered; the Vega-Lite specification is still available.");
        }
        ObjectNode vega = ChartRenderer.vegaLite(data);
        ChartOutput chart = new ChartOutput(png, AgentJson.write(vega), notes);
        ObjectNode out = AgentJson.NODES.objectNode();
        out.put("status", result.status().name());
        ObjectNode summary = out.putObject("chart");
        summary.put("type", spec.type().wireName());
        summary.put("title", spec.displayTitle());
        summary.put("points", points.size());
        summary.put("rendered", png.isPresent());
        ArrayNode noteArray = summary.putArray("notes");
        notes.forEach(noteArray::add);
        out.set("query", ToolResultJson.toNode(result));
        List<Object> evidence = ToolContext.shownValues(result);
        evidence.add((long) points.size());
        evidence.addAll(data.shownCounts());
        return new ToolOutcome(NAME, result.status(), AgentJson.write(out), List.of(result), evidence, Optional.of(chart),
                Optional.empty(), Optional.empty());
    }

    /**
     * The SQL of a chart; only catalog names (quoted), {@code ?} placeholders and the fixed text of
     * aggregates and date buckets reach the text.
     */
    static String sql(SqlWriter writer, TableDescription table, ChartSpec spec, List<Object> params) {
        String column = writer.quote(spec.x());
        String x = spec.bucket().map(b -> b.sql(writer, column)).orElse(column);
        Optional<String> series = spec.series().map(writer::quote);
        String yExpr = switch (spec.aggregation()) {
            case COUNT -> "count(*)";
            case NONE -> writer.quote(spec.y().orElseThrow());
            default -> spec.aggregation().wireName() + "(" + writer.quote(spec.y().orElseThrow()) + ")";
        };
        StringBuilder sql = new StringBuilder("SELECT ").append(x).append(" AS chart_x");
        series.ifPresent(s -> sql.append(", ").append(s).append(" AS chart_series"));
        sql.append(", ").append(yExpr).append(" AS chart_y");
        if (weighted(spec)) {
            sql.append(", count(").append(writer.quote(spec.y().orElseThrow())).append(") AS chart_n");
        }
        sql.append(" FROM ").append(writer.table(table.table()));
        for (int i = 0; i < spec.filters().size(); i++) {
            ChartSpec.Filter f = spec.filters().get(i);
            sql.append(i == 0 ? " WHERE " : " AND ").append(writer.quote(f.column())).append(' ').append(f.op()).append(" ?");
            params.add(f.value());
        }
        if (spec.aggregation() != ChartSpec.Aggregation.NONE) {
            sql.append(" GROUP BY ").append(x).append(series.map(s -> ", " + s).orElse(""));
        }
        sql.append(" ORDER BY ").append(x);
        series.ifPresent(s -> sql.append(", ").append(s));
        return sql.toString();
    }

    /**
     * Whether the query also counts the rows behind each average ({@code chart_n}): a bar or pie chart
     * combines the categories beyond its top {@value ChartData#TOP_N}, and averages combine by rows.
     */
    private static boolean weighted(ChartSpec spec) {
        return spec.aggregation() == ChartSpec.Aggregation.AVG
                && (spec.type() == ChartSpec.Type.BAR || spec.type() == ChartSpec.Type.PIE);
    }

    /** Whether a column holds dates or date-times (not times of day or years alone). */
    private static boolean dateOrTimestamp(ColumnDescription column) {
        String type = column.type().toUpperCase(Locale.ROOT);
        return ColumnKind.of(column.type()) == ColumnKind.TEMPORAL && (type.startsWith("DATE") || type.startsWith("TIMESTAMP"));
    }

    /** A filter value typed by its column: ISO dates and timestamps for temporal columns. */
    private static Object bind(ColumnDescription column, JsonNode value) {
        if (value.isNull()) {
            throw new ArgSchema.InvalidArgumentException("A filter value must not be null.");
        }
        Object plain = JsonParams.scalar(value);
        if (plain instanceof String text && ColumnKind.of(column.type()) == ColumnKind.TEMPORAL) {
            String type = column.type().toUpperCase(Locale.ROOT);
            try {
                return type.startsWith("DATE") && !type.startsWith("DATETIME") ? LocalDate.parse(text) : LocalDateTime.parse(text);
            } catch (DateTimeParseException e) {
                throw new ArgSchema.InvalidArgumentException("A filter value for " + dev.sqlguard.domain.SafeText.identifier(column.name())
                        + " must be an ISO date (YYYY-MM-DD) or timestamp (YYYY-MM-DDTHH:MM:SS).");
            }
        }
        return plain;
    }
}
