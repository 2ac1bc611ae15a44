package dev.sqlguard.duckdb.ingest.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class ProgressPollerTest {
    private final List<String> lines = new ArrayList<>();

    private ProgressPoller poller(double... values) {
        Iterator<Double> it = java.util.Arrays.stream(values).boxed().iterator();
        return new ProgressPoller(() -> {
            if (!it.hasNext()) {
                throw new SQLException("statement finished");
            }
            return it.next();
        }, "claims.csv: %d%% read", lines::add, Duration.ofDays(1));
    }

    @Test
    void reportsEachWholePercentageOnceAsItGrowsAndLeavesTheEndToTheCaller() {
        ProgressPoller poller = poller(-1, 0, 0.4, 12.9, 12.95, 48.2, 47, 99.99, 100);

        while (poller.poll()) {
            // one poll per interval in real use
        }

        assertThat(lines).containsExactly("claims.csv: 12% read", "claims.csv: 48% read", "claims.csv: 99% read");
    }

    @Test
    void aConsumerThatThrowsStopsThePollingAndItsExceptionComesBackFromClose() {
        ProgressPoller poller = new ProgressPoller(() -> 50, "x: %d%%", line -> {
            throw new IllegalStateException("stderr closed");
        }, Duration.ofDays(1));

        assertThat(poller.poll()).isFalse();
        assertThatThrownBy(poller::close).isInstanceOf(IllegalStateException.class).hasMessage("stderr closed");
    }

    @Test
    void closeStopsTheThreadSoNoLineArrivesAfterIt() {
        ProgressPoller poller = new ProgressPoller(() -> 42, "x: %d%%", lines::add, Duration.ofMillis(1));
        poller.startThread();

        poller.close();
        int seen = lines.size();

        assertThat(lines).hasSize(seen).allMatch(l -> l.equals("x: 42%"));
        assertThat(seen).isLessThanOrEqualTo(1);
    }

    @Test
    void pollsARealDuckDbReadWhileItRuns(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("n.csv");
        StringBuilder text = new StringBuilder("id,amount\n");
        for (int i = 0; i < 300_000; i++) {
            text.append(i).append(',').append(i % 977).append('\n');
        }
        Files.writeString(csv, text);
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            s.execute("SET enable_progress_bar = true");
            s.execute("SET enable_progress_bar_print = false");
            try (ProgressPoller poller = ProgressPoller.start(s, "n.csv: %d%% read", lines::add, Duration.ofMillis(5))) {
                s.execute("CREATE TABLE t AS SELECT * FROM read_csv('" + csv + "')");
            }
            try (var rs = s.executeQuery("SELECT count(*) FROM t")) {
                rs.next();
                assertThat(rs.getLong(1)).isEqualTo(300_000);
            }
        }
        // how many lines depends on the machine's speed; each is a growing percentage below 100
        int last = 0;
        for (String line : lines) {
            assertThat(line).matches("n\\.csv: \\d{1,2}% read");
            int value = Integer.parseInt(line.replaceAll("\\D+", " ").trim().split(" ")[0]);
            assertThat(value).isGreaterThan(last);
            last = value;
        }
    }
}
