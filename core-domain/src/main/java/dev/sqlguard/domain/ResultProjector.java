package dev.sqlguard.domain;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import dev.sqlguard.domain.port.ResultCursor;

/**
 * Reads a cursor into a bounded, JSON-safe, redacted projection. It reads at most
 * {@code maxRows + 1} rows (the extra one only tells whether the result was cut), cuts cells to
 * {@code maxCellChars}, stops before the rows' JSON size passes {@code maxBytes}, and redacts every
 * column whose name or lineage is sensitive. Such a column's values never reach it: the engine ran
 * SQL that replaced them by a constant ({@link GuardrailPolicy#requireSensitiveOutputsMasked}), so the
 * bounds counted here depend on no sensitive value; redacting here again is defence in depth.
 */
public final class ResultProjector {
    /** The value shown in place of a redacted cell, whatever the original value was (null included). */
    public static final String REDACTED = "[REDACTED]";

    private final GuardrailPolicy policy;

    public ResultProjector(GuardrailPolicy policy) {
        this.policy = policy;
    }

    /**
     * @param deadlineNanos {@link System#nanoTime()} value after which reading stops with
     *     {@link ErrorCode#EXCEEDED_TIME_LIMIT}
     */
    public Projection project(ResultCursor cursor, QueryPlan plan, long deadlineNanos) {
        Limits limits = plan.limits();
        List<ResultColumn> columns = List.copyOf(cursor.columns());
        boolean[] redact = redactionMask(columns, plan);
        java.util.function.Predicate<String> sensitive = policy::isSensitive; // once per call, not per cell
        Set<LimitKind> hit = EnumSet.noneOf(LimitKind.class);
        List<List<Object>> rows = new ArrayList<>();
        long bytes = 2; // the enclosing [ ]
        boolean truncated = false;
        while (true) {
            if (System.nanoTime() - deadlineNanos > 0) {
                cursor.cancel();
                throw new GuardException(ErrorCode.EXCEEDED_TIME_LIMIT);
            }
            if (!cursor.next()) {
                break;
            }
            if (rows.size() == limits.maxRows()) {
                truncated = true;
                hit.add(LimitKind.ROWS);
                break;
            }
            Object[] row = new Object[columns.size()];
            long rowBytes = 2 + Math.max(0, columns.size() - 1) + (rows.isEmpty() ? 0 : 1);
            boolean cellCut = false;
            for (int i = 0; i < row.length; i++) {
                if (redact[i]) {
                    row[i] = REDACTED;
                } else {
                    CellValues.Cell cell = CellValues.convert(cursor.get(i), limits.maxCellChars(), sensitive);
                    row[i] = cell.value();
                    cellCut |= cell.cut();
                }
                rowBytes += JsonValues.jsonBytes(row[i]);
            }
            if (bytes + rowBytes > limits.maxBytes()) {
                truncated = true;
                hit.add(LimitKind.BYTES);
                break;
            }
            if (cellCut) {
                truncated = true;
                hit.add(LimitKind.CELLS);
            }
            bytes += rowBytes;
            rows.add(Arrays.asList(row));
        }
        return new Projection(columns, rows, truncated, hit);
    }

    /**
     * Which result columns to redact; a column the plan cannot trace is redacted (fail closed). The
     * engine already returns a masked output as a constant ({@link QueryPlan#maskedOutputs()}); it is
     * redacted here too, so that the answer reads {@value #REDACTED} whatever the engine sent.
     */
    boolean[] redactionMask(List<ResultColumn> columns, QueryPlan plan) {
        List<OutputColumn> outputs = plan.outputs();
        boolean[] mask = new boolean[columns.size()];
        boolean aligned = outputs.size() == columns.size();
        for (int i = 0; i < mask.length; i++) {
            mask[i] = !aligned || plan.masks(i) || policy.mustRedact(outputs.get(i))
                    || !outputs.get(i).catalogListing() && policy.isSensitive(columns.get(i).name());
        }
        return mask;
    }
}
