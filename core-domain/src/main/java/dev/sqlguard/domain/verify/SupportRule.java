package dev.sqlguard.domain.verify;

import static java.util.Objects.requireNonNull;

/**
 * The complete, closed list of rules that can support a number. Anything not listed here leaves
 * the number unsupported. See the package documentation for the exact conditions.
 */
public enum SupportRule {
    /** A result value rounds to the number at the precision shown. */
    RESULT_VALUE(SupportKind.EVIDENCE, "a result value at the precision shown"),
    /** A result value that is a fraction, shown as a percent (12.5% for 0.125). */
    PERCENT_OF_RESULT_FRACTION(SupportKind.EVIDENCE, "a result fraction shown as a percent"),
    /** A result value that is a percent, shown as a fraction (0.125 for 12.5). */
    FRACTION_OF_RESULT_PERCENT(SupportKind.EVIDENCE, "a result percent shown as a fraction"),
    /** The date, month or day appears in the results. */
    RESULT_DATE(SupportKind.EVIDENCE, "a date in the results"),
    /** A year that is the year of a date in the results. */
    YEAR_OF_RESULT_DATE(SupportKind.EVIDENCE, "the year of a date in the results"),

    /** The number of rows of a complete result. */
    ROW_COUNT(SupportKind.DERIVED, "the number of rows of a complete result"),
    /** The sum of one column of a complete result. */
    COLUMN_SUM(SupportKind.DERIVED, "the sum of one column of a complete result"),
    /** One value divided by the sum of its (non-negative) column, as a fraction or percent. */
    SHARE_OF_COLUMN_SUM(SupportKind.DERIVED, "a value's share of its column sum"),
    /** a / b for two values in the same column or the same row of a small result. */
    RATIO(SupportKind.DERIVED, "the ratio of two values in one column or one row"),
    /** (a − b) / b for two values in the same column or the same row of a small result. */
    RELATIVE_CHANGE(SupportKind.DERIVED, "the relative change between two values in one column or one row"),
    /** a − b for two values in the same column or the same row of a small result. */
    DIFFERENCE(SupportKind.DERIVED, "the difference of two values in one column or one row"),

    /** {@code 1.} or {@code 1)} at the start of a line, after blanks and markdown. */
    LIST_MARKER(SupportKind.EXEMPT, "a list marker at the start of a line"),
    /** {@code 1st}, {@code 2nd}, {@code 3rd}, {@code 4th}, {@code #1}. */
    ORDINAL(SupportKind.EXEMPT, "an ordinal or rank"),
    /** The same number (or date) appears in the question. */
    IN_QUESTION(SupportKind.EXEMPT, "a number from the question"),
    /** {@code top N}, {@code bottom N}, {@code first N}, {@code last N} with N no more than the rows of a result. */
    TOP_N(SupportKind.EXEMPT, "top/bottom/first/last N within the rows shown");

    private final SupportKind kind;
    private final String description;

    SupportRule(SupportKind kind, String description) {
        this.kind = requireNonNull(kind, "kind is null");
        this.description = requireNonNull(description, "description is null");
    }

    public SupportKind kind() {
        return kind;
    }

    public String description() {
        return description;
    }
}
