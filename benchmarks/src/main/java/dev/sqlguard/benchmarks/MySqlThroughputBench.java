package dev.sqlguard.benchmarks;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import dev.sqlguard.app.SqlGuard;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.port.AuditSink;

/**
 * Throughput of the embedding API on MySQL with 8 threads (issue 15's "on both engines"):
 * {@link SqlGuard#query} on a source whose pool holds 8 connections against raw JDBC through a
 * Hikari pool of 8, on a small GROUP BY (3,000 rows) and on the 100k-row one, in alternating
 * one-second phases ({@link PerCallBench#throughput}).
 */
final class MySqlThroughputBench {
    static final String SMALL = "SELECT region, avg(amount) AS avg_amount, count(*) AS n FROM claims WHERE id < 3000 GROUP BY region";
    private static final int CONNECTIONS = 8;

    private MySqlThroughputBench() {
    }

    static void run(String url, String user, String password, GuardrailPolicy policy, int rounds) throws Exception {
        HikariConfig hc = new HikariConfig();
        hc.setJdbcUrl(url);
        hc.setUsername(user);
        hc.setPassword(password);
        hc.setMaximumPoolSize(CONNECTIONS);
        hc.setMinimumIdle(CONNECTIONS);
        hc.setReadOnly(true);
        ExecutorService threads = Executors.newFixedThreadPool(PerCallBench.THREADS);
        try (HikariDataSource pool = new HikariDataSource(hc);
             SqlGuard guard = SqlGuard.builder()
                     .source("bench", "mysql", Map.of("url", url, "username", user, "password", password,
                             "poolSize", Integer.toString(CONNECTIONS)), policy)
                     .auditSink(AuditSink.discarding())
                     .build()) {
            for (String sql : new String[] {SMALL, Harness.GROUP_BY}) {
                String label = sql == SMALL ? "small GROUP BY (3,000 rows)" : "100k-row GROUP BY";
                Runnable guarded = () -> Harness.requireOk(guard.query("bench", sql));
                Runnable raw = () -> {
                    try (Connection c = pool.getConnection()) {
                        Harness.drain(c, sql);
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                };
                for (int w = 0; w < 20; w++) {
                    guarded.run();
                    raw.run();
                }
                PerCallBench.throughput(threads, rounds, "  " + label + ", 8 threads: SqlGuard.query (poolSize 8) vs raw JDBC "
                        + "through a Hikari pool of 8 (target >= 0.8), queries/s", t -> guarded, t -> raw);
            }
        } finally {
            threads.shutdownNow();
        }
    }
}
