package dev.sqlguard.duckdb.ingest.internal;

import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.Marker;
import org.apache.logging.log4j.message.Message;
import org.apache.logging.log4j.message.MessageFactory;
import org.apache.logging.log4j.spi.AbstractLogger;
import org.apache.logging.log4j.spi.ExtendedLogger;
import org.apache.logging.log4j.spi.LoggerContext;
import org.apache.logging.log4j.spi.LoggerContextFactory;
import org.apache.logging.log4j.spi.Provider;

/**
 * Apache POI, which reads .xlsx files, logs through the Log4j API. Without a Log4j provider on the
 * class path the API prints {@code Log4j API could not find a logging provider} on stderr the first
 * time POI logs. This provider, registered in
 * {@code META-INF/services/org.apache.logging.log4j.spi.Provider}, sends those records to
 * java.util.logging, where every sqlguard module logs. Its priority is the lowest there is, so an
 * embedding application's own provider (log4j-core at 10, log4j-to-slf4j at 15, log4j-to-jul at
 * 20) always wins and nothing changes for it; no system property or other global setting is touched.
 */
public final class PoiLogging extends Provider {
    /** Below every provider Log4j ships. */
    static final int PRIORITY = 1;

    public PoiLogging() {
        super(PRIORITY, "2.6.0", ContextFactory.class);
    }

    /** One context for the whole class path: JUL has one logger tree. */
    public static final class ContextFactory implements LoggerContextFactory {
        private static final Context CONTEXT = new Context();

        @Override
        public LoggerContext getContext(String fqcn, ClassLoader loader, Object externalContext, boolean currentContext) {
            return CONTEXT;
        }

        @Override
        public LoggerContext getContext(String fqcn, ClassLoader loader, Object externalContext, boolean currentContext,
                                        URI configLocation, String name) {
            return CONTEXT;
        }

        @Override
        public void removeContext(LoggerContext context) {
            // the one context lives as long as the class
        }

        @Override
        public boolean isClassLoaderDependent() {
            return false;
        }
    }

    static final class Context implements LoggerContext {
        private final Map<String, JulLogger> loggers = new ConcurrentHashMap<>();

        @Override
        public Object getExternalContext() {
            return null;
        }

        @Override
        public ExtendedLogger getLogger(String name) {
            return loggers.computeIfAbsent(name, JulLogger::new);
        }

        @Override
        public ExtendedLogger getLogger(String name, MessageFactory messageFactory) {
            return getLogger(name);
        }

        @Override
        public boolean hasLogger(String name) {
            return loggers.containsKey(name);
        }

        @Override
        public boolean hasLogger(String name, MessageFactory messageFactory) {
            return hasLogger(name);
        }

        @Override
        public boolean hasLogger(String name, Class<? extends MessageFactory> messageFactoryClass) {
            return hasLogger(name);
        }
    }

    /** A Log4j logger that writes java.util.logging records under the same name. */
    static final class JulLogger extends AbstractLogger {
        private static final long serialVersionUID = 1L;
        /** Guards against a loop when JUL itself is routed back into Log4j. */
        private static final ThreadLocal<Boolean> LOGGING = ThreadLocal.withInitial(() -> false);

        private final transient Logger jul;

        JulLogger(String name) {
            super(name);
            this.jul = Logger.getLogger(name);
        }

        static java.util.logging.Level julLevel(Level level) {
            if (level.isMoreSpecificThan(Level.ERROR)) {
                return java.util.logging.Level.SEVERE;
            }
            if (level.isMoreSpecificThan(Level.WARN)) {
                return java.util.logging.Level.WARNING;
            }
            if (level.isMoreSpecificThan(Level.INFO)) {
                return java.util.logging.Level.INFO;
            }
            if (level.isMoreSpecificThan(Level.DEBUG)) {
                return java.util.logging.Level.FINE;
            }
            return level.isMoreSpecificThan(Level.TRACE) ? java.util.logging.Level.FINER
                    : java.util.logging.Level.FINEST;
        }

        private boolean enabled(Level level) {
            return level != Level.OFF && jul.isLoggable(julLevel(level));
        }

        @Override
        public Level getLevel() {
            for (Level level : new Level[] {Level.TRACE, Level.DEBUG, Level.INFO, Level.WARN, Level.ERROR}) {
                if (enabled(level)) {
                    return level;
                }
            }
            return Level.OFF;
        }

        @Override
        public void logMessage(String fqcn, Level level, Marker marker, Message message, Throwable t) {
            if (LOGGING.get()) {
                return;
            }
            LOGGING.set(true);
            try {
                LogRecord record = new LogRecord(julLevel(level), message == null ? null : message.getFormattedMessage());
                record.setLoggerName(getName());
                record.setThrown(t != null ? t : message == null ? null : message.getThrowable());
                jul.log(record);
            } finally {
                LOGGING.set(false);
            }
        }

        @Override
        public boolean isEnabled(Level level, Marker marker, Message message, Throwable t) {
            return enabled(level);
        }

        @Override
        public boolean isEnabled(Level level, Marker marker, CharSequence message, Throwable t) {
            return enabled(level);
        }

        @Override
        public boolean isEnabled(Level level, Marker marker, Object message, Throwable t) {
            return enabled(level);
        }

        @Override
        public boolean isEnabled(Level level, Marker marker, String message, Throwable t) {
            return enabled(level);
        }

        @Override
        public boolean isEnabled(Level level, Marker marker, String message) {
            return enabled(level);
        }

        @Override
        public boolean isEnabled(Level level, Marker marker, String message, Object... params) {
            return enabled(level);
        }

        @Override
        public boolean isEnabled(Level level, Marker marker, String message, Object p0) {
            return enabled(level);
        }

        @Override
        public boolean isEnabled(Level level, Marker marker, String message, Object p0, Object p1) {
            return enabled(level);
        }

        @Override
        public boolean isEnabled(Level level, Marker marker, String message, Object p0, Object p1, Object p2) {
            return enabled(level);
        }

        @Override
        public boolean isEnabled(Level level, Marker marker, String message, Object p0, Object p1, Object p2,
                                 Object p3) {
            return enabled(level);
        }

        @Override
        public boolean isEnabled(Level level, Marker marker, String message, Object p0, Object p1, Object p2,
                                 Object p3, Object p4) {
            return enabled(level);
        }

        @Override
        public boolean isEnabled(Level level, Marker marker, String message, Object p0, Object p1, Object p2,
                                 Object p3, Object p4, Object p5) {
            return enabled(level);
        }

        @Override
        public boolean isEnabled(Level level, Marker marker, String message, Object p0, Object p1, Object p2,
                                 Object p3, Object p4, Object p5, Object p6) {
            return enabled(level);
        }

        @Override
        public boolean isEnabled(Level level, Marker marker, String message, Object p0, Object p1, Object p2,
                                 Object p3, Object p4, Object p5, Object p6, Object p7) {
            return enabled(level);
        }

        @Override
        public boolean isEnabled(Level level, Marker marker, String message, Object p0, Object p1, Object p2,
                                 Object p3, Object p4, Object p5, Object p6, Object p7, Object p8) {
            return enabled(level);
        }

        @Override
        public boolean isEnabled(Level level, Marker marker, String message, Object p0, Object p1, Object p2,
                                 Object p3, Object p4, Object p5, Object p6, Object p7, Object p8, Object p9) {
            return enabled(level);
        }
    }
}
