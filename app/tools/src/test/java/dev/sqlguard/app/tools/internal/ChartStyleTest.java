package dev.sqlguard.app.tools.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import javax.imageio.ImageIO;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PiePlot;
import org.junit.jupiter.api.Test;


/**
 * The look of a chart: white, the Okabe-Ito palette, value labels where they can be read, pie slices
 * with their value and percentage. The samples it renders (target/chart-samples/*.png) are the ones in
 * docs/images, looked at by eye.
 */
class ChartStyleTest {
    private static final Path SAMPLES = Path.of("target", "chart-samples");

    private static ChartRenderer.Point point(Object x, Object series, long y) {
        return new ChartRenderer.Point(x, series, BigDecimal.valueOf(y));
    }

    private static ChartSpec spec(ChartSpec.Type type, String x, String y, ChartSpec.Aggregation aggregation, Optional<String> series) {
        return new ChartSpec(type, "claims", x, Optional.of(y), aggregation, series, List.of(), Optional.empty());
    }

    private static List<ChartRenderer.Point> regions() {
        return List.of(point("central", null, 2677), point("east", null, 3291), point("north", null, 3833),
                point("south", null, 3084), point("west", null, 3907));
    }

    private static BufferedImage render(ChartData data, String name) throws IOException {
        Files.createDirectories(SAMPLES);
        Path file = ChartRenderer.png(data, SAMPLES).orElseThrow();
        Path named = SAMPLES.resolve(name + ".png");
        Files.move(file, named, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return ImageIO.read(named.toFile());
    }

    @Test
    void aBarChartIsWhiteWithOkabeItoBarsAndValueLabels() throws IOException {
        ChartData data = ChartData.of(spec(ChartSpec.Type.BAR, "region", "amount", ChartSpec.Aggregation.AVG, Optional.empty()),
                ColumnKind.TEXT, regions());
        JFreeChart chart = ChartRenderer.chart(data);
        CategoryPlot plot = chart.getCategoryPlot();
        assertThat(chart.getBackgroundPaint()).isEqualTo(Color.WHITE);
        assertThat(plot.getBackgroundPaint()).isEqualTo(Color.WHITE);
        assertThat(plot.getRenderer().getSeriesPaint(0)).isEqualTo(new Color(0x0072B2));
        assertThat(plot.getRenderer().getDefaultItemLabelsVisible()).isTrue();
        assertThat(plot.getRenderer().getDefaultItemLabelGenerator().generateLabel(plot.getDataset(), 0, 2)).isEqualTo("3.83k");

        BufferedImage image = render(data, "chart-bar");
        assertThat(new Color(image.getRGB(2, 2))).isEqualTo(Color.WHITE);
        assertThat(colours(image)).contains(0x0072B2);
    }

    @Test
    void seriesTakeThePaletteInOrderAndManyBarsHaveNoLabels() throws IOException {
        List<ChartRenderer.Point> points = new ArrayList<>();
        String[] statuses = {"APPROVED", "DENIED", "PENDING"};
        long[][] values = {{210, 80, 40}, {190, 95, 35}, {230, 70, 55}, {205, 88, 44}, {180, 101, 38}};
        String[] regions = {"central", "east", "north", "south", "west"};
        for (int r = 0; r < regions.length; r++) {
            for (int s = 0; s < statuses.length; s++) {
                points.add(point(regions[r], statuses[s], values[r][s]));
            }
        }
        ChartData data = ChartData.of(spec(ChartSpec.Type.BAR, "region", "claims", ChartSpec.Aggregation.COUNT, Optional.of("status")),
                ColumnKind.TEXT, points);
        CategoryPlot plot = ChartRenderer.chart(data).getCategoryPlot();
        assertThat(plot.getRenderer().getSeriesPaint(1)).isEqualTo(new Color(0xE69F00));
        assertThat(plot.getRenderer().getSeriesPaint(2)).isEqualTo(new Color(0x009E73));
        assertThat(plot.getRenderer().getDefaultItemLabelsVisible()).as("15 bars: labelled").isTrue();
        render(data, "chart-bar-series");

        List<ChartRenderer.Point> many = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            many.add(point("c" + i, null, i));
        }
        CategoryPlot crowded = ChartRenderer.chart(ChartData.of(spec(ChartSpec.Type.BAR, "c", "n", ChartSpec.Aggregation.SUM,
                Optional.empty()), ColumnKind.TEXT, many)).getCategoryPlot();
        assertThat(crowded.getRenderer().getDefaultItemLabelsVisible()).as("21 bars after the top twenty: unlabelled").isNotEqualTo(Boolean.TRUE);
    }

    @Test
    void pieSlicesShowTheirValueAndPercentage() throws IOException {
        ChartData data = ChartData.of(spec(ChartSpec.Type.PIE, "region", "claims", ChartSpec.Aggregation.COUNT, Optional.empty()),
                ColumnKind.TEXT, List.of(point("central", null, 605), point("east", null, 600), point("north", null, 593),
                        point("south", null, 594), point("west", null, 608)));
        PiePlot<?> plot = (PiePlot<?>) ChartRenderer.chart(data).getPlot();
        @SuppressWarnings({"unchecked", "rawtypes"})
        String label = plot.getLabelGenerator().generateSectionLabel((org.jfree.data.general.PieDataset) plot.getDataset(),
                plot.getDataset().getKey(4));
        assertThat(label).isEqualTo("west: 608 (20.3%)");
        assertThat(plot.getShadowPaint()).isNull();
        BufferedImage image = render(data, "chart-pie");
        assertThat(colours(image)).contains(0x0072B2, 0xE69F00, 0x009E73, 0xD55E00, 0x56B4E9);
    }

    @Test
    void aLineChartHasThickOkabeItoLinesWithMarkers() throws IOException {
        List<ChartRenderer.Point> points = new ArrayList<>();
        String[] months = {"2024-01", "2024-02", "2024-03", "2024-04", "2024-05", "2024-06"};
        long[] values = {118, 131, 125, 142, 150, 139};
        for (int i = 0; i < months.length; i++) {
            points.add(point(months[i], null, values[i]));
        }
        ChartData data = ChartData.of(spec(ChartSpec.Type.LINE, "month", "claims", ChartSpec.Aggregation.COUNT, Optional.empty()),
                ColumnKind.TEXT, points);
        CategoryPlot plot = ChartRenderer.chart(data).getCategoryPlot();
        assertThat(plot.getRenderer().getSeriesPaint(0)).isEqualTo(new Color(0x0072B2));
        assertThat(((java.awt.BasicStroke) plot.getRenderer().getSeriesStroke(0)).getLineWidth()).isEqualTo(2.5f);
        render(data, "chart-line");
    }

    private static java.util.Set<Integer> colours(BufferedImage image) {
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        for (int y = 0; y < image.getHeight(); y += 2) {
            for (int x = 0; x < image.getWidth(); x += 2) {
                seen.add(image.getRGB(x, y) & 0xFFFFFF);
            }
        }
        return seen;
    }
}
