package dev.sqlguard.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.Test;

class DriverSourceTest {
    /** A driver that records what it was asked and accepts nothing. */
    static final class Recording extends JdbcStartupTest.FakeDriver {
        final List<Properties> asked = new ArrayList<>();

        @Override
        public java.sql.Connection connect(String url, Properties info) {
            asked.add(info);
            return null;
        }
    }

    @Test
    void opensThroughItsDriverWithItsPropertiesAndNamesNoSecret() {
        Recording driver = new Recording();
        Properties props = new Properties();
        props.setProperty("user", "app");
        props.setProperty("password", "s3cret");
        DriverSource source = new DriverSource(driver, "jdbc:x://h/db", props);
        props.setProperty("password", "changed later");
        assertThatThrownBy(source::getConnection).isInstanceOf(SQLException.class);
        assertThatThrownBy(() -> source.getConnection("other", "pw")).isInstanceOf(SQLException.class);
        assertThat(driver.asked.get(0).getProperty("password")).isEqualTo("s3cret");
        assertThat(driver.asked.get(1).getProperty("user")).isEqualTo("other");
        assertThat(source.toString()).doesNotContain("s3cret").doesNotContain("jdbc:");
    }

    @Test
    void keepsTheLoginTimeoutAPoolSetsWithoutPassingItToTheDriver() throws Exception {
        Recording driver = new Recording();
        DriverSource source = new DriverSource(driver, "jdbc:x://h/db", new Properties());
        assertThat(source.getLoginTimeout()).isZero();
        source.setLoginTimeout(6);
        assertThat(source.getLoginTimeout()).isEqualTo(6);
        assertThatThrownBy(source::getConnection).isInstanceOf(SQLException.class);
        assertThat(driver.asked.get(0)).isEmpty();
    }

    /**
     * HikariCP waits at close for its connection adder as long as the data source's login timeout:
     * no adder thread outlives close() and the pool logs no "Timed-out waiting for add connection
     * executor to shutdown" (both were seen at every close while the timeout read 0).
     */
    @Test
    void aPoolOverItLeavesNoConnectionAdderBehindAtClose() throws Exception {
        java.util.logging.Logger hikari = java.util.logging.Logger.getLogger("com.zaxxer.hikari");
        List<String> warnings = java.util.Collections.synchronizedList(new ArrayList<>());
        java.util.logging.Handler handler = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord record) {
                if (record.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue()) {
                    warnings.add(String.valueOf(record.getMessage()));
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        hikari.addHandler(handler);
        try {
            for (int round = 0; round < 5; round++) {
                String name = "driver-source-test-" + round;
                com.zaxxer.hikari.HikariConfig config = new com.zaxxer.hikari.HikariConfig();
                config.setPoolName(name);
                config.setMaximumPoolSize(3);
                config.setMinimumIdle(2);
                config.setDataSource(new DriverSource(new org.duckdb.DuckDBDriver(), "jdbc:duckdb:", new Properties()));
                try (com.zaxxer.hikari.HikariDataSource pool = new com.zaxxer.hikari.HikariDataSource(config);
                     java.sql.Connection connection = pool.getConnection();
                     java.sql.Statement statement = connection.createStatement();
                     java.sql.ResultSet rows = statement.executeQuery("SELECT 42")) {
                    assertThat(rows.next()).isTrue();
                    assertThat(rows.getInt(1)).isEqualTo(42);
                }
                assertThat(Thread.getAllStackTraces().keySet()).as("threads alive after close")
                        .filteredOn(t -> t.isAlive() && t.getName().contains(name) && t.getName().contains("adder")).isEmpty();
            }
            assertThat(warnings).noneMatch(w -> w.contains("add connection executor"));
        } finally {
            hikari.removeHandler(handler);
        }
    }
}
