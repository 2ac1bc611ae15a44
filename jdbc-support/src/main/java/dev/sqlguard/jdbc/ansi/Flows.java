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

    public static Set<ColumnRef> lineage(List<Flow> flows) {
        Set<ColumnRef> out = new LinkedHashSet<>();
        flows.forEach(f -> out.add(f.column()));
        return out;
    }
}
