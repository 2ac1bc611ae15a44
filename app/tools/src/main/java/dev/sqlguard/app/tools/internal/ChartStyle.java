package dev.sqlguard.app.tools.internal;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Paint;
import java.text.DecimalFormat;
import java.util.List;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.block.BlockBorder;
import org.jfree.chart.labels.ItemLabelAnchor;
import org.jfree.chart.labels.ItemLabelPosition;
import org.jfree.chart.labels.StandardCategoryItemLabelGenerator;
import org.jfree.chart.labels.StandardPieSectionLabelGenerator;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PiePlot;
import org.jfree.chart.plot.Plot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.CategoryItemRenderer;
import org.jfree.chart.renderer.category.LineAndShapeRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.renderer.xy.XYItemRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.chart.ui.TextAnchor;

/**
 * How a chart looks: like a notebook plot a person pastes into a report. A white background with
 * light grey grid lines, no gradients or shadows, the Okabe-Ito palette (distinguishable with the
 * common colour-vision deficiencies; its yellow last, as it is hard to see on white), thicker lines
 * with point markers, value labels on bars and points when there are few enough to read, and pie
 * slices labelled with their value and percentage.
 */
final class ChartStyle {
    /** Okabe and Ito (2008), in the order series take them. */
    static final List<Color> PALETTE = List.of(new Color(0x0072B2), new Color(0xE69F00), new Color(0x009E73),
            new Color(0xD55E00), new Color(0x56B4E9), new Color(0xCC79A7), new Color(0x000000), new Color(0xF0E442));
    static final Color GRID = new Color(0xDDDDDD);
    static final Color TEXT = new Color(0x333333);
    /** Value labels are drawn up to this many bars or points; beyond it they would overlap. */
    static final int MAX_LABELLED_ITEMS = 16;

    private ChartStyle() {
    }

    static Paint colour(int index) {
        return PALETTE.get(Math.floorMod(index, PALETTE.size()));
    }

    static void apply(JFreeChart chart) {
        chart.setBackgroundPaint(Color.WHITE);
        chart.setAntiAlias(true);
        chart.setTextAntiAlias(true);
        if (chart.getTitle() != null) {
            chart.getTitle().setFont(chart.getTitle().getFont().deriveFont(Font.BOLD, 18f));
            chart.getTitle().setPaint(TEXT);
        }
        if (chart.getLegend() != null) {
            chart.getLegend().setFrame(BlockBorder.NONE);
            chart.getLegend().setBackgroundPaint(Color.WHITE);
        }
        Plot plot = chart.getPlot();
        plot.setBackgroundPaint(Color.WHITE);
        plot.setOutlineVisible(false);
        if (plot instanceof CategoryPlot category) {
            category(category);
        } else if (plot instanceof XYPlot xy) {
            xy(xy);
        } else if (plot instanceof PiePlot<?> pie) {
            pie(pie);
        }
    }

    private static void category(CategoryPlot plot) {
        plot.setRangeGridlinePaint(GRID);
        plot.setRangeGridlineStroke(new BasicStroke(1f));
        plot.setDomainGridlinesVisible(false);
        plot.setAxisOffset(RectangleInsets.ZERO_INSETS);
        CategoryItemRenderer renderer = plot.getRenderer();
        int series = plot.getDataset().getRowCount();
        for (int i = 0; i < series; i++) {
            renderer.setSeriesPaint(i, colour(i));
        }
        int items = series * plot.getDataset().getColumnCount();
        if (renderer instanceof BarRenderer bars) {
            bars.setBarPainter(new StandardBarPainter());
            bars.setShadowVisible(false);
            bars.setDrawBarOutline(false);
            bars.setItemMargin(0.05);
            bars.setMaximumBarWidth(0.12);
        } else if (renderer instanceof LineAndShapeRenderer lines) {
            for (int i = 0; i < series; i++) {
                lines.setSeriesStroke(i, new BasicStroke(2.5f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
                lines.setSeriesShapesVisible(i, true);
            }
        }
        if (items <= MAX_LABELLED_ITEMS) {
            renderer.setDefaultItemLabelGenerator(new StandardCategoryItemLabelGenerator("{2}", ChartAxes.COMPACT));
            renderer.setDefaultItemLabelsVisible(true);
            renderer.setDefaultItemLabelPaint(TEXT);
            renderer.setDefaultItemLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
            renderer.setDefaultPositiveItemLabelPosition(new ItemLabelPosition(ItemLabelAnchor.OUTSIDE12, TextAnchor.BOTTOM_CENTER));
            renderer.setDefaultNegativeItemLabelPosition(new ItemLabelPosition(ItemLabelAnchor.OUTSIDE6, TextAnchor.TOP_CENTER));
            plot.getRangeAxis().setUpperMargin(0.12);
        }
    }

    private static void xy(XYPlot plot) {
        plot.setRangeGridlinePaint(GRID);
        plot.setDomainGridlinePaint(GRID);
        plot.setAxisOffset(RectangleInsets.ZERO_INSETS);
        XYItemRenderer renderer = plot.getRenderer();
        int series = plot.getDataset() == null ? 0 : plot.getDataset().getSeriesCount();
        for (int i = 0; i < series; i++) {
            renderer.setSeriesPaint(i, colour(i));
            if (renderer instanceof XYLineAndShapeRenderer lines && lines.getDefaultLinesVisible()) {
                lines.setSeriesStroke(i, new BasicStroke(2.5f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
                lines.setSeriesShapesVisible(i, plot.getDataset().getItemCount(i) <= 60);
            }
        }
    }

    private static void pie(PiePlot<?> plot) {
        plot.setShadowPaint(null);
        plot.setSectionOutlinesVisible(true);
        plot.setDefaultSectionOutlinePaint(Color.WHITE);
        plot.setDefaultSectionOutlineStroke(new BasicStroke(2f));
        for (int i = 0; i < plot.getDataset().getItemCount(); i++) {
            plot.setSectionPaint(plot.getDataset().getKey(i), colour(i));
        }
        DecimalFormat percent = new DecimalFormat("0.0%");
        plot.setLabelGenerator(new StandardPieSectionLabelGenerator("{0}: {1} ({2})", ChartAxes.COMPACT, percent));
        plot.setLabelBackgroundPaint(Color.WHITE);
        plot.setLabelOutlinePaint(GRID);
        plot.setLabelShadowPaint(null);
        plot.setLabelPaint(TEXT);
        plot.setLegendLabelGenerator(new StandardPieSectionLabelGenerator("{0}"));
    }
}
