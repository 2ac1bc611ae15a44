package dev.sqlguard.domain;

import static java.util.Objects.requireNonNull;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What one source allows, and the decision on the facts an engine established about a statement
 * ({@link #authorize}): one method per guardrail, the same for every engine. An engine analyzes a
 * statement with its own parser and reports the facts ({@link QueryPlan}); the policy decides.
 *
 * <p>The policy the host enforces is the configured one with only the engine's reported defaults filled
 * in ({@link #effective}): the schema unqualified names resolve to, and the engine's
 * {@link FunctionClasses}. An engine never hands back a policy of its own, so it cannot widen one.
 *
 * @param tables the table and column allowlist
 * @param functions scalar, aggregate and window functions allowed (lower case); empty means the
 *     engine's documented default list ({@link FunctionClasses#defaults()})
 * @param tableFunctions table functions allowed (lower case); empty means the engine's default
 * @param redact column names to redact on top of {@link SensitiveNames}' built-in patterns
 * @param limits resource bounds
 * @param rows row filters and column masks bound to the caller's attributes (multi-tenancy)
 * @param engineFunctions the engine's function classes, as {@link #effective} fills them in;
 *     {@link FunctionClasses#unreported()} in a configured policy, which then allows only the
 *     functions it lists
 */
public record GuardrailPolicy(
        TableAllowlist tables,
        Set<String> functions,
        Set<String> tableFunctions,
        Set<String> redact,
        Limits limits,
        RowPolicy rows,
        FunctionClasses engineFunctions) {

    public GuardrailPolicy {
        requireNonNull(tables, "tables is null");
        functions = foldAll(functions, "functions");
        tableFunctions = foldAll(tableFunctions, "tableFunctions");
        redact = foldAll(redact, "redact");
        requireNonNull(limits, "limits is null");
        requireNonNull(rows, "rows is null");
        requireNonNull(engineFunctions, "engineFunctions is null");
    }

    /** A configured policy: no engine's function classes filled in yet ({@link #effective}). */
    public GuardrailPolicy(TableAllowlist tables, Set<String> functions, Set<String> tableFunctions, Set<String> redact,
                           Limits limits, RowPolicy rows) {
        this(tables, functions, tableFunctions, redact, limits, rows, FunctionClasses.unreported());
    }

    /** A policy without row filters or masks. */
    public GuardrailPolicy(TableAllowlist tables, Set<String> functions, Set<String> tableFunctions, Set<String> redact,
                           Limits limits) {
        this(tables, functions, tableFunctions, redact, limits, RowPolicy.none());
    }

    /** No allowlist, engine-default functions, built-in redaction, default limits. */
    public static GuardrailPolicy defaults() {
        return new GuardrailPolicy(TableAllowlist.unrestricted(), Set.of(), Set.of(), Set.of(), Limits.defaults());
    }

    public Optional<String> defaultSchema() {
        return tables.defaultSchema();
    }

    /** Whether values of this column must be redacted. */
    public boolean isSensitive(String column) {
        return SensitiveNames.isSensitive(column, redact);
    }

    /**
     * Whether uses of this column are held to {@link SensitiveFlow}: a sensitive column, or a masked one
     * ({@link RowPolicy#masks()}), whose clear values must not steer filters, ordering or grouping either.
     * A masked column's output shows its mask and is not redacted.
     */
    public boolean isFlowSensitive(String column) {
        return isSensitive(column) || rows.masksColumnNamed(column);
    }

    /**
     * Whether an output column must be redacted: its name, or any column it derives from, is sensitive.
     * A catalog listing's output holds only names and types, never a table's values, so its label alone
     * redacts nothing ({@code SHOW TABLES} lists a column {@code name} whatever the policy redacts).
     */
    public boolean mustRedact(OutputColumn output) {
        if (output.catalogListing()) {
            return false;
        }
        if (!output.lineageComplete() || isSensitive(output.name())) {
            return true;
        }
        for (ColumnRef source : output.lineage()) {
            if (isSensitive(source.column())) {
                return true;
            }
        }
        return false;
    }

    /**
     * The 0-based positions of the outputs whose values must never leave the engine: those that
     * {@link #mustRedact} says must be redacted. A validator renders each of them as a constant in the
     * SQL the engine runs and reports them as {@link QueryPlan#maskedOutputs()}.
     */
    public Set<Integer> outputsToMask(List<OutputColumn> outputs) {
        Set<Integer> out = new TreeSet<>();
        for (int i = 0; i < outputs.size(); i++) {
            if (mustRedact(outputs.get(i))) {
                out.add(i);
            }
        }
        return out;
    }

    /**
     * Refuses a plan in which an output that must be redacted is not masked in the SQL the engine runs:
     * a value redacted only in the JVM has already crossed the wire, where its bytes, cells, memory and
     * arrival time are measured, and every limit counting them would depend on the secret. Where an
     * engine cannot mask an output server-side, the output is refused instead of redacted late.
     *
     * @throws GuardException SENSITIVE_OUTPUT_NOT_MASKED for the first such output
     */
    public void requireSensitiveOutputsMasked(QueryPlan plan) {
        List<OutputColumn> outputs = plan.outputs();
        for (int i = 0; i < outputs.size(); i++) {
            if (!plan.masks(i) && mustRedact(outputs.get(i))) {
                throw new GuardException(ErrorCode.SENSITIVE_OUTPUT_NOT_MASKED, "Output column " + (i + 1) + " ("
                        + SafeText.identifier(outputs.get(i).name()) + ") is sensitive, and this source cannot keep its values "
                        + "inside the engine; leave it out of the select list.");
            }
        }
    }

    /**
     * The policy in force on a source: this configured policy with only the engine's reported defaults
     * filled in. A restricted table allowlist (and a row policy) without a default schema of its own
     * resolves unqualified names in the engine's, and the engine's {@link FunctionClasses} decide which
     * functions an empty function list allows and which no list can allow. Nothing the engine reports
     * adds a table, a column or a function to a list the configuration wrote.
     *
     * @throws GuardException CONFIGURATION_ERROR when the allowlist or the row policy names a default
     *     schema that is not the engine's, or names one table twice once the engine's schema applies
     */
    public GuardrailPolicy effective(EngineDefaults engine) {
        requireNonNull(engine, "engine is null");
        TableAllowlist resolvedTables = tables;
        RowPolicy resolvedRows = rows;
        if (engine.defaultSchema().isPresent()) {
            String schema = Names.fold(engine.defaultSchema().get());
            try {
                if (tables.restricted()) {
                    if (tables.defaultSchema().isPresent() && !tables.defaultSchema().get().equals(schema)) {
                        throw new GuardException(ErrorCode.CONFIGURATION_ERROR,
                                "The allowlist's default schema differs from the source's.");
                    }
                    resolvedTables = new TableAllowlist(Optional.of(schema), tables.tables(), true);
                }
                if (!rows.isEmpty()) {
                    if (rows.defaultSchema().isPresent() && !rows.defaultSchema().get().equals(schema)) {
                        throw new GuardException(ErrorCode.CONFIGURATION_ERROR,
                                "The row policy's default schema differs from the source's.");
                    }
                    resolvedRows = new RowPolicy(Optional.of(schema), rows.filters(), rows.masks());
                }
            } catch (IllegalArgumentException e) {
                throw new GuardException(ErrorCode.CONFIGURATION_ERROR,
                        "The policy names a table or column twice (once with the default schema, once without).");
            }
        }
        return new GuardrailPolicy(resolvedTables, functions, tableFunctions, redact, limits, resolvedRows, engine.functions());
    }

    /**
     * This policy, or, when no engine's function classes were filled in yet ({@link #effective}), this
     * policy with {@code engine}'s: a validator built without its engine's defaults (in its own tests)
     * then decides as its engine would. Classes already filled in are kept.
     */
    public GuardrailPolicy orEngineFunctions(FunctionClasses engine) {
        requireNonNull(engine, "engine is null");
        if (!engineFunctions.equals(FunctionClasses.unreported())) {
            return this;
        }
        return new GuardrailPolicy(tables, functions, tableFunctions, redact, limits, rows, engine);
    }

    /**
     * Decides on the facts an engine established about a statement, the same way for every engine, one
     * guardrail after the other: {@link #requireTablesAllowed tables}, {@link #requireColumnsAllowed
     * columns}, {@link #requireFunctionsAllowed functions}, {@link #requireSensitiveFlow sensitive flow},
     * {@link #requireAmplificationsWithin amplification} and {@link #requireSensitiveOutputsMasked
     * masked outputs}.
     *
     * @throws GuardException with a policy or resources code for the first fact that breaks the policy
     */
    public void authorize(QueryPlan plan) {
        requireTablesAllowed(plan);
        requireColumnsAllowed(plan);
        requireFunctionsAllowed(plan);
        requireSensitiveFlow(plan);
        requireAmplificationsWithin(plan);
        requireSensitiveOutputsMasked(plan);
    }

    /**
     * Every base table the statement reads is allowlisted; one that is not is refused exactly like one
     * that does not exist ({@link Refusals#unknownTable}).
     */
    public void requireTablesAllowed(QueryPlan plan) {
        for (TableRef table : plan.tables()) {
            if (!tables.allowsTable(table)) {
                throw Refusals.unknownTable(table.table());
            }
        }
    }

    /** Every column whose value the statement uses is allowlisted ({@link Refusals#hiddenColumnRead}). */
    public void requireColumnsAllowed(QueryPlan plan) {
        for (ColumnUse use : plan.uses()) {
            if (!tables.allowsColumn(use.column().table(), use.column().column())) {
                throw Refusals.hiddenColumnRead();
            }
        }
    }

    /** Every function and table function the statement calls is allowed ({@link #requireFunction}). */
    public void requireFunctionsAllowed(QueryPlan plan) {
        for (String name : plan.functions()) {
            requireFunction(name);
        }
        for (String name : plan.tableFunctions()) {
            requireTableFunction(name);
        }
    }

    /** Sensitive and masked values flow only where {@link SensitiveFlow} lets them. */
    public void requireSensitiveFlow(QueryPlan plan) {
        SensitiveFlow.check(plan.uses(), this::isFlowSensitive);
    }

    /** Every amplifying call stays within the bound the plan's limits derive ({@link Amplification}). */
    public void requireAmplificationsWithin(QueryPlan plan) {
        for (Amplification call : plan.amplifications()) {
            call.requireWithin(plan.limits());
        }
    }

    /**
     * The function decision, for one scalar, aggregate or window function: allowed when it is on the
     * configured list, or on the engine's default list when none is configured, and never when it is on
     * the engine's never-list. An engine that must stop a call before its database sees the statement
     * (binding can read files) asks this while it analyzes; {@link #authorize} asks it again of the plan.
     *
     * @throws GuardException FUNCTION_NOT_ALLOWED naming the function and the closest allowed names, or
     *     EXTERNAL_ACCESS_DENIED for a never-allowed function that reaches outside the database
     */
    public void requireFunction(String name) {
        if (!allowsFunction(name)) {
            throw functionRefusal(name);
        }
    }

    /** {@link #requireFunction} for a table function: TABLE_FUNCTION_NOT_ALLOWED. */
    public void requireTableFunction(String name) {
        if (!allowsTableFunction(name)) {
            throw tableFunctionRefusal(name);
        }
    }

    /** Whether {@link #requireFunction} allows {@code name} (lower case). */
    public boolean allowsFunction(String name) {
        return !engineFunctions.isNever(name) && (functions.isEmpty() ? engineFunctions.defaults() : functions).contains(name);
    }

    /** Whether {@link #requireTableFunction} allows {@code name} (lower case). */
    public boolean allowsTableFunction(String name) {
        return !engineFunctions.isNever(name)
                && (tableFunctions.isEmpty() ? engineFunctions.tableDefaults() : tableFunctions).contains(name);
    }

    /** The functions a statement may call: the configured ones or the engine's defaults, never a never-allowed one. */
    public Set<String> allowedFunctions() {
        return allowed(functions.isEmpty() ? engineFunctions.defaults() : functions);
    }

    /** The table functions a statement may call. */
    public Set<String> allowedTableFunctions() {
        return allowed(tableFunctions.isEmpty() ? engineFunctions.tableDefaults() : tableFunctions);
    }

    /**
     * The refusal of a call of {@code name} that {@link #requireFunction} does not allow, with the closest
     * allowed names. An engine also refuses with it a call it cannot analyze (a name written in a form it
     * does not read as this function), so that both read the same.
     */
    public GuardException functionRefusal(String name) {
        return refusal(name, "function", ErrorCode.FUNCTION_NOT_ALLOWED, allowedFunctions());
    }

    /** {@link #functionRefusal} for a table function. */
    public GuardException tableFunctionRefusal(String name) {
        return refusal(name, "table function", ErrorCode.TABLE_FUNCTION_NOT_ALLOWED, allowedTableFunctions());
    }

    private GuardException refusal(String name, String kind, ErrorCode notAllowed, Set<String> allowed) {
        if (engineFunctions.isNever(name) && engineFunctions.wording() == FunctionClasses.NeverWording.NEVER_ALLOWED) {
            return new GuardException(engineFunctions.isExternal(name) ? ErrorCode.EXTERNAL_ACCESS_DENIED : notAllowed,
                    "The " + kind + " " + SafeText.identifier(name) + " is never allowed.");
        }
        return new GuardException(notAllowed, "The " + kind + " " + SafeText.identifier(name) + " is not allowlisted."
                + Suggestions.didYouMean(name, allowed));
    }

    private Set<String> allowed(Set<String> listed) {
        Set<String> out = new TreeSet<>();
        for (String name : listed) {
            if (!engineFunctions.isNever(name)) {
                out.add(name);
            }
        }
        return out;
    }

    /**
     * The functions to enforce: the configured ones, or {@code engineDefault} when none are configured.
     * For a fake engine of the tests; an engine adapter reports its {@link FunctionClasses} and asks
     * {@link #requireFunction} instead.
     */
    public Set<String> functionsOr(Set<String> engineDefault) {
        return functions.isEmpty() ? engineDefault : functions;
    }

    /** {@link #functionsOr} for table functions. */
    public Set<String> tableFunctionsOr(Set<String> engineDefault) {
        return tableFunctions.isEmpty() ? engineDefault : tableFunctions;
    }

    public GuardrailPolicy withTables(TableAllowlist value) {
        return new GuardrailPolicy(value, functions, tableFunctions, redact, limits, rows, engineFunctions);
    }

    public GuardrailPolicy withFunctions(Set<String> value) {
        return new GuardrailPolicy(tables, value, tableFunctions, redact, limits, rows, engineFunctions);
    }

    public GuardrailPolicy withTableFunctions(Set<String> value) {
        return new GuardrailPolicy(tables, functions, value, redact, limits, rows, engineFunctions);
    }

    public GuardrailPolicy withRedact(Set<String> value) {
        return new GuardrailPolicy(tables, functions, tableFunctions, value, limits, rows, engineFunctions);
    }

    public GuardrailPolicy withLimits(Limits value) {
        return new GuardrailPolicy(tables, functions, tableFunctions, redact, value, rows, engineFunctions);
    }

    public GuardrailPolicy withRows(RowPolicy value) {
        return new GuardrailPolicy(tables, functions, tableFunctions, redact, limits, value, engineFunctions);
    }

    private static Set<String> foldAll(Set<String> names, String what) {
        requireNonNull(names, what + " is null");
        Set<String> out = new LinkedHashSet<>();
        for (String name : names) {
            out.add(Names.fold(Names.requireName(name, what + " entry")));
        }
        return Set.copyOf(out);
    }
}
