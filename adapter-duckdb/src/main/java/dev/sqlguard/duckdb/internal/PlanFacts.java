package dev.sqlguard.duckdb.internal;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.sqlguard.domain.Amplification;
import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.domain.UsePosition;
import dev.sqlguard.domain.port.RecordedFacts;

/**
 * What reading one bound plan established: the facts a {@link dev.sqlguard.domain.QueryPlan} carries
 * (recorded by the domain's {@link RecordedFacts} from the plan's {@link PlanValue}s), and every base
 * column the plan reads, for the check against the parse tree.
 */
final class PlanFacts {
    private final RecordedFacts recorded = new RecordedFacts();
    private final Set<ColumnRef> reads = new LinkedHashSet<>();

    void table(TableRef table) {
        recorded.table(table);
    }

    void read(ColumnRef column) {
        reads.add(column);
    }

    void function(String name) {
        recorded.function(name);
    }

    /**
     * How deep the reader is inside DuckDB's own fixed programs (SUMMARIZE of a table), whose uses are
     * all direct outputs: every statistic comes back, redacted where one is sensitive. Outside them
     * (the query around a SUMMARIZE included) uses are recorded as they are.
     */
    private int fixedProgram;

    void enterFixedProgram() {
        fixedProgram++;
    }

    void leaveFixedProgram() {
        fixedProgram--;
    }

    /** While set, every use but an output is recorded at this position instead. */
    private UsePosition override;

    /** Sets the override (null for none) and returns the previous one. */
    UsePosition override(UsePosition position) {
        UsePosition previous = override;
        override = position;
        return previous;
    }

    /** Records every flow of {@code value} as a use at {@code position}. */
    void use(PlanValue value, UsePosition requested) {
        boolean fixed = fixedProgram > 0;
        UsePosition position = fixed ? UsePosition.OUTPUT
                : override != null && requested != UsePosition.OUTPUT ? override : requested;
        for (PlanValue.Flow flow : value.flows) {
            if (fixed) {
                recorded.use(flow.column(), position, null, List::of);
            } else {
                recorded.use(flow.column(), position, flow.chain().firstNonTotal, flow.chain()::steps);
            }
        }
    }

    /**
     * A cost refusal with its own advice (a regular expression compiled per row, a product of two
     * data sizes), raised once the plan's other facts are known, so that a sensitive value used the
     * same way is refused as such first.
     */
    private dev.sqlguard.domain.GuardException deferred;

    void refuseLater(dev.sqlguard.domain.GuardException refusal) {
        if (deferred == null) {
            deferred = refusal;
        }
    }

    java.util.Optional<dev.sqlguard.domain.GuardException> deferred() {
        return java.util.Optional.ofNullable(deferred);
    }

    /** Keeps, per function and kind, the call that could build the most. */
    void amplification(Amplification call) {
        recorded.amplification(call);
    }

    /** Takes in another plan's tables, reads, uses, functions and amplifications (not its outputs). */
    void include(PlanFacts other) {
        recorded.include(other.recorded);
        reads.addAll(other.reads);
        other.deferred().ifPresent(this::refuseLater);
    }

    void output(String name, PlanValue value) {
        recorded.output(name, value.lineage());
        use(value, UsePosition.OUTPUT);
    }

    /** The facts for the plan. */
    RecordedFacts recorded() {
        return recorded;
    }

    /** Every base column the plan reads. */
    Set<ColumnRef> reads() {
        return reads;
    }
}
