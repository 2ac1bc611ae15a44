package dev.sqlguard.domain;

/**
 * How a function or operator treats the values that pass through it: the one contract every engine
 * classifies its functions by, and that {@link SensitiveFlow} decides on.
 */
public enum CostClass {
    /**
     * Never fails and never branches on the content of its input, and produces at most a bounded
     * multiple of its input's size: {@code upper}, {@code length}, {@code coalesce}, a cast to text,
     * {@code max}. A sensitive value may flow through it to an output, which then comes back redacted.
     */
    TOTAL,
    /**
     * May fail, or choose between results, depending on the value: arithmetic ({@code pow} overflows),
     * casts from text, comparisons, {@code substring} positions, {@code CASE} conditions. A runtime
     * error or a branch here would tell whether a value has some property, so a sensitive value may
     * not pass through it.
     */
    PARTIAL,
    /**
     * Its output or its work can grow faster than its input ({@code repeat}, {@code lpad},
     * {@code format} widths, edit distances): allowed only with literal arguments within a bound
     * derived from the source's limits ({@link Amplification}).
     */
    AMPLIFYING
}
