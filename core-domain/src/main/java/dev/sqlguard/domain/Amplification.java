package dev.sqlguard.domain;

import static java.util.Objects.requireNonNull;

import java.util.OptionalLong;

/**
 * One call of an {@link CostClass#AMPLIFYING} function, with how much it can produce as far as its
 * literal arguments tell.
 *
 * @param function the function's name, lower case
 * @param bound the most the call can produce: characters or elements when {@code relative} is false,
 *     a multiple of its non-literal input's size when it is true; empty when an amplifying argument
 *     is not a literal, so that nothing bounds it
 * @param relative whether {@code bound} multiplies the size of a value read from the data
 */
public record Amplification(String function, OptionalLong bound, boolean relative) {
    /**
     * The largest multiple of a data value's size a query may build: enough for concatenating a few
     * dozen columns, small enough that doubling a value through nested CTEs is refused after six levels.
     */
    public static final long MAX_RELATIVE = 64;

    public Amplification {
        requireNonNull(function, "function is null");
        requireNonNull(bound, "bound is null");
        if (bound.isPresent() && bound.getAsLong() < 0) {
            throw new IllegalArgumentException("bound is negative");
        }
    }

    public static Amplification absolute(String function, long bound) {
        return new Amplification(function, OptionalLong.of(bound), false);
    }

    public static Amplification relative(String function, long factor) {
        return new Amplification(function, OptionalLong.of(factor), true);
    }

    public static Amplification unbounded(String function) {
        return new Amplification(function, OptionalLong.empty(), false);
    }

    /**
     * The most characters or elements one amplifying call may produce under {@code limits}: a vector
     * of 2,048 such values must fit in a sixty-fourth of the memory limit (engines do not count the
     * strings one scalar call builds against their memory limit, and do not interrupt the call), and
     * never less than a cell the result may show.
     */
    public static long maxAbsolute(Limits limits) {
        return Math.max(limits.maxCellChars(), limits.memoryBytes() / (2_048L * 64));
    }

    /**
     * @throws GuardException {@link ErrorCode#UNBOUNDED_COST} when the call could build more than
     *     {@code limits} allow, saying which literal to change
     */
    public void requireWithin(Limits limits) {
        if (within(limits)) {
            return;
        }
        String name = SafeText.operation(function);
        throw new GuardException(ErrorCode.UNBOUNDED_COST, bound.isEmpty()
                ? name + " can build values or do work that grows faster than its input: give its size or count "
                        + "arguments as literals (at most " + maxAbsolute(limits) + ")."
                : name + " could build a value " + (relative ? "more than " + MAX_RELATIVE
                        + " times the size of its input" : "longer than " + maxAbsolute(limits)
                        + " characters or elements") + "; use a smaller literal.");
    }

    /** Whether the call stays within what {@code limits} allow. */
    public boolean within(Limits limits) {
        if (bound.isEmpty()) {
            return false;
        }
        return bound.getAsLong() <= (relative ? MAX_RELATIVE : maxAbsolute(limits));
    }
}
