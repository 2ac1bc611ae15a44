package dev.sqlguard.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.util.Map;
import java.util.function.Function;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

/** The sentences every engine's error mapper takes from the kit: codes and messages are part of the contract. */
class ServerErrorsTest {
    private static final Map<String, Function<SQLException, GuardException>> FAILURES = Map.ofEntries(
            Map.entry("timeLimit", ServerErrors::timeLimit),
            Map.entry("memoryLimit", ServerErrors::memoryLimit),
            Map.entry("diskLimit", ServerErrors::diskLimit),
            Map.entry("unavailable", ServerErrors::unavailable),
            Map.entry("failed", ServerErrors::failed),
            Map.entry("cancelled", ServerErrors::cancelled),
            Map.entry("ambiguousColumn", ServerErrors::ambiguousColumn),
            Map.entry("permissionDenied", ServerErrors::permissionDenied),
            Map.entry("readOnly", ServerErrors::readOnly),
            Map.entry("unknownColumn", ServerErrors::unknownColumn),
            Map.entry("missingTable", e -> ServerErrors.missingTable(ErrorCode.TABLE_NOT_ALLOWED, e)),
            Map.entry("notGrouped", ServerErrors::notGrouped),
            Map.entry("noMatchingFunction", ServerErrors::noMatchingFunction),
            Map.entry("typeMismatch", ServerErrors::typeMismatch),
            Map.entry("unparsable", ServerErrors::unparsable),
            Map.entry("divisionByZero", ServerErrors::divisionByZero),
            Map.entry("badValue", ServerErrors::badValue),
            Map.entry("subqueryRows", ServerErrors::subqueryRows),
            Map.entry("tooComplex", ServerErrors::tooComplex));

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "timeLimit|EXCEEDED_TIME_LIMIT|",
            "memoryLimit|EXCEEDED_MEMORY_LIMIT|",
            "diskLimit|EXCEEDED_DISK_LIMIT|",
            "unavailable|ENGINE_UNAVAILABLE|",
            "failed|QUERY_FAILED|",
            "cancelled|CANCELLED|",
            "ambiguousColumn|AMBIGUOUS_COLUMN|",
            "permissionDenied|PERMISSION_DENIED|The database account may not do this.",
            "readOnly|READ_ONLY_NOT_ENFORCED|The database refused a write: the session is read-only.",
            "unknownColumn|UNKNOWN_COLUMN|The database does not know a column of this query.",
            "missingTable|TABLE_NOT_ALLOWED|A table of this query does not exist on the database.",
            "notGrouped|QUERY_FAILED|Every selected column must be in GROUP BY or inside an aggregate function.",
            "noMatchingFunction|QUERY_FAILED|No function or operator matches these argument types; add a cast.",
            "typeMismatch|QUERY_FAILED|The types of this expression do not match; add a cast.",
            "unparsable|QUERY_FAILED|The database could not parse the checked query.",
            "divisionByZero|QUERY_FAILED|The query divides by zero.",
            "badValue|QUERY_FAILED|A value is out of range or has the wrong type.",
            "subqueryRows|QUERY_FAILED|A subquery used as a value returned more than one row.",
            "tooComplex|QUERY_TOO_COMPLEX|The query is too large or too deeply nested for the database."})
    void eachFailureHasItsCodeAndSentenceAndNeverTheDriversText(String failure, ErrorCode code, String message) {
        SQLException driver = new SQLException("host db7.internal user admin: secret", "XX000");
        GuardException e = FAILURES.get(failure).apply(driver);
        assertThat(e.code()).isEqualTo(code);
        assertThat(e.safeMessage()).isEqualTo(message == null ? code.defaultMessage() : message).doesNotContain("db7", "secret");
        assertThat(e.getCause()).isSameAs(driver);
    }
}
