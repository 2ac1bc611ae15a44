package dev.sqlguard.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

class JdbcPoolTest {
    private static final org.duckdb.DuckDBDriver DRIVER = new org.duckdb.DuckDBDriver();

    private static HikariConfig config(JdbcPool pool) {
        HikariConfig config = new HikariConfig(pool.hikariProperties());
        config.setDataSource(new DriverSource(DRIVER, "jdbc:duckdb:", new Properties()));
        return config;
    }

    @Test
    void namesThePoolAfterTheSourceWithEveryOtherCharacterReplaced() {
        assertThat(config(JdbcPool.named("sales-queries")).getPoolName()).isEqualTo("sqlguard-sales-queries");
        assertThat(config(JdbcPool.named("sales db/ü.1-control")).getPoolName()).isEqualTo("sqlguard-sales_db__.1-control");
    }

    @Test
    void opensReadOnlyConnectionsFromTheDriverInstanceWithTheAdaptersSession() {
        HikariConfig mysql = config(JdbcPool.named("m").size(4).minimumIdle(1).autoCommit(true).initSql("SET SESSION x = 1"));
        assertThat(mysql.isReadOnly()).isTrue();
        assertThat(mysql.isAutoCommit()).isTrue();
        assertThat(mysql.getMaximumPoolSize()).isEqualTo(4);
        assertThat(mysql.getMinimumIdle()).isEqualTo(1);
        assertThat(mysql.getConnectionInitSql()).isEqualTo("SET SESSION x = 1");
        assertThat(mysql.isIsolateInternalQueries()).isFalse();
        assertThat(mysql.getJdbcUrl()).isNull();

        HikariConfig postgres = config(JdbcPool.named("p").size(2).minimumIdle(2).autoCommit(false).initSql("SET a = 1")
                .isolateInternalQueries());
        assertThat(postgres.isReadOnly()).isTrue();
        assertThat(postgres.isAutoCommit()).isFalse();
        assertThat(postgres.isIsolateInternalQueries()).isTrue();
        assertThat(postgres.getMinimumIdle()).isEqualTo(2);
    }

    @Test
    void aCheckoutIsBoundedByTheTimeLimitAndAValidationByAQuarterOfIt() {
        assertCheckout(JdbcPool.named("a").checkoutWithin(1), 250, 250);
        assertCheckout(JdbcPool.named("a").checkoutWithin(2_000), 2_000, 500);
        assertCheckout(JdbcPool.named("a").checkoutWithin(10_000), 10_000, 1_000);
        assertCheckout(JdbcPool.named("a").checkoutWithin(600_000), 30_000, 1_000);
        // an adapter's own checkout time is taken as it is
        assertCheckout(JdbcPool.named("a").checkoutMillis(5_000), 5_000, 1_000);
        assertCheckout(JdbcPool.named("a").checkoutMillis(800), 800, 250);
    }

    private static void assertCheckout(JdbcPool pool, long checkout, long validation) {
        HikariConfig c = config(pool);
        assertThat(c.getConnectionTimeout()).as("checkout").isEqualTo(checkout);
        assertThat(c.getValidationTimeout()).as("validation").isEqualTo(validation);
    }

    /** The pool opens read-only connections: on a DuckDB file opened read-only, which refuses the other mode. */
    @Test
    void opensAPoolOfReadOnlyConnectionsFromTheDriverInstance(@TempDir Path folder) throws Exception {
        String url = "jdbc:duckdb:" + folder.resolve("pool.duckdb");
        try (Connection c = DRIVER.connect(url, new Properties()); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t AS SELECT 42 AS n");
        }
        Properties readOnly = new Properties();
        readOnly.setProperty("duckdb.read_only", "true");
        HikariConfig config = new HikariConfig(JdbcPool.named("jdbc-pool-test").size(2).minimumIdle(1).autoCommit(true)
                .initSql("SELECT 1").checkoutWithin(5_000).hikariProperties());
        config.setDataSource(new DriverSource(DRIVER, url, readOnly));
        try (HikariDataSource pool = new HikariDataSource(config);
             Connection c = pool.getConnection();
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT n FROM t")) {
            assertThat(pool.getPoolName()).isEqualTo("sqlguard-jdbc-pool-test");
            assertThat(c.isReadOnly()).isTrue();
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(42);
        }
    }
}
