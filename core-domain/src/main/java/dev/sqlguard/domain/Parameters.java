package dev.sqlguard.domain;

/** The one check that a request supplies as many values as its SQL has placeholders. */
public final class Parameters {
    private Parameters() {
    }

    /** @throws GuardException {@link ErrorCode#PARAMETER_COUNT_MISMATCH} when the counts differ */
    public static void requireCount(int placeholders, int values) {
        if (placeholders != values) {
            throw new GuardException(ErrorCode.PARAMETER_COUNT_MISMATCH, "The SQL has " + placeholders
                    + " parameter placeholder(s) but " + values + " value(s) were supplied.");
        }
    }
}
