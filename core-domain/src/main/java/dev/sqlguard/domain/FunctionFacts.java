package dev.sqlguard.domain;

import static java.util.Objects.requireNonNull;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What an engine knows about the function names a configured policy lists, as facts: for each name,
 * whether its database has it (and, when not, the nearest names it has) and whether the engine has a
 * cost class for it. The engine answers for the names the host asks about; it never sees the policy and
 * never decides. The decision is {@link FunctionConfiguration#require}, which also reads the engine's
 * never-list from its {@link FunctionClasses}.
 *
 * @param engine the engine's name as a configuration error shows it ("DuckDB", "MariaDB")
 * @param functions the answer for each scalar, aggregate or window function name asked about (lower case)
 * @param tableFunctions the answer for each table function name asked about (lower case)
 */
public record FunctionFacts(String engine, Map<String, Fact> functions, Map<String, Fact> tableFunctions) {
    /** What an engine knows about one name. */
    public enum Status {
        /** The engine has the function and a cost class for it (or needs none: a table function). */
        KNOWN,
        /** The database has no function of that name; {@link Fact#nearest()} holds the closest it has. */
        UNKNOWN,
        /** The database has it, and the engine cannot tell whether it can fail or build large values. */
        NO_COST_CLASS,
        /** The name cannot be a function name on this engine (the engine cannot even ask its database). */
        NOT_A_FUNCTION_NAME
    }

    /**
     * One name's answer.
     *
     * @param nearest for {@link Status#UNKNOWN}, names the database has that are close to it (the domain
     *     keeps the closest); empty otherwise
     */
    public record Fact(Status status, List<String> nearest) {
        private static final Fact KNOWN = new Fact(Status.KNOWN, List.of());
        private static final Fact NO_COST_CLASS = new Fact(Status.NO_COST_CLASS, List.of());
        private static final Fact NOT_A_FUNCTION_NAME = new Fact(Status.NOT_A_FUNCTION_NAME, List.of());

        public Fact {
            requireNonNull(status, "status is null");
            nearest = List.copyOf(requireNonNull(nearest, "nearest is null"));
        }

        public static Fact known() {
            return KNOWN;
        }

        public static Fact unknown(Collection<String> nearest) {
            return new Fact(Status.UNKNOWN, List.copyOf(nearest));
        }

        public static Fact noCostClass() {
            return NO_COST_CLASS;
        }

        public static Fact notAFunctionName() {
            return NOT_A_FUNCTION_NAME;
        }
    }

    public FunctionFacts {
        requireNonNull(engine, "engine is null");
        functions = Map.copyOf(requireNonNull(functions, "functions is null"));
        tableFunctions = Map.copyOf(requireNonNull(tableFunctions, "tableFunctions is null"));
    }

    /**
     * The answer of an engine that cannot look its functions up: every name {@link Status#KNOWN}. Its
     * {@link FunctionClasses} still refuse a never-allowed name, and every call is decided on its own.
     */
    public static FunctionFacts allKnown(String engine, Set<String> functions, Set<String> tableFunctions) {
        return new FunctionFacts(engine, answer(functions, Fact.known()), answer(tableFunctions, Fact.known()));
    }

    private static Map<String, Fact> answer(Set<String> names, Fact fact) {
        Map<String, Fact> out = new LinkedHashMap<>();
        for (String name : names) {
            out.put(name, fact);
        }
        return out;
    }

    /** The answer for the function {@code name}; a name the engine did not answer for is {@link Status#UNKNOWN}. */
    public Fact function(String name) {
        return functions.getOrDefault(name, Fact.unknown(List.of()));
    }

    /** {@link #function} for a table function. */
    public Fact tableFunction(String name) {
        return tableFunctions.getOrDefault(name, Fact.unknown(List.of()));
    }
}
