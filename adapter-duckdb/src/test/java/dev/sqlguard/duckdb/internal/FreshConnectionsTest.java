package dev.sqlguard.duckdb.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.duckdb.TestDatabases;

/**
 * The stock of ready per-call connections keeps the per-call isolation and the instance's
 * lifecycle: a connection goes to one call only and is never reused, stocked connections carry
 * the locked configuration, cancel and timeouts work on them, and closing leaves none open (a
 * stocked duplicate would keep DuckDB's instance alive, and the file could not be reopened with
 * other settings). {@code @Timeout} is only a hang guard; nothing here asserts a duration.
 */
class FreshConnectionsTest {
    @TempDir
    Path folder;
    @TempDir
    Path temp;

    private Path database() throws Exception {
        return TestDatabases.create(folder.resolve("x.duckdb"), TestDatabases.T_100K).toRealPath();
    }

    private DuckDbSettings settings(Path db, long memoryBytes) throws Exception {
        return new DuckDbSettings(db, Optional.of(temp.toRealPath()), Optional.of("1GB"), memoryBytes, 1);
    }

    @Test
    @Timeout(60)
    void aCallThatLeavesAConnectionInStockHandsTheBackgroundOneTaskThatClosesAndTopsUp() throws Exception {
        DuckDbInstance instance = DuckDbInstance.acquire(settings(database(), 100_000_000L));
        try (FreshConnections connections = new FreshConnections(instance, "t")) {
            Await.until(() -> connections.stocked() == FreshConnections.READY);
            long tasksBefore = connections.backgroundTasks();
            Set<Connection> seen = Collections.newSetFromMap(new IdentityHashMap<>());
            int calls = 20;
            for (int i = 0; i < calls; i++) {
                Connection c = connections.take();
                assertThat(seen.add(c)).as("a connection no call had before").isTrue();
                connections.retire(c);
                Await.until(c::isClosed);
                Await.until(() -> connections.stocked() == FreshConnections.READY); // topped up by the closing task
            }
            assertThat(connections.backgroundTasks() - tasksBefore).as("one task per call").isEqualTo(calls);
            assertThat(connections.openedOnCall()).isZero();
            assertThat(connections.openConnections()).isEqualTo(FreshConnections.READY);
        } finally {
            instance.release();
        }
    }

    @Test
    @Timeout(60)
    void aCallThatEmptiesTheStockRefillsItWhileTheCallsStillRun() throws Exception {
        DuckDbInstance instance = DuckDbInstance.acquire(settings(database(), 100_000_000L));
        try (FreshConnections connections = new FreshConnections(instance, "t")) {
            Await.until(() -> connections.stocked() == FreshConnections.READY);
            List<Connection> held = new ArrayList<>();
            for (int i = 0; i < FreshConnections.READY; i++) {
                held.add(connections.take());
            }
            Await.until(() -> connections.stocked() == FreshConnections.READY); // no call has ended yet
            assertThat(connections.inUse()).isEqualTo(FreshConnections.READY);
            for (Connection c : held) {
                connections.retire(c);
                Await.until(c::isClosed);
            }
            assertThat(connections.openedOnCall()).isZero();
        } finally {
            instance.release();
        }
    }

    @Test
    @Timeout(60)
    void aConnectionIsHandedOutOnceAndNeverReused() throws Exception {
        DuckDbInstance instance = DuckDbInstance.acquire(settings(database(), 100_000_000L));
        try (FreshConnections connections = new FreshConnections(instance, "t")) {
            Await.until(() -> connections.stocked() == FreshConnections.READY);
            Connection first = connections.take();
            connections.retire(first);
            Await.until(first::isClosed); // a used connection is closed, never stocked again
            Set<Connection> seen = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
            seen.add(first);
            int threads = 8;
            int perThread = 100;
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                CountDownLatch go = new CountDownLatch(1);
                List<Future<Integer>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    done.add(pool.submit(() -> {
                        go.await();
                        int fresh = 0;
                        for (int i = 0; i < perThread; i++) {
                            Connection c = connections.take();
                            assertThat(c.isClosed()).isFalse();
                            if (seen.add(c)) {
                                fresh++;
                            }
                            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT 1")) {
                                rs.next();
                            }
                            connections.retire(c);
                        }
                        return fresh;
                    }));
                }
                go.countDown();
                int fresh = 0;
                for (Future<Integer> f : done) {
                    fresh += f.get();
                }
                assertThat(fresh).as("every take got a connection no call had before").isEqualTo(threads * perThread);
            } finally {
                pool.shutdownNow();
            }
            assertThat(connections.servedFromStock() + connections.openedOnCall()).isEqualTo(1L + threads * perThread);
            assertThat(connections.servedFromStock()).isPositive();
            assertThat(connections.inUse()).isZero();
            Await.until(() -> connections.openConnections() == connections.stocked()); // only the stock stays open
            for (Connection c : seen) {
                Await.until(c::isClosed);
            }
        } finally {
            instance.release();
        }
    }

    @Test
    @Timeout(60)
    void aStockedConnectionHoldsTheLockedConfiguration() throws Exception {
        DuckDbSettings settings = settings(database(), 123_000_000L);
        DuckDbInstance instance = DuckDbInstance.acquire(settings);
        try (FreshConnections connections = new FreshConnections(instance, "t")) {
            Await.until(() -> connections.stocked() == FreshConnections.READY);
            Connection stocked = connections.take();
            assertThat(connections.servedFromStock()).isEqualTo(1);
            try (Statement st = stocked.createStatement()) {
                DuckDbInstance.verify(stocked, settings);
                for (String change : new String[] {"SET enable_external_access = true", "SET lock_configuration = false",
                        "RESET memory_limit", "SET threads = 8", "PRAGMA enable_external_access"}) {
                    assertThatThrownBy(() -> st.execute(change)).isInstanceOf(SQLException.class);
                }
                assertThatThrownBy(() -> st.execute("CREATE TABLE x (a INTEGER)")).isInstanceOf(SQLException.class);
            } finally {
                connections.retire(stocked);
            }
        } finally {
            instance.release();
        }
    }

    @Test
    @Timeout(60)
    void closingClosesTheStockAndRefusesFurtherTakes() throws Exception {
        DuckDbInstance instance = DuckDbInstance.acquire(settings(database(), 100_000_000L));
        try {
            FreshConnections connections = new FreshConnections(instance, "t", 3);
            Await.until(() -> connections.stocked() == 3);
            Connection held = connections.take(); // a call still running when the engine closes
            assertThat(connections.stocked()).as("topped up when the call ends, not before").isEqualTo(2);
            assertThat(connections.openConnections()).isEqualTo(3);
            connections.close();
            assertThat(connections.stocked()).isZero();
            assertThat(connections.openConnections()).as("only the connection a call still holds").isEqualTo(1);
            assertThat(held.isClosed()).isFalse();
            assertThatThrownBy(connections::take).isInstanceOfSatisfying(GuardException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.ENGINE_UNAVAILABLE));
            connections.retire(held); // the call ends after the close: its connection closes at once
            assertThat(held.isClosed()).isTrue();
            assertThat(connections.openConnections()).isZero();
            connections.close(); // idempotent
        } finally {
            instance.release();
        }
    }

    /**
     * The control shows why this matters: one duplicate left open after the last release keeps
     * DuckDB's instance alive, and the file cannot be reopened with other settings. An engine's
     * stock, filled before it closed, does not.
     */
    @Test
    @Timeout(60)
    void aStockFilledBeforeCloseDoesNotHoldTheInstanceOpenForOtherSettings() throws Exception {
        Path db = database();
        DuckDbSettings small = settings(db, 100_000_000L);
        DuckDbSettings larger = settings(db, 200_000_000L);

        DuckDbInstance leaky = DuckDbInstance.acquire(small);
        Connection leaked = leaky.duplicate();
        leaky.release();
        assertThatThrownBy(() -> DuckDbInstance.acquire(larger).release()).isInstanceOf(GuardException.class);
        leaked.close();

        GuardrailPolicy policy = GuardrailPolicy.defaults();
        DuckDbEngine first = DuckDbEngine.open("claims", policy, small);
        FreshConnections stock = ((DuckDbExecution) first.execution()).connections();
        Await.until(() -> stock.stocked() == FreshConnections.READY);
        assertThat(query(first, "SELECT count(*) FROM t").status()).isEqualTo(ToolStatus.OK);
        Await.until(() -> stock.stocked() == FreshConnections.READY);
        first.close();
        assertThat(stock.openConnections()).isZero();

        try (DuckDbEngine second = DuckDbEngine.open("claims", policy, larger)) {
            FreshConnections next = ((DuckDbExecution) second.execution()).connections();
            Await.until(() -> next.stocked() == FreshConnections.READY);
            Connection c = next.take();
            try {
                DuckDbInstance.verify(c, larger); // the new stock carries the new settings
                assertThatThrownBy(() -> DuckDbInstance.verify(c, small)).isInstanceOfSatisfying(GuardException.class,
                        e -> assertThat(e.safeMessage()).contains("memory_limit"));
            } finally {
                next.retire(c);
            }
        }
    }

    @Test
    @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void timeoutAndCancelStopAQueryOnAStockedConnection() throws Exception {
        Path db = database();
        GuardrailPolicy policy = GuardrailPolicy.defaults().withLimits(Limits.defaults().withTimeout(Duration.ofMillis(500)));
        try (DuckDbEngine engine = DuckDbEngine.open("claims", policy, settings(db, 256_000_000L))) {
            FreshConnections stock = ((DuckDbExecution) engine.execution()).connections();
            Await.until(() -> stock.stocked() == FreshConnections.READY);
            long fromStock = stock.servedFromStock();
            long onCall = stock.openedOnCall();
            ToolResult timedOut = query(engine, "SELECT sum(a.id * b.id) FROM t a, t b");
            assertThat(timedOut.error().orElseThrow().code()).isEqualTo(ErrorCode.EXCEEDED_TIME_LIMIT);
            assertThat(stock.servedFromStock()).isEqualTo(fromStock + 1);
            assertThat(stock.openedOnCall()).isEqualTo(onCall);
            assertThat(stock.inUse()).isZero();
        }
        GuardrailPolicy patient = GuardrailPolicy.defaults().withLimits(Limits.defaults().withTimeout(Duration.ofSeconds(600)));
        try (DuckDbEngine engine = DuckDbEngine.open("claims", patient, settings(db, 256_000_000L))) {
            FreshConnections stock = ((DuckDbExecution) engine.execution()).connections();
            Await.until(() -> stock.stocked() == FreshConnections.READY);
            long fromStock = stock.servedFromStock();
            QueryService service = new QueryService(AuditSink.discarding());
            QueryRequest request = new QueryRequest("claims", "SELECT sum(a.id * b.id) FROM t a, t b", List.of(), "req-stock");
            CompletableFuture<ToolResult> running = CompletableFuture.supplyAsync(() -> service.query(engine.binding(), request));
            Await.until(() -> stock.inUse() == 1); // the call holds its stocked connection
            service.cancel("req-stock");
            assertThat(running.get().error().orElseThrow().code()).isEqualTo(ErrorCode.CANCELLED);
            assertThat(stock.servedFromStock()).isEqualTo(fromStock + 1);
            assertThat(query(engine, "SELECT count(*) FROM t").status()).isEqualTo(ToolStatus.OK);
        }
    }

    private static ToolResult query(DuckDbEngine engine, String sql) {
        return new QueryService(AuditSink.discarding()).query(engine.binding(), QueryRequest.of("claims", sql));
    }

    @Test
    @Timeout(60)
    void aStatementPreparedAheadServesOnlyItsOwnTextAndNoneOutlivesItsConnection() throws Exception {
        DuckDbInstance instance = DuckDbInstance.acquire(settings(database(), 100_000_000L));
        String bound = "SELECT count(*) FROM t WHERE g = ?";
        try (FreshConnections connections = new FreshConnections(instance, "t")) {
            Await.until(() -> connections.stocked() == FreshConnections.READY);
            // the stock filled before any call asked: nothing prepared on it
            Connection first = connections.take();
            assertThat(connections.prepared(first, bound)).isEmpty();
            connections.expect(bound);
            connections.expect(bound); // the same text twice in a row: prepared ahead from now on
            connections.retire(first);
            // the connections stocked from now on come with the text prepared; cycle the older ones out
            List<java.sql.PreparedStatement> served = new ArrayList<>();
            for (int i = 0; i < FreshConnections.READY + 2; i++) {
                Connection c = connections.take();
                Optional<java.sql.PreparedStatement> ahead = connections.prepared(c, bound);
                ahead.ifPresent(served::add);
                if (ahead.isPresent()) {
                    java.sql.PreparedStatement ps = ahead.get();
                    assertThat(ps.getConnection()).isSameAs(c);
                    ps.setLong(1, 7);
                    try (ResultSet rs = ps.executeQuery()) {
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getLong(1)).isEqualTo(1000L);
                    }
                }
                connections.retire(c);
                Await.until(c::isClosed);
                Await.until(() -> connections.stocked() == FreshConnections.READY);
            }
            assertThat(served).as("a call with the expected text found it prepared").isNotEmpty();
            assertThat(connections.preparedHits()).isEqualTo(served.size());
            for (java.sql.PreparedStatement ps : served) {
                assertThat(ps.isClosed()).as("closed with its connection").isTrue();
            }
            // a call with another text (or none) gets nothing, and the statement prepared ahead is closed at once
            Connection other = connections.take();
            long hits = connections.preparedHits();
            assertThat(connections.prepared(other, "SELECT count(*) FROM t WHERE id = ?")).isEmpty();
            assertThat(connections.prepared(other, bound)).as("closed, not kept for a later ask").isEmpty();
            assertThat(connections.preparedHits()).isEqualTo(hits);
            connections.retire(other);
            Await.until(other::isClosed);
        } finally {
            instance.release();
        }
    }
}
