package dev.sqlguard.domain.verify;

/**
 * The word in front of a number that loosens or bounds it. A qualified whole number is read at
 * the significance of its last non-zero digit ({@code about 1,200,000} is rounded to the hundred
 * thousand); a bound also needs the evidence on the right side of it.
 */
public enum Qualifier {
    /** No qualifier: the number is read at the precision shown. */
    EXACT,
    /** about, around, approximately, approx., roughly, circa, ~, ≈ */
    APPROXIMATE,
    /** over, more than, above, greater than, exceeding, in excess of: the value is larger. */
    MORE_THAN,
    /** at least, no less than: the value is at least the number. */
    AT_LEAST,
    /** under, less than, below, fewer than, nearly, almost, just under: the value is smaller. */
    LESS_THAN,
    /** at most, up to, no more than: the value is at most the number. */
    AT_MOST
}
