package dev.sqlguard.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class SuggestionsTest {
    private static final List<String> KNOWN = List.of("count", "sum", "avg", "string_agg", "stddev_samp", "stddev_pop", "substring");

    @Test
    void suggestsTheClosestNamesNearestFirst() {
        assertThat(Suggestions.closest("stdev_samp", KNOWN, 3)).containsExactly("stddev_samp");
        assertThat(Suggestions.closest("stddev", KNOWN, 3)).containsExactly("stddev_pop", "stddev_samp");
        assertThat(Suggestions.closest("cnt", KNOWN, 3)).containsExactly("count");
        assertThat(Suggestions.closest("substr", KNOWN, 3)).containsExactly("substring");
    }

    @Test
    void suggestsNothingFarAwayOrForTheNameItself() {
        assertThat(Suggestions.closest("levenshtein", KNOWN, 3)).isEmpty();
        assertThat(Suggestions.closest("sum", KNOWN, 3)).isEmpty();
        assertThat(Suggestions.closest("", KNOWN, 3)).isEmpty();
        assertThat(Suggestions.closest("x".repeat(100), KNOWN, 3)).isEmpty();
    }

    @Test
    void wordsASentenceEnding() {
        assertThat(Suggestions.didYouMean("stddev", KNOWN)).isEqualTo(" Did you mean 'stddev_pop' or 'stddev_samp'?");
        assertThat(Suggestions.didYouMean("stdev_samp", KNOWN)).isEqualTo(" Did you mean 'stddev_samp'?");
        assertThat(Suggestions.didYouMean("zzzzzzzz", KNOWN)).isEmpty();
    }
}
