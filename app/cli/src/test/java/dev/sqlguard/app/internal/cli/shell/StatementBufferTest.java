package dev.sqlguard.app.internal.cli.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class StatementBufferTest {
    @Test
    void aStatementEndsAtASemicolonAndMaySpanLines() {
        StatementBuffer buffer = new StatementBuffer();
        assertThat(buffer.add("SELECT region,")).isEmpty();
        assertThat(buffer.isEmpty()).isFalse();
        assertThat(buffer.add("  count(*) FROM claims")).isEmpty();
        assertThat(buffer.add("GROUP BY region;")).containsExactly("SELECT region,\n  count(*) FROM claims\nGROUP BY region");
        assertThat(buffer.isEmpty()).isTrue();
    }

    @Test
    void severalStatementsOnOneLineComeOutInOrderAndTheRestWaits() {
        StatementBuffer buffer = new StatementBuffer();
        assertThat(buffer.add("SELECT 1; SELECT 2 ;SELECT")).containsExactly("SELECT 1", "SELECT 2");
        assertThat(buffer.add("3;")).containsExactly("SELECT\n3");
        assertThat(buffer.add(";;")).isEmpty();
    }

    @Test
    void semicolonsInsideQuotesAndCommentsDoNotEndAStatement() {
        StatementBuffer buffer = new StatementBuffer();
        assertThat(buffer.add("SELECT 'a;b', \"c;d\", `e;f` -- g;h")).isEmpty();
        assertThat(buffer.add("/* i; /* nested; */ j; */ FROM t;")).hasSize(1);
        assertThat(buffer.add("SELECT 'it''s;' AS x;")).containsExactly("SELECT 'it''s;' AS x");
        assertThat(buffer.add("SELECT $$a;b$$, $tag$c;d$tag$, $1;")).containsExactly("SELECT $$a;b$$, $tag$c;d$tag$, $1");
    }

    @Test
    void anOpenQuoteIsShownAndKeptAcrossLines() {
        StatementBuffer buffer = new StatementBuffer();
        assertThat(buffer.add("SELECT 'first;")).isEmpty();
        assertThat(buffer.insideQuote()).isTrue();
        assertThat(buffer.add("second';")).containsExactly("SELECT 'first;\nsecond'");
        assertThat(buffer.insideQuote()).isFalse();
    }

    @Test
    void commentsAloneAreNoStatementAndDrainGivesWhatNeverEnded() {
        StatementBuffer buffer = new StatementBuffer();
        assertThat(buffer.add("SELECT 1; -- done")).containsExactly("SELECT 1");
        assertThat(buffer.isEmpty()).isTrue();
        assertThat(buffer.drain()).isEmpty();
        buffer.add("SELECT 2");
        assertThat(buffer.drain()).isEqualTo("SELECT 2");
        assertThat(buffer.isEmpty()).isTrue();
        assertThat(List.of(StatementBuffer.withoutComments("a -- b\nc /* d */ 'e -- f'"))).containsExactly("a \nc  'e -- f'");
    }
}
