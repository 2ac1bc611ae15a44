package dev.sqlguard.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class QuotedRunsTest {
    @Test
    void aRunEndsJustPastItsClosingQuote() {
        assertThat(QuotedRuns.end("x = 'abc' AND y", 4, '\'')).isEqualTo(9);
        assertThat(QuotedRuns.end("''", 0, '\'')).isEqualTo(2);
        assertThat(QuotedRuns.end("\"a\"\"b\".c", 0, '"')).isEqualTo(6);
        assertThat(QuotedRuns.end("`a``b` x", 0, '`')).isEqualTo(6);
    }

    @Test
    void aDoubledQuoteStaysInsideAndOtherQuotesDoNotClose() {
        assertThat(QuotedRuns.end("'it''s \"x\"' z", 0, '\'')).isEqualTo(11);
        assertThat(QuotedRuns.end("'''' z", 0, '\'')).isEqualTo(4);
        assertThat(QuotedRuns.end("'a\\' b'", 0, '\'')).isEqualTo(4);
    }

    @Test
    void anUnclosedRunHasNoEnd() {
        assertThat(QuotedRuns.end("'abc", 0, '\'')).isEqualTo(-1);
        assertThat(QuotedRuns.end("'abc''", 0, '\'')).isEqualTo(-1);
        assertThat(QuotedRuns.end("x \"", 2, '"')).isEqualTo(-1);
    }

    @Test
    void theStartMustHoldTheQuote() {
        assertThatThrownBy(() -> QuotedRuns.end("abc", 0, '\'')).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> QuotedRuns.end("'", 1, '\'')).isInstanceOf(IllegalArgumentException.class);
    }
}
