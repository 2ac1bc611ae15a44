package dev.sqlguard.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.util.Optional;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

class JdbcStartupTest {
    /** A server whose error 1045 is a refused login. */
    private static final Function<SQLException, Optional<String>> LOGIN = s -> s.getErrorCode() == 1045
            ? Optional.of("the database refused the login.") : Optional.empty();

    @Test
    void aServerErrorTheConfigurationCausedIsAConfigurationError() {
        SQLException refused = new SQLException("Access denied for user 'bob'@'10.0.0.7' (using password: YES)", "28000", 1045);
        GuardException e = JdbcStartup.failure("sales", refused, LOGIN, "the database could not be reached.");
        assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
        assertThat(e).hasMessage("Source 'sales': the database refused the login.").hasCause(refused);
    }

    @Test
    void anyOtherFailureMayPassAndNamesNoDriverText() {
        SQLException timeout = new SQLException("Connect timed out to db.internal:3306", "08001", 0);
        GuardException e = JdbcStartup.failure("sales", timeout, LOGIN, "the database could not be reached.");
        assertThat(e.code()).isEqualTo(ErrorCode.ENGINE_UNAVAILABLE);
        assertThat(e).hasMessage("Source 'sales': the database could not be reached.").hasCause(timeout);
        assertThat(e.getMessage()).doesNotContain("db.internal");

        RuntimeException noSql = new IllegalStateException("pool is starting");
        assertThat(JdbcStartup.failure("sales", noSql, LOGIN, "the cluster could not be reached.").code())
                .isEqualTo(ErrorCode.ENGINE_UNAVAILABLE);
    }

    @Test
    void readsTheFirstServerErrorBehindAWrapper() {
        SQLException refused = new SQLException("denied", "28000", 1045);
        RuntimeException wrapped = new RuntimeException("Failed to initialize pool", refused);
        GuardException e = JdbcStartup.failure("sales", wrapped, LOGIN, "the database could not be reached.");
        assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
        assertThat(e).hasCause(wrapped);
    }

    @Test
    void aCheckOfCreatesOwnPassesUnchanged() {
        GuardException own = new GuardException(ErrorCode.CONFIGURATION_ERROR, "Source 'sales': the account may write.");
        assertThat(JdbcStartup.failure("sales", own, LOGIN, "the database could not be reached.")).isSameAs(own);
    }

    @Test
    void aUserNameIsQuotedOnlyWhenPlain() {
        assertThat(JdbcStartup.user("sqlguard_ro")).isEqualTo("'sqlguard_ro'");
        assertThat(JdbcStartup.user("app@10.0.0.1")).isEqualTo("'app@10.0.0.1'");
        assertThat(JdbcStartup.user("x' OR 1=1")).isEqualTo("(name withheld)");
        assertThat(JdbcStartup.user("")).isEqualTo("(name withheld)");
    }

    /** A failed start leaves its cause in the debug log: classes, SQLSTATEs and codes, no driver text. */
    @Test
    void aFailedStartLogsItsCauseAtDebugLevelWithoutDriverText() {
        java.util.logging.Logger log = java.util.logging.Logger.getLogger(JdbcStartup.class.getName());
        java.util.List<java.util.logging.LogRecord> records = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Handler handler = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord r) {
                records.add(r);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        java.util.logging.Level level = log.getLevel();
        log.setLevel(java.util.logging.Level.FINE);
        log.addHandler(handler);
        try {
            SQLException refused = new SQLException("Access denied for user 'bob'@'10.0.0.7' password=hunter2", "28000", 1045);
            JdbcStartup.failure("sales", new RuntimeException("pool jdbc:mysql://db.internal/x", refused), LOGIN, "unreachable.");
        } finally {
            log.removeHandler(handler);
            log.setLevel(level);
        }
        assertThat(records).singleElement().satisfies(r -> {
            assertThat(r.getLevel()).isEqualTo(java.util.logging.Level.FINE);
            assertThat(r.getMessage()).isEqualTo("Source 'sales': start failed: java.lang.RuntimeException"
                    + " <- java.sql.SQLException [SQLSTATE 28000, code 1045]");
            assertThat(r.getThrown()).isNull();
        });
    }

    /** The driver comes from the adapter's class loader and is opened directly, never through DriverManager. */
    @Test
    void opensADriverThroughTheAdaptersClassLoader() throws SQLException {
        java.sql.Driver driver = JdbcStartup.driver(JdbcStartupTest.class, FakeDriver.class.getName());
        assertThat(driver).isInstanceOf(FakeDriver.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> JdbcStartup.connect(driver, "jdbc:other:x", new java.util.Properties()))
                .isInstanceOf(SQLException.class).hasMessage("the driver does not accept the URL");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> JdbcStartup.driver(JdbcStartupTest.class, "no.such.Driver"))
                .isInstanceOf(IllegalStateException.class);
    }

    /** A driver that accepts no URL. */
    public static class FakeDriver implements java.sql.Driver {
        @Override
        public java.sql.Connection connect(String url, java.util.Properties info) {
            return null;
        }

        @Override
        public boolean acceptsURL(String url) {
            return false;
        }

        @Override
        public java.sql.DriverPropertyInfo[] getPropertyInfo(String url, java.util.Properties info) {
            return new java.sql.DriverPropertyInfo[0];
        }

        @Override
        public int getMajorVersion() {
            return 1;
        }

        @Override
        public int getMinorVersion() {
            return 0;
        }

        @Override
        public boolean jdbcCompliant() {
            return false;
        }

        @Override
        public java.util.logging.Logger getParentLogger() {
            return java.util.logging.Logger.getGlobal();
        }
    }
}
