package dev.sqlguard.trino.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot;
import dev.sqlguard.trino.TestCluster;

/**
 * The validator asks a statement's four EXPLAINs (the logical and the IO plan of the rendered text and of the text
 * as written) at once, on the real test cluster, and decides exactly as the validator that asks them one after
 * another: the same rendered text, the same refusal.
 */
@Tag("trino")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(300)
class TrinoConcurrentExplainTest {
    /**
     * Answered; answered in the cluster's reading of an output name inside ORDER BY; refused for the cluster's reading
     * of the text as written ({@code a BETWEEN b AND c = d}, which Trino refuses); refused by the policy before any EXPLAIN.
     */
    private static final List<String> QUERIES = List.of(
            "SELECT region, count(*) AS n, sum(amount) AS total FROM claims GROUP BY region ORDER BY 1",
            "SELECT c.id, r.manager FROM claims c JOIN regions r ON c.region = r.region WHERE c.id < 4 ORDER BY 1",
            "SELECT id AS x, 0 - id AS id FROM claims ORDER BY id + 0 LIMIT 3",
            "SELECT FALSE BETWEEN FALSE AND TRUE = FALSE AS b",
            "SELECT password FROM users");
    private String schema;
    private SchemaSnapshot snapshot;
    private GuardrailPolicy policy;
    private ExecutorService threads;

    @BeforeAll
    void start() throws SQLException {
        TestCluster.require();
        schema = TestCluster.createSchema();
        TableAllowlist allowlist = new TableAllowlist(Optional.of(schema), TableAllowlist.of(Map.of(
                "claims", List.of("*"), "regions", List.of("*"), "users", List.of("id", "name"))).tables(), true);
        policy = new GuardrailPolicy(allowlist, Set.of(), Set.of(), Set.of(), Limits.defaults()).withFunctions(FunctionCatalog.defaults());
        try (Connection c = TestCluster.connect(TestCluster.READ_ONLY, schema)) {
            snapshot = CatalogLoader.load(c, "s", "memory", schema, allowlist);
        }
        threads = Executors.newCachedThreadPool();
    }

    @AfterAll
    void stop() {
        if (threads != null) {
            threads.shutdownNow();
        }
        if (schema != null) {
            TestCluster.dropSchema(schema);
        }
    }

    @Test
    void aStatementsFourExplainsAreInFlightTogether() {
        // each EXPLAIN's connection waits until four are open: one after another, the first would wait in vain
        CountDownLatch fourOpen = new CountDownLatch(4);
        AtomicInteger waitedInVain = new AtomicInteger();
        TrinoValidator validator = new TrinoValidator("s", snapshot, policy, () -> {
            Connection c = TestCluster.connect(TestCluster.READ_ONLY, schema);
            fourOpen.countDown();
            try {
                if (!fourOpen.await(20, TimeUnit.SECONDS)) {
                    waitedInVain.incrementAndGet();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return c;
        }, threads);
        String executed = validator.validate(QueryRequest.of("s", QUERIES.get(0))).executableSql();
        assertThat(waitedInVain).hasValue(0);
        assertThat(executed).isEqualTo(sequential().validate(QueryRequest.of("s", QUERIES.get(0))).executableSql());
    }

    @Test
    void asksAtOnceAndOneAfterAnotherDecideAlike() {
        for (String sql : QUERIES) {
            TrinoValidator together = new TrinoValidator("s", snapshot, policy, this::connect, threads);
            assertThat(outcome(together, sql)).as(sql).isEqualTo(outcome(sequential(), sql));
        }
        assertThat(outcome(sequential(), QUERIES.get(0))).startsWith("ran ");
        assertThat(outcome(sequential(), QUERIES.get(2))).startsWith("ran ");
        assertThat(outcome(sequential(), QUERIES.get(3))).startsWith("UNSAFE_SYNTAX ");
        assertThat(outcome(sequential(), QUERIES.get(4))).startsWith("UNKNOWN_COLUMN ");
    }

    /** Every thread busy (the executor refuses the task): the EXPLAINs are asked on the calling thread, each when read. */
    @Test
    void aBusyExecutorLeavesTheExplainsToTheCallingThread() {
        List<String> askedOn = Collections.synchronizedList(new ArrayList<>());
        TrinoValidator validator = new TrinoValidator("s", snapshot, policy, () -> {
            askedOn.add(Thread.currentThread().getName());
            return connect();
        }, task -> {
            throw new RejectedExecutionException("busy");
        });
        for (String sql : QUERIES) {
            assertThat(outcome(validator, sql)).as(sql).isEqualTo(outcome(sequential(), sql));
        }
        assertThat(askedOn).isNotEmpty().containsOnly(Thread.currentThread().getName());
    }

    /** An EXPLAIN that cannot be asked fails the call with the failure the sequential validator reports. */
    @Test
    void aClusterThatCannotBeReachedFailsAlike() {
        TrinoValidator.Connections refused = () -> {
            throw new SQLException("Error starting query", new java.io.IOException("connection refused"));
        };
        String together = outcome(new TrinoValidator("s", snapshot, policy, refused, threads), QUERIES.get(0));
        assertThat(together).startsWith("ENGINE_UNAVAILABLE ")
                .isEqualTo(outcome(new TrinoValidator("s", snapshot, policy, refused), QUERIES.get(0)));
    }

    /**
     * A statement refused on the cluster's reading of its rendered text leaves its reading as written unread: those two
     * EXPLAINs are stopped (their statements cancelled), not left to run to the end on the source's threads and the
     * cluster. The rendered EXPLAINs wait here until both EXPLAINs of the text as written have started, so that they are
     * in flight when the refusal comes; those then wait until the validator has answered.
     */
    @Test
    void theExplainsOfARefusedStatementAreStoppedNotLeftRunning() throws Exception {
        String sql = "SELECT region + 1 AS r FROM claims"; // Trino cannot add an integer to a varchar
        CountDownLatch writtenStarted = new CountDownLatch(2);
        CountDownLatch answered = new CountDownLatch(1);
        AtomicInteger writtenRan = new AtomicInteger();
        AtomicInteger writtenCancelled = new AtomicInteger();
        ExecutorService own = Executors.newFixedThreadPool(4);
        TrinoValidator validator = new TrinoValidator("s", snapshot, policy, () -> gated(connect(), (text, cancelled) -> {
            if (!text.endsWith(" " + sql)) {
                return writtenStarted.await(20, TimeUnit.SECONDS); // a rendered EXPLAIN: runs once both others are in flight
            }
            writtenStarted.countDown();
            answered.await(20, TimeUnit.SECONDS);
            if (cancelled.getCount() == 0) {
                writtenCancelled.incrementAndGet();
                return false;
            }
            writtenRan.incrementAndGet();
            return true;
        }), own);
        String outcome = outcome(validator, sql);
        answered.countDown();
        own.shutdown();
        assertThat(own.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        assertThat(outcome).doesNotStartWith("ran ").isEqualTo(outcome(sequential(), sql));
        assertThat(writtenRan).hasValue(0);
        assertThat(writtenCancelled).hasValue(2);
    }

    /** Decides whether a statement's EXPLAIN runs: given its text and a latch counted down when it is cancelled. */
    @FunctionalInterface
    private interface Gate {
        boolean pass(String text, CountDownLatch cancelled) throws InterruptedException;
    }

    /** {@code c} whose statements ask {@code gate} before they run a query, and a statement it refuses fails as a cancelled one. */
    private static Connection gated(Connection c, Gate gate) {
        return (Connection) java.lang.reflect.Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    Object result = invoke(c, method, args);
                    if (!method.getName().equals("createStatement")) {
                        return result;
                    }
                    java.sql.Statement real = (java.sql.Statement) result;
                    CountDownLatch cancelled = new CountDownLatch(1);
                    return java.lang.reflect.Proxy.newProxyInstance(java.sql.Statement.class.getClassLoader(),
                            new Class<?>[] {java.sql.Statement.class}, (p, m, a) -> {
                                if (m.getName().equals("cancel")) {
                                    cancelled.countDown();
                                } else if (m.getName().equals("executeQuery") && !gate.pass((String) a[0], cancelled)) {
                                    throw new SQLException("Query was canceled");
                                }
                                return invoke(real, m, a);
                            });
                });
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private TrinoValidator sequential() {
        return new TrinoValidator("s", snapshot, policy, this::connect);
    }

    private Connection connect() throws SQLException {
        return TestCluster.connect(TestCluster.READ_ONLY, schema);
    }

    private static String outcome(TrinoValidator validator, String sql) {
        try {
            return "ran " + validator.validate(QueryRequest.of("s", sql)).executableSql();
        } catch (GuardException e) {
            return e.code() + " " + e.safeMessage();
        }
    }
}
