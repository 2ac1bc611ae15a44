package dev.sqlguard.domain;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The one rule for sensitive columns, the same on every engine: a sensitive value may only become
 * the value of an output column, which the result projector then redacts, and only through
 * {@link CostClass#TOTAL} steps. Anywhere else (a filter, a join, a grouping, an order, a set
 * comparison, a row count) the rows that come back would reveal what redaction hides; through a
 * partial step, whether the query fails would.
 */
public final class SensitiveFlow {
    private SensitiveFlow() {
    }

    /**
     * @param sensitive whether a base column's values are sensitive
     * @throws GuardException {@link ErrorCode#COLUMN_NOT_ALLOWED} for the first use that breaks the rule
     */
    public static void check(Collection<ColumnUse> uses, Predicate<String> sensitive) {
        List<ColumnUse> ordered = new ArrayList<>();
        for (ColumnUse use : uses) {
            if (sensitive.test(use.column().column())) {
                ordered.add(use);
            }
        }
        // deterministic: positions in their declared order, then uses through a partial step
        ordered.sort(Comparator.comparing((ColumnUse u) -> u.position() == UsePosition.OUTPUT)
                .thenComparing(ColumnUse::position)
                .thenComparing(u -> u.column().toString()));
        for (ColumnUse use : ordered) {
            String column = SafeText.identifier(use.column().column());
            if (use.position() != UsePosition.OUTPUT) {
                throw new GuardException(ErrorCode.COLUMN_NOT_ALLOWED, "Column " + column + " is sensitive: its values "
                        + "may be selected (they come back redacted) but not used to " + use.position().verb() + ".");
            }
            Optional<FlowStep> step = use.firstNonTotal();
            if (step.isPresent()) {
                throw new GuardException(ErrorCode.COLUMN_NOT_ALLOWED, "Column " + column + " is sensitive: its values "
                        + "may be selected (they come back redacted) but not computed on or compared, as "
                        + SafeText.operation(step.get().operation()) + " does.");
            }
        }
    }
}
