package dev.sqlguard.duckdb.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.CostClass;
import dev.sqlguard.domain.FlowStep;
import dev.sqlguard.domain.port.DistinctFlows;

/**
 * What one column of a bound-plan operator, or one expression, carries: the base columns its value
 * derives from, each with the steps it passed through, and how large the value can be. Immutable.
 */
final class PlanValue {
    /** Steps remembered per flow; past it only the first non-total step still matters and is kept. */
    static final int MAX_CHAIN = 32;

    static final PlanValue NONE = new PlanValue(List.of(), Size.NONE, false);
    static final PlanValue FIXED = new PlanValue(List.of(), Size.FIXED, false);

    /**
     * How large a value can be: {@code abs} characters (or elements) fixed by literals, plus {@code rel}
     * times the largest value read from the data (or built by an aggregate that collects values),
     * plus, inside a lambda's body, {@code elem} times the element the lambda is applied to. Arithmetic
     * saturates. A product of two data-sized sizes has no such form: it is unbounded.
     */
    record Size(long abs, long rel, long elem) {
        static final long CAP = Long.MAX_VALUE / 4;
        static final Size NONE = new Size(0, 0);
        /** Numbers, dates, booleans: one element whatever the input. */
        static final Size FIXED = new Size(1, 0);
        /** A value read from the data. */
        static final Size DATA = new Size(0, 1);
        /** The element a lambda is applied to, inside its body. */
        static final Size ELEMENT = new Size(0, 0, 1);
        /** What no bound covers. */
        static final Size UNBOUNDED = new Size(CAP, CAP);

        Size {
            abs = Math.min(CAP, Math.max(0, abs));
            rel = Math.min(CAP, Math.max(0, rel));
            elem = Math.min(CAP, Math.max(0, elem));
        }

        Size(long abs, long rel) {
            this(abs, rel, 0);
        }

        Size plus(Size other) {
            return new Size(saturatedAdd(abs, other.abs), saturatedAdd(rel, other.rel), saturatedAdd(elem, other.elem));
        }

        Size times(long factor) {
            return new Size(saturatedMultiply(abs, factor), saturatedMultiply(rel, factor), saturatedMultiply(elem, factor));
        }

        Size max(Size other) {
            return new Size(Math.max(abs, other.abs), Math.max(rel, other.rel), Math.max(elem, other.elem));
        }

        /** Whether the size depends on the data (a value read, collected, or a lambda's element). */
        boolean dataSized() {
            return rel > 0 || elem > 0;
        }

        /**
         * The size of {@code this} many copies of something as large as {@code other} (a list's
         * elements times a separator or a lambda's result): products of literal sizes are literal,
         * a literal size times a data-sized one is data-sized, and two data-sized sizes multiplied
         * are {@link #UNBOUNDED}.
         */
        Size product(Size other) {
            if (dataSized() && other.dataSized()) {
                return UNBOUNDED;
            }
            return other.times(abs).plus(new Size(0, saturatedMultiply(rel, other.abs), saturatedMultiply(elem, other.abs)));
        }

        /** Whether this is {@link #UNBOUNDED} (or as large). */
        boolean unbounded() {
            return abs >= CAP || rel >= CAP || elem >= CAP;
        }

        /**
         * Inside a lambda nested in another: the element of the enclosing lambda, which this size counts
         * in {@code elem}, is at most {@code element} ({@code elem} 0), so this size in those terms.
         */
        Size resolved(Size element) {
            return new Size(saturatedAdd(abs, saturatedMultiply(elem, element.abs)),
                    saturatedAdd(rel, saturatedMultiply(elem, element.rel)), 0);
        }

        static long saturatedAdd(long a, long b) {
            return Math.min(CAP, a + b);
        }

        static long saturatedMultiply(long a, long b) {
            if (a == 0 || b == 0) {
                return 0;
            }
            return a > CAP / b ? CAP : a * b;
        }
    }

    /** The steps a flow passed through, innermost first; a persistent list sharing its tail. */
    static final class Chain {
        static final Chain EMPTY = new Chain(null, null, 0, null);

        final FlowStep step;
        final Chain inner;
        final int length;
        final FlowStep firstNonTotal;

        private Chain(FlowStep step, Chain inner, int length, FlowStep firstNonTotal) {
            this.step = step;
            this.inner = inner;
            this.length = length;
            this.firstNonTotal = firstNonTotal;
        }

        Chain then(FlowStep next) {
            FlowStep nonTotal = firstNonTotal != null || next.costClass() == CostClass.TOTAL ? firstNonTotal : next;
            if (length >= MAX_CHAIN && (nonTotal == firstNonTotal)) {
                return this;
            }
            return new Chain(next, this, length + 1, nonTotal);
        }

        List<FlowStep> steps() {
            List<FlowStep> out = new ArrayList<>(length);
            for (Chain c = this; c.step != null; c = c.inner) {
                out.add(c.step);
            }
            java.util.Collections.reverse(out);
            return out;
        }
    }

    /** One base column's value on its way to a use. */
    record Flow(ColumnRef column, Chain chain) {
        /** Flows that would be decided alike: same column, same first non-total step. */
        Object key() {
            return List.of(column, chain.firstNonTotal == null ? "" : chain.firstNonTotal.operation());
        }
    }

    final List<Flow> flows;
    final Size size;
    /** Whether computing this value passes a step that can fail, whatever it derives from. */
    final boolean mayFail;

    private PlanValue(List<Flow> flows, Size size, boolean mayFail) {
        this.flows = flows;
        this.size = size;
        this.mayFail = mayFail;
    }

    static PlanValue column(ColumnRef column, boolean fixedWidth) {
        return new PlanValue(List.of(new Flow(column, Chain.EMPTY)), fixedWidth ? Size.FIXED : Size.DATA, false);
    }

    static PlanValue sized(Size size) {
        return new PlanValue(List.of(), size, false);
    }

    PlanValue withSize(Size newSize) {
        return new PlanValue(flows, newSize, mayFail);
    }

    /**
     * The same columns and size, whose flows start afresh at {@code step}: the value of a fixed program
     * of DuckDB's own (SUMMARIZE of a table), whose inner steps are not the query's, leaving it.
     */
    PlanValue restarted(FlowStep step) {
        if (flows.isEmpty()) {
            return this;
        }
        List<Flow> out = new ArrayList<>(flows.size());
        for (Flow flow : flows) {
            out.add(new Flow(flow.column(), Chain.EMPTY.then(step)));
        }
        return new PlanValue(DistinctFlows.of(out, Flow::key), size, mayFail);
    }

    /** This value after passing through {@code step}. */
    PlanValue through(FlowStep step) {
        boolean fails = mayFail || step.costClass() != CostClass.TOTAL;
        if (flows.isEmpty()) {
            return fails == mayFail ? this : new PlanValue(flows, size, true);
        }
        List<Flow> out = new ArrayList<>(flows.size());
        for (Flow flow : flows) {
            out.add(new Flow(flow.column(), flow.chain().then(step)));
        }
        return new PlanValue(DistinctFlows.of(out, Flow::key), size, fails);
    }

    /** The flows of all {@code values}, with their sizes combined by {@code sum} or by maximum. */
    static PlanValue merge(Collection<PlanValue> values, boolean sum) {
        List<Flow> all = new ArrayList<>();
        Size size = Size.NONE;
        boolean fails = false;
        for (PlanValue v : values) {
            all.addAll(v.flows);
            size = sum ? size.plus(v.size) : size.max(v.size);
            fails |= v.mayFail;
        }
        return new PlanValue(DistinctFlows.of(all, Flow::key), size, fails);
    }

    /** The base columns this value derives from. */
    Set<ColumnRef> lineage() {
        Set<ColumnRef> out = new LinkedHashSet<>();
        for (Flow flow : flows) {
            out.add(flow.column());
        }
        return out;
    }
}
