package dev.sqlguard.testing.differential;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * What the generator writes: the same text for the same seed, each construct family of an engine's grammar within
 * a few thousand seeds, and nothing its grammar lacks.
 */
class QueryGeneratorTest {
    private static List<String> texts(Grammar grammar, int count, boolean probes) {
        QueryGenerator generator = new QueryGenerator(grammar);
        List<String> out = new ArrayList<>();
        for (long seed = 1; seed <= count; seed++) {
            out.add(probes ? generator.probe(seed).sql("password") : generator.next(seed).sql());
        }
        return out;
    }

    private static long count(List<String> texts, String fragment) {
        return texts.stream().filter(t -> t.contains(fragment)).count();
    }

    @Test
    void aSeedGivesTheSameTextEveryTime() {
        assertThat(texts(Grammar.postgresql(), 200, false)).isEqualTo(texts(Grammar.postgresql(), 200, false));
        assertThat(texts(Grammar.mysql(), 200, true)).isEqualTo(texts(Grammar.mysql(), 200, true));
    }

    @Test
    void everyGrammarReachesTheThirdWaveOfConstructs() {
        for (Grammar grammar : List.of(Grammar.postgresql(), Grammar.duckdb(), Grammar.trino(), Grammar.mysql())) {
            List<String> texts = texts(grammar, 3_000, false);
            String aggregate = grammar.stringAgg() == null ? "min" : grammar.stringAgg().substring(0, grammar.stringAgg().indexOf('('));
            for (String fragment : List.of("WITH RECURSIVE r (i) AS", "WITH RECURSIVE r (i, d) AS", " ESCAPE '!'", aggregate + "(", "count(DISTINCT ", "round(avg(",
                    "RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW", "ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING",
                    "OVER (ORDER BY count(", " ALL (SELECT ", ") IN (SELECT u5.id, u5.name FROM users u5)", "NOT EXISTS (SELECT 1 FROM claims c8",
                    "SELECT *, ", "SELECT regions.*", "CASE length(")) {
                assertThat(count(texts, fragment)).as(grammar + ": " + fragment).isPositive();
            }
        }
    }

    @Test
    void everyGrammarReachesTheFourthWaveOfConstructs() {
        for (Grammar grammar : List.of(Grammar.postgresql(), Grammar.duckdb(), Grammar.trino(), Grammar.mysql())) {
            List<String> texts = texts(grammar, 3_000, false);
            String[] days = grammar.dayInterval().split("%d", -1);
            java.util.regex.Pattern moved = java.util.regex.Pattern.compile("[-+] " + java.util.regex.Pattern.quote(days[0]) + "\\d+"
                    + java.util.regex.Pattern.quote(days[1]));
            assertThat(texts.stream().filter(t -> moved.matcher(t).find()).count()).as(grammar + ": days").isPositive();
            for (String fragment : List.of("EXTRACT(", "POSITION(", " IN ", "greatest(", "least(", " % ", "TRIM(BOTH 'n' FROM ",
                    "TRIM(LEADING 'n' FROM ", "TRIM(TRAILING 'h' FROM ", "SUBSTRING(", " FOR ", "replace(", "concat(", "coalesce(DATE '",
                    "users u RIGHT JOIN claims c ON u.id = c.id", "claims c CROSS JOIN regions r")) {
                assertThat(count(texts, fragment)).as(grammar + ": " + fragment).isPositive();
            }
            long values = count(texts, "(VALUES (1, 'north'), (2, 'EAST'), (3, 'x')) v (k, region)");
            if (grammar.valuesTable()) {
                assertThat(values).as(grammar + ": VALUES").isPositive();
            } else {
                assertThat(values).as(grammar + ": VALUES").isZero();
            }
        }
        assertThat(count(texts(Grammar.mysql(), 3_000, false), " + INTERVAL ")).isPositive();
        assertThat(count(texts(Grammar.trino(), 3_000, false), " DAY")).isPositive();
    }

    @Test
    void aStarOverATableThatHidesAColumnIsWrittenOnlyInProbes() {
        for (Grammar grammar : List.of(Grammar.postgresql(), Grammar.mysql())) {
            // raw expands claims.* to ssn as well, the guard does not: only probe pairs (guarded both times) may hold it
            assertThat(count(texts(grammar, 3_000, false), "SELECT c.*")).as(grammar.toString()).isZero();
            assertThat(count(texts(grammar, 3_000, false), "SELECT u.*")).as(grammar.toString()).isZero();
            assertThat(count(texts(grammar, 3_000, true), "SELECT c.*") + count(texts(grammar, 3_000, true), "SELECT u.*"))
                    .as(grammar.toString()).isPositive();
        }
    }

    @Test
    void probesSpellTheNameEveryWay() {
        for (Grammar grammar : List.of(Grammar.postgresql(), Grammar.mysql())) {
            List<String> probes = texts(grammar, 3_000, true);
            String q = grammar.quote();
            assertThat(count(probes, " AS password")).as(grammar + ": plain").isPositive();
            assertThat(count(probes, " AS PASSWORD")).as(grammar + ": upper case").isPositive();
            assertThat(count(probes, " AS " + q + "password" + q)).as(grammar + ": quoted").isPositive();
            assertThat(count(probes, "u.password")).as(grammar + ": qualified").isPositive();
            // a differential case holds no probe, so its spelling is plain
            assertThat(texts(grammar, 500, false)).noneMatch(t -> t.contains("\u0001"));
        }
    }

    @Test
    void noGrammarGetsWhatItLacks() {
        List<String> mysql = texts(Grammar.mysql(), 3_000, false);
        assertThat(count(mysql, "||")).isZero();
        assertThat(count(mysql, "string_agg(")).isZero();
        assertThat(count(mysql, "DISTINCT ON")).isZero();
        List<String> trino = texts(Grammar.trino(), 3_000, false);
        assertThat(count(trino, "NATURAL JOIN")).isZero();
        assertThat(count(trino, "::")).isZero();
        assertThat(count(trino, "group_concat(")).isZero();
        assertThat(count(trino, "listagg(")).isZero();
    }
}
