package dev.sqlguard.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

/** The sentences every engine's error mapper takes from the kit: codes and messages are part of the contract. */
class ServerErrorTest {
    private static final SQLException DRIVER = new SQLException("host db7.internal user admin: secret", "XX000");

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "TIME_LIMIT|EXCEEDED_TIME_LIMIT|",
            "MEMORY_LIMIT|EXCEEDED_MEMORY_LIMIT|",
            "DISK_LIMIT|EXCEEDED_DISK_LIMIT|",
            "UNAVAILABLE|ENGINE_UNAVAILABLE|",
            "FAILED|QUERY_FAILED|",
            "CANCELLED|CANCELLED|",
            "AMBIGUOUS_COLUMN|AMBIGUOUS_COLUMN|",
            "PERMISSION_DENIED|PERMISSION_DENIED|The database account may not do this.",
            "READ_ONLY|READ_ONLY_NOT_ENFORCED|The database refused a write: the session is read-only.",
            "UNKNOWN_COLUMN|UNKNOWN_COLUMN|The database does not know a column of this query.",
            "MISSING_TABLE|QUERY_FAILED|A table of this query does not exist on the database.",
            "NOT_GROUPED|QUERY_FAILED|Every selected column must be in GROUP BY or inside an aggregate function.",
            "NO_MATCHING_FUNCTION|QUERY_FAILED|No function or operator matches these argument types; add a cast.",
            "TYPE_MISMATCH|QUERY_FAILED|The types of this expression do not match; add a cast.",
            "UNPARSABLE|QUERY_FAILED|The database could not parse the checked query.",
            "DIVISION_BY_ZERO|QUERY_FAILED|The query divides by zero.",
            "BAD_VALUE|QUERY_FAILED|A value is out of range or has the wrong type.",
            "SUBQUERY_ROWS|QUERY_FAILED|A subquery used as a value returned more than one row.",
            "TOO_COMPLEX|QUERY_TOO_COMPLEX|The query is too large or too deeply nested for the database."})
    void eachFailureHasItsCodeAndSentenceAndNeverTheDriversText(ServerError failure, ErrorCode code, String message) {
        GuardException e = failure.of(DRIVER);
        assertThat(e.code()).isEqualTo(code);
        assertThat(e.safeMessage()).isEqualTo(message == null ? code.defaultMessage() : message).doesNotContain("db7", "secret");
        assertThat(e.getCause()).isSameAs(DRIVER);
    }

    @Test
    void aFailureUnderAnotherCodeKeepsItsSentence() {
        GuardException e = ServerError.MISSING_TABLE.as(ErrorCode.TABLE_NOT_ALLOWED, DRIVER);
        assertThat(e.code()).isEqualTo(ErrorCode.TABLE_NOT_ALLOWED);
        assertThat(e.safeMessage()).isEqualTo("A table of this query does not exist on the database.");
        assertThat(e.getCause()).isSameAs(DRIVER);
    }
}
