package dev.sqlguard.app.tools.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.GraphicsEnvironment;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

import org.jfree.chart.ChartRenderingInfo;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItem;
import org.jfree.chart.LegendItemCollection;
import org.jfree.chart.axis.AxisState;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.DateAxis;
import org.jfree.chart.axis.Tick;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.StackedBarRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.data.category.CategoryDataset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The chart model plot_chart builds: axes, tick labels, legends, category labels, subtitles. */
class ChartRendererTest {

    private static ChartSpec spec(ChartSpec.Type type, String x, String y, ChartSpec.Aggregation aggregation) {
        return new ChartSpec(type, "claims", x, Optional.of(y), aggregation, Optional.empty(), List.of(), Optional.empty());
    }

    private static ChartRenderer.Point point(Object x, long y) {
        return new ChartRenderer.Point(x, null, BigDecimal.valueOf(y));
    }

    private static JFreeChart chart(ChartSpec spec, ColumnKind xKind, List<ChartRenderer.Point> points) {
        return ChartRenderer.chart(ChartData.of(spec, xKind, points));
    }

    private static JsonNode vegaLite(ChartSpec spec, ColumnKind xKind, List<ChartRenderer.Point> points) {
        return ChartRenderer.vegaLite(ChartData.of(spec, xKind, points));
    }

    /** The tick labels JFreeChart draws on {@code axis}, after laying the chart out at PNG size. */
    static List<String> tickLabels(JFreeChart chart, ValueAxis axis, RectangleEdge edge) {
        BufferedImage image = new BufferedImage(ChartRenderer.WIDTH, ChartRenderer.HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g2 = image.createGraphics();
        try {
            ChartRenderingInfo info = new ChartRenderingInfo();
            chart.draw(g2, new Rectangle2D.Double(0, 0, ChartRenderer.WIDTH, ChartRenderer.HEIGHT), info);
            List<String> labels = new ArrayList<>();
            for (Object tick : axis.refreshTicks(g2, new AxisState(), info.getPlotInfo().getDataArea(), edge)) {
                labels.add(((Tick) tick).getText());
            }
            return labels;
        } finally {
            g2.dispose();
        }
    }

    @Test
    void aDateXAxisIsADateAxisWithDateLabels() {
        List<ChartRenderer.Point> points = new ArrayList<>();
        for (int i = 0; i < 700; i += 7) {
            points.add(point(LocalDate.of(2023, 1, 1).plusDays(i).toString(), 100 + i));
        }
        JFreeChart chart = chart(spec(ChartSpec.Type.LINE, "created", "amount", ChartSpec.Aggregation.SUM),
                ColumnKind.TEMPORAL, points);

        XYPlot plot = chart.getXYPlot();
        assertThat(plot.getDomainAxis()).isInstanceOf(DateAxis.class);
        List<String> labels = tickLabels(chart, plot.getDomainAxis(), RectangleEdge.BOTTOM);
        assertThat(labels).isNotEmpty().allMatch(l -> l.matches("(19|20)\\d\\d(-\\d\\d(-\\d\\d)?)?"), "an ISO date, month or year");
        assertThat(labels).anyMatch(l -> l.startsWith("2023-")).anyMatch(l -> l.startsWith("2024-"));
        // the Vega-Lite spec reads the dates in UTC too, as the PNG does
        assertThat(vegaLite(spec(ChartSpec.Type.LINE, "created", "amount", ChartSpec.Aggregation.SUM),
                ColumnKind.TEMPORAL, points).at("/encoding/x/scale/type").asText()).isEqualTo("utc");
    }

    @ParameterizedTest
    @CsvSource({
        "2024-03-17, 1710633600000",
        "2024-03-17T10:30:00, 1710671400000",
        "2024-03-17T10:30:00.5, 1710671400500",
        "2024-03-17T11:30:00+01:00, 1710671400000",
        "2024-03-17T10:30:00Z, 1710671400000",
        "10:30:00, 37800000"
    })
    void temporalXValuesArePlacedAtTheirUtcInstant(String text, long millis) {
        assertThat(ChartAxes.position(text, true)).isEqualTo((double) millis);
        assertThat(ChartAxes.position("yesterday", true)).isNull();
        assertThat(ChartAxes.position(5L, false)).isEqualTo(5.0);
    }

    @Test
    void largeValuesAreLabelledWithCompactNumbersNotScientificNotation() {
        List<ChartRenderer.Point> points = List.of(point("north", 0), point("south", 120_000_000), point("east", 220_000_000));
        JFreeChart chart = chart(spec(ChartSpec.Type.BAR, "region", "amount", ChartSpec.Aggregation.SUM),
                ColumnKind.TEXT, points);

        ValueAxis range = chart.getCategoryPlot().getRangeAxis();
        List<String> labels = tickLabels(chart, range, RectangleEdge.LEFT);
        assertThat(labels).contains("0", "100M", "200M").noneMatch(l -> l.contains("E"));
        assertThat(vegaLite(spec(ChartSpec.Type.BAR, "region", "amount", ChartSpec.Aggregation.SUM),
                ColumnKind.TEXT, points).at("/encoding/y/axis/labelExpr").asText()).isEqualTo(ChartAxes.COMPACT_VEGA_EXPR)
                .contains("format(datum.value / 1e6, ',.2~f') + 'M'");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "0|0",
        "0.05|0.05",
        "0.30000000000000004|0.3",
        "999|999",
        "1000|1k",
        "2500|2.5k",
        "-2500|-2.5k",
        "1234.5|1.23k",
        "220000000|220M",
        "1050000000|1.05B",
        "3000000000000|3T"
    })
    void compactNumbers(double value, String text) {
        assertThat(ChartAxes.COMPACT.format(value)).isEqualTo(text);
    }

    @Test
    void axesAndTitleReadAsWordsAndASingleSeriesHasNoLegend() {
        ChartSpec spec = spec(ChartSpec.Type.BAR, "policy_type", "claim_amount", ChartSpec.Aggregation.AVG);
        JFreeChart chart = chart(spec, ColumnKind.TEXT, List.of(point("auto", 5), point("home", 7)));

        assertThat(chart.getTitle().getText()).isEqualTo("Average claim amount by policy type");
        assertThat(chart.getCategoryPlot().getDomainAxis().getLabel()).isEqualTo("Policy type");
        assertThat(chart.getCategoryPlot().getRangeAxis().getLabel()).isEqualTo("Average claim amount");
        assertThat(chart.getLegend()).isNull();
        JsonNode vega = vegaLite(spec, ColumnKind.TEXT, List.of(point("auto", 5), point("home", 7)));
        assertThat(vega.at("/encoding/x/title").asText()).isEqualTo("Policy type");
        assertThat(vega.at("/encoding/y/title").asText()).isEqualTo("Average claim amount");

        assertThat(new ChartSpec(ChartSpec.Type.LINE, "claims", "created", Optional.empty(), ChartSpec.Aggregation.COUNT,
                Optional.of("status"), List.of(), Optional.empty()).displayTitle()).isEqualTo("Number of rows by created and status");
        assertThat(spec(ChartSpec.Type.BAR, "region", "amount", ChartSpec.Aggregation.SUM).yLabel()).isEqualTo("Total amount");
        assertThat(spec(ChartSpec.Type.BAR, "region", "amount", ChartSpec.Aggregation.MIN).yLabel()).isEqualTo("Minimum amount");
        assertThat(spec(ChartSpec.Type.BAR, "region", "amount", ChartSpec.Aggregation.MAX).yLabel()).isEqualTo("Maximum amount");
        assertThat(spec(ChartSpec.Type.SCATTER, "id", "amount", ChartSpec.Aggregation.NONE).yLabel()).isEqualTo("Amount");
    }

    @Test
    void twoOrMoreSeriesHaveALegend() {
        ChartSpec spec = new ChartSpec(ChartSpec.Type.BAR, "claims", "region", Optional.of("amount"), ChartSpec.Aggregation.SUM,
                Optional.of("status"), List.of(), Optional.empty());
        List<ChartRenderer.Point> points = List.of(
                new ChartRenderer.Point("north", "OPEN", BigDecimal.ONE),
                new ChartRenderer.Point("north", "DENIED", BigDecimal.TEN));
        assertThat(chart(spec, ColumnKind.TEXT, points).getLegend()).isNotNull();
        assertThat(chart(spec, ColumnKind.TEXT, points.subList(0, 1)).getLegend()).isNull();
    }

    @Test
    void aNullCategoryIsMarkedApartFromTheTextNull() {
        ChartSpec spec = spec(ChartSpec.Type.BAR, "region", "amount", ChartSpec.Aggregation.SUM);
        List<ChartRenderer.Point> points = List.of(point(null, 3), point("null", 4), point("", 5), point("(NULL)", 6));
        JFreeChart chart = chart(spec, ColumnKind.TEXT, points);

        CategoryPlot plot = chart.getCategoryPlot();
        List<Comparable<?>> categories = new ArrayList<>();
        for (Object key : plot.getDataset().getColumnKeys()) {
            categories.add((Comparable<?>) key);
        }
        assertThat(categories).extracting(Object::toString).containsExactly("(NULL)", "null", "(empty)", "(NULL)");
        CategoryAxis axis = plot.getDomainAxis();
        Font plain = axis.getTickLabelFont(categories.get(1));
        assertThat(axis.getTickLabelFont(categories.get(0)).isItalic()).isTrue();
        assertThat(axis.getTickLabelFont(categories.get(2)).isItalic()).isTrue();
        assertThat(plain.isItalic()).isFalse();
        assertThat(axis.getTickLabelFont(categories.get(3))).isEqualTo(plain);
        assertThat(axis.getTickLabelPaint(categories.get(0))).isNotEqualTo(axis.getTickLabelPaint(categories.get(1)));

        JsonNode vega = vegaLite(spec, ColumnKind.TEXT, points);
        assertThat(vega.at("/data/values/0/region").isNull()).isTrue();
        assertThat(vega.at("/data/values/2/region").asText()).isEmpty();
        assertThat(vega.at("/encoding/x/axis/labelExpr").asText()).contains("datum.value === null ? '(NULL)'");
    }

    @Test
    void aNullSeriesOrSliceIsMarkedInTheLegend() {
        ChartSpec bars = new ChartSpec(ChartSpec.Type.BAR, "claims", "region", Optional.of("amount"), ChartSpec.Aggregation.SUM,
                Optional.of("status"), List.of(), Optional.empty());
        JFreeChart chart = chart(bars, ColumnKind.TEXT, List.of(
                new ChartRenderer.Point("north", null, BigDecimal.ONE), new ChartRenderer.Point("north", "null", BigDecimal.TEN)));
        assertThat(legendLabels(chart)).containsExactly("(NULL) italic", "null");
        assertThat(vegaLite(bars, ColumnKind.TEXT, List.of(new ChartRenderer.Point("north", null, BigDecimal.ONE)))
                .at("/encoding/color/legend/labelExpr").asText()).startsWith("datum.value === null ? '(NULL)'");

        JFreeChart pie = chart(spec(ChartSpec.Type.PIE, "region", "amount", ChartSpec.Aggregation.SUM), ColumnKind.TEXT,
                List.of(point("north", 1), point(null, 2)));
        assertThat(legendLabels(pie)).containsExactly("north", "(NULL) italic");
    }

    private static List<String> legendLabels(JFreeChart chart) {
        List<String> labels = new ArrayList<>();
        LegendItemCollection items = chart.getLegend().getSources()[0].getLegendItems();
        for (int i = 0; i < items.getItemCount(); i++) {
            LegendItem item = items.get(i);
            labels.add(item.getLabel() + (item.getLabelFont() != null && item.getLabelFont().isItalic() ? " italic" : ""));
        }
        return labels;
    }

    @Test
    void aBarChartOfManyCategoriesShowsTheTopTwentyAndOneOther() {
        List<ChartRenderer.Point> points = new ArrayList<>();
        for (int i = 1; i <= 1000; i++) {
            points.add(point("c" + i, i));
        }
        JFreeChart chart = chart(spec(ChartSpec.Type.BAR, "customer", "amount", ChartSpec.Aggregation.SUM), ColumnKind.TEXT, points);

        CategoryDataset dataset = chart.getCategoryPlot().getDataset();
        assertThat(dataset.getColumnCount()).isEqualTo(21);
        assertThat(dataset.getColumnKey(0).toString()).isEqualTo("c1000");
        assertThat(dataset.getColumnKey(19).toString()).isEqualTo("c981");
        assertThat(dataset.getColumnKey(20).toString()).isEqualTo("(980 others)");
        assertThat(dataset.getValue(0, 20).longValue()).isEqualTo(980L * 981 / 2);
        assertThat(chart.getCategoryPlot().getDomainAxis().getTickLabelFont(dataset.getColumnKey(20)).isItalic()).isTrue();
        assertThat(subtitles(chart)).containsExactly(
                "Top 20 of 1,000 customer values by total amount; the other 980 are combined in (980 others).");

        ChartData data = ChartData.of(spec(ChartSpec.Type.BAR, "customer", "amount", ChartSpec.Aggregation.SUM), ColumnKind.TEXT, points);
        assertThat(data.notes()).containsExactly("The chart shows the top 20 of 1,000 customer values by total amount; the other 980"
                + " are combined in one category, (980 others). A filter narrows the chart to the others.");
        assertThat(data.shownCounts()).containsExactly(20L, 1000L, 980L);
        JsonNode vega = ChartRenderer.vegaLite(data);
        assertThat(vega.at("/data/values")).hasSize(21);
        assertThat(vega.at("/data/values/20/customer").asText()).isEqualTo("(980 others)");
        assertThat(vega.at("/title/subtitle/0").asText()).startsWith("Top 20 of 1,000");
        assertThat(vega.at("/encoding/x/sort").isNull()).isTrue();
    }

    @Test
    void theRestIsCombinedAsTheAggregationCombinesRows() {
        List<ChartRenderer.Point> points = new ArrayList<>();
        for (int i = 1; i <= 25; i++) {
            // category i: average i over i rows, so the rest (1..5) averages (1*1 + 2*2 + ... + 5*5) / 15 = 55 / 15
            points.add(new ChartRenderer.Point("c" + i, null, BigDecimal.valueOf(i), i));
        }
        assertThat(other(ChartSpec.Aggregation.AVG, points)).isEqualByComparingTo(new BigDecimal("55").divide(new BigDecimal("15"),
                java.math.MathContext.DECIMAL64));
        assertThat(other(ChartSpec.Aggregation.MIN, points)).isEqualByComparingTo("1");
        assertThat(other(ChartSpec.Aggregation.MAX, points)).isEqualByComparingTo("5");
        assertThat(other(ChartSpec.Aggregation.COUNT, points)).isEqualByComparingTo("15");

        ChartData rows = ChartData.of(spec(ChartSpec.Type.BAR, "id", "amount", ChartSpec.Aggregation.NONE), ColumnKind.NUMERIC, points);
        assertThat(rows.marks()).hasSize(20);
        assertThat(rows.other()).isEmpty();
        assertThat(rows.subtitles()).containsExactly("Top 20 of 25 id values by amount; the other 5 are left out.");

        ChartData line = ChartData.of(spec(ChartSpec.Type.LINE, "id", "amount", ChartSpec.Aggregation.SUM), ColumnKind.NUMERIC, points);
        assertThat(line.marks()).hasSize(25);
        assertThat(line.subtitles()).isEmpty();
    }

    private static BigDecimal other(ChartSpec.Aggregation aggregation, List<ChartRenderer.Point> points) {
        ChartSpec spec = aggregation == ChartSpec.Aggregation.COUNT
                ? new ChartSpec(ChartSpec.Type.PIE, "claims", "c", Optional.empty(), aggregation, Optional.empty(), List.of(), Optional.empty())
                : spec(ChartSpec.Type.PIE, "c", "amount", aggregation);
        ChartData data = ChartData.of(spec, ColumnKind.TEXT, points);
        assertThat(data.marks()).hasSize(21);
        return data.marks().get(20).y();
    }

    static List<String> subtitles(JFreeChart chart) {
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < chart.getSubtitleCount(); i++) {
            if (chart.getSubtitle(i) instanceof TextTitle title) {
                texts.add(title.getText());
            }
        }
        return texts;
    }

    @Test
    void aCutResultSaysSoUnderTheTitle() {
        List<ChartRenderer.Point> points = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            points.add(point((long) i, i * 3L));
        }
        ChartData data = ChartData.of(spec(ChartSpec.Type.SCATTER, "id", "amount", ChartSpec.Aggregation.NONE), ColumnKind.NUMERIC,
                points, Optional.of(new ChartData.Cut(1000, List.of("rows"))));
        JFreeChart chart = ChartRenderer.chart(data);
        assertThat(subtitles(chart)).containsExactly("Only the first 1,000 rows are drawn: the query hit a limit (rows).");
        assertThat(data.notes()).containsExactly("The query hit a limit (rows); the chart shows the first 1,000 rows only.");
        assertThat(ChartRenderer.chart(ChartData.of(data.spec(), ColumnKind.NUMERIC, points)).getSubtitleCount()).isZero();
    }

    @Test
    void groupedBarsAreOffsetBySeriesInTheVegaLiteSpecAsInThePng() {
        ChartSpec bars = new ChartSpec(ChartSpec.Type.BAR, "claims", "region", Optional.of("amount"), ChartSpec.Aggregation.SUM,
                Optional.of("policy_type"), List.of(), Optional.empty());
        List<ChartRenderer.Point> points = List.of(new ChartRenderer.Point("north", "auto", BigDecimal.ONE),
                new ChartRenderer.Point("north", "home", BigDecimal.TEN), new ChartRenderer.Point("south", "auto", BigDecimal.valueOf(2)));
        JsonNode vega = vegaLite(bars, ColumnKind.TEXT, points);
        assertThat(vega.at("/encoding/xOffset/field").asText()).isEqualTo("policy_type");
        assertThat(vega.at("/encoding/xOffset/type").asText()).isEqualTo("nominal");
        assertThat(vega.at("/encoding/color/field").asText()).isEqualTo("policy_type");
        // the PNG draws the series side by side, not stacked
        assertThat(chart(bars, ColumnKind.TEXT, points).getCategoryPlot().getRenderer()).isNotInstanceOf(StackedBarRenderer.class);

        ChartSpec lines = new ChartSpec(ChartSpec.Type.LINE, "claims", "region", Optional.of("amount"), ChartSpec.Aggregation.SUM,
                Optional.of("policy_type"), List.of(), Optional.empty());
        assertThat(vegaLite(lines, ColumnKind.TEXT, points).at("/encoding/xOffset").isMissingNode()).isTrue();
    }

    @Test
    void aLabelTheDefaultFontCannotDrawGetsAnInstalledFontThatCanOrKeepsItsFontAndTheToolSaysSo() {
        String tokyo = "東京";
        boolean cjkInstalled = Arrays.stream(GraphicsEnvironment.getLocalGraphicsEnvironment().getAllFonts())
                .anyMatch(f -> f.canDisplayUpTo(tokyo) == -1);
        ChartData data = ChartData.of(spec(ChartSpec.Type.BAR, "city", "amount", ChartSpec.Aggregation.SUM), ColumnKind.TEXT,
                List.of(point(tokyo, 5), point("Paris", 3)));
        CategoryAxis axis = ChartRenderer.chart(data).getCategoryPlot().getDomainAxis();
        Font tokyoFont = axis.getTickLabelFont(new ChartData.Key(tokyo, ChartData.Kind.VALUE));
        Font parisFont = axis.getTickLabelFont(new ChartData.Key("Paris", ChartData.Kind.VALUE));
        if (cjkInstalled) {
            assertThat(tokyoFont.canDisplayUpTo(tokyo)).isEqualTo(-1);
            assertThat(ChartFonts.installed().canDrawAll(data.texts())).isTrue();
        } else {
            // the documented fallback: the label keeps the theme's font, and plot_chart adds MISSING_GLYPHS to its notes
            assertThat(tokyoFont).isEqualTo(parisFont);
            assertThat(ChartFonts.installed().canDrawAll(data.texts())).isFalse();
        }
        assertThat(parisFont.canDisplayUpTo("Paris")).isEqualTo(-1);
    }

    @Test
    void fontsAreChosenPerTextKeepingStyleAndSize() {
        String hebrew = "\u05E9\u05DC\u05D5\u05DD";
        Font mono = new Font("DejaVu Sans Mono", Font.BOLD, 13);
        List<Font> candidates = List.of(new Font("DejaVu Serif", Font.PLAIN, 12), new Font("DejaVu Sans", Font.PLAIN, 12));
        Font chosen = new ChartFonts(candidates).forText(mono, hebrew);
        boolean someFontCan = mono.canDisplayUpTo(hebrew) == -1 || candidates.stream().anyMatch(f -> f.canDisplayUpTo(hebrew) == -1);
        assertThat(chosen.canDisplayUpTo(hebrew) == -1).isEqualTo(someFontCan);
        assertThat(chosen.getStyle()).isEqualTo(Font.BOLD);
        assertThat(chosen.getSize2D()).isEqualTo(13f);
        assertThat(new ChartFonts(candidates).forText(mono, "abc")).isSameAs(mono);
        assertThat(new ChartFonts(List.of()).forText(mono, hebrew)).isSameAs(mono);
    }
}
