package dev.sqlguard.domain.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class NumberExtractorTest {
    private static NumberClaim only(String text) {
        List<NumberClaim> claims = NumberExtractor.extract(text);
        assertThat(claims).as("numbers in <%s>", text).hasSize(1);
        return claims.get(0);
    }

    /** text ; span ; kind ; value ; step ; currency (or -) */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {
        "Revenue was 1,234,567 in total. ; 1,234,567 ; NUMBER ; 1234567 ; 1 ; -",
        "Revenue was 1 234 567 in total. ; 1 234 567 ; NUMBER ; 1234567 ; 1 ; -",
        "Revenue was 1\u00A0234 in total. ; 1\u00A0234 ; NUMBER ; 1234 ; 1 ; -",
        "The mean is 12.50 today ; 12.50 ; NUMBER ; 12.50 ; 0.01 ; -",
        "The mean is .5 today ; .5 ; NUMBER ; 0.5 ; 0.1 ; -",
        "Profit was -5 ; -5 ; NUMBER ; -5 ; 1 ; -",
        "Profit was \u22125 ; \u22125 ; NUMBER ; -5 ; 1 ; -",
        "Profit was +5 ; +5 ; NUMBER ; 5 ; 1 ; -",
        "It cost $1,234.50 net ; $1,234.50 ; NUMBER ; 1234.50 ; 0.01 ; $",
        "It cost -$5 net ; -$5 ; NUMBER ; -5 ; 1 ; $",
        "It cost $-5 net ; $-5 ; NUMBER ; -5 ; 1 ; $",
        "It cost US$5 net ; US$5 ; NUMBER ; 5 ; 1 ; US$",
        "It cost €5 net ; €5 ; NUMBER ; 5 ; 1 ; €",
        "It cost £3.2m net ; £3.2m ; NUMBER ; 3200000 ; 100000 ; £",
        "It cost USD 1,234 net ; USD 1,234 ; NUMBER ; 1234 ; 1 ; USD",
        "It cost 1,234 EUR net ; 1,234 EUR ; NUMBER ; 1234 ; 1 ; EUR",
        "It cost 5 € net ; 5 € ; NUMBER ; 5 ; 1 ; €",
        "Margin was 12.5% ; 12.5% ; PERCENT ; 12.5 ; 0.1 ; -",
        "Margin was 12.5 percent ; 12.5 percent ; PERCENT ; 12.5 ; 0.1 ; -",
        "Margin rose 3 percentage points ; 3 percentage points ; PERCENT ; 3 ; 1 ; -",
        "Sales hit 1.2k units ; 1.2k ; NUMBER ; 1200 ; 100 ; -",
        "Sales hit 3.4 million units ; 3.4 million ; NUMBER ; 3400000 ; 100000 ; -",
        "Sales hit 2.1bn units ; 2.1bn ; NUMBER ; 2100000000 ; 100000000 ; -",
        "Sales hit 5M units ; 5M ; NUMBER ; 5000000 ; 100000 ; -",
        "The pole is 5m tall ; 5 ; NUMBER ; 5 ; 1 ; -",
        "It weighs 5kg ; 5 ; NUMBER ; 5 ; 1 ; -",
        "about 1,200,000 rows ; 1,200,000 ; NUMBER ; 1200000 ; 100000 ; -",
        "about 100 rows ; 100 ; NUMBER ; 100 ; 10 ; -",
        "more than 1,000 rows ; 1,000 ; NUMBER ; 1000 ; 1000 ; -",
        "In 2024 we sold ; 2024 ; YEAR ; 2024 ; 1 ; -",
        "We sold 2,024 ; 2,024 ; NUMBER ; 2024 ; 1 ; -",
        "On 2024-01-05 we sold ; 2024-01-05 ; DATE ; 20240105 ; 1 ; -",
        "At 2024-01-05T10:30:00Z we sold ; 2024-01-05T10:30:00Z ; DATE ; 20240105 ; 1 ; -",
        "On March 3, 2024 we sold ; March 3, 2024 ; DATE ; 20240303 ; 1 ; -",
        "On 3 March 2024 we sold ; 3 March 2024 ; DATE ; 20240303 ; 1 ; -",
        "In March 2024 we sold ; March 2024 ; DATE ; 20240300 ; 1 ; -",
        "On Sept. 9 we sold ; Sept. 9 ; DATE ; 909 ; 1 ; -",
        "In 2024-03 we sold ; 2024-03 ; DATE ; 20240300 ; 1 ; -",
    })
    void readsFormats(String text, String span, ClaimKind kind, BigDecimal value, BigDecimal step, String currency) {
        NumberClaim c = only(text);

        assertThat(c.text()).isEqualTo(span);
        assertThat(text.substring(c.start(), c.end())).isEqualTo(span);
        assertThat(c.kind()).isEqualTo(kind);
        assertThat(c.value()).isEqualByComparingTo(value);
        assertThat(c.step()).isEqualByComparingTo(step);
        assertThat(c.currency()).isEqualTo(currency.equals("-") ? Optional.empty() : Optional.of(currency));
        assertThat(c.support()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"Q3 was best", "covid19 cases", "H2O", "FY2024 plan", "see col_2", "COVID-19 wave", "GPT-4 said",
        "version 1.2.3", "host 192.168.0.1", "hash 3a7f", "v2 release", "file.2 name"})
    void numbersInsideWordsAreNotClaims(String text) {
        assertThat(NumberExtractor.extract(text)).isEmpty();
    }

    @Test
    void aRangeIsTwoPositiveNumbers() {
        assertThat(NumberExtractor.extract("between 10-20 items")).extracting(NumberClaim::value)
                .usingElementComparator(BigDecimal::compareTo).containsExactly(BigDecimal.TEN, BigDecimal.valueOf(20));
    }

    @Test
    void aSingleSpaceGroupIsAmbiguousAndReadAsTwoNumbers() {
        assertThat(NumberExtractor.extract("in 3 100 cases")).extracting(NumberClaim::text).containsExactly("3", "100");
    }

    @Test
    void aDecimalCommaIsNotUnderstoodAndReadsAsTwoNumbers() {
        assertThat(NumberExtractor.extract("12,5 Prozent")).extracting(NumberClaim::text).containsExactly("12", "5");
    }

    @Test
    void qualifiersAreRead() {
        assertThat(only("about 5 rows").qualifier()).isEqualTo(Qualifier.APPROXIMATE);
        assertThat(only("~5 rows").qualifier()).isEqualTo(Qualifier.APPROXIMATE);
        assertThat(only("more than 5 rows").qualifier()).isEqualTo(Qualifier.MORE_THAN);
        assertThat(only("at least 5 rows").qualifier()).isEqualTo(Qualifier.AT_LEAST);
        assertThat(only("fewer than 5 rows").qualifier()).isEqualTo(Qualifier.LESS_THAN);
        assertThat(only("nearly 5 rows").qualifier()).isEqualTo(Qualifier.LESS_THAN);
        assertThat(only("up to 5 rows").qualifier()).isEqualTo(Qualifier.AT_MOST);
        assertThat(only("all 5 rows").qualifier()).isEqualTo(Qualifier.EXACT);
    }

    @Test
    void listMarkersOrdinalsAndTopNAreMarked() {
        List<NumberExtractor.Mention> m = NumberExtractor.mentions("1. North\n 2) South is 3rd, #4 overall\nthe top 5 of 10.");

        assertThat(m).extracting(x -> x.claim().text()).containsExactly("1", "2", "3", "4", "5", "10");
        assertThat(m).extracting(NumberExtractor.Mention::listMarker).containsExactly(true, true, false, false, false, false);
        assertThat(m).extracting(NumberExtractor.Mention::ordinal).containsExactly(false, false, true, true, false, false);
        assertThat(m).extracting(NumberExtractor.Mention::topN).containsExactly(false, false, false, false, true, false);
    }

    @Test
    void listMarkersMayCarryMarkdown() {
        List<NumberExtractor.Mention> m = NumberExtractor.mentions("**1.** North\n### 2) South\n> 3. East\nWest - 4. here\n5.6 units");

        assertThat(m).extracting(x -> x.claim().text()).containsExactly("1", "2", "3", "4", "5.6");
        assertThat(m).extracting(NumberExtractor.Mention::listMarker).containsExactly(true, true, true, false, false);
    }

    @Test
    void aDecimalAtLineStartIsNotAListMarker() {
        NumberExtractor.Mention m = NumberExtractor.mentions("1.5 million orders").get(0);

        assertThat(m.listMarker()).isFalse();
        assertThat(m.value()).isEqualByComparingTo("1500000");
    }

    @Test
    void aSlashDateKeepsBothReadings() {
        NumberExtractor.Mention m = NumberExtractor.mentions("on 1/5/2024").get(0);

        assertThat(m.kind()).isEqualTo(ClaimKind.DATE);
        assertThat(m.dates()).containsExactly(new DateParts(2024, 1, 5), new DateParts(2024, 5, 1));
    }

    @Test
    void anImpossibleDateIsReadAsNumbers() {
        assertThat(NumberExtractor.extract("code 2024-13-45")).extracting(NumberClaim::kind).doesNotContain(ClaimKind.DATE);
    }

    @Test
    void declineWordsInTheSameSentenceAreNoticed() {
        assertThat(NumberExtractor.mentions("Sales fell by 5% in May.").get(0).declineContext()).isTrue();
        assertThat(NumberExtractor.mentions("Sales fell. Then 5 stores opened").get(0).declineContext()).isFalse();
    }
}
