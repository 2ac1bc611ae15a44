package dev.sqlguard.app.tools.internal;

import java.util.Locale;

/** A coarse class of a column's engine type name, enough to choose statistics and chart encodings. */
public enum ColumnKind {
    NUMERIC, TEMPORAL, BOOLEAN, TEXT;

    private static final java.util.regex.Pattern INTEGER =
            java.util.regex.Pattern.compile("U?(TINY|SMALL|MEDIUM|BIG|HUGE)?INT(EGER)?\\d*\\b");

    public static ColumnKind of(String typeName) {
        String t = typeName.toUpperCase(Locale.ROOT);
        if (t.startsWith("BOOL") || t.equals("BIT") || t.equals("TINYINT(1)")) {
            return BOOLEAN;
        }
        if (INTEGER.matcher(t).lookingAt() || t.startsWith("DECIMAL") || t.startsWith("NUMERIC")
                || t.startsWith("DOUBLE") || t.startsWith("FLOAT") || t.startsWith("REAL") || t.startsWith("DEC(")
                || t.startsWith("NUMBER")) {
            return NUMERIC;
        }
        if (t.startsWith("DATE") || t.startsWith("TIME") || t.startsWith("YEAR")) {
            return TEMPORAL;
        }
        return TEXT;
    }
}
