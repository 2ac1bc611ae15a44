package dev.sqlguard.domain;

import static java.util.Objects.requireNonNull;

import java.util.TreeSet;

/**
 * The decision on the function lists a source's configuration writes, when the source starts: every
 * name must be one its engine has, that it has a cost class for, and that no policy can allow (the
 * engine's never-list). The host asks the engine about the configured names ({@link FunctionFacts}) and
 * decides here, the same way for every engine; an engine never reads the configured lists.
 */
public final class FunctionConfiguration {
    private FunctionConfiguration() {
    }

    /**
     * Checks the configured policy's {@link GuardrailPolicy#functions()} and
     * {@link GuardrailPolicy#tableFunctions()}, in name order, functions first; for each name the
     * never-list first (from {@code classes}), then whether the engine has it, then its cost class.
     *
     * @param sourceId the source, named in the message
     * @param configured the policy as configured
     * @param classes the engine's function classes (its never-list)
     * @param facts the engine's answers about the configured names
     * @throws GuardException CONFIGURATION_ERROR naming the first bad name, why it is bad, and for a
     *     name the engine does not have, the closest names it has
     */
    public static void require(String sourceId, GuardrailPolicy configured, FunctionClasses classes, FunctionFacts facts) {
        requireNonNull(sourceId, "sourceId is null");
        requireNonNull(configured, "configured is null");
        requireNonNull(classes, "classes is null");
        requireNonNull(facts, "facts is null");
        for (String name : new TreeSet<>(configured.functions())) {
            check(sourceId, "function", "policy.functions", name, classes, facts.function(name), facts.engine());
        }
        for (String name : new TreeSet<>(configured.tableFunctions())) {
            check(sourceId, "table function", "policy.tableFunctions", name, classes, facts.tableFunction(name), facts.engine());
        }
    }

    private static void check(String sourceId, String kind, String list, String name, FunctionClasses classes,
                              FunctionFacts.Fact fact, String engine) {
        String named = "Source '" + sourceId + "': " + list + " lists the " + kind + " " + SafeText.identifier(name);
        if (classes.isNever(name)) {
            throw new GuardException(ErrorCode.CONFIGURATION_ERROR, named + ", which is never allowed on " + engine
                    + " whatever the policy says: it " + (classes.isExternal(name)
                    ? "reads files, the network or other databases." : "reads files, settings, secrets or the catalog, "
                    + "runs SQL text, sleeps or reaches outside the database."));
        }
        switch (fact.status()) {
            case KNOWN -> {
            }
            case UNKNOWN -> throw new GuardException(ErrorCode.CONFIGURATION_ERROR, named + ", which " + engine
                    + " does not know." + Suggestions.didYouMean(name, fact.nearest()));
            case NO_COST_CLASS -> throw new GuardException(ErrorCode.CONFIGURATION_ERROR, named + ", which sqlguard has no"
                    + " cost class for on " + engine + " (it cannot tell whether the " + kind + " can fail or build large"
                    + " values), so it cannot be allowlisted; remove it from " + list + ".");
            case NOT_A_FUNCTION_NAME -> throw new GuardException(ErrorCode.CONFIGURATION_ERROR, named
                    + ", which is not a plain function name on " + engine + ".");
        }
    }
}
