package dev.sqlguard.mysql.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.OutputColumn;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot;
import dev.sqlguard.mysql.TestServer;

/** The executor refuses sessions the server does not report as pinned, whatever the client believes. */
@Tag("mysql")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(60)
class MySqlExecutorTest {
    private static final ServerFlavor.Pins PINS = new ServerFlavor.Pins(ServerFlavor.SQL_MODE, 10_000,
            ServerFlavor.groupConcatMaxLen(1000), ServerFlavor.RECURSION_LIMIT);

    private String database;
    private final ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor();

    @BeforeAll
    void setUp() throws Exception {
        assumeTrue(TestServer.available(), "no MySQL-compatible server");
        database = TestServer.createDatabase();
        try (Connection c = TestServer.admin(database); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE side (n INT)");
            s.execute("CREATE FUNCTION f_write() RETURNS INT MODIFIES SQL DATA BEGIN INSERT INTO side VALUES (1); RETURN 1; END");
        }
    }

    @AfterAll
    void tearDown() {
        watchdog.shutdownNow();
        if (database != null) {
            TestServer.dropDatabase(database);
        }
    }

    private HikariDataSource pool(String initSql) {
        HikariConfig hc = new HikariConfig();
        hc.setJdbcUrl(TestServer.url() + "/" + database);
        hc.setUsername(TestServer.adminUser());
        hc.setPassword(TestServer.adminPassword());
        hc.setMaximumPoolSize(1);
        hc.setReadOnly(true); // what a naive design trusts: the driver's setReadOnly
        if (initSql != null) {
            hc.setConnectionInitSql(initSql);
        }
        return new HikariDataSource(hc);
    }

    private MySqlExecutor.KillChannel channel(HikariDataSource control) throws java.sql.SQLException {
        return new MySqlExecutor.KillChannel(control::getConnection, watchdog);
    }

    private ServerFlavor flavor() throws Exception {
        try (Connection c = TestServer.admin(null)) {
            return ServerFlavor.fromVersion(c.getMetaData().getDatabaseProductVersion());
        }
    }

    private static QueryPlan plan(String sql) {
        return new QueryPlan("db", sql, sql, List.of(), Set.of(), Set.of(), Set.of(),
                List.of(OutputColumn.traced("n", Set.of())), List.of(), Limits.defaults());
    }

    @Test
    void driverReadOnlyAloneIsNotEnoughAndIsRefused() throws Exception {
        ServerFlavor flavor = flavor();
        try (HikariDataSource unpinned = pool(null); HikariDataSource control = pool(null)) {
            if (flavor == ServerFlavor.MARIADB) {
                // measured: Connector/J's setReadOnly(true) sends nothing to MariaDB
                try (Connection c = unpinned.getConnection(); Statement s = c.createStatement();
                     ResultSet rs = s.executeQuery("SELECT @@SESSION.tx_read_only")) {
                    assertThat(c.isReadOnly()).isTrue();
                    rs.next();
                    assertThat(rs.getLong(1)).isZero();
                }
            }
            MySqlExecutor executor = new MySqlExecutor(unpinned, channel(control), flavor, PINS, watchdog, 4);
            assertThatThrownBy(() -> executor.execute(plan("SELECT 1 AS `n`")).close())
                    .extracting(e -> ((GuardException) e).code()).isEqualTo(ErrorCode.READ_ONLY_NOT_ENFORCED);
        }
    }

    @Test
    void pinnedModeChangesOnlyWhatParsingDependsOn() {
        assertThat(ServerFlavor.pinnedMode("ONLY_FULL_GROUP_BY,ANSI_QUOTES,PIPES_AS_CONCAT,IGNORE_SPACE,HIGH_NOT_PRECEDENCE,STRICT_TRANS_TABLES"))
                .isEqualTo("NO_BACKSLASH_ESCAPES,ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES");
        assertThat(ServerFlavor.pinnedMode("STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION"))
                .isEqualTo("ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,NO_BACKSLASH_ESCAPES,NO_ENGINE_SUBSTITUTION,STRICT_TRANS_TABLES");
        assertThat(ServerFlavor.pinnedMode("")).isEqualTo("NO_BACKSLASH_ESCAPES");
        assertThat(ServerFlavor.parsingSafe(ServerFlavor.modes("NO_BACKSLASH_ESCAPES,ANSI_QUOTES"))).isFalse();
        assertThat(ServerFlavor.parsingSafe(ServerFlavor.modes("STRICT_TRANS_TABLES"))).isFalse();
        assertThatThrownBy(() -> ServerFlavor.pinnedMode("STRICT_TRANS_TABLES',x='1")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rowCountsAreExactWithinTheBudgetAndOtherwiseOnlyAnEstimate() throws Exception {
        ServerFlavor flavor = flavor();
        try (Connection c = TestServer.admin(database); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE five (n INT)");
            s.execute("INSERT INTO five VALUES (1), (2), (3), (4), (5)");
            dev.sqlguard.domain.TableAllowlist allowlist = new dev.sqlguard.domain.TableAllowlist(java.util.Optional.of(database),
                    java.util.Map.of(dev.sqlguard.domain.TableRef.of("five"), Set.of("n")), true);
            SchemaSnapshot counted = CatalogLoader.load(c, "db", database, allowlist, flavor, 2_000);
            SchemaSnapshot.TableInfo five = counted.tables().values().iterator().next();
            assertThat(five.exactRows()).hasValue(5);
            SchemaSnapshot noBudget = CatalogLoader.load(c, "db", database, allowlist, flavor, 0);
            assertThat(noBudget.tables().values().iterator().next().exactRows()).isEmpty();
            assertThat(noBudget.tables().values().iterator().next().approximateRows()).isPresent();
            // a count that cannot finish within the time left is not taken
            assertThat(CatalogLoader.count(c, flavor, database, "five", 10)).isEmpty();
        }
    }

    @Test
    void sqlModeDriftIsRefused() throws Exception {
        ServerFlavor flavor = flavor();
        String withoutNoBackslash = "SET SESSION sql_mode = 'STRICT_TRANS_TABLES', SESSION " + flavor.readOnlyVariable() + " = 1, SESSION "
                + flavor.timeoutVariable() + " = " + flavor.timeoutValue(10_000);
        try (HikariDataSource drifted = pool(withoutNoBackslash); HikariDataSource control = pool(null)) {
            MySqlExecutor executor = new MySqlExecutor(drifted, channel(control), flavor, PINS, watchdog, 4);
            assertThatThrownBy(() -> executor.execute(plan("SELECT 1 AS `n`")).close())
                    .extracting(e -> ((GuardException) e).code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
        }
    }

    @Test
    void aSessionThatDriftsAfterPassingTheCheckIsRefusedOnItsNextCall() throws Exception {
        ServerFlavor flavor = flavor();
        try (HikariDataSource pinned = pool(flavor.pinSql(PINS)); HikariDataSource control = pool(null)) {
            MySqlExecutor executor = new MySqlExecutor(pinned, channel(control), flavor, PINS, watchdog, 4);
            for (int i = 0; i < 3; i++) {
                try (var cursor = executor.execute(plan("SELECT 1 AS `n`"))) {
                    assertThat(cursor.next()).isTrue();
                }
            }
            // the pool's one connection leaves the pinned mode; the check it passed before must not be remembered for it
            try (Connection c = pinned.getConnection(); Statement s = c.createStatement()) {
                s.execute("SET SESSION sql_mode = 'STRICT_TRANS_TABLES'");
            }
            assertThatThrownBy(() -> executor.execute(plan("SELECT 1 AS `n`")).close())
                    .extracting(e -> ((GuardException) e).code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
        }
    }

    @Test
    void pinnedSessionRunsAndRefusesWritesEvenForAnAdmin() throws Exception {
        ServerFlavor flavor = flavor();
        try (HikariDataSource pinned = pool(flavor.pinSql(PINS)); HikariDataSource control = pool(null)) {
            MySqlExecutor executor = new MySqlExecutor(pinned, channel(control), flavor, PINS, watchdog, 4);
            try (var cursor = executor.execute(plan("SELECT 1 AS `n`"))) {
                assertThat(cursor.next()).isTrue();
                assertThat(((Number) cursor.get(0)).longValue()).isEqualTo(1L);
            }
            // a SELECT that writes (the client-side keyword check lets it through): the server refuses
            QueryPlan write = plan("SELECT `" + database + "`.f_write() AS `n`");
            assertThatThrownBy(() -> {
                try (var cursor = executor.execute(write)) {
                    cursor.next();
                }
            }).extracting(e -> ((GuardException) e).code()).isEqualTo(ErrorCode.PERMISSION_DENIED);
            if (flavor == ServerFlavor.MARIADB) {
                // with the driver's own (client-side) read-only flag off, the server's pin still refuses
                try (Connection c = pinned.getConnection(); Statement s = c.createStatement()) {
                    c.setReadOnly(false);
                    assertThatThrownBy(() -> s.execute("INSERT INTO `" + database + "`.side VALUES (2)"))
                        .isInstanceOf(java.sql.SQLException.class)
                        .extracting(e -> ((java.sql.SQLException) e).getErrorCode()).isEqualTo(1792);
                }
            }
            try (Connection c = TestServer.admin(database); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT count(*) FROM side")) {
                rs.next();
                assertThat(rs.getLong(1)).isZero();
            }
            // the plan names the columns (MariaDB may report another label), and their number must be the plan's
            QueryPlan widthMismatch = plan("SELECT 1 AS `n`, 2 AS `other`");
            assertThatThrownBy(() -> executor.execute(widthMismatch).close())
                    .extracting(e -> ((GuardException) e).code()).isEqualTo(ErrorCode.INTERNAL_ERROR);
        }
    }
}
