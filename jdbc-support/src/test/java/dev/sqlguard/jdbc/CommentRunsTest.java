package dev.sqlguard.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Where a comment ends, as the scanners that step over comments read it. */
class CommentRunsTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "a -- x\\nb|2|7",
            "a -- x|2|6",
            "a /* x */ b|2|9",
            "/**/|0|4",
            "a /* x|2|6",
            "/*/|0|3",
            "a - b|2|2",
            "a / b|2|2",
            "a -|2|2",
            "x|0|0"})
    void endsPastTheCommentOrStaysWhereNoneOpens(String text, int start, int end) {
        // a line break is written \n in the table, whose rows it would otherwise split
        assertThat(CommentRuns.end(text.replace("\\n", "\n"), start)).isEqualTo(end);
    }
}
