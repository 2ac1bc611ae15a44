package dev.sqlguard.duckdb.ingest.internal;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which DuckDB type changes keep values, so rows of one type may go into a column of another:
 * narrower integers and decimals into wider ones, integers and decimals into DOUBLE (as any DOUBLE
 * column stores them), DATE into TIMESTAMP, and any flat type into VARCHAR. Anything else (DOUBLE
 * into BIGINT, VARCHAR into DATE, ...) is refused instead of being rounded or parsed silently.
 */
public final class TypeRules {
    private static final Map<String, Integer> SIGNED = Map.of(
            "TINYINT", 3, "SMALLINT", 5, "INTEGER", 10, "BIGINT", 19, "HUGEINT", 39);
    private static final Map<String, Integer> UNSIGNED = Map.of(
            "UTINYINT", 3, "USMALLINT", 5, "UINTEGER", 10, "UBIGINT", 20, "UHUGEINT", 39);
    private static final Pattern DECIMAL = Pattern.compile("DECIMAL\\((\\d+),\\s*(\\d+)\\)");

    private TypeRules() {
    }

    /** Whether every value of type {@code from} fits a column of type {@code to} unchanged. */
    public static boolean widens(String from, String to) {
        String f = from.trim().toUpperCase(Locale.ROOT);
        String t = to.trim().toUpperCase(Locale.ROOT);
        if (f.equals(t)) {
            return true;
        }
        if (t.equals("VARCHAR")) {
            return !isNested(f);
        }
        if (isInteger(f)) {
            return integerWidens(f, t);
        }
        if (f.equals("FLOAT")) {
            return t.equals("DOUBLE");
        }
        Matcher decimal = DECIMAL.matcher(f);
        if (decimal.matches()) {
            int precision = Integer.parseInt(decimal.group(1));
            int scale = Integer.parseInt(decimal.group(2));
            if (t.equals("DOUBLE")) {
                return true;
            }
            Matcher target = DECIMAL.matcher(t);
            return target.matches() && Integer.parseInt(target.group(2)) >= scale
                    && Integer.parseInt(target.group(1)) - Integer.parseInt(target.group(2)) >= precision - scale;
        }
        return f.equals("DATE") && (t.equals("TIMESTAMP") || t.equals("TIMESTAMP_NS"));
    }

    /**
     * Whether {@code from} goes into {@code to} where the type alone does not promise it but DuckDB's
     * cast refuses, rather than rounds, any value that does not fit: an integer into a DECIMAL with
     * fewer integer digits than the integer type (BIGINT ids or counts into DECIMAL(18,2) money).
     * A value too large fails the load; nothing is changed silently.
     */
    public static boolean widensChecked(String from, String to) {
        String f = from.trim().toUpperCase(Locale.ROOT);
        return isInteger(f) && DECIMAL.matcher(to.trim().toUpperCase(Locale.ROOT)).matches();
    }

    private static boolean integerWidens(String from, String to) {
        int digits = SIGNED.containsKey(from) ? SIGNED.get(from) : UNSIGNED.get(from);
        boolean unsigned = UNSIGNED.containsKey(from);
        if (SIGNED.containsKey(to)) {
            int toDigits = SIGNED.get(to);
            return unsigned ? toDigits > digits : toDigits >= digits;
        }
        if (UNSIGNED.containsKey(to)) {
            return unsigned && UNSIGNED.get(to) >= digits;
        }
        if (to.equals("DOUBLE")) {
            return true;
        }
        if (to.equals("FLOAT")) {
            return digits <= 5;
        }
        Matcher target = DECIMAL.matcher(to);
        return target.matches()
                && Integer.parseInt(target.group(1)) - Integer.parseInt(target.group(2)) >= digits;
    }

    /** Whether a value of the type is a number: integers, DECIMAL, FLOAT, DOUBLE. */
    public static boolean isNumeric(String type) {
        String t = type.trim().toUpperCase(Locale.ROOT);
        return isInteger(t) || t.equals("FLOAT") || t.equals("DOUBLE") || DECIMAL.matcher(t).matches();
    }

    private static boolean isInteger(String type) {
        return SIGNED.containsKey(type) || UNSIGNED.containsKey(type);
    }

    private static boolean isNested(String type) {
        return type.endsWith("]") || type.startsWith("STRUCT") || type.startsWith("MAP") || type.startsWith("UNION");
    }
}
