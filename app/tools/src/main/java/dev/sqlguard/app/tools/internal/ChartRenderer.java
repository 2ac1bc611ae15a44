package dev.sqlguard.app.tools.internal;

import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItem;
import org.jfree.chart.LegendItemCollection;
import org.jfree.chart.LegendItemSource;
import org.jfree.chart.axis.Axis;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PiePlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.general.DefaultPieDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import dev.sqlguard.app.internal.json.ToolResultJson;

/** Draws a {@link ChartData} as a PNG headless with JFreeChart, and as the matching Vega-Lite v5 specification. */
public final class ChartRenderer {
    private static final Logger LOG = LoggerFactory.getLogger(ChartRenderer.class);
    static final int WIDTH = 800;
    static final int HEIGHT = 500;
    /** The colour of the NULL and empty markers. */
    static final Color MARKER = new Color(0x6E, 0x6E, 0x6E);
    private static final Font SUBTITLE_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 12);

    /**
     * One row of the chart query: x and series as returned (null is SQL NULL; series is null too
     * when the chart has no series column), y (rows whose y is not a number are skipped), and the
     * rows behind an average (1 for other aggregations), so that averages can be combined.
     */
    public record Point(Object x, Object series, BigDecimal y, long weight) {
        public Point(Object x, Object series, BigDecimal y) {
            this(x, series, y, 1);
        }
    }

    private ChartRenderer() {
    }

    /**
     * Renders the chart into a new file in {@code directory}.
     *
     * @return the file, or empty when rendering failed (the reason is logged, not shown)
     */
    public static Optional<Path> png(ChartData data, Path directory) {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        try {
            JFreeChart chart = chart(data);
            Files.createDirectories(directory);
            Path file = directory.resolve("chart-" + UUID.randomUUID().toString().substring(0, 8) + ".png");
            ChartUtils.saveChartAsPNG(file.toFile(), chart, WIDTH, HEIGHT);
            return Optional.of(file);
        } catch (IOException | RuntimeException | LinkageError e) {
            LOG.debug("chart rendering failed", e);
            return Optional.empty();
        }
    }

    static JFreeChart chart(ChartData data) {
        JFreeChart chart = plain(data);
        ChartStyle.apply(chart);
        for (String subtitle : data.subtitles()) {
            chart.addSubtitle(new TextTitle(subtitle, SUBTITLE_FONT));
        }
        compactNumbers(chart);
        if (chart.getPlot() instanceof CategoryPlot plot) {
            markCategories(plot.getDomainAxis(), data);
        }
        if (!data.legend() && data.spec().type() != ChartSpec.Type.PIE) {
            chart.removeLegend();
        }
        ChartFonts fonts = ChartFonts.installed();
        fitFonts(chart, fonts);
        if (chart.getLegend() != null) {
            legendItems(chart, fonts);
        }
        return chart;
    }

    /** Titles, axis labels and category labels get a font that can draw them (see {@link ChartFonts}). */
    private static void fitFonts(JFreeChart chart, ChartFonts fonts) {
        List<TextTitle> titles = new ArrayList<>();
        if (chart.getTitle() != null) {
            titles.add(chart.getTitle());
        }
        for (int i = 0; i < chart.getSubtitleCount(); i++) {
            if (chart.getSubtitle(i) instanceof TextTitle title) {
                titles.add(title);
            }
        }
        titles.forEach(t -> t.setFont(fonts.forText(t.getFont(), t.getText())));
        if (chart.getPlot() instanceof CategoryPlot plot) {
            CategoryAxis domain = plot.getDomainAxis();
            for (Object key : plot.getDataset().getColumnKeys()) {
                Comparable<?> category = (Comparable<?>) key;
                domain.setTickLabelFont(category, fonts.forText(domain.getTickLabelFont(category), category.toString()));
            }
        } else if (chart.getPlot() instanceof PiePlot<?> plot) {
            StringBuilder labels = new StringBuilder();
            plot.getDataset().getKeys().forEach(labels::append);
            plot.setLabelFont(fonts.forText(plot.getLabelFont(), labels.toString()));
        }
        for (Axis axis : axes(chart)) {
            if (axis.getLabel() != null) {
                axis.setLabelFont(fonts.forText(axis.getLabelFont(), axis.getLabel()));
            }
        }
    }

    /** Every number axis labels its ticks 950, 2.5k, 220M, never 2.2E8. */
    private static void compactNumbers(JFreeChart chart) {
        for (Axis axis : axes(chart)) {
            if (axis instanceof NumberAxis number) {
                number.setNumberFormatOverride(ChartAxes.COMPACT);
            }
        }
    }

    /** The domain and range axes of a category or XY plot; none for a pie. */
    private static List<Axis> axes(JFreeChart chart) {
        if (chart.getPlot() instanceof CategoryPlot plot) {
            return List.of(plot.getDomainAxis(), plot.getRangeAxis());
        }
        if (chart.getPlot() instanceof XYPlot plot) {
            return List.of(plot.getDomainAxis(), plot.getRangeAxis());
        }
        return List.of();
    }

    /** NULL and empty categories are drawn in grey italics, apart from any text a cell could hold. */
    private static void markCategories(CategoryAxis axis, ChartData data) {
        Font italic = axis.getTickLabelFont().deriveFont(Font.ITALIC);
        for (ChartData.Mark mark : data.marks()) {
            if (mark.category().marker()) {
                axis.setTickLabelFont(mark.category(), italic);
                axis.setTickLabelPaint(mark.category(), MARKER);
            }
        }
    }

    /**
     * Legend items get a font that can draw them; NULL and empty series (pie: slices) are drawn in
     * grey italics.
     */
    private static void legendItems(JFreeChart chart, ChartFonts fonts) {
        LegendTitle legend = chart.getLegend();
        LegendItemCollection items = new LegendItemCollection();
        LegendItemCollection drawn = chart.getPlot().getLegendItems();
        for (int i = 0; i < drawn.getItemCount(); i++) {
            LegendItem item = drawn.get(i);
            Font font = item.getLabelFont() != null ? item.getLabelFont() : legend.getItemFont();
            if (item.getSeriesKey() instanceof ChartData.Key key && key.marker()) {
                font = font.deriveFont(Font.ITALIC);
                item.setLabelPaint(MARKER);
            }
            item.setLabelFont(fonts.forText(font, item.getLabel()));
            items.add(item);
        }
        legend.setSources(new LegendItemSource[] {() -> items});
    }

    private static JFreeChart plain(ChartData data) {
        ChartSpec spec = data.spec();
        String title = spec.displayTitle();
        String yLabel = spec.yLabel();
        String xLabel = spec.xLabel();
        boolean temporalX = data.xKind() == ColumnKind.TEMPORAL;
        boolean numericX = data.xKind() == ColumnKind.NUMERIC || temporalX;
        switch (spec.type()) {
            case PIE -> {
                DefaultPieDataset<ChartData.Key> pie = new DefaultPieDataset<>();
                for (ChartData.Mark m : data.marks()) {
                    pie.setValue(m.category(), m.y());
                }
                return ChartFactory.createPieChart(title, pie);
            }
            case SCATTER -> {
                return withDateAxis(ChartFactory.createScatterPlot(title, xLabel, yLabel, xy(data, temporalX)), spec, temporalX);
            }
            case LINE -> {
                if (numericX) {
                    return withDateAxis(ChartFactory.createXYLineChart(title, xLabel, yLabel, xy(data, temporalX)), spec, temporalX);
                }
                return ChartFactory.createLineChart(title, xLabel, yLabel, category(data));
            }
            default -> {
                return ChartFactory.createBarChart(title, xLabel, yLabel, category(data));
            }
        }
    }

    /** A DATE or TIMESTAMP x axis shows dates, not the milliseconds the points are placed at. */
    private static JFreeChart withDateAxis(JFreeChart chart, ChartSpec spec, boolean temporalX) {
        if (temporalX) {
            chart.getXYPlot().setDomainAxis(ChartAxes.dateAxis(spec.xLabel(), spec.bucket()));
        }
        return chart;
    }

    private static DefaultCategoryDataset category(ChartData data) {
        DefaultCategoryDataset dataset = new DefaultCategoryDataset();
        for (ChartData.Mark m : data.marks()) {
            dataset.addValue(m.y(), m.series(), m.category());
        }
        return dataset;
    }

    private static XYSeriesCollection xy(ChartData data, boolean temporalX) {
        Map<ChartData.Key, XYSeries> series = new LinkedHashMap<>();
        for (ChartData.Mark m : data.marks()) {
            Double x = ChartAxes.position(m.x(), temporalX);
            if (x == null) {
                continue;
            }
            series.computeIfAbsent(m.series(), k -> new XYSeries(k, true, true)).add(x, m.y());
        }
        XYSeriesCollection dataset = new XYSeriesCollection();
        series.values().forEach(dataset::addSeries);
        return dataset;
    }

    /** A Vega-Lite v5 specification with the marks inlined. */
    public static ObjectNode vegaLite(ChartData data) {
        ChartSpec spec = data.spec();
        ColumnKind xKind = data.xKind();
        ObjectNode root = AgentJson.NODES.objectNode();
        root.put("$schema", "https://vega.github.io/schema/vega-lite/v5.json");
        if (data.subtitles().isEmpty()) {
            root.put("title", spec.displayTitle());
        } else {
            ObjectNode title = root.putObject("title").put("text", spec.displayTitle());
            ArrayNode subtitle = title.putArray("subtitle");
            data.subtitles().forEach(subtitle::add);
        }
        String yField = spec.valueField();
        String seriesField = spec.series().orElse("series");
        ArrayNode values = root.putObject("data").putArray("values");
        for (ChartData.Mark m : data.marks()) {
            ObjectNode v = values.addObject();
            // the combined rest, and a bucket of a bar or pie chart, are data as the PNG labels them
            boolean asLabel = m.category().kind() == ChartData.Kind.OTHER || (spec.bucket().isPresent() && categoryX(data));
            v.set(spec.x(), asLabel ? AgentJson.NODES.textNode(m.category().text()) : ToolResultJson.cell(m.x()));
            if (spec.series().isPresent()) {
                v.set(seriesField, vegaValue(m.series()));
            }
            v.put(yField, m.y());
        }
        ObjectNode encoding = AgentJson.NODES.objectNode();
        switch (spec.type()) {
            case PIE -> {
                root.putObject("mark").put("type", "arc");
                encoding.putObject("theta").put("field", vegaField(yField)).put("type", "quantitative").put("title", spec.yLabel());
                markLabels(encoding.putObject("color").put("field", vegaField(spec.x())).put("type", "nominal").put("title", spec.xLabel()),
                        "legend", data);
            }
            default -> {
                root.putObject("mark").put("type", switch (spec.type()) {
                    case LINE -> "line";
                    case SCATTER -> "point";
                    default -> "bar";
                });
                boolean categories = categoryX(data);
                ObjectNode x = encoding.putObject("x").put("field", vegaField(spec.x())).put("title", spec.xLabel());
                if (categories) {
                    // discrete, in the order the PNG draws them (a top N is largest first)
                    x.put("type", xKind == ColumnKind.NUMERIC || xKind == ColumnKind.TEMPORAL ? "ordinal" : "nominal");
                    x.putNull("sort");
                } else {
                    x.put("type", xKind == ColumnKind.TEMPORAL ? "temporal" : "quantitative");
                }
                if (x.path("type").asText().equals("temporal")) {
                    x.putObject("scale").put("type", "utc");
                    spec.bucket().ifPresent(b -> x.putObject("axis").put("format", b.vegaFormat()));
                }
                if (x.path("type").asText().equals("quantitative")) {
                    x.putObject("axis").put("labelExpr", ChartAxes.COMPACT_VEGA_EXPR);
                } else {
                    markLabels(x, "axis", data);
                }
                encoding.putObject("y").put("field", vegaField(yField)).put("type", "quantitative").put("title", spec.yLabel())
                        .putObject("axis").put("labelExpr", ChartAxes.COMPACT_VEGA_EXPR);
                if (spec.series().isPresent() && spec.type() == ChartSpec.Type.BAR) {
                    // the PNG draws a category's series side by side; without xOffset Vega-Lite stacks them
                    encoding.putObject("xOffset").put("field", vegaField(seriesField)).put("type", "nominal").putNull("sort");
                }
                if (spec.series().isPresent()) {
                    markLabels(encoding.putObject("color").put("field", vegaField(seriesField)).put("type", "nominal")
                            .put("title", spec.seriesLabel().orElseThrow()), "legend", data);
                }
            }
        }
        root.set("encoding", encoding);
        return root;
    }

    /** Whether the x axis is a category axis (bar and pie charts, line charts of text). */
    private static boolean categoryX(ChartData data) {
        ChartSpec.Type type = data.spec().type();
        boolean ordered = data.xKind() == ColumnKind.NUMERIC || data.xKind() == ColumnKind.TEMPORAL;
        return type == ChartSpec.Type.BAR || type == ChartSpec.Type.PIE || (type == ChartSpec.Type.LINE && !ordered);
    }

    /** A field reference: Vega-Lite reads dots and brackets in a field name as nested access unless escaped. */
    static String vegaField(String name) {
        return name.replace("\\", "\\\\").replace(".", "\\.").replace("[", "\\[").replace("]", "\\]");
    }

    /** A series key as data: SQL NULL stays null, empty text stays empty. */
    private static JsonNode vegaValue(ChartData.Key key) {
        return switch (key.kind()) {
            case NULL -> AgentJson.NODES.nullNode();
            case EMPTY -> AgentJson.NODES.textNode("");
            default -> AgentJson.NODES.textNode(key.text());
        };
    }

    /**
     * Labels null and empty values as the PNG does: {@code (NULL)}, {@code (empty)}; on an axis also in
     * grey italics (a legend takes no per-label style).
     */
    private static void markLabels(ObjectNode channel, String guide, ChartData data) {
        if (!data.hasMarkers()) {
            return;
        }
        ObjectNode g = channel.putObject(guide);
        g.put("labelExpr", "datum.value === null ? '(NULL)' : datum.value === '' ? '(empty)' : datum.label");
        if (guide.equals("axis")) {
            String isMarker = "datum.value === null || datum.value === ''"
                    + data.other().map(o -> " || datum.value === '" + o.text() + "'").orElse("");
            g.putObject("labelFontStyle").put("value", "normal").putObject("condition").put("test", isMarker).put("value", "italic");
            g.putObject("labelColor").put("value", "black").putObject("condition").put("test", isMarker)
                    .put("value", String.format("#%06X", MARKER.getRGB() & 0xFFFFFF));
        }
    }
}
