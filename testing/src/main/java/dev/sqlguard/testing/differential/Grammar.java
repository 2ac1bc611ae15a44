package dev.sqlguard.testing.differential;

import static java.util.Objects.requireNonNull;

/**
 * What one engine's SQL offers the {@link QueryGenerator}: which operators and clauses it has and how
 * it spells casts. The generator writes only these, so that most cases run raw; a case the engine
 * refuses raw is still a case (the guard must refuse it too).
 *
 * @param ilike {@code ILIKE}
 * @param similarTo {@code SIMILAR TO}
 * @param xor the boolean {@code XOR} operator
 * @param bang MySQL's {@code !} (boolean NOT with its own precedence)
 * @param concat {@code ||} as string concatenation
 * @param concatAnything {@code ||} with a number on one side
 * @param distinctFrom null-safe equality is {@code IS [NOT] DISTINCT FROM} (else {@code <=>})
 * @param doubleColonCast {@code x::type}
 * @param distinctOn {@code DISTINCT ON (...)}
 * @param qualify {@code QUALIFY}
 * @param fullJoin {@code FULL JOIN}
 * @param nullsOrdering {@code NULLS FIRST}/{@code NULLS LAST}
 * @param intType the cast target for an integer
 * @param textType the cast target for text
 * @param decimalType the cast target for a decimal with two places
 * @param caseInsensitiveOrder the engine's default collation orders text without regard to case (MariaDB's and
 *     MySQL's {@code _ci} collations): {@code 'EAST'} and {@code 'east'} tie in an ORDER BY, so a complete order of
 *     the outputs is not a total one, and a LIMIT may keep either
 * @param collation a collation a text may be given with {@code COLLATE}, written as the engine takes it, or null
 *     when the engine has no {@code COLLATE}
 * @param offsetFirst {@code OFFSET m LIMIT n} (Trino) rather than {@code LIMIT n OFFSET m}
 * @param namedWindow {@code OVER w ... WINDOW w AS (...)}
 * @param aggregateFilter {@code count(*) FILTER (WHERE ...)}
 * @param groupingSets {@code GROUP BY ROLLUP (...)}, {@code CUBE (...)} and {@code GROUPING SETS (...)}
 * @param withRollup MySQL's {@code GROUP BY ... WITH ROLLUP}
 * @param lateral a {@code LATERAL} derived table that reads the columns before it
 * @param naturalJoin {@code NATURAL JOIN} (Trino has none, and DuckDB's guard refuses it by policy): without it the
 *     generator joins the same tables {@code USING} their common column, so that the case still runs
 * @param stringAgg the engine's ordered string aggregate, {@code %1$s} where the text goes (it is also the order, so
 *     that the result is one string whatever the plan; on MariaDB in a binary collation, since its default one ties
 *     {@code 'north'} with {@code 'NORTH'}), or null when it has none or its guard never allows it (Trino's
 *     {@code listagg}, refused with the array builders)
 * @param quote how the engine quotes an identifier ({@code "} or a backtick)
 * @param dayInterval what is added to a date to move it {@code %d} days on as a date ({@code %d} alone on PostgreSQL
 *     and DuckDB, whose date plus an integer is a date; an {@code INTERVAL} on MariaDB and Trino, where a date plus a
 *     number is a number or refused)
 * @param valuesTable a {@code VALUES} list as a FROM item with its columns named after its alias
 * @param doubleQuotedStrings {@code "x"} is a string literal, as {@code 'x'} (MySQL and MariaDB outside
 *     {@code ANSI_QUOTES}, as the public text-to-SQL benchmarks write their strings)
 */
public record Grammar(boolean ilike, boolean similarTo, boolean xor, boolean bang, boolean concat, boolean concatAnything,
                      boolean distinctFrom, boolean doubleColonCast, boolean distinctOn, boolean qualify, boolean fullJoin,
                      boolean nullsOrdering, String intType, String textType, String decimalType,
                      boolean caseInsensitiveOrder, String collation, boolean offsetFirst, boolean namedWindow,
                      boolean aggregateFilter, boolean groupingSets, boolean withRollup, boolean lateral,
                      boolean naturalJoin, String stringAgg, String quote, String dayInterval, boolean valuesTable,
                      boolean doubleQuotedStrings) {
    public Grammar {
        requireNonNull(intType, "intType is null");
        requireNonNull(textType, "textType is null");
        requireNonNull(decimalType, "decimalType is null");
        requireNonNull(quote, "quote is null");
        requireNonNull(dayInterval, "dayInterval is null");
    }

    public static Grammar postgresql() {
        return new Grammar(true, true, false, false, true, true, true, true, true, false, true, true,
                "integer", "text", "numeric(12,2)", false, "\"C\"", false, true, true, true, false, true, true,
                "string_agg(%1$s, ',' ORDER BY %1$s)", "\"", "%d", true, false);
    }

    public static Grammar duckdb() {
        return new Grammar(true, true, false, false, true, true, true, true, true, true, true, true,
                "BIGINT", "VARCHAR", "DECIMAL(12,2)", false, "nocase", false, true, true, true, false, true, false,
                "string_agg(%1$s, ',' ORDER BY %1$s)", "\"", "%d", true, false);
    }

    public static Grammar trino() {
        return new Grammar(false, false, false, false, true, false, true, false, false, false, true, true,
                "bigint", "varchar", "decimal(12,2)", false, null, true, true, true, true, false, true, false,
                null, "\"", "INTERVAL '%d' DAY", true, false);
    }

    /** MariaDB and MySQL: {@code ||} is OR there, null-safe equality is {@code <=>}, text orders without regard to case. */
    public static Grammar mysql() {
        return new Grammar(false, false, true, true, false, false, false, false, false, false, false, false,
                "SIGNED", "CHAR", "DECIMAL(12,2)", true, "utf8mb4_bin", false, true, false, false, true, false, true,
                "group_concat(%1$s ORDER BY %1$s COLLATE utf8mb4_bin SEPARATOR ',')", "`", "INTERVAL %d DAY", false, true);
    }
}
