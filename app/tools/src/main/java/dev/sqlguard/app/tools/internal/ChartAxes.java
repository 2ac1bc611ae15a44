package dev.sqlguard.app.tools.internal;

import java.text.DateFormat;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.text.FieldPosition;
import java.text.NumberFormat;
import java.text.ParsePosition;
import java.text.SimpleDateFormat;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TimeZone;

import org.jfree.chart.axis.DateAxis;
import org.jfree.chart.axis.DateTickUnit;
import org.jfree.chart.axis.DateTickUnitType;
import org.jfree.chart.axis.TickUnits;

/**
 * Axes of charts: compact numbers, date axes in UTC with ISO-8601 tick labels, and x values as
 * numbers or instants.
 */
final class ChartAxes {
    private static final TimeZone UTC = TimeZone.getTimeZone("UTC");
    private static final List<DateTickUnitType> ORDER = List.of(DateTickUnitType.SECOND, DateTickUnitType.MINUTE,
            DateTickUnitType.HOUR, DateTickUnitType.DAY, DateTickUnitType.MONTH, DateTickUnitType.YEAR);

    /** Scales of compact numbers, largest first: 1.05B, 220M, 2.5k. */
    private static final double[] SCALES = {1e12, 1e9, 1e6, 1e3};
    private static final String[] SUFFIXES = {"T", "B", "M", "k"};

    /**
     * Compact numbers for value axes, never scientific notation: {@code 950}, {@code 0.05},
     * {@code 2.5k}, {@code 220M}, {@code 1.05B}, {@code 3T} (at most two decimals after scaling,
     * six below 1,000). Thread-safe.
     */
    static final NumberFormat COMPACT = new CompactFormat();

    /** The same rule as {@link #COMPACT}, as a Vega expression for an axis {@code labelExpr}. */
    static final String COMPACT_VEGA_EXPR = compactVegaExpression();

    private ChartAxes() {
    }

    private static String compactVegaExpression() {
        StringBuilder expr = new StringBuilder();
        for (int i = 0; i < SCALES.length; i++) {
            String scale = "1e" + (int) Math.log10(SCALES[i]);
            expr.append("abs(datum.value) >= ").append(scale).append(" ? format(datum.value / ").append(scale)
                    .append(", ',.2~f') + '").append(SUFFIXES[i]).append("' : ");
        }
        return expr.append("format(datum.value, ',.6~f')").toString();
    }

    private static final class CompactFormat extends NumberFormat {
        private static final long serialVersionUID = 1L;

        @Override
        public StringBuffer format(double number, StringBuffer toAppendTo, FieldPosition pos) {
            double abs = Math.abs(number);
            for (int i = 0; i < SCALES.length; i++) {
                if (abs >= SCALES[i]) {
                    return toAppendTo.append(decimal("#,##0.##").format(number / SCALES[i])).append(SUFFIXES[i]);
                }
            }
            return toAppendTo.append(decimal("#,##0.######").format(number));
        }

        @Override
        public StringBuffer format(long number, StringBuffer toAppendTo, FieldPosition pos) {
            return format((double) number, toAppendTo, pos);
        }

        @Override
        public Number parse(String source, ParsePosition parsePosition) {
            throw new UnsupportedOperationException("compact numbers are only written");
        }

        /** A new format per call: DecimalFormat is not thread-safe, and charts are drawn concurrently. */
        private static DecimalFormat decimal(String pattern) {
            return new DecimalFormat(pattern, DecimalFormatSymbols.getInstance(Locale.ROOT));
        }
    }

    /**
     * A date axis that shows dates as written in the data: UTC (so a date never shifts by the JVM's
     * time zone), ISO-8601 labels ({@code 2024-03-17}, {@code 2024-03}, {@code 2024}, {@code 10:30}).
     */
    static DateAxis dateAxis(String label, Optional<DateBucket> bucket) {
        DateAxis axis = new DateAxis(label, UTC, Locale.ROOT);
        TickUnits units = new TickUnits();
        DateTickUnitType finest = bucket.map(DateBucket::finestTick).orElse(DateTickUnitType.SECOND);
        add(units, finest, DateTickUnitType.SECOND, "HH:mm:ss", 1, 5, 10, 30);
        add(units, finest, DateTickUnitType.MINUTE, "HH:mm", 1, 2, 5, 10, 15, 30);
        add(units, finest, DateTickUnitType.HOUR, "MM-dd HH:mm", 1, 2, 3, 6, 12);
        add(units, finest, DateTickUnitType.DAY, "yyyy-MM-dd", 1, 2, 7, 14);
        add(units, finest, DateTickUnitType.MONTH, "yyyy-MM", 1, 2, 3, 6);
        add(units, finest, DateTickUnitType.YEAR, "yyyy", 1, 2, 5, 10, 20, 50, 100, 200, 500);
        axis.setStandardTickUnits(units);
        return axis;
    }

    /** Adds the units of {@code type}, unless they are finer than {@code finest} (no day ticks between months). */
    private static void add(TickUnits units, DateTickUnitType finest, DateTickUnitType type, String pattern, int... multiples) {
        if (ORDER.indexOf(type) < ORDER.indexOf(finest)) {
            return;
        }
        for (int multiple : multiples) {
            DateFormat format = new SimpleDateFormat(pattern, Locale.ROOT);
            format.setTimeZone(UTC);
            units.add(new DateTickUnit(type, multiple, format));
        }
    }

    /**
     * An x value as a number on its axis: numbers as they are; ISO dates, timestamps and times (the
     * text form of temporal cells) as epoch milliseconds in UTC, times on 1970-01-01.
     *
     * @return the number, or null when the value is neither
     */
    static Double position(Object value, boolean temporal) {
        if (!temporal) {
            return value instanceof Number n ? n.doubleValue() : null;
        }
        if (!(value instanceof String s)) {
            return null;
        }
        try {
            if (s.length() == 10) {
                return (double) LocalDate.parse(s).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
            }
            if (s.indexOf('T') < 0 && s.indexOf(' ') < 0) {
                return (double) LocalTime.parse(s).toNanoOfDay() / 1_000_000;
            }
            String iso = s.replace(' ', 'T');
            if (iso.endsWith("Z")) {
                return (double) Instant.parse(iso).toEpochMilli();
            }
            if (iso.lastIndexOf('+') > 10 || iso.lastIndexOf('-') > 10) {
                return (double) OffsetDateTime.parse(iso).toInstant().toEpochMilli();
            }
            return (double) LocalDateTime.parse(iso).toInstant(ZoneOffset.UTC).toEpochMilli();
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
