package dev.sqlguard.domain.verify;

/** What a number in an answer is read as. */
public enum ClaimKind {
    /** A plain quantity, possibly with a currency, a magnitude ({@code 1.2k}, {@code 3.4 million}) or a unit. */
    NUMBER,
    /** A percentage written with {@code %}, {@code percent}, {@code pct} or {@code percentage points}; the value is in percent. */
    PERCENT,
    /** A plain four-digit whole number from 1900 to 2099 with no qualifier, sign, currency or grouping. */
    YEAR,
    /** A calendar date ({@code 2024-01-05}, {@code March 3, 2024}, {@code 3 March 2024}, {@code 1/5/2024}) or part of one ({@code March 2024}, {@code March 3}, {@code 2024-03}). */
    DATE
}
