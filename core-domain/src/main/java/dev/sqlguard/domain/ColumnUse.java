package dev.sqlguard.domain;

import static java.util.Objects.requireNonNull;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One use of a base column's value, as the engine resolved it: where the value ends up and every
 * step it passes through on the way, innermost first.
 *
 * @param column the base column read
 * @param position where its value is used
 * @param chain the functions and operators it passes through before that use, innermost first
 */
public record ColumnUse(ColumnRef column, UsePosition position, List<FlowStep> chain) {
    public ColumnUse {
        requireNonNull(column, "column is null");
        requireNonNull(position, "position is null");
        chain = List.copyOf(requireNonNull(chain, "chain is null"));
    }

    /** A bare use, through no function. */
    public static ColumnUse direct(ColumnRef column, UsePosition position) {
        return new ColumnUse(column, position, List.of());
    }

    /**
     * Coarse facts for an engine that knows each output's lineage but not where else a column is
     * used or through what: every output lineage is a direct output use, and every other column read
     * counts as a filter (the strictest reading).
     */
    public static Set<ColumnUse> coarse(List<OutputColumn> outputs, Set<ColumnRef> read) {
        Set<ColumnUse> uses = new LinkedHashSet<>();
        Set<ColumnRef> output = new LinkedHashSet<>();
        for (OutputColumn column : outputs) {
            for (ColumnRef ref : column.lineage()) {
                uses.add(direct(ref, UsePosition.OUTPUT));
                output.add(ref);
            }
        }
        for (ColumnRef ref : read) {
            if (!output.contains(ref)) {
                uses.add(direct(ref, UsePosition.FILTER));
            }
        }
        return uses;
    }

    /** The first step that is not {@link CostClass#TOTAL}, if any. */
    public Optional<FlowStep> firstNonTotal() {
        for (FlowStep step : chain) {
            if (step.costClass() != CostClass.TOTAL) {
                return Optional.of(step);
            }
        }
        return Optional.empty();
    }
}
