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
}
