package dev.sqlguard.duckdb.ingest.internal;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/**
 * One non-empty cell as the sheet stores it. {@link #text()} is a canonical text form that DuckDB
 * casts back exactly: integers without a fraction, decimals in plain notation, ISO dates.
 *
 * @param kind what the cell holds
 * @param text the canonical text
 * @param decimalScale for numbers: the decimals a fixed-decimal format shows (0.00 gives 2), or
 *     -1 when the format is not fixed-decimal (General, %, scientific, fractions)
 * @param valueScale for numbers: the decimals the value needs; for dates: 0 if it is a whole day
 * @param integerDigits for numbers: digits left of the decimal point
 */
record XlsxCell(Kind kind, String text, int decimalScale, int valueScale, int integerDigits) {
    enum Kind { STRING, BOOLEAN, NUMBER, DATE }

    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");

    XlsxCell {
        requireNonNull(kind, "kind is null");
        requireNonNull(text, "text is null");
    }

    static XlsxCell string(String text) {
        return new XlsxCell(Kind.STRING, text, -1, 0, 0);
    }

    static XlsxCell bool(boolean value) {
        return new XlsxCell(Kind.BOOLEAN, Boolean.toString(value), -1, 0, 0);
    }

    static XlsxCell number(double value, int decimalScale) {
        BigDecimal exact = BigDecimal.valueOf(value).stripTrailingZeros();
        int scale = Math.max(0, exact.scale());
        if (scale == 0) {
            exact = exact.setScale(0);
        }
        int integerDigits = Math.max(0, exact.precision() - exact.scale());
        return new XlsxCell(Kind.NUMBER, exact.toPlainString(), decimalScale, scale, integerDigits);
    }

    static XlsxCell date(LocalDateTime value) {
        boolean wholeDay = value.toLocalTime().toNanoOfDay() == 0;
        String text = wholeDay ? value.toLocalDate().toString() : value.format(TIMESTAMP);
        return new XlsxCell(Kind.DATE, text, -1, wholeDay ? 0 : 1, 0);
    }
}
