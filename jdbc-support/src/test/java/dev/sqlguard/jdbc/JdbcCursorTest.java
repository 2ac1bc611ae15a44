package dev.sqlguard.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.ResultColumn;

/** The kit's cursor over a real streaming driver (an in-memory DuckDB): every way a query ends. */
@Timeout(value = 60, unit = TimeUnit.SECONDS) // hang guard only: no test asserts a duration
class JdbcCursorTest {
    /** Runs until stopped: the aggregate reads ten billion generated rows before its one row streams. */
    private static final String RUNAWAY = "SELECT count(*) FROM range(10000000000) t(i) WHERE i % 7 = 3";

    private ScheduledExecutorService watchdog;
    private Connection connection;
    private final AtomicInteger released = new AtomicInteger();
    private final AtomicInteger closedHooks = new AtomicInteger();

    @BeforeEach
    void open() throws SQLException {
        watchdog = Watchdogs.forSource("test", "cursor");
        Properties streaming = new Properties();
        streaming.setProperty("jdbc_stream_results", "true"); // rows stream: a result is never materialized
        connection = DriverManager.getConnection("jdbc:duckdb:", streaming);
        try (var settings = connection.createStatement()) { // a runaway must never take the machine's memory
            settings.execute("SET memory_limit = '256MB'");
            settings.execute("SET threads = 1");
        }
    }

    @AfterEach
    void close() {
        JdbcCursor.closeQuietly(connection);
        watchdog.shutdownNow();
    }

    private JdbcCursor.Builder cursor(String sql, long timeoutMillis) throws SQLException {
        return JdbcCursor.over(connection, connection.createStatement())
                .sql(sql)
                .deadline(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis), watchdog)
                .closeResultToStop()
                .errors(e -> new GuardException(ErrorCode.QUERY_FAILED))
                .release(c -> released.incrementAndGet())
                .onClose(c -> closedHooks.incrementAndGet());
    }

    @Test
    void streamsRowsAsTheDomainsTypes() throws SQLException {
        try (JdbcCursor c = cursor("SELECT 7::INTEGER AS n, DATE '2024-01-31' AS d, TIMESTAMP '2024-01-31 10:00:00' AS ts, "
                + "1.50::DECIMAL(5,2) AS m, [1, 2] AS l, NULL AS z", 30_000).start()) {
            assertThat(c.columns()).extracting(col -> col.name()).containsExactly("n", "d", "ts", "m", "l", "z");
            assertThat(c.next()).isTrue();
            assertThat(c.get(0)).isEqualTo(7);
            assertThat(c.get(1)).isEqualTo(LocalDate.of(2024, 1, 31));
            assertThat(c.get(2)).isEqualTo(LocalDateTime.of(2024, 1, 31, 10, 0));
            assertThat(c.get(3)).isEqualTo(new BigDecimal("1.50"));
            assertThat(c.get(4)).isEqualTo(List.of(1, 2));
            assertThat(c.get(5)).isNull();
            assertThat(c.next()).isFalse();
        }
        assertThat(released).hasValue(1);
        assertThat(closedHooks).hasValue(1);
    }

    @Test
    void theDeadlineStopsABlockedQueryAsATimeout() throws SQLException {
        JdbcCursor.Builder runaway = cursor(RUNAWAY, 300);
        assertThatThrownBy(() -> {
            try (JdbcCursor c = runaway.start()) {
                c.next();
            }
        }).isInstanceOfSatisfying(GuardException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.EXCEEDED_TIME_LIMIT);
            assertThat(e.safeMessage()).isEqualTo(JdbcCursor.TIMED_OUT);
        });
        assertThat(released).hasValue(1);
        assertThatEngineStillAnswers();
    }

    @Test
    void aCancelFromAnotherThreadStopsTheQuery() throws Exception {
        JdbcCursor c = cursor(RUNAWAY, 60_000).build();
        watchdog.schedule(c::cancel, 200, TimeUnit.MILLISECONDS);
        assertThatThrownBy(() -> {
            c.start();
            c.next();
        }).isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CANCELLED));
        c.close();
        assertThat(released).hasValue(1);
        assertThatEngineStillAnswers();
    }

    @Test
    void theFirstReasonToStopWinsOverTheDriversErrorAndLaterReasons() throws Exception {
        JdbcCursor c = cursor(RUNAWAY, 60_000).build();
        watchdog.schedule(() -> c.stop(new GuardException(ErrorCode.EXCEEDED_DISK_LIMIT)), 200, TimeUnit.MILLISECONDS);
        watchdog.schedule(c::cancel, 400, TimeUnit.MILLISECONDS);
        assertThatThrownBy(() -> {
            c.start();
            c.next();
        }).isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.EXCEEDED_DISK_LIMIT));
        assertThat(c.isStopped()).isTrue();
        assertThatThrownBy(c::next).isInstanceOfSatisfying(GuardException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.EXCEEDED_DISK_LIMIT));
        c.close();
    }

    @Test
    void anExecutionRunsTheStatementAndGivesTheQuerysResult() throws SQLException {
        java.sql.Statement statement = connection.createStatement();
        try (JdbcCursor c = JdbcCursor.over(connection, statement)
                .execution(s -> {
                    assertThat(s).isSameAs(statement);
                    s.execute("SELECT 41 AS n");
                    return s.executeQuery("SELECT 42 AS n");
                })
                .deadline(System.nanoTime() + TimeUnit.SECONDS.toNanos(30), watchdog)
                .errors(e -> new GuardException(ErrorCode.QUERY_FAILED))
                .release(c2 -> released.incrementAndGet())
                .start()) {
            assertThat(c.next()).isTrue();
            assertThat(c.get(0)).isEqualTo(42);
        }
        assertThat(released).hasValue(1);
    }

    @Test
    void aRefusalFromTheExecutionReachesTheCallerAndNoStopIsSent() throws SQLException {
        AtomicInteger stops = new AtomicInteger();
        java.util.concurrent.atomic.AtomicBoolean halted = new java.util.concurrent.atomic.AtomicBoolean();
        JdbcCursor.Builder refused = JdbcCursor.over(connection, connection.createStatement())
                .execution(s -> {
                    throw new GuardException(ErrorCode.READ_ONLY_NOT_ENFORCED, "The session is not the pinned one.");
                })
                .deadline(System.nanoTime() + TimeUnit.SECONDS.toNanos(30), watchdog)
                .stopping(JdbcCursor.StopPath.by(stops::incrementAndGet))
                .errors(e -> new GuardException(ErrorCode.QUERY_FAILED))
                .release((c, wasHalted) -> {
                    halted.set(wasHalted);
                    released.incrementAndGet();
                });
        assertThatThrownBy(refused::start).isInstanceOfSatisfying(GuardException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.READ_ONLY_NOT_ENFORCED));
        assertThat(stops).as("stops sent").hasValue(0);
        assertThat(released).hasValue(1);
        assertThat(halted).isFalse();
    }

    @Test
    void aQueryCancelledBeforeItStartsNeverRuns() throws SQLException {
        JdbcCursor c = cursor("SELECT 1", 30_000).build();
        c.cancel();
        assertThatThrownBy(c::start).isInstanceOfSatisfying(GuardException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.CANCELLED));
        assertThat(released).hasValue(1);
        assertThat(closedHooks).hasValue(1);
    }

    @Test
    void aDeadlineThatHasPassedRefusesToStart() throws SQLException {
        JdbcCursor.Builder late = cursor("SELECT 1", 0);
        assertThatThrownBy(late::start).isInstanceOfSatisfying(GuardException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.EXCEEDED_TIME_LIMIT));
        assertThat(released).hasValue(1);
    }

    @Test
    void closingMidStreamStopsTheQueryInsteadOfDrainingIt() throws SQLException {
        JdbcCursor c = cursor("SELECT i, repeat('x', 100) FROM range(10000000000) t(i)", 600_000).start();
        assertThat(c.next()).isTrue();
        c.close(); // a drain would read ten billion rows: the hang guard would fail the test
        c.close();
        assertThat(released).hasValue(1);
        assertThat(closedHooks).hasValue(1);
        assertThatThrownBy(c::next).isInstanceOfSatisfying(GuardException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.CANCELLED));
        assertThatEngineStillAnswers();
    }

    @Test
    void driverErrorsReachTheCallerOnlyThroughTheEnginesMapper() throws SQLException {
        JdbcCursor.Builder failing = cursor("SELECT error('secret value 42')", 30_000);
        assertThatThrownBy(failing::start).isInstanceOfSatisfying(GuardException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.QUERY_FAILED);
            assertThat(e.safeMessage()).doesNotContain("secret");
        });
        assertThat(released).hasValue(1);
    }

    @Test
    void aResultWhoseLabelsDifferFromThePlanIsAnInternalError() throws SQLException {
        JdbcCursor.Builder mismatched = cursor("SELECT 1 AS a, 2 AS b", 30_000).expectLabels(List.of("a", "c"));
        assertThatThrownBy(mismatched::start).isInstanceOfSatisfying(GuardException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.INTERNAL_ERROR));
        JdbcCursor.Builder fewer = cursor("SELECT 1 AS a", 30_000).expectLabels(List.of("a", "b"));
        assertThatThrownBy(fewer::start).isInstanceOfSatisfying(GuardException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.INTERNAL_ERROR));
        assertThat(released).hasValue(2);
        try (JdbcCursor ok = cursor("SELECT 1 AS a, 2 AS b", 30_000).expectLabels(List.of("a", "b")).start()) {
            assertThat(ok.next()).isTrue();
        }
    }

    @Test
    void labelsFromThePlanNameTheColumnsAndAnotherNumberOfColumnsIsStillAnInternalError() throws SQLException {
        try (JdbcCursor named = cursor("SELECT 1 AS a, 2 AS b", 30_000).labelsFromPlan(List.of("a", "c")).start()) {
            assertThat(named.columns()).extracting(ResultColumn::name).containsExactly("a", "c");
            assertThat(named.next()).isTrue();
        }
        JdbcCursor.Builder fewer = cursor("SELECT 1 AS a", 30_000).labelsFromPlan(List.of("a", "b"));
        assertThatThrownBy(fewer::start).isInstanceOfSatisfying(GuardException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.INTERNAL_ERROR));
        JdbcCursor.Builder more = cursor("SELECT 1 AS a, 2 AS b, 3 AS c", 30_000).labelsFromPlan(List.of("a", "b"));
        assertThatThrownBy(more::start).isInstanceOfSatisfying(GuardException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.INTERNAL_ERROR));
    }

    @Test
    void theReleaseHearsWhetherAStopReachedTheStatement() throws SQLException {
        List<Boolean> halted = new java.util.ArrayList<>();
        try (JdbcCursor done = cursor("SELECT 1", 30_000).release((c, stopped) -> halted.add(stopped)).start()) {
            assertThat(done.next()).isTrue();
            assertThat(done.next()).isFalse();
        }
        JdbcCursor cut = cursor("SELECT i FROM range(10000000000) t(i)", 600_000).release((c, stopped) -> halted.add(stopped)).start();
        assertThat(cut.next()).isTrue();
        cut.close(); // still streaming: the stop reaches the statement
        assertThat(halted).containsExactly(false, true);
    }

    @Test
    void theFlavorsTypeDecidesTheTypeEachValueIsReadAs() throws SQLException {
        List<Integer> seen = new java.util.ArrayList<>();
        JdbcCursor.Flavor flavor = new JdbcCursor.Flavor() {
            @Override
            public int type(java.sql.ResultSetMetaData metadata, int column) throws SQLException {
                return column == 1 ? java.sql.Types.VARCHAR : metadata.getColumnType(column);
            }

            @Override
            public Object read(java.sql.ResultSet rs, int column, int type) throws SQLException {
                seen.add(type);
                return JdbcValues.STANDARD.read(rs, column, type);
            }
        };
        try (JdbcCursor c = cursor("SELECT 7::INTEGER AS n, 'x' AS s", 30_000).flavor(flavor).start()) {
            assertThat(c.next()).isTrue();
            assertThat(c.get(0)).isEqualTo(7);
        }
        assertThat(seen).containsExactly(java.sql.Types.VARCHAR, java.sql.Types.VARCHAR);
    }

    @Test
    void theFlavorsEndCheckRefusesAResultOnceItsLastRowIsRead() throws SQLException {
        JdbcCursor.Flavor flavor = new JdbcCursor.Flavor() {
            @Override
            public Object read(java.sql.ResultSet rs, int column, int type) throws SQLException {
                return JdbcValues.STANDARD.read(rs, column, type);
            }

            @Override
            public void atEnd(java.sql.Statement statement) {
                throw new GuardException(ErrorCode.QUERY_FAILED, "The result is incomplete.");
            }
        };
        try (JdbcCursor c = cursor("SELECT 1 AS n", 30_000).flavor(flavor).start()) {
            assertThat(c.next()).isTrue();
            assertThatThrownBy(c::next).isInstanceOfSatisfying(GuardException.class,
                    e -> assertThat(e.safeMessage()).isEqualTo("The result is incomplete."));
        }
    }

    /** A server that took the stop but dropped it (PostgreSQL, when the stop lands before the statement runs). */
    @Test
    void aStopTheServerDroppedIsSentAgainWhileTheCallerWaits() throws Exception {
        AtomicInteger stops = new AtomicInteger();
        List<String> abortedBy = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.sql.Statement statement = connection.createStatement();
        JdbcCursor c = JdbcCursor.over(connection, statement).sql(RUNAWAY)
                .deadline(System.nanoTime() + TimeUnit.SECONDS.toNanos(60), watchdog)
                .stopping(JdbcCursor.StopPath.by(() -> {
                    if (stops.incrementAndGet() > 2) { // the first two are taken and dropped
                        statement.cancel();
                    }
                })
                        .abortAfter(java.time.Duration.ofSeconds(20), aborted -> abortedBy.add(Thread.currentThread().getName()))
                        .repeated())
                .errors(e -> new GuardException(ErrorCode.QUERY_FAILED))
                .release((c2, halted) -> released.incrementAndGet())
                .build();
        watchdog.schedule(c::cancel, 200, TimeUnit.MILLISECONDS);
        assertThatThrownBy(() -> {
            c.start();
            c.next();
        }).isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CANCELLED));
        assertThat(stops.get()).isGreaterThanOrEqualTo(3);
        assertThat(c.stopsRepeated()).isPositive(); // one more may come from the re-stop of a statement still starting
        // the grace never ran out (its abort would run on the watchdog); the closing cursor bounds its wait
        // with a network timeout, which DuckDB does not support, so it aborts on the caller's thread instead
        assertThat(abortedBy).noneMatch(thread -> thread.contains("watchdog"));
        c.close();
        assertThat(released).hasValue(1);
        assertThatEngineStillAnswers();
    }

    @Test
    void repeatingAStopNeedsTheAbortPath() {
        JdbcCursor.StopPath noAbort = JdbcCursor.StopPath.cancel();
        assertThatThrownBy(noAbort::repeated).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aCursorNeedsADeadline() throws SQLException {
        JdbcCursor.Builder noDeadline = JdbcCursor.over(connection, connection.createStatement())
                .sql("SELECT 1").errors(e -> new GuardException(ErrorCode.QUERY_FAILED));
        assertThatThrownBy(noDeadline::build).isInstanceOf(IllegalStateException.class);
    }

    private void assertThatEngineStillAnswers() throws SQLException {
        try (JdbcCursor c = JdbcCursor.over(connection, connection.createStatement()).sql("SELECT 42")
                .deadline(System.nanoTime() + TimeUnit.SECONDS.toNanos(30), watchdog)
                .errors(e -> new GuardException(ErrorCode.QUERY_FAILED))
                .release(c2 -> { })
                .start()) {
            assertThat(c.next()).isTrue();
            assertThat(c.get(0)).isEqualTo(42);
        }
    }
}
