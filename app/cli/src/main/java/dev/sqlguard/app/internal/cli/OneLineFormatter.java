package dev.sqlguard.app.internal.cli;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogRecord;

/**
 * One line per log event: time, level, logger, message and, for an exception, its class only.
 * Driver and pool exceptions carry driver text and long stack traces; those are written only at
 * {@code trace} ({@link Level#FINEST}), the level where third-party output is not vetted anyway.
 */
final class OneLineFormatter extends Formatter {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

    private final boolean stackTraces;

    /** @param stackTraces whether exceptions are written in full (trace level) */
    OneLineFormatter(boolean stackTraces) {
        this.stackTraces = stackTraces;
    }

    @Override
    public String format(LogRecord record) {
        StringBuilder line = new StringBuilder(160);
        line.append(TIME.format(Instant.ofEpochMilli(record.getMillis()))).append(' ')
                .append(name(record.getLevel())).append(' ').append(record.getLoggerName()).append(" - ")
                .append(oneLine(formatMessage(record)));
        Throwable thrown = record.getThrown();
        if (thrown != null && !stackTraces) {
            line.append(" (").append(thrown.getClass().getSimpleName()).append(')');
        }
        line.append(System.lineSeparator());
        if (thrown != null && stackTraces) {
            java.io.StringWriter trace = new java.io.StringWriter();
            thrown.printStackTrace(new java.io.PrintWriter(trace));
            line.append(trace);
        }
        return line.toString();
    }

    private static String oneLine(String text) {
        return text == null ? "" : text.replace('\r', ' ').replace('\n', ' ');
    }

    private static String name(Level level) {
        if (level.intValue() >= Level.SEVERE.intValue()) {
            return "ERROR";
        }
        if (level.intValue() >= Level.WARNING.intValue()) {
            return "WARN";
        }
        if (level.intValue() >= Level.INFO.intValue()) {
            return "INFO";
        }
        return level.intValue() >= Level.FINE.intValue() ? "DEBUG" : "TRACE";
    }
}
