package dev.sqlguard.duckdb.ingest.internal;

/**
 * Infers one xlsx column's DuckDB type from the cells seen: BOOLEAN, BIGINT, DECIMAL(18,s) (when
 * every number carries a fixed-decimal format and fits it), DOUBLE, DATE, TIMESTAMP, and VARCHAR
 * for text, for mixed kinds and for a column with no values.
 */
final class ColumnProfile {
    /** Integers up to this many digits are exact in a double, so BIGINT keeps them. */
    private static final int MAX_EXACT_INTEGER_DIGITS = 15;
    private static final int DECIMAL_PRECISION = 18;

    private final int[] kinds = new int[XlsxCell.Kind.values().length];
    private boolean allIntegral = true;
    private boolean allFixedDecimal = true;
    private int maxScale;
    private int maxIntegerDigits;
    private boolean allWholeDays = true;

    void observe(XlsxCell cell) {
        kinds[cell.kind().ordinal()]++;
        switch (cell.kind()) {
            case NUMBER -> {
                allIntegral &= cell.valueScale() == 0;
                allFixedDecimal &= cell.decimalScale() >= 1 && cell.valueScale() <= cell.decimalScale();
                maxScale = Math.max(maxScale, Math.max(cell.decimalScale(), cell.valueScale()));
                maxIntegerDigits = Math.max(maxIntegerDigits, cell.integerDigits());
            }
            case DATE -> allWholeDays &= cell.valueScale() == 0;
            default -> {
            }
        }
    }

    String type() {
        int present = 0;
        XlsxCell.Kind only = null;
        for (XlsxCell.Kind kind : XlsxCell.Kind.values()) {
            if (kinds[kind.ordinal()] > 0) {
                present++;
                only = kind;
            }
        }
        if (present != 1) {
            return "VARCHAR";
        }
        return switch (only) {
            case STRING -> "VARCHAR";
            case BOOLEAN -> "BOOLEAN";
            case DATE -> allWholeDays ? "DATE" : "TIMESTAMP";
            case NUMBER -> numberType();
        };
    }

    private String numberType() {
        if (allFixedDecimal && maxScale >= 1 && maxIntegerDigits + maxScale <= DECIMAL_PRECISION) {
            return "DECIMAL(" + DECIMAL_PRECISION + "," + maxScale + ")";
        }
        if (allIntegral && maxIntegerDigits <= MAX_EXACT_INTEGER_DIGITS) {
            return "BIGINT";
        }
        return "DOUBLE";
    }
}
