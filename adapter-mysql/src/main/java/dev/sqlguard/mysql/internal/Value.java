package dev.sqlguard.mysql.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.CostClass;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.FlowStep;
import dev.sqlguard.domain.port.DistinctFlows;

/**
 * One rendered expression: the SQL text sqlguard emits for it, and the base columns its value derives
 * from, each with the steps it passed through (innermost first). A literal also keeps its value, for
 * the rules that bound amplifying calls. Immutable.
 *
 * @param sql the rendered text
 * @param flows every base column the value derives from, with its steps
 * @param literal the value of an integer ({@link Long}) or text ({@link String}) literal, if it is one
 * @param mayFail whether computing the value passes a step that can fail, whatever it derives from
 * @param weight how many leaves (columns, literals, parameters) the expression holds once the server
 *     has merged every CTE and derived table it reads into it: a CTE's column used twice at every
 *     level doubles it, whatever the column is
 */
record Value(String sql, List<Flow> flows, Optional<Object> literal, boolean mayFail, long weight) {
    /**
     * Leaves one expression may hold after merging. MariaDB merges CTEs and derived tables into the
     * query and copies the expression of a column at every use: {@code a.x + a.x} doubled through 22
     * levels (4 M leaves) took 3.2 s, 26 levels ran 44 s under a 5 s {@code max_statement_time}
     * (measured, MariaDB 10.11). Long honest IN lists stay far below it.
     */
    static final long MAX_WEIGHT = 65_536;

    /** Steps remembered per flow; past it only the first non-total step still matters and is kept. */
    static final int MAX_CHAIN = 32;

    /** One base column's value on its way to a use. */
    record Flow(ColumnRef column, List<FlowStep> chain) {
        Flow then(FlowStep step) {
            if (chain.size() >= MAX_CHAIN && (step.costClass() == CostClass.TOTAL || firstNonTotal().isPresent())) {
                return this;
            }
            List<FlowStep> out = new ArrayList<>(chain);
            out.add(step);
            return new Flow(column, List.copyOf(out));
        }

        Optional<FlowStep> firstNonTotal() {
            return chain.stream().filter(s -> s.costClass() != CostClass.TOTAL).findFirst();
        }

        /** Flows that would be decided alike: same column, same first non-total step. */
        Object key() {
            return List.of(column, firstNonTotal().map(FlowStep::operation).orElse(""));
        }
    }

    Value {
        flows = DistinctFlows.of(flows, Flow::key);
        if (weight > MAX_WEIGHT) {
            throw new GuardException(ErrorCode.UNBOUNDED_COST, "The query uses a value of a common table expression or subquery "
                    + "more than once at several levels, which the server copies at every use; compute it once, or use it once per level.");
        }
    }

    static Value of(String sql) {
        return new Value(sql, List.of(), Optional.empty(), false, 1);
    }

    static Value literal(String sql, Object value) {
        return new Value(sql, List.of(), Optional.of(value), false, 1);
    }

    static Value column(String sql, ColumnRef column) {
        return new Value(sql, List.of(new Flow(column, List.of())), Optional.empty(), false, 1);
    }

    /** The same flows under other text. */
    Value withSql(String text) {
        return new Value(text, flows, Optional.empty(), mayFail, weight);
    }

    /** The flows of every value in {@code parts}, each passed through {@code step} (none when null), under {@code text}. */
    static Value combine(String text, FlowStep step, Collection<Value> parts) {
        List<Flow> all = new ArrayList<>();
        boolean fails = step != null && step.costClass() != CostClass.TOTAL;
        long weight = 1;
        for (Value part : parts) {
            fails |= part.mayFail();
            weight = Math.min(MAX_WEIGHT + 1, weight + part.weight());
            for (Flow flow : part.flows()) {
                all.add(step == null ? flow : flow.then(step));
            }
        }
        return new Value(text, all, Optional.empty(), fails, weight);
    }

    /** The same value, marked as one that can fail (a scalar subquery returning several rows). */
    Value failing() {
        return new Value(sql, flows, literal, true, weight);
    }

    /** This value after passing through {@code step}, keeping its text. */
    Value through(FlowStep step) {
        return combine(sql, step, List.of(this));
    }

    /** The base columns this value derives from. */
    Set<ColumnRef> lineage() {
        Set<ColumnRef> out = new LinkedHashSet<>();
        flows.forEach(f -> out.add(f.column()));
        return out;
    }

    Optional<Long> integerLiteral() {
        return literal.filter(Long.class::isInstance).map(Long.class::cast);
    }

    Optional<String> stringLiteral() {
        return literal.filter(String.class::isInstance).map(String.class::cast);
    }
}
