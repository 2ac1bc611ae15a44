package dev.sqlguard.domain.verify;

/** A date or part of one; 0 marks a part that is not written. */
record DateParts(int year, int month, int day) {
    /** Whether {@code other} (a date from the evidence) has every part this one names, with the same value. */
    boolean isCoveredBy(DateParts other) {
        return (year == 0 || year == other.year) && (month == 0 || month == other.month)
                && (day == 0 || day == other.day);
    }

    boolean valid() {
        return month >= 1 && month <= 12 && day >= 0 && day <= 31 && (year == 0 || year >= 1000);
    }
}
