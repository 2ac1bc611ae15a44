package dev.sqlguard.testing.differential;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/**
 * The harness itself, on a target that answers by the text alone: a run on several workers reports what a
 * run on one reports (the same cases, tallies and findings in seed order, the same stop after the cap), and a
 * probe pair costs two guarded runs.
 */
class DifferentialTest {
    /** Disagrees on every text holding {@code ILIKE}, refuses by policy every text holding {@code EXISTS}, fails both ways on {@code NATURAL}. */
    private static final class ByText implements Target {
        final AtomicInteger guardedCalls = new AtomicInteger();

        @Override
        public Outcome raw(String sql) {
            return sql.contains("NATURAL") ? new Outcome.Failed("RAW", "no") : new Outcome.Rows(List.of(List.of(Integer.toString(length(sql)))));
        }

        @Override
        public Outcome guarded(String sql) {
            guardedCalls.incrementAndGet();
            if (sql.contains("NATURAL")) {
                return new Outcome.Failed("SYNTAX_ERROR", "no");
            }
            if (sql.contains("EXISTS")) {
                return new Outcome.Failed("UNSAFE_SYNTAX", "write it more plainly");
            }
            int extra = sql.contains("ILIKE") ? 1 : 0;
            return new Outcome.Rows(List.of(List.of(Integer.toString(length(sql) + extra))));
        }
    }

    /** The text's length, the absent name's suffix left out in any case (a probe pair's two texts answer alike). */
    private static int length(String sql) {
        return sql.replaceAll("(?i)" + java.util.regex.Pattern.quote(Differential.ABSENT_SUFFIX), "").length();
    }

    private static Differential differential(Target target, int workers) {
        return new Differential("test", new QueryGenerator(Grammar.postgresql()), target, Set.of("UNSAFE_SYNTAX"), workers);
    }

    @Test
    void severalWorkersReportWhatOneReports() {
        Differential.Report one = differential(new ByText(), 1).differential(1, 400, 1_000);
        Differential.Report four = differential(new ByText(), 4).differential(1, 400, 1_000);
        assertThat(one.findings()).isNotEmpty();
        assertThat(one.refusals()).containsKey("UNSAFE_SYNTAX");
        assertThat(one.bothFailed()).isPositive();
        assertThat(four.cases()).isEqualTo(one.cases()).isEqualTo(400);
        assertThat(four.bothRan()).isEqualTo(one.bothRan());
        assertThat(four.bothFailed()).isEqualTo(one.bothFailed());
        assertThat(four.refusals()).isEqualTo(one.refusals());
        assertThat(four.findings()).isEqualTo(one.findings());
        assertThat(one.findings()).allSatisfy(f -> assertThat(f.minimal()).contains("ILIKE"));
    }

    @Test
    void aRunStopsAtItsCapInSeedOrderOnAnyNumberOfWorkers() {
        Differential.Report one = differential(new ByText(), 1).differential(1, 4000, 3);
        Differential.Report four = differential(new ByText(), 4).differential(1, 4000, 3);
        assertThat(one.findings()).hasSize(3);
        assertThat(one.cases()).isEqualTo((int) (one.findings().get(2).seed() - 1 + 1));
        assertThat(four.findings()).isEqualTo(one.findings());
        assertThat(four.cases()).isEqualTo(one.cases());
        assertThat(four.bothRan()).isEqualTo(one.bothRan());
        assertThat(four.refusals()).isEqualTo(one.refusals());
    }

    @Test
    void aProbePairCostsTwoGuardedRunsOnAnyNumberOfWorkers() {
        ByText single = new ByText();
        ByText several = new ByText();
        Differential.Report one = differential(single, 1).probes(1, 300, 10);
        Differential.Report three = differential(several, 3).probes(1, 300, 10);
        assertThat(one.findings()).isEmpty();
        assertThat(single.guardedCalls).hasValue(600);
        assertThat(several.guardedCalls).hasValue(600);
        assertThat(three.bothRan()).isEqualTo(one.bothRan()).isPositive();
        assertThat(three.bothFailed()).isEqualTo(one.bothFailed());
    }

    @Test
    void aSyntaxErrorsPositionIsNoProbeDifferenceButItsWordsAndOtherCodesAre() {
        Outcome hidden = new Outcome.Failed("SYNTAX_ERROR", "syntax error at or near \"x\" near character 41");
        Outcome absent = new Outcome.Failed("SYNTAX_ERROR", "syntax error at or near \"x\" near character 44");
        assertThat(Differential.probeDifference(hidden, "ssn", absent, "ssn_zz", true)).isNull();
        assertThat(Differential.probeDifference(hidden, "ssn", new Outcome.Failed("SYNTAX_ERROR", "syntax error at or near \"y\" near character 44"),
                "ssn_zz", true)).isNotNull();
        assertThat(Differential.probeDifference(new Outcome.Failed("QUERY_FAILED", "failed at character 41"), "ssn",
                new Outcome.Failed("QUERY_FAILED", "failed at character 44"), "ssn_zz", true)).isNotNull();
    }

    /**
     * MariaDB's default collation orders 'EAST' and 'east' alike (seeds 1259398, 1347256, 1611987 and 1703876 of a
     * million from seed 900,001): where the grammar says so, rows that differ only in case may come in either order,
     * and a LIMIT may keep either; any other difference, and a case difference on an engine that orders by case,
     * still counts.
     */
    @Test
    void rowsThatTieUnderACaseInsensitiveOrderMayComeInEitherOrder() {
        Target none = new Target() {
            @Override
            public Outcome raw(String sql) {
                throw new UnsupportedOperationException();
            }

            @Override
            public Outcome guarded(String sql) {
                throw new UnsupportedOperationException();
            }
        };
        Differential mysql = new Differential("test", new QueryGenerator(Grammar.mysql()), none, Set.of());
        Differential postgres = new Differential("test", new QueryGenerator(Grammar.postgresql()), none, Set.of());
        Outcome raw = rows("EAST", "east", "north");
        Outcome swapped = rows("east", "EAST", "north");
        Outcome cut = rows("east", "east", "north");
        assertThat(mysql.compare(raw, swapped, true, "SELECT v FROM t ORDER BY 1")).isNull();
        assertThat(mysql.compare(raw, cut, true, "SELECT v FROM t ORDER BY 1 LIMIT 3")).isNull();
        assertThat(mysql.compare(raw, cut, true, "SELECT v FROM t ORDER BY 1")).isNotNull();
        assertThat(mysql.compare(raw, rows("east", "north", "EAST"), true, "SELECT v FROM t ORDER BY 1 LIMIT 3")).isNotNull();
        assertThat(mysql.compare(raw, rows("EAST", "east", "south"), true, "SELECT v FROM t ORDER BY 1 LIMIT 3")).isNotNull();
        assertThat(postgres.compare(raw, swapped, true, "SELECT v FROM t ORDER BY 1")).isNotNull();
        assertThat(postgres.compare(raw, cut, true, "SELECT v FROM t ORDER BY 1 LIMIT 3")).isNotNull();
    }

    private static Outcome rows(String... values) {
        return new Outcome.Rows(java.util.Arrays.stream(values).map(List::of).toList());
    }
}
