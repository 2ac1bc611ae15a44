package dev.sqlguard.trino.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ConnectException;
import java.sql.SQLException;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.ErrorCode;

/** Issue 26: a coordinator that is down, restarting or not yet serving is ENGINE_UNAVAILABLE, never QUERY_FAILED or a policy code. */
class SqlErrorsTest {
    @Test
    void transportFailuresWithoutAQueryErrorAreEngineUnavailable() {
        SQLException refused = new SQLException("Error starting query", new RuntimeException(new java.io.UncheckedIOException(new ConnectException("refused"))));
        SQLException http503 = new SQLException("Error fetching next", new RuntimeException("returned HTTP 503"));
        SQLException direct = new SQLException("Error executing query", new IOException("reset"));
        for (SQLException e : new SQLException[] {refused, http503, direct}) {
            assertThat(SqlErrors.map(e).code()).as(e.getMessage()).isEqualTo(ErrorCode.ENGINE_UNAVAILABLE);
            assertThat(SqlErrors.map(e).code().retryable()).isTrue();
        }
    }

    @Test
    void aCatalogSchemaOrTableTheClusterDoesNotServeNowIsEngineUnavailable() {
        for (int code : new int[] {SqlErrors.CATALOG_NOT_FOUND, SqlErrors.SCHEMA_NOT_FOUND, SqlErrors.TABLE_NOT_FOUND, SqlErrors.NOT_FOUND}) {
            assertThat(SqlErrors.map(new SQLException("x", null, code)).code()).as("%d", code).isEqualTo(ErrorCode.ENGINE_UNAVAILABLE);
        }
    }

    @Test
    void queryErrorsOfTheClusterKeepTheirCodes() {
        // the driver's own refusal, measured on trino-jdbc 483: no code, no cause, and not the cluster's fault
        assertThat(SqlErrors.map(new SQLException("Unsupported object type: java.time.LocalTime")).code()).isEqualTo(ErrorCode.QUERY_FAILED);
        assertThat(SqlErrors.map(new SQLException("x", null, SqlErrors.DIVISION_BY_ZERO)).code()).isEqualTo(ErrorCode.QUERY_FAILED);
        assertThat(SqlErrors.map(new SQLException("x", null, SqlErrors.EXCEEDED_TIME_LIMIT)).code()).isEqualTo(ErrorCode.EXCEEDED_TIME_LIMIT);
    }
}
