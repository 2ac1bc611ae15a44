package dev.sqlguard.jdbc.ansi;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

class SqlStatesTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "08006|ENGINE_UNAVAILABLE|",
            "28000|PERMISSION_DENIED|The database account may not do this.",
            "22003|QUERY_FAILED|A value is out of range or has the wrong type.",
            "42000|QUERY_FAILED|The database refused the query as invalid.",
            "HY000|QUERY_FAILED|",
            "''|QUERY_FAILED|"})
    void mapsEachStandardClassWithoutTheDriversText(String state, ErrorCode code, String message) {
        SQLException driver = new SQLException("host db7.internal user admin: secret", state);
        GuardException e = SqlStates.byClass(state, driver);
        assertThat(e.code()).isEqualTo(code);
        assertThat(e.safeMessage()).isEqualTo(message == null ? code.defaultMessage() : message).doesNotContain("db7", "secret");
        assertThat(e.getCause()).isSameAs(driver);
    }
}
