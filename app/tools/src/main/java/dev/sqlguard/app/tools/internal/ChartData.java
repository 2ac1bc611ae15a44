package dev.sqlguard.app.tools.internal;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What a chart shows, built once and drawn twice (the PNG and the Vega-Lite spec), so both show
 * the same marks: x values and series as labelled keys, with SQL NULL and empty text marked apart
 * from any text a cell could hold; for bar and pie charts, the {@value #TOP_N} largest categories
 * plus one that combines the rest; and subtitles and notes saying what was combined or left out.
 */
final class ChartData {
    /** Bar and pie charts show at most this many categories, plus one combining the rest. */
    static final int TOP_N = 20;

    /** What a key stands for. */
    enum Kind {
        /** A value of the column. */
        VALUE,
        /** SQL NULL, shown as {@code (NULL)} in italics. */
        NULL,
        /** Empty text, shown as {@code (empty)} in italics. */
        EMPTY,
        /** The categories beyond the top {@value #TOP_N}, combined: {@code (980 others)} in italics. */
        OTHER
    }

    /**
     * A category or a series: the text drawn for it and what it stands for. Two keys with the same
     * text are still different when one is a marker: the category NULL is not the text "(NULL)".
     */
    record Key(String text, Kind kind) implements Comparable<Key> {
        Key {
            requireNonNull(text, "text is null");
            requireNonNull(kind, "kind is null");
        }

        /** The key of a cell: its text (numbers in plain notation), or the NULL and empty markers. */
        static Key of(Object value) {
            if (value == null) {
                return new Key("(NULL)", Kind.NULL);
            }
            String text = value instanceof BigDecimal d ? d.toPlainString() : String.valueOf(value);
            return text.isEmpty() ? new Key("(empty)", Kind.EMPTY) : new Key(text, Kind.VALUE);
        }

        /** Whether the key is a marker, drawn in italics and grey. */
        boolean marker() {
            return kind != Kind.VALUE;
        }

        @Override
        public int compareTo(Key other) {
            int byKind = kind.compareTo(other.kind);
            return byKind != 0 ? byKind : text.compareTo(other.text);
        }

        /** JFreeChart draws a key's {@code toString()}. */
        @Override
        public String toString() {
            return text;
        }
    }

    /**
     * One mark: x as the query returned it and as a category key, its series (the measured value's
     * label when there is no series column), and y.
     */
    record Mark(Object x, Key category, Key series, BigDecimal y, long weight) {
    }

    private final ChartSpec spec;
    private final ColumnKind xKind;
    private final List<Mark> marks;
    private final List<Key> series;
    private final List<String> subtitles;
    private final List<String> notes;
    private final int categories;

    private ChartData(ChartSpec spec, ColumnKind xKind, List<Mark> marks, int categories, List<String> subtitles,
                      List<String> notes) {
        this.spec = spec;
        this.categories = categories;
        this.xKind = xKind;
        this.marks = List.copyOf(marks);
        LinkedHashSet<Key> seriesKeys = new LinkedHashSet<>();
        marks.forEach(m -> seriesKeys.add(m.series()));
        this.series = List.copyOf(seriesKeys);
        this.subtitles = List.copyOf(subtitles);
        this.notes = List.copyOf(notes);
    }

    /**
     * A query result cut short by a limit.
     *
     * @param rows the rows returned
     * @param limits the limits hit ({@code rows}, {@code bytes}, ...)
     */
    record Cut(int rows, List<String> limits) {
        Cut {
            limits = List.copyOf(limits);
        }
    }

    /** The chart of a complete result. */
    static ChartData of(ChartSpec spec, ColumnKind xKind, List<ChartRenderer.Point> points) {
        return of(spec, xKind, points, Optional.empty());
    }

    /**
     * The chart of {@code points}, in their order (bar and pie charts: the top {@value #TOP_N} and
     * the rest combined); a cut result says so under the title.
     */
    static ChartData of(ChartSpec spec, ColumnKind xKind, List<ChartRenderer.Point> points, Optional<Cut> cut) {
        Key single = new Key(spec.yLabel(), Kind.VALUE);
        List<Mark> marks = new ArrayList<>();
        for (ChartRenderer.Point p : points) {
            Key series = spec.series().isPresent() ? Key.of(p.series()) : single;
            Key category = spec.bucket().isPresent() && p.x() instanceof String start
                    ? new Key(spec.bucket().get().label(start), Kind.VALUE) : Key.of(p.x());
            marks.add(new Mark(p.x(), category, series, p.y(), p.weight()));
        }
        List<String> subtitles = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        cut.ifPresent(c -> {
            String limits = String.join(", ", c.limits());
            subtitles.add("Only the first " + count(c.rows()) + " rows are drawn: the query hit a limit (" + limits + ").");
            notes.add("The query hit a limit (" + limits + "); the chart shows the first " + count(c.rows()) + " rows only.");
        });
        int categories = (int) marks.stream().map(Mark::category).distinct().count();
        if (spec.type() == ChartSpec.Type.BAR || spec.type() == ChartSpec.Type.PIE) {
            marks = top(spec, xKind, marks, subtitles, notes);
        }
        return new ChartData(spec, xKind, marks, categories, subtitles, notes);
    }

    /**
     * The {@value #TOP_N} categories with the largest bars (the sum of |y| over their series), largest
     * first, then one category combining the rest per series as the aggregation does: count and sum
     * add up, min and max take the least and the greatest, avg weighs each average by its rows. Rows
     * of 'none' are not combined; the rest are left out.
     */
    private static List<Mark> top(ChartSpec spec, ColumnKind xKind, List<Mark> marks, List<String> subtitles, List<String> notes) {
        Map<Key, List<Mark>> byCategory = new LinkedHashMap<>();
        for (Mark m : marks) {
            byCategory.computeIfAbsent(m.category(), k -> new ArrayList<>()).add(m);
        }
        int total = byCategory.size();
        if (total <= TOP_N) {
            return marks;
        }
        List<List<Mark>> ranked = new ArrayList<>(byCategory.values());
        ranked.sort(Comparator.comparing((List<Mark> group) -> group.stream().map(m -> m.y().abs())
                .reduce(BigDecimal.ZERO, BigDecimal::add)).reversed());
        List<Mark> shown = new ArrayList<>();
        ranked.subList(0, TOP_N).forEach(shown::addAll);
        int rest = total - TOP_N;
        String of = "Top " + TOP_N + " of " + count(total) + " " + ChartSpec.words(spec.x()) + " values by "
                + lowerFirst(spec.yLabel()) + "; the other " + count(rest);
        if (spec.aggregation() == ChartSpec.Aggregation.NONE) {
            subtitles.add(of + " are left out.");
            notes.add("The chart shows the " + lowerFirst(of) + " are left out." + hint(xKind));
            return shown;
        }
        Key other = new Key("(" + count(rest) + " others)", Kind.OTHER);
        Map<Key, List<Mark>> restBySeries = new LinkedHashMap<>();
        ranked.subList(TOP_N, total).forEach(group -> group.forEach(m -> restBySeries.computeIfAbsent(m.series(),
                k -> new ArrayList<>()).add(m)));
        restBySeries.forEach((series, group) -> combine(spec.aggregation(), group)
                .ifPresent(y -> shown.add(new Mark(other.text(), other, series, y, group.stream().mapToLong(Mark::weight).sum()))));
        subtitles.add(of + " are combined in " + other.text() + ".");
        notes.add("The chart shows the " + lowerFirst(of) + " are combined in one category, " + other.text() + "." + hint(xKind));
        return shown;
    }

    private static String hint(ColumnKind xKind) {
        return " A filter narrows the chart to the others" + (xKind == ColumnKind.TEMPORAL ? "; chart.bucket groups dates." : ".");
    }

    /** The rest of one series combined as the aggregation combines rows; empty when it cannot be. */
    private static Optional<BigDecimal> combine(ChartSpec.Aggregation aggregation, List<Mark> group) {
        return switch (aggregation) {
            case COUNT, SUM -> Optional.of(group.stream().map(Mark::y).reduce(BigDecimal.ZERO, BigDecimal::add));
            case MIN -> group.stream().map(Mark::y).min(Comparator.naturalOrder());
            case MAX -> group.stream().map(Mark::y).max(Comparator.naturalOrder());
            case AVG -> {
                long rows = group.stream().mapToLong(Mark::weight).sum();
                BigDecimal sum = group.stream().map(m -> m.y().multiply(BigDecimal.valueOf(m.weight())))
                        .reduce(BigDecimal.ZERO, BigDecimal::add);
                yield rows <= 0 ? Optional.empty() : Optional.of(sum.divide(BigDecimal.valueOf(rows), MathContext.DECIMAL64));
            }
            case NONE -> Optional.empty();
        };
    }

    /** A count as written on the chart: {@code 1,000}. */
    static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    private static String lowerFirst(String label) {
        return label.substring(0, 1).toLowerCase(Locale.ROOT) + label.substring(1);
    }

    ChartSpec spec() {
        return spec;
    }

    ColumnKind xKind() {
        return xKind;
    }

    List<Mark> marks() {
        return marks;
    }

    /** The series in the order they first appear. */
    List<Key> series() {
        return series;
    }

    /** A legend is drawn for two or more series only. */
    boolean legend() {
        return series.size() >= 2;
    }

    /** Lines under the title saying what was combined or left out. */
    List<String> subtitles() {
        return subtitles;
    }

    /** The same, for the tool result. */
    List<String> notes() {
        return notes;
    }

    /**
     * The counts the notes state ({@value #TOP_N}, all categories, the rest), as values the answer
     * may quote; empty when every category is shown.
     */
    List<Long> shownCounts() {
        return categories > TOP_N && (spec.type() == ChartSpec.Type.BAR || spec.type() == ChartSpec.Type.PIE)
                ? List.of((long) TOP_N, (long) categories, (long) categories - TOP_N) : List.of();
    }

    /** The category combining the rest, when there is one. */
    Optional<Key> other() {
        return marks.stream().map(Mark::category).filter(k -> k.kind() == Kind.OTHER).findFirst();
    }

    /** Every text the chart draws besides numbers and dates: titles, axis titles, categories, series. */
    List<String> texts() {
        LinkedHashSet<String> texts = new LinkedHashSet<>();
        texts.add(spec.displayTitle());
        texts.addAll(subtitles);
        texts.add(spec.xLabel());
        texts.add(spec.yLabel());
        spec.seriesLabel().ifPresent(texts::add);
        marks.forEach(m -> texts.add(m.category().text()));
        series.forEach(k -> texts.add(k.text()));
        return List.copyOf(texts);
    }

    /** Whether some category or series is NULL, empty text, or the rest combined. */
    boolean hasMarkers() {
        return marks.stream().anyMatch(m -> m.category().marker() || m.series().marker());
    }
}
