package dev.sqlguard.app.agent.internal;

import java.text.DateFormat;
import java.text.SimpleDateFormat;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.TimeZone;

import org.jfree.chart.axis.DateAxis;
import org.jfree.chart.axis.DateTickUnit;
import org.jfree.chart.axis.DateTickUnitType;
import org.jfree.chart.axis.TickUnits;

/**
 * Axes of charts: date axes in UTC with ISO-8601 tick labels, and x values as numbers or instants.
 */
final class ChartAxes {
    private static final TimeZone UTC = TimeZone.getTimeZone("UTC");

    private ChartAxes() {
    }

    /**
     * A date axis that shows dates as written in the data: UTC (so a date never shifts by the JVM's
     * time zone), ISO-8601 labels ({@code 2024-03-17}, {@code 2024-03}, {@code 2024}, {@code 10:30}).
     */
    static DateAxis dateAxis(String label) {
        DateAxis axis = new DateAxis(label, UTC, Locale.ROOT);
        TickUnits units = new TickUnits();
        add(units, DateTickUnitType.SECOND, "HH:mm:ss", 1, 5, 10, 30);
        add(units, DateTickUnitType.MINUTE, "HH:mm", 1, 2, 5, 10, 15, 30);
        add(units, DateTickUnitType.HOUR, "MM-dd HH:mm", 1, 2, 3, 6, 12);
        add(units, DateTickUnitType.DAY, "yyyy-MM-dd", 1, 2, 7, 14);
        add(units, DateTickUnitType.MONTH, "yyyy-MM", 1, 2, 3, 6);
        add(units, DateTickUnitType.YEAR, "yyyy", 1, 2, 5, 10, 20, 50, 100, 200, 500);
        axis.setStandardTickUnits(units);
        return axis;
    }

    private static void add(TickUnits units, DateTickUnitType type, String pattern, int... multiples) {
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
