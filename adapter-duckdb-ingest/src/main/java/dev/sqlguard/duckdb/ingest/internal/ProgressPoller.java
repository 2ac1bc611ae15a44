package dev.sqlguard.duckdb.ingest.internal;

import static java.util.Objects.requireNonNull;

import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Consumer;
import org.duckdb.DuckDBPreparedStatement;

/**
 * Reports how far DuckDB has got with one running statement (a CSV, Parquet or JSON read): a
 * background thread asks the statement for its progress once per interval and sends a line such
 * as {@code claims.csv: 42% read} whenever the whole percentage has grown. The connection needs
 * {@code enable_progress_bar = true} (and {@code enable_progress_bar_print = false}, so DuckDB
 * itself prints nothing). The progress consumer is only called while the statement runs, from the
 * poller's thread, and never after {@link #close()} returns; an exception from the consumer stops
 * the polling and is rethrown by {@code close()}.
 */
final class ProgressPoller implements AutoCloseable {
    static final Duration INTERVAL = Duration.ofSeconds(1);

    /** Where the percentage comes from: 0 to 100, or negative while DuckDB cannot tell. */
    interface Source {
        double percentage() throws SQLException;
    }

    private final Source source;
    private final String what;
    private final Consumer<String> progress;
    private final Duration interval;
    private final Object lock = new Object();
    private Thread thread;
    private boolean stopped;
    private int reported;
    private RuntimeException failure;

    ProgressPoller(Source source, String what, Consumer<String> progress, Duration interval) {
        this.source = requireNonNull(source, "source is null");
        this.what = requireNonNull(what, "what is null");
        this.progress = requireNonNull(progress, "progress is null");
        this.interval = requireNonNull(interval, "interval is null");
    }

    /** Starts polling {@code statement}; {@code what} reads like {@code claims.csv: %d%% read}. */
    static ProgressPoller start(Statement statement, String what, Consumer<String> progress) throws SQLException {
        return start(statement, what, progress, INTERVAL);
    }

    static ProgressPoller start(Statement statement, String what, Consumer<String> progress, Duration interval)
            throws SQLException {
        DuckDBPreparedStatement duck = statement.unwrap(DuckDBPreparedStatement.class);
        ProgressPoller poller = new ProgressPoller(() -> duck.getQueryProgress().getPercentage(), what, progress,
                interval);
        poller.startThread();
        return poller;
    }

    void startThread() {
        Thread t = new Thread(this::run, "sqlguard-load-progress");
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    private void run() {
        long wait = interval.toMillis();
        synchronized (lock) {
            while (!stopped) {
                try {
                    lock.wait(wait);
                } catch (InterruptedException e) {
                    return;
                }
                if (!stopped && !poll()) {
                    return;
                }
            }
        }
    }

    /**
     * One look at the statement's progress: reports the whole percentage when it has grown since
     * the last line. Returns false when polling should stop.
     */
    boolean poll() {
        double percentage;
        try {
            percentage = source.percentage();
        } catch (SQLException e) {
            return false; // the statement finished or the connection closed: nothing more to report
        }
        int whole = (int) Math.floor(Math.min(percentage, 100));
        if (whole <= reported || whole >= 100) {
            return true;
        }
        reported = whole;
        try {
            progress.accept(String.format(Locale.ROOT, what, whole));
        } catch (RuntimeException e) {
            failure = e;
            return false;
        }
        return true;
    }

    @Override
    public void close() {
        Thread t = thread;
        synchronized (lock) {
            stopped = true;
            lock.notifyAll();
        }
        if (t != null) {
            boolean interrupted = false;
            while (t.isAlive()) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
