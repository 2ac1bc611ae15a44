package dev.sqlguard.jdbc.ansi;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.FlowStep;
import dev.sqlguard.domain.GuardException;

/**
 * How base-column values reach an expression: each with the steps it passed through, innermost first.
 * The {@link AnsiRenderer} carries one list of flows with every rendered expression; an adapter reads
 * them only through the facts of {@link AnsiRenderer.Rendered}.
 */
public final class Flows {
    private Flows() {
    }

    /** One base column's value on its way, with the steps it passed through, innermost first. */
    public record Flow(ColumnRef column, List<FlowStep> chain) {
        public Flow {
            chain = List.copyOf(chain);
        }

        public Flow then(FlowStep step) {
            List<FlowStep> next = new ArrayList<>(chain);
            next.add(step);
            return new Flow(column, next);
        }
    }

    /** A rendered expression and the flows of base-column values into it. */
    public record Value(String sql, List<Flow> flows) {
        public Value {
            if (flows.size() > MAX_FLOWS) {
                throw new GuardException(ErrorCode.UNBOUNDED_COST,
                        "The query copies column values too many times; compute them once.");
            }
            flows = List.copyOf(flows);
        }

        public static Value literal(String sql) {
            return new Value(sql, List.of());
        }

        /** The same value after one more step. */
        public Value then(FlowStep step) {
            return new Value(sql, flows.stream().map(f -> f.then(step)).toList());
        }
    }

    /** Flows one expression may carry; more means a value copied through levels of CTEs, refused before it exhausts memory. */
    public static final int MAX_FLOWS = 4_096;

    /** Every flow of several values, each after {@code step} (when not null). */
    public static List<Flow> merge(List<Value> values, FlowStep step) {
        List<Flow> out = new ArrayList<>();
        for (Value v : values) {
            if (out.size() + v.flows().size() > MAX_FLOWS) {
                throw new GuardException(ErrorCode.UNBOUNDED_COST,
                        "The query copies column values too many times; compute them once.");
            }
            for (Flow f : v.flows()) {
                out.add(step == null ? f : f.then(step));
            }
        }
        return out;
    }

    /** Every base column a value derives from (a {@link #constant()} flow names none). */
    public static Set<ColumnRef> lineage(List<Flow> flows) {
        Set<ColumnRef> out = new LinkedHashSet<>();
        flows.stream().filter(f -> !isConstant(f)).forEach(f -> out.add(f.column()));
        return out;
    }

    private static final ColumnRef CONSTANT = new ColumnRef(dev.sqlguard.domain.TableRef.of("sqlguard_constant", "value"), "c");

    /**
     * The flow that stands for a value computed from no column (a literal, {@code count(*)}), given to
     * such an output of a CTE or subquery. It reads nothing and is never a use or in a lineage; it is
     * there so that copies of that value are counted like copies of a column: {@code a0.x || a0.x}
     * through nested CTEs over a constant doubles an expression PostgreSQL inlines at every level (a
     * backend grew to 13 GB at 29 levels, ignoring statement_timeout), and is refused like the same
     * copies of a column ({@link #MAX_FLOWS}, and the relative cost of each concatenation).
     */
    public static Flow constant() {
        return new Flow(CONSTANT, List.of());
    }

    /** Whether a flow is the {@link #constant()} one, after any steps. */
    public static boolean isConstant(Flow flow) {
        return flow.column().equals(CONSTANT);
    }
}
