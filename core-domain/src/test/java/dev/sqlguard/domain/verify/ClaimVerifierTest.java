package dev.sqlguard.domain.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.sqlguard.domain.LimitKind;
import dev.sqlguard.domain.ResultColumn;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;

class ClaimVerifierTest {
    private static final ClaimVerifier STRICT = new ClaimVerifier(false);
    private static final ClaimVerifier DERIVING = new ClaimVerifier();

    /** Evidence cells written {@code 12.5|s:2024-01-05|-5}: numbers as BigDecimal, {@code s:} text as String. */
    private static List<Object> cells(String spec) {
        List<Object> row = new ArrayList<>();
        for (String cell : spec.split("\\|")) {
            row.add(cell.startsWith("s:") ? cell.substring(2) : new BigDecimal(cell));
        }
        return row;
    }

    private static VerificationReport strict(String answer, String evidence, String question) {
        return STRICT.verify(answer, List.of(cells(evidence)), new VerificationContext(question));
    }

    /**
     * answer ; evidence (one row) ; the unsupported numbers as written, joined by | (empty: all
     * supported). Derived rules are off so only direct matches and exemptions count.
     */
    @ParameterizedTest(name = "{0} <- {1}")
    @CsvSource(delimiter = ';', value = {
        // rounding to the precision shown
        "The mean was 12.35. ; 12.3456 ; ''",
        "The mean was 12.3. ; 12.3456 ; ''",
        "The mean was 12. ; 12.3456 ; ''",
        "The mean was 12.4. ; 12.3456 ; 12.4",
        "The mean was 12.3. ; 12.4 ; 12.3",
        "The mean was 3.40. ; 3.404 ; ''",
        "The mean was 3.40. ; 3.406 ; 3.40",
        // thousands separators versus decimals
        "We had 1,234 orders. ; 1234 ; ''",
        "We had 1 234 567 orders. ; 1234567 ; ''",
        "We had 1.234 orders. ; 1234 ; 1.234",
        "We had 1,234 orders. ; 1.234 ; 1,234",
        "We had 1,234 orders. ; 1234.4 ; ''",
        "We had 1,234 orders. ; 1234.6 ; 1,234",
        // magnitudes
        "Revenue was about 1.2 million. ; 1234567 ; ''",
        "Revenue was 1.2 million. ; 1249999 ; ''",
        "Revenue was 1.2 million. ; 1250001 ; 1.2 million",
        "Sales were 1.2k. ; 1249 ; ''",
        "Sales were 1.2k. ; 1150 ; ''",
        "Sales were 1.2k. ; 1149 ; 1.2k",
        "Sales were 1.2k. ; 1251 ; 1.2k",
        "Sales were 1.2k. ; 1250 ; ''",
        "Sales were 1.3k. ; 1250 ; ''",
        "Sales were 1.3k. ; 1249.99 ; 1.3k",
        "Sales were 5M. ; 5020000 ; ''",
        "Sales were 5M. ; 4800000 ; 5M",
        "Sales were 2.1bn. ; 2140000000 ; ''",
        "Sales were about 1,200,000. ; 1234567 ; ''",
        "Sales were 1,200,000. ; 1234567 ; 1,200,000",
        // percent versus fraction
        "Margin was 20%. ; 0.2 ; ''",
        "Margin was 20%. ; 20 ; ''",
        "Margin was 20. ; 0.2 ; 20",
        "Margin was 0.2. ; 20 ; ''",
        "Margin was 0.2%. ; 20 ; 0.2%",
        "Margin was 2%. ; 0.2 ; 2%",
        "Margin was 12.5%. ; 0.125 ; ''",
        "Margin was 12.5 percent. ; 12.5 ; ''",
        "Margin was 0.125. ; 12.5 ; ''",
        "Margin was 12.5%. ; 0.124 ; 12.5%",
        // signs
        "Profit was -5. ; 5 ; -5",
        "Profit was 5. ; -5 ; 5",
        "Profit was -5. ; -5 ; ''",
        "Profit was \u22125. ; -5 ; ''",
        "Profit fell 5% year on year. ; -5 ; ''",
        "Profit fell 5% year on year. ; -0.05 ; ''",
        "Profit was +5%. ; -5 ; +5%",
        // currency is shown, not compared
        "It cost $1,234.50. ; 1234.5 ; ''",
        "It cost €1.2M. ; 1190000 ; ''",
        "It cost USD 99. ; 99 ; ''",
        "It cost $99. ; 98 ; $99",
        // bounds
        "More than 1,000 customers. ; 1234 ; ''",
        "More than 1,000 customers. ; 999 ; 1,000",
        "Under 50 stores. ; 47 ; ''",
        "Under 50 stores. ; 52 ; 50",
        "Nearly 1.2 million visits. ; 1190000 ; ''",
        "Nearly 1.2 million visits. ; 1210000 ; 1.2 million",
        "Sales fell by more than 5%. ; -6 ; ''",
        // the examples in docs/agent.md
        "More than 1,000 customers. ; 2500 ; 1,000",
        "Under 50 stores. ; 40 ; ''",
        "Sales were about 1,200,000. ; 1150000 ; ''",
        "Sales were about 1,200,000. ; 1250000 ; ''",
        "Sales were about 1,200,000. ; 1260000 ; 1,200,000",
        "Sales were 5M. ; 4950000 ; ''",
        "Margin was 20%. ; 2 ; 20%",
        "Margin was 20%. ; 0.002 ; 20%",
        "Margin was 0.125. ; 125 ; 0.125",
        "Profit fell 5% this year. ; 5 ; ''",
        "Revenue was 1.234. ; 1.2344 ; ''",
        "Orders peaked on March 17. ; s:2024-03-17 ; ''",
        "Orders peaked on 1/3/2024. ; s:2024-03-01 ; ''",
        "Orders peaked on 1/3/2024. ; s:2024-03-02 ; 1/3/2024",
        // the article's example: Q3 is a label, 542,000 is wrong
        "The total revenue for Q3 was 542,000. ; 452100 ; 542,000",
        "covid19 cases reached 12. ; 12 ; ''",
        // numbers and dates inside text cells
        "The iPhone 15 sold best. ; s:iPhone 15 ; ''",
        "We shipped 1,234 units. ; s:1,234 units ; ''",
        "The first order was on 2024-01-05. ; s:2024-01-05 ; ''",
        "The first order was on 2024-01-05. ; s:2024-01-06 ; 2024-01-05",
        "The first order was on March 3, 2024. ; s:2024-03-03T10:00:00 ; ''",
        "Most orders came in March 2024. ; s:2024-03-17 ; ''",
        "Most orders came in April 2024. ; s:2024-03-17 ; April 2024",
        "The peak was on 3/17/2024. ; s:2024-03-17 ; ''",
        "Orders peaked in 2024. ; s:2024-03-17 ; ''",
        "Orders peaked in 2023. ; s:2024-03-17 ; 2023",
        // exemptions
        "1. North: 5\\n2. South: 7 ; 5|7 ; ''",
        "North ranks 1st with 5 and #2 is South. ; 5 ; ''",
        "Also 1. not a marker mid-line: 5 ; 5 ; 1",
    })
    void checksEachNumber(String answer, String evidence, String unsupported) {
        VerificationReport report = strict(answer.replace("\\n", "\n"), evidence, "");

        List<String> expected = unsupported.isEmpty() ? List.of() : Arrays.asList(unsupported.split("\\|"));
        assertThat(report.unsupportedTexts()).isEqualTo(expected);
        assertThat(report.allSupported()).isEqualTo(expected.isEmpty());
        assertThat(report.claims()).isNotEmpty();
    }

    @Test
    void numbersAndYearsFromTheQuestionNeedNoSupport() {
        VerificationReport report = strict("In 2024, 12 stores sold more than 100 units.", "12",
                "Which stores sold more than 100 units in 2024?");

        assertThat(report.allSupported()).isTrue();
        assertThat(report.claims()).extracting(c -> c.support().orElseThrow().rule())
                .containsExactly(SupportRule.IN_QUESTION, SupportRule.RESULT_VALUE, SupportRule.IN_QUESTION);
    }

    @Test
    void aYearFromADateInTheQuestionNeedsNoSupport() {
        assertThat(strict("In 2024 sales grew.", "5", "How did sales do since March 2024?").allSupported()).isTrue();
        assertThat(strict("In 2023 sales grew.", "5", "How did sales do since March 2024?").unsupportedTexts()).containsExactly("2023");
    }

    @Test
    void topNIsExemptOnlyUpToTheRowsShown() {
        List<List<Object>> threeRows = List.of(List.of("a", 1L), List.of("b", 2L), List.of("c", 3L));

        assertThat(STRICT.verify("The top 3 regions are listed.", threeRows, VerificationContext.none()).allSupported()).isTrue();
        assertThat(STRICT.verify("The top 5 regions are listed.", threeRows, VerificationContext.none()).unsupportedTexts())
                .containsExactly("5");
    }

    @Test
    void withoutEvidenceEveryNonExemptNumberIsUnsupported() {
        VerificationReport report = STRICT.verify("1. Revenue was 542,000 in 2024.", Evidence.none(), VerificationContext.none());

        assertThat(report.unsupportedTexts()).containsExactly("542,000", "2024");
        assertThat(report.claims().get(0).support()).map(Support::rule).contains(SupportRule.LIST_MARKER);
    }

    @Test
    void anAnswerWithoutNumbersIsFullySupported() {
        VerificationReport report = STRICT.verify("North sold the most.", Evidence.none(), VerificationContext.none());

        assertThat(report.claims()).isEmpty();
        assertThat(report.allSupported()).isTrue();
    }

    @Test
    void theReportSaysWhichValueSupportedANumber() {
        ToolResult result = new ToolResult("q1", ToolStatus.OK, "demo", Optional.of("SELECT ..."),
                List.of(new ResultColumn("region", "VARCHAR"), new ResultColumn("revenue", "DECIMAL")),
                List.of(List.of("North", new BigDecimal("1234567.00")), List.of("South", new BigDecimal("452100.00"))),
                false, Set.of(), Optional.empty(), 3);

        VerificationReport report = STRICT.verify("North made $1.23M.", Evidence.ofResults(List.of(result)), VerificationContext.none());

        NumberClaim claim = report.claims().get(0);
        assertThat(claim.support()).map(Support::kind).contains(SupportKind.EVIDENCE);
        assertThat(claim.support().orElseThrow().detail()).isEqualTo("result 'q1', row 1, column 'revenue' = 1234567.00");
        assertThat(claim.value()).isEqualByComparingTo("1230000");
        assertThat(claim.decimals()).isEqualTo(2);
        assertThat(claim.step()).isEqualByComparingTo("10000");
    }

    // ---- derived rules ----

    private static final List<List<Object>> REGIONS = List.of(
            List.of("North", 30L, 10L),
            List.of("South", 20L, 8L),
            List.of("East", 10L, 2L));

    private static NumberClaim derivedClaim(String answer) {
        VerificationReport report = DERIVING.verify(answer, REGIONS, VerificationContext.none());
        assertThat(report.claims()).hasSize(1);
        return report.claims().get(0);
    }

    @Test
    void aColumnSumIsDerived() {
        NumberClaim c = derivedClaim("In total 60 units were sold.");

        assertThat(c.support()).map(Support::rule).contains(SupportRule.COLUMN_SUM);
        assertThat(c.support().orElseThrow().kind()).isEqualTo(SupportKind.DERIVED);
        assertThat(c.support().orElseThrow().detail()).contains("sum of column 2");
    }

    @Test
    void aShareOfTheColumnSumIsDerived() {
        assertThat(derivedClaim("North sold 50% of all units.").support()).map(Support::rule).contains(SupportRule.SHARE_OF_COLUMN_SUM);
        assertThat(derivedClaim("North sold a share of 0.5.").support()).map(Support::rule).contains(SupportRule.SHARE_OF_COLUMN_SUM);
    }

    @Test
    void aRatioInAColumnOrARowIsDerived() {
        assertThat(derivedClaim("North sold 3x as much as East.").support()).map(Support::rule).contains(SupportRule.RATIO);
        assertThat(derivedClaim("East's cost was 25.0% of South's.").support()).map(Support::rule).contains(SupportRule.RATIO);
        assertThat(derivedClaim("South sold 2.5 times its cost.").support()).map(Support::rule).contains(SupportRule.RATIO);
        assertThat(derivedClaim("South sold 2.5 of them.").support()).map(Support::rule).contains(SupportRule.RATIO);
        assertThat(derivedClaim("South sold 3 of them.").support()).as("a bare whole number is no ratio")
                .map(Support::rule).contains(SupportRule.ROW_COUNT);
        assertThat(derivedClaim("South sold 4 of them.").support()).as("a bare whole number is no ratio").isEmpty();
    }

    @Test
    void aRelativeChangeIsDerived() {
        assertThat(derivedClaim("South sold 100.0% more than East.").support()).map(Support::rule).contains(SupportRule.RELATIVE_CHANGE);
        assertThat(derivedClaim("South sold 100.0% of East.").support()).map(Support::rule).isEmpty();
        assertThat(derivedClaim("East's cost is down 75.0% on South's.").support()).map(Support::rule).contains(SupportRule.RELATIVE_CHANGE);
    }

    @Test
    void aDifferenceIsDerived() {
        assertThat(derivedClaim("North sold 17 more units than its cost.").support()).map(Support::rule).isEmpty();
        assertThat(derivedClaim("North sold 20 more than East.").support()).map(Support::rule).contains(SupportRule.RESULT_VALUE);
        assertThat(derivedClaim("South sold 12 more units than its cost.").support()).map(Support::rule).contains(SupportRule.DIFFERENCE);
        assertThat(derivedClaim("South had 12 of them.").support()).as("no comparison word").map(Support::rule).isEmpty();
    }

    @Test
    void theRowCountOfACompleteResultIsDerived() {
        assertThat(derivedClaim("There are 3 regions.").support()).map(Support::rule).contains(SupportRule.ROW_COUNT);
        NumberClaim c = DERIVING.verify("There are 4 regions.", List.of(List.of("a"), List.of("b"), List.of("c"), List.of("d")),
                VerificationContext.none()).claims().get(0);
        assertThat(c.support()).map(Support::rule).contains(SupportRule.ROW_COUNT);
    }

    @Test
    void derivedRulesCanBeTurnedOff() {
        VerificationReport report = STRICT.verify("In total 60 units; North sold 50% of them.", REGIONS, VerificationContext.none());

        assertThat(report.unsupportedTexts()).containsExactly("60", "50%");
    }

    @Test
    void aTruncatedResultGivesNoCountSumOrShare() {
        ToolResult truncated = new ToolResult("q1", ToolStatus.OK, "demo", Optional.empty(),
                List.of(new ResultColumn("n", "BIGINT")), List.of(List.of(30L), List.of(20L), List.of(10L), List.of(7L)),
                true, Set.of(LimitKind.ROWS), Optional.empty(), 1);
        Evidence evidence = Evidence.ofResults(List.of(truncated));

        assertThat(DERIVING.verify("There are 4 rows, summing to 67.", evidence, VerificationContext.none()).unsupportedTexts())
                .containsExactly("4", "67");
        assertThat(DERIVING.verify("30 is 1.5 times 20.", evidence, VerificationContext.none()).allSupported()).isTrue();
    }

    @Test
    void anEmptyResultSupportsZero() {
        ToolResult empty = new ToolResult("q1", ToolStatus.NO_EVIDENCE, "demo", Optional.empty(),
                List.of(new ResultColumn("n", "BIGINT")), List.of(), false, Set.of(), Optional.empty(), 1);

        VerificationReport report = DERIVING.verify("There were 0 refunds.", Evidence.ofResults(List.of(empty)), VerificationContext.none());

        assertThat(report.claims().get(0).support()).map(Support::rule).contains(SupportRule.ROW_COUNT);
    }

    @Test
    void failedResultsAreNoEvidence() {
        ToolResult failed = ToolResult.failure("q1", ToolStatus.REJECTED, "demo", Optional.empty(), Set.of(),
                new dev.sqlguard.domain.GuardException(dev.sqlguard.domain.ErrorCode.TABLE_NOT_ALLOWED), 1);

        assertThat(Evidence.ofResults(List.of(failed)).isEmpty()).isTrue();
    }

    @Test
    void aHallucinatedTotalStaysUnsupportedWithDerivedRulesOn() {
        List<List<Object>> quarters = List.of(
                List.of("Q1", new BigDecimal("401200.00")), List.of("Q2", new BigDecimal("433900.00")),
                List.of("Q3", new BigDecimal("452100.00")), List.of("Q4", new BigDecimal("470350.00")));

        VerificationReport report = DERIVING.verify("The total revenue for Q3 was 542,000, up 4.2% on Q2.", quarters,
                VerificationContext.none());

        assertThat(report.unsupportedTexts()).containsExactly("542,000");
        assertThat(report.claims().get(1).support()).map(Support::rule).contains(SupportRule.RELATIVE_CHANGE);
    }

    @Test
    void largeResultsSkipPairwiseRulesButKeepSums() {
        List<List<Object>> rows = new ArrayList<>();
        for (long i = 1; i <= Evidence.PAIR_MAX_ROWS + 1; i++) {
            rows.add(List.of(i * 1000));
        }
        // 26000 / 2000 would be a ratio of two values; 351000 is the sum of the column
        VerificationReport report = DERIVING.verify("The sum is 351,000 and 26,000 is 13x 2,000.", rows, VerificationContext.none());

        assertThat(report.unsupportedTexts()).containsExactly("13x");
    }
}
