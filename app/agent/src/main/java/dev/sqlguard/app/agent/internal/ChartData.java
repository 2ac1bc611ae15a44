package dev.sqlguard.app.agent.internal;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * What a chart shows, built once and drawn twice (the PNG and the Vega-Lite spec), so both show
 * the same marks: x values and series as labelled keys, with SQL NULL and empty text marked apart
 * from any text a cell could hold.
 */
final class ChartData {
    /** What a key stands for. */
    enum Kind {
        /** A value of the column. */
        VALUE,
        /** SQL NULL, shown as {@code (NULL)} in italics. */
        NULL,
        /** Empty text, shown as {@code (empty)} in italics. */
        EMPTY
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
    record Mark(Object x, Key category, Key series, BigDecimal y) {
    }

    private final ChartSpec spec;
    private final ColumnKind xKind;
    private final List<Mark> marks;
    private final List<Key> series;

    private ChartData(ChartSpec spec, ColumnKind xKind, List<Mark> marks) {
        this.spec = spec;
        this.xKind = xKind;
        this.marks = List.copyOf(marks);
        LinkedHashSet<Key> seriesKeys = new LinkedHashSet<>();
        marks.forEach(m -> seriesKeys.add(m.series()));
        this.series = List.copyOf(seriesKeys);
    }

    /** The chart of {@code points}, in their order. */
    static ChartData of(ChartSpec spec, ColumnKind xKind, List<ChartRenderer.Point> points) {
        Key single = new Key(spec.yLabel(), Kind.VALUE);
        List<Mark> marks = new ArrayList<>();
        for (ChartRenderer.Point p : points) {
            Key series = spec.series().isPresent() ? Key.of(p.series()) : single;
            marks.add(new Mark(p.x(), Key.of(p.x()), series, p.y()));
        }
        return new ChartData(spec, xKind, marks);
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

    /** Whether some category or series is NULL or empty text. */
    boolean hasMarkers() {
        return marks.stream().anyMatch(m -> m.category().marker() || m.series().marker());
    }
}
