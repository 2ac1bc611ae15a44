package dev.sqlguard.domain;

import static java.util.Objects.requireNonNull;

/**
 * A column mask: an expression over the column that the engine computes in place of its values, for
 * example {@code '***-**-' || right(ssn, 4)}. It runs inside the engine, so the clear values never leave
 * it. A masked column counts as sensitive for filters and ordering, as a redacted one does. A mask takes
 * no attributes, comments or statement ends.
 *
 * @param expression the expression as configured
 */
public record ColumnMask(String expression) {
    public ColumnMask {
        requireNonNull(expression, "expression is null");
        RowFilter text = new RowFilter(expression); // the same lexical rules as a row filter
        if (!text.placeholders().isEmpty()) {
            throw new IllegalArgumentException("a column mask takes no :attribute placeholders");
        }
    }
}
