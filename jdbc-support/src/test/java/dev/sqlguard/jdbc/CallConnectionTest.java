package dev.sqlguard.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

class CallConnectionTest {
    @Test
    void handsOverTheConnectionItGets() throws SQLException {
        try (Connection c = CallConnection.open(() -> DriverManager.getConnection("jdbc:duckdb:"))) {
            assertThat(c.isClosed()).isFalse();
        }
    }

    @Test
    void noConnectionIsARetryableUnavailableEngineWithoutTheDriversText() {
        SQLException timeout = new SQLTransientConnectionException("sqlguard-s-queries - Connection is not available, request timed out after 5000ms (db.internal:5432)");
        assertThatThrownBy(() -> CallConnection.open(() -> {
            throw timeout;
        })).isInstanceOfSatisfying(GuardException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.ENGINE_UNAVAILABLE);
            assertThat(e.getMessage()).isEqualTo(ErrorCode.ENGINE_UNAVAILABLE.defaultMessage()).doesNotContain("db.internal");
            assertThat(e).hasCause(timeout);
        });
    }
}
