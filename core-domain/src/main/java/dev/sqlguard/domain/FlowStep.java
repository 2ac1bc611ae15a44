package dev.sqlguard.domain;

import static java.util.Objects.requireNonNull;

/**
 * One function, operator or construct a value passes through on its way from a base column to
 * where the query uses it.
 *
 * @param operation the engine's name for it, lower case ({@code upper}, {@code +}, {@code cast},
 *     {@code case when}); shown in refusals
 * @param costClass how it treats the value
 */
public record FlowStep(String operation, CostClass costClass) {
    public FlowStep {
        requireNonNull(operation, "operation is null");
        if (operation.isBlank()) {
            throw new IllegalArgumentException("operation is blank");
        }
        requireNonNull(costClass, "costClass is null");
    }

    public static FlowStep total(String operation) {
        return new FlowStep(operation, CostClass.TOTAL);
    }

    public static FlowStep partial(String operation) {
        return new FlowStep(operation, CostClass.PARTIAL);
    }
}
