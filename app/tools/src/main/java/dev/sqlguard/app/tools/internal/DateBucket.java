package dev.sqlguard.app.tools.internal;

import java.util.List;
import java.util.Locale;

import org.jfree.chart.axis.DateTickUnitType;

/**
 * How {@code plot_chart} groups a DATE or TIMESTAMP x: by day, week (starting Monday), month or
 * year. The grouping is done by the chart's own query, from fixed text and the quoted catalog
 * column only; each bucket is named by the DATE it starts on.
 */
public enum DateBucket {
    DAY, WEEK, MONTH, YEAR;

    /** The names the tool accepts. */
    public static final List<String> WIRE_NAMES = List.of("day", "week", "month", "year");

    public static DateBucket fromWire(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT));
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The SQL of the bucket start of {@code quotedColumn}, a DATE, as the source's dialect declares it.
     *
     * @throws ArgSchema.InvalidArgumentException for an engine that declares no such bucket
     */
    String sql(SqlWriter writer, String quotedColumn) {
        return writer.dateBucket(wireName(), quotedColumn);
    }

    /** The label of a bucket from its start date (ISO text): {@code 2024-03-17}, {@code 2024-03}, {@code 2024}. */
    String label(String start) {
        if (start.length() < 10) {
            return start;
        }
        return switch (this) {
            case DAY, WEEK -> start.substring(0, 10);
            case MONTH -> start.substring(0, 7);
            case YEAR -> start.substring(0, 4);
        };
    }

    /** The label pattern of a bucket on a Vega-Lite axis (d3 time format). */
    String vegaFormat() {
        return switch (this) {
            case DAY, WEEK -> "%Y-%m-%d";
            case MONTH -> "%Y-%m";
            case YEAR -> "%Y";
        };
    }

    /** The finest tick unit a date axis of these buckets uses: no ticks between two bucket starts' units. */
    DateTickUnitType finestTick() {
        return switch (this) {
            case DAY, WEEK -> DateTickUnitType.DAY;
            case MONTH -> DateTickUnitType.MONTH;
            case YEAR -> DateTickUnitType.YEAR;
        };
    }
}
