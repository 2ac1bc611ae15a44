package dev.sqlguard.testing.prover;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * One callable form of a catalog function, read from the engine: its name, its argument types (as
 * the engine's dialect names them) and how a call is written.
 *
 * @param function the catalog's name for it, lower case (casts are named {@code cast:<type>})
 * @param types the argument types, in order
 * @param form how a call is written
 */
public record Signature(String function, List<String> types, Form form) {
    public Signature {
        requireNonNull(function, "function is null");
        types = List.copyOf(requireNonNull(types, "types is null"));
        requireNonNull(form, "form is null");
    }

    /** How a call is written. */
    public enum Form {
        /** {@code f(a, b)} */
        SCALAR,
        /** {@code f(a, b)} over one row */
        AGGREGATE,
        /** {@code f(direct...) WITHIN GROUP (ORDER BY last)} */
        ORDERED_SET,
        /** {@code f(a, b) OVER ()} */
        WINDOW,
        /** {@code f(a, b)} returning rows: its size is the row count */
        SET_RETURNING,
        /** a keyword without parentheses ({@code current_date}) */
        KEYWORD,
        /** {@code CAST(a AS <type>)}, the type after {@code cast:} in the name */
        CAST
    }

    @Override
    public String toString() {
        return function + types;
    }
}
