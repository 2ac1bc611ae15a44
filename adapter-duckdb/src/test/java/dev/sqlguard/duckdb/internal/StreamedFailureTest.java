package dev.sqlguard.duckdb.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.LimitKind;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.AuditEvent;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.domain.port.LifecycleRecord;
import dev.sqlguard.duckdb.TestDatabases;

/**
 * A streamed query whose error DuckDB JDBC hides ("Invalid result set") is run once more to find
 * the real one: a memory-limit failure comes back {@code EXCEEDED_MEMORY_LIMIT} with the memory
 * limit hit. Nothing else is run again: not an error the driver reported with its text, not a
 * timeout, not a cancel. {@code @Timeout} is only a hang guard; nothing here asserts a duration.
 */
class StreamedFailureTest {
    /** A list aggregate over 5M strings: far more than 20 MB, and DuckDB fails it while the result streams. */
    private static final String TOO_BIG = "SELECT length(list(CAST(a.id AS VARCHAR) || '-' || CAST(b.id AS VARCHAR))) AS n "
            + "FROM t a, (SELECT id FROM t LIMIT 50) b";
    /** A conversion that fails on every row, once the query runs. */
    private static final String BAD_CAST = "SELECT CAST(CAST(g AS VARCHAR) || 'x' AS INTEGER) AS v FROM t";

    @TempDir
    Path folder;

    private final QueryService service = new QueryService(AuditSink.discarding());

    private Path database() throws Exception {
        return TestDatabases.create(folder.resolve("m.duckdb"), TestDatabases.T_100K).toRealPath();
    }

    /** 20 MB and no spill folder, as an operator bounds memory strictly. */
    private static DuckDbSettings tight(Path db) {
        return new DuckDbSettings(db, Optional.empty(), Optional.empty(), 20_000_000L, 1);
    }

    private static GuardrailPolicy policy(Duration timeout) {
        return GuardrailPolicy.defaults().withLimits(Limits.defaults().withMemoryBytes(20_000_000L).withTimeout(timeout));
    }

    private ToolResult query(DuckDbEngine engine, String sql) {
        return service.query(engine.binding(), QueryRequest.of("m", sql));
    }

    private static DuckDbExecution execution(DuckDbEngine engine) {
        return (DuckDbExecution) engine.execution();
    }

    /** What the driver itself says about these queries when they stream: the premise of the re-run. */
    @Test
    @Timeout(60)
    void theDriverHidesTheErrorOfAStreamedQuery() throws Exception {
        DuckDbInstance instance = DuckDbInstance.acquire(tight(database()));
        try {
            for (String sql : new String[] {TOO_BIG, BAD_CAST}) {
                try (Connection c = instance.duplicate(); Statement st = c.createStatement()) {
                    assertThatThrownBy(() -> {
                        try (ResultSet rs = st.executeQuery(sql)) {
                            while (rs.next()) {
                                rs.getObject(1);
                            }
                        }
                    }).isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(ErrorMapper.isOpaque(e)).as(sql).isTrue();
                        assertThat(e.getCause()).isNull();
                        assertThat(ErrorMapper.map(e).code()).isEqualTo(ErrorCode.QUERY_FAILED);
                    });
                }
            }
        } finally {
            instance.release();
        }
    }

    @Test
    @Timeout(90)
    void aStreamedQueryOverTheMemoryLimitIsReportedAsSuch() throws Exception {
        try (DuckDbEngine engine = DuckDbEngine.open("m", policy(Duration.ofSeconds(60)), tight(database()))) {
            ToolResult r = query(engine, TOO_BIG);
            assertThat(r.status()).isEqualTo(ToolStatus.ERROR);
            assertThat(r.error().orElseThrow().code()).isEqualTo(ErrorCode.EXCEEDED_MEMORY_LIMIT);
            assertThat(r.limitsHit()).containsExactly(LimitKind.MEMORY);
            assertThat(r.rows()).isEmpty();
            assertThat(r.error().orElseThrow().message()).doesNotContainIgnoringCase("MiB").doesNotContain("SET ");
            assertThat(execution(engine).failuresRerun()).isEqualTo(1);
            assertThat(query(engine, "SELECT count(*) AS n FROM t").rows()).containsExactly(java.util.List.of(100_000L));
            FreshConnections connections = execution(engine).connections();
            Await.until(() -> connections.inUse() == 0 && connections.openConnections() == connections.stocked());
        }
    }

    /** The re-run finds any hidden error, not only memory: a conversion stays QUERY_FAILED, with what went wrong. */
    @Test
    @Timeout(90)
    void aHiddenConversionErrorIsFoundAndStaysQueryFailed() throws Exception {
        try (DuckDbEngine engine = DuckDbEngine.open("m", policy(Duration.ofSeconds(60)), tight(database()))) {
            ToolResult r = query(engine, BAD_CAST);
            assertThat(r.error().orElseThrow().code()).isEqualTo(ErrorCode.QUERY_FAILED);
            assertThat(r.error().orElseThrow().message()).contains("could not be converted").doesNotContain("memory");
            assertThat(r.limitsHit()).isEmpty();
            assertThat(execution(engine).failuresRerun()).isEqualTo(1);
        }
    }

    /** Controls: an error the driver reports with its text, a timeout and a cancel are never run again. */
    @Test
    @Timeout(90)
    void nothingButTheHiddenErrorIsRunAgain() throws Exception {
        try (DuckDbEngine engine = DuckDbEngine.open("m", policy(Duration.ofMillis(700)), tight(database()))) {
            // a LIMIT parameter is converted when the statement binds, before anything streams: the
            // driver reports DuckDB's own text
            ToolResult reported = service.query(engine.binding(), new QueryRequest("m",
                    "SELECT id FROM t LIMIT ?", java.util.List.of("abc"), "bad-limit"));
            assertThat(reported.error().orElseThrow().code()).isEqualTo(ErrorCode.QUERY_FAILED);
            assertThat(reported.error().orElseThrow().message()).contains("could not be converted");

            ToolResult runaway = query(engine, "SELECT sum(a.id * b.id) AS s FROM t a, t b");
            assertThat(runaway.error().orElseThrow().code()).isEqualTo(ErrorCode.EXCEEDED_TIME_LIMIT);
            assertThat(runaway.limitsHit()).containsExactly(LimitKind.TIMEOUT);
            assertThat(execution(engine).failuresRerun()).isZero();
        }
        CountDownLatch started = new CountDownLatch(1);
        QueryService cancelling = new QueryService(new AuditSink() {
            @Override
            public void audit(AuditEvent event) {
            }

            @Override
            public void lifecycle(LifecycleRecord record) {
                started.countDown();
            }
        });
        try (DuckDbEngine engine = DuckDbEngine.open("m", policy(Duration.ofSeconds(60)), tight(database2()))) {
            Thread canceller = new Thread(() -> {
                try {
                    started.await();
                    Thread.sleep(200);
                    cancelling.cancel("runaway");
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            canceller.start();
            ToolResult cancelled = cancelling.query(engine.binding(), new QueryRequest("m",
                    "SELECT sum(a.id * b.id) AS s FROM t a, t b", java.util.List.of(), "runaway"));
            canceller.join();
            assertThat(cancelled.error().orElseThrow().code()).isEqualTo(ErrorCode.CANCELLED);
            assertThat(execution(engine).failuresRerun()).isZero();
        }
    }

    /** When the re-run cannot tell (it succeeds, the deadline has passed, or the call was cancelled), the original failure stands. */
    @Test
    @Timeout(60)
    void aReRunThatCannotTellKeepsTheOriginalFailure() throws Exception {
        ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor();
        try (DuckDbEngine engine = DuckDbEngine.open("m", policy(Duration.ofSeconds(30)), tight(database()))) {
            QueryPlan fine = engine.validator().validate(QueryRequest.of("m", "SELECT count(*) AS n FROM t"));
            GuardException original = new GuardException(ErrorCode.QUERY_FAILED, "The query failed while running.");
            FreshConnections connections = execution(engine).connections();
            long later = System.nanoTime() + Duration.ofSeconds(20).toNanos();

            assertThat(new StreamedFailure().diagnose(fine, original, later, connections, watchdog, Optional.empty()))
                    .as("the re-run succeeds").isSameAs(original);
            QueryPlan tooBig = engine.validator().validate(QueryRequest.of("m", TOO_BIG));
            assertThat(new StreamedFailure().diagnose(tooBig, original, System.nanoTime() - 1, connections, watchdog,
                    Optional.empty())).as("no time left").isSameAs(original);
            StreamedFailure cancelled = new StreamedFailure();
            cancelled.stop(new GuardException(ErrorCode.CANCELLED));
            assertThat(cancelled.diagnose(tooBig, original, later, connections, watchdog, Optional.empty()).code())
                    .isEqualTo(ErrorCode.CANCELLED);
            assertThat(new StreamedFailure().diagnose(tooBig, original, later, connections, watchdog, Optional.empty()).code())
                    .as("the same call with time left finds the memory limit").isEqualTo(ErrorCode.EXCEEDED_MEMORY_LIMIT);
            Await.until(() -> connections.inUse() == 0 && connections.openConnections() == connections.stocked());
        } finally {
            watchdog.shutdownNow();
        }
    }

    private Path database2() throws Exception {
        return TestDatabases.create(folder.resolve("m2.duckdb"), TestDatabases.T_100K).toRealPath();
    }
}
