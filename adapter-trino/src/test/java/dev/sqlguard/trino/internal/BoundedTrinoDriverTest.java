package dev.sqlguard.trino.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The bounded driver against a "coordinator" that accepts connections and never answers (no
 * cluster needed): the query's round trip ends by the connection's deadline, where Trino JDBC's own
 * client waits for OkHttp's 10 s read timeout and retries (30 s measured on a 2 s limit).
 */
class BoundedTrinoDriverTest {
    /** Far below the unbounded driver's wait on a silent server (10 s per read, retried), far above a 1 s deadline. */
    private static final Duration FAR_BELOW_THE_DRIVERS_OWN = Duration.ofSeconds(8);

    @Test
    void aCoordinatorThatNeverAnswersFailsTheQueryByTheConnectionsDeadline() throws Exception {
        List<Socket> held = new CopyOnWriteArrayList<>();
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
             BoundedTrinoDriver driver = new BoundedTrinoDriver()) {
            Thread acceptor = new Thread(() -> {
                while (!silent.isClosed()) {
                    try {
                        held.add(silent.accept()); // read nothing, answer nothing
                    } catch (java.io.IOException e) {
                        return;
                    }
                }
            }, "silent-coordinator");
            acceptor.setDaemon(true);
            acceptor.start();
            Properties p = new Properties();
            p.setProperty("user", "probe");
            String url = "jdbc:trino://127.0.0.1:" + silent.getLocalPort();
            // once with no time left, which loads the driver's classes (seconds on a loaded machine); the query
            // fails at once, though its cancel may still reach the silent server (it goes out in the background)
            query(driver, url, p, System.nanoTime());
            for (Socket s : held) {
                s.close();
            }
            held.clear();
            long deadline = System.nanoTime() + Duration.ofSeconds(1).toNanos();
            assertTimeoutPreemptively(FAR_BELOW_THE_DRIVERS_OWN, () -> query(driver, url, p, deadline));
            assertThat(held).as("the request reached the silent server").isNotEmpty();
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
    }

    private static void query(BoundedTrinoDriver driver, String url, Properties p, long deadline) throws SQLException {
        try (Connection c = driver.connect(url, p, deadline); Statement s = c.createStatement()) {
            c.setNetworkTimeout(Runnable::run, 1_000); // the request-retry budget, as the executor sets it
            assertThatThrownBy(() -> s.executeQuery("SELECT 1")).isInstanceOf(SQLException.class);
        }
    }

    @Test
    void aConnectionWithoutADeadlineIsRefused() throws Exception {
        try (BoundedTrinoDriver driver = new BoundedTrinoDriver()) {
            assertThatThrownBy(() -> driver.connect("jdbc:trino://127.0.0.1:1", new Properties()))
                    .isInstanceOf(SQLException.class).hasMessageContaining("deadline");
        }
    }
}
