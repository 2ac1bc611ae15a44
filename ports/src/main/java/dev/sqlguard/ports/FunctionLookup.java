package dev.sqlguard.ports;

import java.util.Set;

import dev.sqlguard.domain.FunctionFacts;

/**
 * How an engine answers {@link Engine#functionFacts}: what its database and its catalog know about the
 * names asked about. It reports facts and decides nothing; the host decides with
 * {@link dev.sqlguard.domain.FunctionConfiguration#require}.
 */
@FunctionalInterface
public interface FunctionLookup {
    /**
     * The facts about {@code functions} (scalar, aggregate and window function names) and
     * {@code tableFunctions} (table function names), all lower case.
     *
     * @throws dev.sqlguard.domain.GuardException ENGINE_UNAVAILABLE when the database cannot be asked
     */
    FunctionFacts lookUp(Set<String> functions, Set<String> tableFunctions);

    /** The lookup of an engine that cannot look its functions up: every name is known ({@link FunctionFacts#allKnown}). */
    static FunctionLookup allKnown(String engine) {
        return (functions, tableFunctions) -> FunctionFacts.allKnown(engine, functions, tableFunctions);
    }
}
