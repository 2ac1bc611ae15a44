package dev.sqlguard.jdbc.ansi;

import static java.util.Objects.requireNonNull;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import dev.sqlguard.domain.CostClass;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.FunctionClasses;
import dev.sqlguard.domain.FunctionFacts;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.SafeText;

/**
 * One engine's function rules, as data: every function it knows with its {@link CostClass}, the
 * functions it never allows whatever a policy says, and the few facts the {@link AnsiRenderer} needs
 * to render a call. A function that is not classified cannot be called, and a policy that allowlists
 * one does not start (the engine reports it as {@link #facts}; the host decides). An adapter keeps its lists in its own catalog class and
 * builds one instance of this. The engine reports the lists to the domain as {@link #functionClasses()};
 * the domain decides on every call ({@link dev.sqlguard.domain.GuardrailPolicy#requireFunction}).
 *
 * @param engine the engine's name as shown in configuration errors ("PostgreSQL", "Trino")
 * @param classes every callable function and its class
 * @param never functions refused whatever a policy says
 * @param neverPrefixes name prefixes refused whatever a policy says
 * @param external never-allowed functions that read files, the network or other databases
 * @param externalPrefixes name prefixes of never-allowed functions refused as external access
 * @param syntax names written as keywords, never rendered with the engine's function schema
 * @param aggregates aggregates (allowed with DISTINCT, ORDER BY inside the call and FILTER)
 * @param window window-only functions (they need OVER)
 * @param parameterArguments argument positions (from 0) at which an otherwise total function reads a
 *     parameter, not data, and fails on an invalid one: a value reaching one passes a partial step
 * @param absent functions other engines have and this one does not, with its nearest: a policy may
 *     list them, a call is refused naming the nearest
 * @param sizeArguments argument positions (from 0) whose value sets how large the output is
 *     ({@code round}'s scale, {@code power}'s exponent): the argument is {@link CostClass#AMPLIFYING},
 *     so a call needs a small literal there
 * @param totalCasts the cast target types, as rendered, that never fail on a value: a name, or a name
 *     ending in {@code *} for every type it starts (lengths and precisions included)
 */
public record FunctionRules(String engine, Map<String, CostClass> classes, Set<String> never, Set<String> neverPrefixes,
                            Set<String> external, Set<String> externalPrefixes, Set<String> syntax, Set<String> aggregates,
                            Set<String> window, Map<String, Set<Integer>> parameterArguments, Map<String, String> absent,
                            Map<String, Set<Integer>> sizeArguments, Set<String> totalCasts) {
    /** Casts to text, of any length, are total unless an engine's catalog says otherwise. */
    public static final Set<String> TEXT_CASTS = Set.of("text", "varchar*", "char*");

    /** Rules without size arguments whose casts to text of any length are total. */
    public FunctionRules(String engine, Map<String, CostClass> classes, Set<String> never, Set<String> neverPrefixes,
                         Set<String> external, Set<String> externalPrefixes, Set<String> syntax, Set<String> aggregates,
                         Set<String> window, Map<String, Set<Integer>> parameterArguments, Map<String, String> absent) {
        this(engine, classes, never, neverPrefixes, external, externalPrefixes, syntax, aggregates, window, parameterArguments,
                absent, Map.of(), TEXT_CASTS);
    }

    public FunctionRules {
        requireNonNull(engine, "engine is null");
        classes = Map.copyOf(requireNonNull(classes, "classes is null"));
        never = Set.copyOf(requireNonNull(never, "never is null"));
        neverPrefixes = Set.copyOf(requireNonNull(neverPrefixes, "neverPrefixes is null"));
        external = Set.copyOf(requireNonNull(external, "external is null"));
        externalPrefixes = Set.copyOf(requireNonNull(externalPrefixes, "externalPrefixes is null"));
        syntax = Set.copyOf(requireNonNull(syntax, "syntax is null"));
        aggregates = Set.copyOf(requireNonNull(aggregates, "aggregates is null"));
        window = Set.copyOf(requireNonNull(window, "window is null"));
        parameterArguments = Map.copyOf(requireNonNull(parameterArguments, "parameterArguments is null"));
        absent = Map.copyOf(requireNonNull(absent, "absent is null"));
        sizeArguments = Map.copyOf(requireNonNull(sizeArguments, "sizeArguments is null"));
        totalCasts = Set.copyOf(requireNonNull(totalCasts, "totalCasts is null"));
    }

    /**
     * Every callable function with its class, from the three lists an engine's catalog keeps: a
     * function in a later list takes that list's class.
     *
     * @param total functions that never fail on a value of the right type, never branch on its
     *     content and build a bounded output
     * @param partial functions that may fail or choose depending on the value
     * @param amplifying functions whose output or work grows faster than their input
     */
    public static Map<String, CostClass> classes(Set<String> total, Set<String> partial, Set<String> amplifying) {
        Map<String, CostClass> m = new LinkedHashMap<>();
        total.forEach(f -> m.put(f, CostClass.TOTAL));
        partial.forEach(f -> m.put(f, CostClass.PARTIAL));
        amplifying.forEach(f -> m.put(f, CostClass.AMPLIFYING));
        return Map.copyOf(m);
    }

    /** The class of a function, or empty when it is not classified (and so cannot be called). */
    public Optional<CostClass> costClass(String name) {
        return Optional.ofNullable(classes.get(name));
    }

    /**
     * The class of one argument of a call: {@link CostClass#AMPLIFYING} at a size position,
     * {@link CostClass#PARTIAL} at a parameter position of a total function, else the function's.
     */
    public CostClass argumentClass(String name, int position, CostClass function) {
        if (sizeArguments.getOrDefault(name, Set.of()).contains(position)) {
            return CostClass.AMPLIFYING;
        }
        return parameterArguments.getOrDefault(name, Set.of()).contains(position) && function == CostClass.TOTAL
                ? CostClass.PARTIAL : function;
    }

    /** Whether a cast to {@code renderedType} (lower case, as the dialect renders it) never fails on a value. */
    public boolean totalCast(String renderedType) {
        String type = renderedType.toLowerCase(java.util.Locale.ROOT).strip();
        for (String pattern : totalCasts) {
            if (pattern.endsWith("*") ? type.startsWith(pattern.substring(0, pattern.length() - 1)) : type.equals(pattern)) {
                return true;
            }
        }
        return false;
    }

    /** The default allowlist: every classified function. */
    public Set<String> defaults() {
        return new TreeSet<>(classes.keySet());
    }

    /**
     * These rules as the engine reports them to the domain: every classified function allowed by default,
     * {@code generate_series} the one default table function where it is classified, and a never-allowed
     * function refused as such ("is never allowed"; EXTERNAL_ACCESS_DENIED for the external ones).
     */
    public FunctionClasses functionClasses() {
        return new FunctionClasses(classes.keySet(), classes.containsKey("generate_series") ? Set.of("generate_series") : Set.of(),
                never, neverPrefixes, external, externalPrefixes, FunctionClasses.NeverWording.NEVER_ALLOWED);
    }

    /** Whether {@code name} is refused whatever a policy says. */
    public boolean isNever(String name) {
        if (never.contains(name) || external.contains(name)) {
            return true;
        }
        for (String prefix : neverPrefixes) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** The refusal for a never-allowed function: external access for the readers of files and networks. */
    public GuardException refusal(String name) {
        boolean reaches = external.contains(name) || externalPrefixes.stream().anyMatch(name::startsWith);
        return new GuardException(reaches ? ErrorCode.EXTERNAL_ACCESS_DENIED : ErrorCode.FUNCTION_NOT_ALLOWED,
                "The function " + SafeText.identifier(name) + " is never allowed.");
    }

    /** The refusal for a function this engine does not have, naming its nearest, if {@code name} is one. */
    public Optional<GuardException> absentRefusal(String name) {
        return Optional.ofNullable(absent.get(name)).map(nearest -> new GuardException(ErrorCode.FUNCTION_NOT_ALLOWED,
                "The function " + SafeText.identifier(name) + " does not exist on " + engine + "; use " + nearest + " instead."));
    }

    /**
     * What these rules know about function names a configuration lists, as facts for the host's decision
     * ({@link dev.sqlguard.domain.FunctionConfiguration#require}): a classified function, or one absent here
     * with a nearest, is known; any other has no cost class. Table functions are known: calls of them are
     * decided one by one ({@link dev.sqlguard.domain.GuardrailPolicy#requireTableFunction}). The never-list
     * is in {@link #functionClasses()}.
     */
    public FunctionFacts facts(Set<String> functions, Set<String> tableFunctions) {
        Map<String, FunctionFacts.Fact> scalars = new LinkedHashMap<>();
        for (String f : functions) {
            scalars.put(f, classes.containsKey(f) || absent.containsKey(f) ? FunctionFacts.Fact.known() : FunctionFacts.Fact.noCostClass());
        }
        Map<String, FunctionFacts.Fact> tables = new LinkedHashMap<>();
        for (String f : tableFunctions) {
            tables.put(f, FunctionFacts.Fact.known());
        }
        return new FunctionFacts(engine, scalars, tables);
    }
}
