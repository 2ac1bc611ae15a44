package dev.sqlguard.domain;

import static java.util.Objects.requireNonNull;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * One engine's functions as the policy decides on them, reported by the engine as data: which
 * functions it allows when a policy configures none (its documented defaults), which it never allows
 * whatever a policy says, and which of those reach outside the database. The catalog prover
 * ({@code testing/.../prover}) proves each engine's lists against the engine itself. The decision is
 * {@link GuardrailPolicy#requireFunction} and {@link GuardrailPolicy#requireTableFunction}: an engine
 * reports these classes and the functions a query calls ({@link QueryPlan#functions()},
 * {@link QueryPlan#tableFunctions()}), and never decides on them.
 *
 * @param defaults scalar, aggregate and window functions allowed when the policy configures none
 *     (lower case); an engine lists only functions it can analyze (it has their cost class)
 * @param tableDefaults table functions allowed when the policy configures none (lower case)
 * @param never functions refused whatever a policy says: they read files, settings, secrets or the
 *     catalog, run SQL text, sleep, or reach outside the database
 * @param neverPrefixes name prefixes refused whatever a policy says
 * @param external the never-allowed functions that read files, the network or other databases: their
 *     refusal is {@link ErrorCode#EXTERNAL_ACCESS_DENIED}
 * @param externalPrefixes name prefixes that mark a never-allowed function (one in {@code never} or
 *     matching {@code neverPrefixes}) as reaching outside the database
 * @param wording how the refusal of a never-allowed function reads
 */
public record FunctionClasses(Set<String> defaults, Set<String> tableDefaults, Set<String> never, Set<String> neverPrefixes,
                              Set<String> external, Set<String> externalPrefixes, NeverWording wording) {
    private static final FunctionClasses UNREPORTED = new FunctionClasses(Set.of(), Set.of(), Set.of(), Set.of(), Set.of(),
            Set.of(), NeverWording.NOT_ALLOWLISTED);

    /** How the refusal of a never-allowed function reads; its code is the same either way. */
    public enum NeverWording {
        /** Like any function off the list ("is not allowlisted", with the closest allowed names). */
        NOT_ALLOWLISTED,
        /** "is never allowed": a model learns that no policy change would allow it. */
        NEVER_ALLOWED
    }

    public FunctionClasses {
        defaults = fold(defaults, "defaults");
        tableDefaults = fold(tableDefaults, "tableDefaults");
        never = fold(never, "never");
        neverPrefixes = fold(neverPrefixes, "neverPrefixes");
        external = fold(external, "external");
        externalPrefixes = fold(externalPrefixes, "externalPrefixes");
        requireNonNull(wording, "wording is null");
    }

    /**
     * An engine that reported no functions: nothing is allowed by default and nothing is on a
     * never-list, so a query calls only the functions the policy configures (fail closed).
     */
    public static FunctionClasses unreported() {
        return UNREPORTED;
    }

    /** Whether {@code name} is refused whatever a policy says. */
    public boolean isNever(String name) {
        return never.contains(name) || external.contains(name) || startsWithAny(name, neverPrefixes);
    }

    /** Whether {@code name} is a never-allowed function that reaches outside the database. */
    public boolean isExternal(String name) {
        return isNever(name) && (external.contains(name) || startsWithAny(name, externalPrefixes));
    }

    private static boolean startsWithAny(String name, Set<String> prefixes) {
        for (String prefix : prefixes) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    private static Set<String> fold(Set<String> names, String what) {
        requireNonNull(names, what + " is null");
        Set<String> out = new LinkedHashSet<>();
        for (String name : names) {
            out.add(Names.fold(requireNonNull(name, what + " entry is null")));
        }
        return Set.copyOf(out);
    }
}
