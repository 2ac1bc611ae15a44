package dev.sqlguard.duckdb;

import static dev.sqlguard.duckdb.TestDatabases.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

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
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.ResultCursor;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;
import dev.sqlguard.duckdb.internal.DuckDbEngine;

/** Time and memory bounds on a real file; {@code @Timeout} is only a hang guard. */
class DuckDbExecutionLimitsTest {
    @TempDir
    Path folder;
    @TempDir
    Path work;

    private Path database() throws Exception {
        return TestDatabases.create(folder.resolve("big.duckdb"), TestDatabases.T_100K);
    }

    private static GuardrailPolicy timeout(Duration timeout) {
        return GuardrailPolicy.defaults().withLimits(Limits.defaults().withTimeout(timeout));
    }

    /** The query blocks before its first row (a huge aggregate): the watchdog cancels it. */
    @Test
    @Timeout(30)
    void aRunawayAggregateStopsAtTheTimeout() throws Exception {
        try (DuckDbEngine engine = TestDatabases.engine(database(), work, timeout(Duration.ofMillis(500)))) {
            ToolResult r = query(engine, "SELECT sum(a.id * b.id) FROM t a, t b");
            assertThat(r.status()).isEqualTo(ToolStatus.ERROR);
            assertThat(r.error().orElseThrow().code()).isEqualTo(ErrorCode.EXCEEDED_TIME_LIMIT);
            assertThat(r.limitsHit()).contains(LimitKind.TIMEOUT);
            assertThat(query(engine, "SELECT count(*) FROM t").error()).isEmpty();
        }
    }

    /**
     * A cancel reaches an aggregate that has not returned its first row yet (DuckDB's executeQuery
     * blocks for the whole aggregate): the cursor is cancellable from the moment it exists.
     */
    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aRunawayAggregateIsCancelledByRequestIdBeforeItsFirstRow() throws Exception {
        java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
        dev.sqlguard.domain.QueryService service = new dev.sqlguard.domain.QueryService(new dev.sqlguard.domain.port.AuditSink() {
            @Override
            public void audit(dev.sqlguard.domain.port.AuditEvent event) {
            }

            @Override
            public void lifecycle(dev.sqlguard.domain.port.LifecycleRecord record) {
                started.countDown();
            }
        });
        try (DuckDbEngine engine = TestDatabases.engine(database(), work, timeout(Duration.ofSeconds(600)))) {
            QueryRequest request = new QueryRequest("claims", "SELECT sum(a.id * b.id) FROM t a, t b", java.util.List.of(), "req-agg");
            java.util.concurrent.CompletableFuture<ToolResult> running = java.util.concurrent.CompletableFuture.supplyAsync(
                    () -> service.query(engine.binding(), request));
            started.await();
            Thread.sleep(200); // usually inside executeQuery by now; a cancel before that works too
            service.cancel("req-agg");

            ToolResult r = running.get();
            assertThat(r.error().orElseThrow().code()).isEqualTo(ErrorCode.CANCELLED);
            assertThat(query(engine, "SELECT count(*) FROM t").error()).isEmpty();
        }
    }

    /**
     * Measured: with streaming, cancel() and the JDBC timeout do not interrupt rs.next(); the
     * watchdog closes the result set. Here executeQuery returns with the first rows and the next
     * rs.next() blocks inside the driver (measured: it is still blocked when the deadline passes);
     * the watchdog unblocks it and the read fails with the time code.
     */
    @Test
    @Timeout(30)
    void aStreamedQueryBeingReadStopsAtTheTimeout() throws Exception {
        GuardrailPolicy policy = GuardrailPolicy.defaults().withLimits(Limits.defaults()
                .withTimeout(Duration.ofMillis(500)).withMaxRows(1_000_000));
        try (DuckDbEngine engine = TestDatabases.engine(database(), work, policy)) {
            String sql = "SELECT CASE WHEN range % 7 = 0 THEN range END AS v, repeat('x', 200) AS pad FROM range(100000000000)";
            QueryPlan plan = engine.validator().validate(QueryRequest.of("claims", sql));
            long start = System.nanoTime();
            long rows = 0;
            try (ResultCursor cursor = engine.execution().execute(plan)) {
                assertThat(cursor.next()).isTrue(); // executeQuery returned: the stream is being read
                GuardException stopped = null;
                try {
                    while (cursor.next()) {
                        rows++;
                    }
                } catch (GuardException e) {
                    stopped = e;
                }
                assertThat(stopped).as("read " + rows + " rows without hitting the deadline").isNotNull();
                assertThat(stopped.code()).isEqualTo(ErrorCode.EXCEEDED_TIME_LIMIT);
            }
            long lateMillis = (System.nanoTime() - start) / 1_000_000 - 500;
            System.out.println("timeout fired " + lateMillis + " ms after the deadline, after " + rows + " rows");
            assertThat(rows).isLessThan(1_000_000);
            assertThat(query(engine, "SELECT count(*) FROM t").error()).isEmpty();
        }
    }

    /** close() stops a streamed query after one row; draining 10^10 rows would hit the hang guard. */
    @Test
    @Timeout(30)
    void closingTheCursorStopsTheQueryInsteadOfDrainingIt() throws Exception {
        try (DuckDbEngine engine = TestDatabases.engine(database(), work, timeout(Duration.ofSeconds(60)))) {
            QueryPlan plan = engine.validator().validate(QueryRequest.of("claims", "SELECT a.id, b.id FROM t a, t b"));
            try (ResultCursor cursor = engine.execution().execute(plan)) {
                assertThat(cursor.next()).isTrue();
                assertThat(cursor.columns()).hasSize(2);
            }
            QueryPlan cancelled = engine.validator().validate(QueryRequest.of("claims", "SELECT a.id FROM t a, t b"));
            try (ResultCursor cursor = engine.execution().execute(cancelled)) {
                assertThat(cursor.next()).isTrue();
                cursor.cancel();
                assertThatThrownBy(cursor::next).isInstanceOfSatisfying(GuardException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CANCELLED));
            }
        }
    }

    /**
     * memory_limit applies: the same query fails under a 20 MB limit with spilling disabled and
     * succeeds under the default limit. DuckDB JDBC 2.0.0.1 hides the cause of a streamed query's
     * runtime error; the engine runs the query once more to find it, so the failure is
     * EXCEEDED_MEMORY_LIMIT with the memory limit hit (see docs/engines/duckdb.md).
     */
    @Test
    @Timeout(60)
    void memoryLimitAppliesAndSpillingCanBeDisabled() throws Exception {
        String sql = "SELECT length(list(CAST(a.id AS VARCHAR) || '-' || CAST(b.id AS VARCHAR))) AS n "
                + "FROM t a, (SELECT id FROM t LIMIT 50) b";
        Path db = database();
        GuardrailPolicy tight = GuardrailPolicy.defaults().withLimits(Limits.defaults().withMemoryBytes(20_000_000L));
        EngineConfig config = new EngineConfig("claims", Map.of("database", db.toString(), "tempDirectory", "disabled"), tight);
        try (DuckDbEngine engine = (DuckDbEngine) new DuckDbEngineFactory().create(config, EngineContext.of(work))) {
            assertThat(engine.settings().tempDirectory()).isEmpty();
            assertThat(engine.settings().memoryBytes()).isEqualTo(20_000_000L);
            ToolResult r = query(engine, sql);
            assertThat(r.status()).isEqualTo(ToolStatus.ERROR);
            assertThat(r.error().orElseThrow().code()).isEqualTo(ErrorCode.EXCEEDED_MEMORY_LIMIT);
            assertThat(r.limitsHit()).containsExactly(LimitKind.MEMORY);
            assertThat(query(engine, "SELECT count(*) FROM t").error()).isEmpty();
        }
        try (DuckDbEngine roomy = TestDatabases.engine(db, work, GuardrailPolicy.defaults())) {
            ToolResult r = query(roomy, sql);
            assertThat(r.error()).isEmpty();
            assertThat(r.rows().get(0).get(0)).isEqualTo(5_000_000L);
        }
    }

    /** With a temp folder outside the database's folder, a large aggregate spills there and finishes. */
    @Test
    @Timeout(60)
    void bigAggregatesSpillIntoThePrivateTempFolder() throws Exception {
        Path db = database();
        GuardrailPolicy tight = GuardrailPolicy.defaults().withLimits(Limits.defaults().withMemoryBytes(30_000_000L)
                .withTimeout(Duration.ofSeconds(50)));
        EngineConfig config = new EngineConfig("claims", Map.of("database", db.toString(), "maxTempSize", "2GB"), tight);
        try (DuckDbEngine engine = (DuckDbEngine) new DuckDbEngineFactory().create(config, EngineContext.of(work))) {
            Path realWork = work.toRealPath();
            assertThat(engine.settings().tempDirectory()).hasValueSatisfying(p -> assertThat(p).startsWith(realWork));
            ToolResult r = query(engine, "SELECT count(*) FROM (SELECT a.id * 1000 + b.id AS k, count(*) FROM t a, "
                    + "(SELECT id FROM t LIMIT 30) b GROUP BY k)");
            assertThat(r.error()).isEmpty();
            assertThat(r.rows().get(0).get(0)).isEqualTo(3_000_000L);
        }
    }

    /**
     * DuckDB does not hold the spill folder to max_temp_directory_size itself; the spill guard does:
     * a GROUP BY over ten million keys under a 30 MB memory limit needs far more than 4 MB of spill
     * files, so it stops with EXCEEDED_DISK_LIMIT and {@code disk} in limits_hit, the instance keeps
     * answering, and closing it leaves no spill file behind (and nothing else in the folder is touched).
     */
    @Test
    @Timeout(120)
    void theSpillFolderIsHeldToItsBound() throws Exception {
        Path db = database();
        Path spill = java.nio.file.Files.createDirectories(work.resolve("spill"));
        Path other = java.nio.file.Files.writeString(spill.resolve("notes.txt"), "not DuckDB's");
        GuardrailPolicy tight = GuardrailPolicy.defaults().withLimits(Limits.defaults().withMemoryBytes(30_000_000L)
                .withTimeout(Duration.ofSeconds(100)));
        EngineConfig config = new EngineConfig("claims",
                Map.of("database", db.toString(), "tempDirectory", spill.toString(), "maxTempSize", "4MB"), tight);
        try (DuckDbEngine engine = (DuckDbEngine) new DuckDbEngineFactory().create(config, EngineContext.of(work))) {
            ToolResult r = query(engine, "SELECT count(*) FROM (SELECT a.id * 1000 + b.id AS k, count(*) FROM t a, "
                    + "(SELECT id FROM t LIMIT 100) b GROUP BY k)");
            assertThat(r.status()).isEqualTo(ToolStatus.ERROR);
            assertThat(r.error().orElseThrow().code()).isEqualTo(ErrorCode.EXCEEDED_DISK_LIMIT);
            assertThat(r.limitsHit()).contains(LimitKind.DISK);
            assertThat(query(engine, "SELECT count(*) FROM t").rows().get(0).get(0)).isEqualTo(100_000L);
        }
        try (var left = java.nio.file.Files.list(spill)) {
            assertThat(left.filter(f -> f.getFileName().toString().startsWith("duckdb_temp"))).isEmpty();
        }
        assertThat(other).hasContent("not DuckDB's");
    }
}
