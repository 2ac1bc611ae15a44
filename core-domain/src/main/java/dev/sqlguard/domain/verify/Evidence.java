package dev.sqlguard.domain.verify;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

import dev.sqlguard.domain.SafeText;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;

/**
 * The values an answer may cite: the tables returned by tool calls and single values (e.g. a
 * statistic). Numeric cells are values; text cells are scanned for numbers and dates
 * ({@code 2024-01-05}, {@code "iPhone 15"}), which count as values but take part in no derived
 * rule. Booleans and nulls are ignored.
 *
 * <p>A table is <em>complete</em> when it holds every row of its query (not truncated by a row
 * limit). Only complete tables give row counts, column sums and shares of a column sum.
 */
public final class Evidence {
    /** Pairwise derived rules (ratio, relative change, difference) only look at tables this small. */
    public static final int PAIR_MAX_ROWS = 25;
    /** ... and with at most this many numeric columns. */
    public static final int PAIR_MAX_NUMERIC_COLUMNS = 8;
    /** Text cells are scanned up to this many chars. */
    static final int MAX_TEXT_SCAN = 500;

    private static final MathContext DIVISION = MathContext.DECIMAL64;

    /** A number that can support a claim: a result value, or a derived one (then {@code rule} names it). */
    interface Candidate {
        double approx();

        BigDecimal number();
    }

    /** One value with a description of where it came from. */
    record Value(double approx, BigDecimal number, String where) implements Candidate {
        Value(BigDecimal number, String where) {
            this(number.doubleValue(), number, where);
        }
    }

    /** A value computed by a derived rule; {@code fraction} marks ratios, which a percent shows ×100. */
    record Derived(double approx, BigDecimal number, SupportRule rule, boolean fraction, String where) implements Candidate {
    }

    private record Table(String label, List<String> columns, BigDecimal[][] numbers, int rowCount, boolean complete) {
        String column(int c) {
            return c < columns.size() ? "column " + SafeText.identifier(columns.get(c)) : "column " + (c + 1);
        }

        String cell(int r, int c) {
            return label + ", row " + (r + 1) + ", " + column(c);
        }
    }

    private final List<Table> tables;
    private final List<Value> values;
    private final List<DateParts> dates;
    private List<Derived> derived;

    private Evidence(List<Table> tables, List<Value> values, List<DateParts> dates) {
        this.tables = List.copyOf(tables);
        List<Value> sorted = new ArrayList<>(values);
        sorted.sort(Comparator.comparingDouble(Value::approx));
        this.values = List.copyOf(sorted);
        this.dates = List.copyOf(dates);
    }

    /** No evidence at all: only exempt numbers can be supported. */
    public static Evidence none() {
        return builder().build();
    }

    /** One complete table without column names. */
    public static Evidence ofRows(List<List<Object>> rows) {
        return builder().table("the result", List.of(), rows, true).build();
    }

    /**
     * The tables of the successful tool results ({@code OK} and {@code NO_EVIDENCE}; a result with
     * no rows still says its row count is 0). A result is complete unless {@code truncated}.
     */
    public static Evidence ofResults(List<ToolResult> results) {
        Builder builder = builder();
        for (ToolResult result : requireNonNull(results, "results is null")) {
            if (result.status() == ToolStatus.OK || result.status() == ToolStatus.NO_EVIDENCE) {
                builder.table("result " + SafeText.identifier(result.id()),
                        result.columns().stream().map(c -> c.name()).toList(), result.rows(), !result.truncated());
            }
        }
        return builder.build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Collects tables and single values. */
    public static final class Builder {
        private final List<Table> tables = new ArrayList<>();
        private final List<Value> values = new ArrayList<>();
        private final List<DateParts> dates = new ArrayList<>();

        private Builder() {
        }

        /**
         * Adds a table.
         *
         * @param label how the report names it, e.g. {@code result 'call_1'}
         * @param columns the column names (may be empty)
         * @param complete whether the rows are all the rows of the query
         */
        public Builder table(String label, List<String> columns, List<List<Object>> rows, boolean complete) {
            requireNonNull(label, "label is null");
            requireNonNull(columns, "columns is null");
            requireNonNull(rows, "rows is null");
            int width = rows.stream().mapToInt(List::size).max().orElse(0);
            BigDecimal[][] numbers = new BigDecimal[rows.size()][width];
            Table table = new Table(label, List.copyOf(columns), numbers, rows.size(), complete);
            for (int r = 0; r < rows.size(); r++) {
                List<Object> row = rows.get(r);
                for (int c = 0; c < row.size(); c++) {
                    Object cell = row.get(c);
                    BigDecimal n = number(cell);
                    if (n != null) {
                        numbers[r][c] = n;
                        values.add(new Value(n, table.cell(r, c) + " = " + n.toPlainString()));
                    } else if (cell instanceof CharSequence text) {
                        scanText(text.toString(), "text in " + table.cell(r, c));
                    }
                }
            }
            tables.add(table);
            return this;
        }

        /** Adds one value, e.g. a statistic; text is scanned for numbers and dates. */
        public Builder value(String label, Object value) {
            requireNonNull(label, "label is null");
            BigDecimal n = number(value);
            if (n != null) {
                values.add(new Value(n, label + " = " + n.toPlainString()));
            } else if (value instanceof CharSequence text) {
                scanText(text.toString(), "text in " + label);
            }
            return this;
        }

        private void scanText(String text, String where) {
            String scanned = text.length() > MAX_TEXT_SCAN ? text.substring(0, MAX_TEXT_SCAN) : text;
            for (NumberExtractor.Mention m : NumberExtractor.mentions(scanned)) {
                if (m.kind() == ClaimKind.DATE) {
                    dates.addAll(m.dates());
                } else {
                    values.add(new Value(m.value(), where + " = " + m.claim().text()));
                }
            }
        }

        public Evidence build() {
            return new Evidence(tables, values, dates);
        }
    }

    static BigDecimal number(Object cell) {
        if (cell instanceof BigDecimal d) {
            return d;
        }
        if (cell instanceof BigInteger i) {
            return new BigDecimal(i);
        }
        if (cell instanceof Long || cell instanceof Integer || cell instanceof Short || cell instanceof Byte) {
            return BigDecimal.valueOf(((Number) cell).longValue());
        }
        if (cell instanceof Double d) {
            return Double.isFinite(d) ? BigDecimal.valueOf(d) : null;
        }
        if (cell instanceof Float f) {
            return Float.isFinite(f) ? new BigDecimal(f.toString()) : null;
        }
        return null;
    }

    /** The result values, sorted by {@link Value#approx()}. */
    List<Value> values() {
        return values;
    }

    List<DateParts> dates() {
        return dates;
    }

    /** The most rows any table shows (0 without tables). */
    public int maxRowsShown() {
        return tables.stream().mapToInt(Table::rowCount).max().orElse(0);
    }

    public boolean isEmpty() {
        return tables.isEmpty() && values.isEmpty() && dates.isEmpty();
    }

    /** The derived values, sorted by {@link Derived#approx()}; computed once. */
    synchronized List<Derived> derived() {
        if (derived == null) {
            List<Derived> out = new ArrayList<>();
            for (Table t : tables) {
                derive(t, out);
            }
            out.sort(Comparator.comparingDouble(Derived::approx));
            derived = Collections.unmodifiableList(out);
        }
        return derived;
    }

    private static void derive(Table t, List<Derived> out) {
        int width = t.numbers().length == 0 ? 0 : t.numbers()[0].length;
        if (t.complete()) {
            add(out, BigDecimal.valueOf(t.rowCount()), SupportRule.ROW_COUNT, false, "number of rows of " + t.label());
            for (int c = 0; c < width; c++) {
                BigDecimal sum = BigDecimal.ZERO;
                int count = 0;
                boolean nonNegative = true;
                for (BigDecimal[] row : t.numbers()) {
                    if (row[c] != null) {
                        sum = sum.add(row[c]);
                        count++;
                        nonNegative &= row[c].signum() >= 0;
                    }
                }
                if (count < 2) {
                    continue;
                }
                String col = t.column(c) + " of " + t.label();
                add(out, sum, SupportRule.COLUMN_SUM, false, "sum of " + col);
                if (nonNegative && sum.signum() > 0) {
                    for (int r = 0; r < t.rowCount(); r++) {
                        BigDecimal v = t.numbers()[r][c];
                        if (v != null) {
                            add(out, v.divide(sum, DIVISION), SupportRule.SHARE_OF_COLUMN_SUM, true,
                                    "row " + (r + 1) + " (" + v.toPlainString() + ") / sum of " + col + " (" + sum.toPlainString() + ")");
                        }
                    }
                }
            }
        }
        List<Integer> numericColumns = new ArrayList<>();
        for (int c = 0; c < width; c++) {
            for (BigDecimal[] row : t.numbers()) {
                if (row[c] != null) {
                    numericColumns.add(c);
                    break;
                }
            }
        }
        if (t.rowCount() > PAIR_MAX_ROWS || numericColumns.size() > PAIR_MAX_NUMERIC_COLUMNS) {
            return;
        }
        for (int c : numericColumns) {
            for (int a = 0; a < t.rowCount(); a++) {
                for (int b = 0; b < t.rowCount(); b++) {
                    if (a != b) {
                        pair(out, t.numbers()[a][c], t.numbers()[b][c], t.cell(a, c), t.cell(b, c));
                    }
                }
            }
        }
        for (int r = 0; r < t.rowCount(); r++) {
            for (int a : numericColumns) {
                for (int b : numericColumns) {
                    if (a != b) {
                        pair(out, t.numbers()[r][a], t.numbers()[r][b], t.cell(r, a), t.cell(r, b));
                    }
                }
            }
        }
    }

    private static void pair(List<Derived> out, BigDecimal a, BigDecimal b, String whereA, String whereB) {
        if (a == null || b == null) {
            return;
        }
        String names = " of " + whereA + " (" + a.toPlainString() + ") and " + whereB + " (" + b.toPlainString() + ")";
        add(out, a.subtract(b), SupportRule.DIFFERENCE, false, "difference" + names);
        if (b.signum() != 0) {
            add(out, a.divide(b, DIVISION), SupportRule.RATIO, true, "ratio" + names);
            add(out, a.subtract(b).divide(b, DIVISION), SupportRule.RELATIVE_CHANGE, true, "relative change" + names);
        }
    }

    private static void add(List<Derived> out, BigDecimal value, SupportRule rule, boolean fraction, String where) {
        out.add(new Derived(value.doubleValue(), value, rule, fraction, where));
    }
}
