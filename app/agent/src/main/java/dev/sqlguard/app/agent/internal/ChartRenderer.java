package dev.sqlguard.app.agent.internal;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.Axis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.general.DefaultPieDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import dev.sqlguard.app.internal.json.ToolResultJson;

/** Draws a PNG headless with JFreeChart and writes the matching Vega-Lite v5 specification. */
public final class ChartRenderer {
    private static final Logger LOG = Logger.getLogger(ChartRenderer.class.getName());
    static final int WIDTH = 800;
    static final int HEIGHT = 500;

    /** One data point: x, optional series, y (a number; rows whose y is not a number are skipped). */
    public record Point(Object x, Optional<String> series, BigDecimal y) {
    }

    private ChartRenderer() {
    }

    /**
     * Renders the chart into a new file in {@code directory}.
     *
     * @return the file, or empty when rendering failed (the reason is logged, not shown)
     */
    public static Optional<Path> png(ChartSpec spec, ColumnKind xKind, List<Point> points, Path directory) {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        try {
            JFreeChart chart = chart(spec, xKind, points);
            Files.createDirectories(directory);
            Path file = directory.resolve("chart-" + UUID.randomUUID().toString().substring(0, 8) + ".png");
            ChartUtils.saveChartAsPNG(file.toFile(), chart, WIDTH, HEIGHT);
            return Optional.of(file);
        } catch (IOException | RuntimeException | LinkageError e) {
            LOG.log(Level.FINE, "chart rendering failed", e);
            return Optional.empty();
        }
    }

    static JFreeChart chart(ChartSpec spec, ColumnKind xKind, List<Point> points) {
        JFreeChart chart = plain(spec, xKind, points);
        compactNumbers(chart);
        if (points.stream().map(Point::series).distinct().count() < 2 && spec.type() != ChartSpec.Type.PIE) {
            chart.removeLegend();
        }
        return chart;
    }

    /** Every number axis labels its ticks 950, 2.5k, 220M, never 2.2E8. */
    private static void compactNumbers(JFreeChart chart) {
        List<Axis> axes = new ArrayList<>();
        if (chart.getPlot() instanceof CategoryPlot plot) {
            axes.add(plot.getRangeAxis());
        } else if (chart.getPlot() instanceof XYPlot plot) {
            axes.add(plot.getDomainAxis());
            axes.add(plot.getRangeAxis());
        }
        for (Axis axis : axes) {
            if (axis instanceof NumberAxis number) {
                number.setNumberFormatOverride(ChartAxes.COMPACT);
            }
        }
    }

    private static JFreeChart plain(ChartSpec spec, ColumnKind xKind, List<Point> points) {
        String title = spec.displayTitle();
        String yLabel = spec.yLabel();
        String xLabel = spec.xLabel();
        boolean temporalX = xKind == ColumnKind.TEMPORAL;
        boolean numericX = xKind == ColumnKind.NUMERIC || temporalX;
        switch (spec.type()) {
            case PIE -> {
                DefaultPieDataset<String> data = new DefaultPieDataset<>();
                for (Point p : points) {
                    data.setValue(String.valueOf(p.x()), p.y());
                }
                return ChartFactory.createPieChart(title, data);
            }
            case SCATTER -> {
                return withDateAxis(ChartFactory.createScatterPlot(title, xLabel, yLabel, xy(points, yLabel, temporalX)),
                        spec, temporalX);
            }
            case LINE -> {
                if (numericX) {
                    return withDateAxis(ChartFactory.createXYLineChart(title, xLabel, yLabel, xy(points, yLabel, temporalX)),
                            spec, temporalX);
                }
                return ChartFactory.createLineChart(title, xLabel, yLabel, category(points, yLabel));
            }
            default -> {
                return ChartFactory.createBarChart(title, xLabel, yLabel, category(points, yLabel));
            }
        }
    }

    /** A DATE or TIMESTAMP x axis shows dates, not the milliseconds the points are placed at. */
    private static JFreeChart withDateAxis(JFreeChart chart, ChartSpec spec, boolean temporalX) {
        if (temporalX) {
            chart.getXYPlot().setDomainAxis(ChartAxes.dateAxis(spec.xLabel()));
        }
        return chart;
    }

    private static DefaultCategoryDataset category(List<Point> points, String yLabel) {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        for (Point p : points) {
            data.addValue(p.y(), p.series().orElse(yLabel), String.valueOf(p.x()));
        }
        return data;
    }

    private static XYSeriesCollection xy(List<Point> points, String yLabel, boolean temporalX) {
        java.util.Map<String, XYSeries> series = new java.util.LinkedHashMap<>();
        for (Point p : points) {
            Double x = ChartAxes.position(p.x(), temporalX);
            if (x == null) {
                continue;
            }
            series.computeIfAbsent(p.series().orElse(yLabel), k -> new XYSeries(k, true, true)).add(x, p.y());
        }
        XYSeriesCollection data = new XYSeriesCollection();
        series.values().forEach(data::addSeries);
        return data;
    }

    /** A Vega-Lite v5 specification with the points inlined. */
    public static ObjectNode vegaLite(ChartSpec spec, ColumnKind xKind, List<Point> points) {
        ObjectNode root = AgentJson.NODES.objectNode();
        root.put("$schema", "https://vega.github.io/schema/vega-lite/v5.json");
        root.put("title", spec.displayTitle());
        String yField = spec.valueField();
        String seriesField = spec.series().orElse("series");
        ArrayNode values = root.putObject("data").putArray("values");
        for (Point p : points) {
            ObjectNode v = values.addObject();
            v.set(spec.x(), ToolResultJson.cell(p.x()));
            p.series().ifPresent(s -> v.put(seriesField, s));
            v.put(yField, p.y());
        }
        String xType = switch (xKind) {
            case NUMERIC -> "quantitative";
            case TEMPORAL -> "temporal";
            default -> "nominal";
        };
        ObjectNode encoding = AgentJson.NODES.objectNode();
        switch (spec.type()) {
            case PIE -> {
                root.putObject("mark").put("type", "arc");
                encoding.putObject("theta").put("field", yField).put("type", "quantitative").put("title", spec.yLabel());
                encoding.putObject("color").put("field", spec.x()).put("type", "nominal").put("title", spec.xLabel());
            }
            default -> {
                root.putObject("mark").put("type", switch (spec.type()) {
                    case LINE -> "line";
                    case SCATTER -> "point";
                    default -> "bar";
                });
                ObjectNode x = encoding.putObject("x").put("field", spec.x()).put("type", spec.type() == ChartSpec.Type.SCATTER
                        && xKind != ColumnKind.TEMPORAL ? "quantitative" : xType).put("title", spec.xLabel());
                if (xKind == ColumnKind.TEMPORAL) {
                    x.putObject("scale").put("type", "utc");
                }
                if (x.path("type").asText().equals("quantitative")) {
                    x.putObject("axis").put("labelExpr", ChartAxes.COMPACT_VEGA_EXPR);
                }
                encoding.putObject("y").put("field", yField).put("type", "quantitative").put("title", spec.yLabel())
                        .putObject("axis").put("labelExpr", ChartAxes.COMPACT_VEGA_EXPR);
                if (spec.series().isPresent()) {
                    encoding.putObject("color").put("field", seriesField).put("type", "nominal")
                            .put("title", spec.seriesLabel().orElseThrow());
                }
            }
        }
        root.set("encoding", encoding);
        return root;
    }
}
