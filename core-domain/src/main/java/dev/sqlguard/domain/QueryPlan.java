package dev.sqlguard.domain;

import static java.util.Objects.requireNonNull;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A checked statement, ready to run, with the facts its engine established about it. Only a
 * {@link port.StatementValidator} creates plans; {@link GuardrailPolicy#authorize} decides on the
 * facts, and an {@link port.ExecutionPort} runs exactly {@link #executableSql()}, never the text the
 * model sent.
 *
 * @param sourceId the logical source
 * @param originalSql the text the model sent (for audit only; never executed)
 * @param executableSql the exact text the engine executes, with the row bound applied
 * @param parameters the bound parameter values, in placeholder order
 * @param tables the base tables the statement reads, as the engine resolved them
 * @param uses every use of a base column's value, with its position and the steps it passes through
 * @param functions the scalar, aggregate and window functions the statement calls (lower case), each
 *     decided on by {@link GuardrailPolicy#requireFunction}
 * @param outputs each output column with its lineage, in output order
 * @param amplifications every call of an amplifying function, with its literal bound
 * @param limits the bounds that apply
 * @param maskedOutputs the 0-based positions of the outputs that {@link #executableSql()} replaces by a
 *     constant of the same type and name inside the engine, so that no byte of their values leaves it
 *     ({@link GuardrailPolicy#requireSensitiveOutputsMasked}); empty when the text masks nothing
 * @param bindings what each placeholder of {@link #executableSql()} takes: the caller's parameters and
 *     the attributes that the row filters of {@link RowPolicy} need
 * @param attributes the caller's attributes this plan binds (those {@code bindings} takes), once a call's
 *     attributes are applied ({@link #withAttributes})
 * @param tableFunctions the table functions the statement calls in FROM (lower case), each decided on by
 *     {@link GuardrailPolicy#requireTableFunction}
 */
public record QueryPlan(
        String sourceId,
        String originalSql,
        String executableSql,
        List<Object> parameters,
        Set<TableRef> tables,
        Set<ColumnUse> uses,
        Set<String> functions,
        List<OutputColumn> outputs,
        List<Amplification> amplifications,
        Limits limits,
        Set<Integer> maskedOutputs,
        Bindings bindings,
        Map<String, String> attributes,
        Set<String> tableFunctions) {

    public QueryPlan {
        requireNonNull(sourceId, "sourceId is null");
        requireNonNull(originalSql, "originalSql is null");
        requireNonNull(executableSql, "executableSql is null");
        if (executableSql.isBlank()) {
            throw new IllegalArgumentException("executableSql is blank");
        }
        // a collection this constructor froze before (another plan's, passed on by withParameters or
        // withAttributes) is kept as it is: copying a plan's facts again, hashing every column use, was a cost
        // on every call of a cached plan; List.copyOf and Set.copyOf return an immutable argument as it is
        parameters = Frozen.list(requireNonNull(parameters, "parameters is null"));
        tables = Set.copyOf(requireNonNull(tables, "tables is null"));
        if (!(requireNonNull(uses, "uses is null") instanceof Frozen.OrderedSet<ColumnUse>)) {
            uses.forEach(use -> requireNonNull(use, "use is null"));
            uses = Frozen.orderedSet(uses);
        }
        functions = Set.copyOf(requireNonNull(functions, "functions is null"));
        outputs = List.copyOf(requireNonNull(outputs, "outputs is null"));
        amplifications = List.copyOf(requireNonNull(amplifications, "amplifications is null"));
        requireNonNull(limits, "limits is null");
        maskedOutputs = Frozen.sortedSet(requireNonNull(maskedOutputs, "maskedOutputs is null"));
        for (Integer position : maskedOutputs) {
            if (position < 0 || position >= outputs.size()) {
                throw new IllegalArgumentException("masked output " + position + " is not an output position");
            }
        }
        requireNonNull(bindings, "bindings is null");
        if (bindings.parameterCount() != parameters.size()) {
            throw new IllegalArgumentException("the bindings take " + bindings.parameterCount() + " parameter(s), not "
                    + parameters.size());
        }
        attributes = Map.copyOf(requireNonNull(attributes, "attributes is null"));
        tableFunctions = Set.copyOf(requireNonNull(tableFunctions, "tableFunctions is null"));
    }

    /** A plan that calls no table function. */
    public QueryPlan(String sourceId, String originalSql, String executableSql, List<Object> parameters, Set<TableRef> tables,
                     Set<ColumnUse> uses, Set<String> functions, List<OutputColumn> outputs, List<Amplification> amplifications,
                     Limits limits, Set<Integer> maskedOutputs, Bindings bindings, Map<String, String> attributes) {
        this(sourceId, originalSql, executableSql, parameters, tables, uses, functions, outputs, amplifications, limits,
                maskedOutputs, bindings, attributes, Set.of());
    }

    /** A plan whose placeholders all take the caller's parameters. */
    public QueryPlan(String sourceId, String originalSql, String executableSql, List<Object> parameters, Set<TableRef> tables,
                     Set<ColumnUse> uses, Set<String> functions, List<OutputColumn> outputs, List<Amplification> amplifications,
                     Limits limits, Set<Integer> maskedOutputs) {
        this(sourceId, originalSql, executableSql, parameters, tables, uses, functions, outputs, amplifications, limits,
                maskedOutputs, Bindings.parameters(parameters.size()), Map.of());
    }

    /** A plan whose executable SQL masks no output. */
    public QueryPlan(String sourceId, String originalSql, String executableSql, List<Object> parameters, Set<TableRef> tables,
                     Set<ColumnUse> uses, Set<String> functions, List<OutputColumn> outputs, List<Amplification> amplifications,
                     Limits limits) {
        this(sourceId, originalSql, executableSql, parameters, tables, uses, functions, outputs, amplifications, limits, Set.of());
    }

    /** Whether {@link #executableSql()} replaces output {@code position} (0-based) by a constant inside the engine. */
    public boolean masks(int position) {
        return maskedOutputs.contains(position);
    }

    /** The base columns the statement reads, in any position. */
    public Set<ColumnRef> columns() {
        Set<ColumnRef> out = new LinkedHashSet<>();
        for (ColumnUse use : uses) {
            out.add(use.column());
        }
        return out;
    }

    /**
     * The same plan with other parameter values (plan reuse: validate once, bind many times). A
     * plan without parameters is returned as it is: copying its facts again (hashing every column
     * use) was a cost on every call of a cached plan.
     */
    public QueryPlan withParameters(List<Object> values) {
        Parameters.requireCount(parameters.size(), values.size());
        if (values.isEmpty()) {
            return this;
        }
        return new QueryPlan(sourceId, originalSql, executableSql, values, tables, uses, functions, outputs,
                amplifications, limits, maskedOutputs, bindings, attributes, tableFunctions);
    }

    /**
     * The same plan with the caller's attributes that its row filters need (the others are not kept).
     *
     * @throws GuardException {@link ErrorCode#MISSING_ATTRIBUTE} when one it needs is absent: fail closed
     */
    public QueryPlan withAttributes(Map<String, String> callerAttributes) {
        if (!bindings.takesAttributes()) {
            return this;
        }
        Map<String, String> applied = new java.util.HashMap<>();
        for (String name : bindings.attributes()) {
            String value = callerAttributes.get(name);
            if (value == null) {
                throw Bindings.missing(name);
            }
            applied.put(name, value);
        }
        return new QueryPlan(sourceId, originalSql, executableSql, parameters, tables, uses, functions, outputs,
                amplifications, limits, maskedOutputs, bindings, applied, tableFunctions);
    }

    /**
     * The values an executor binds, in placeholder order: the caller's parameters and the applied attributes.
     *
     * @throws GuardException {@link ErrorCode#MISSING_ATTRIBUTE} when the plan's attributes were not applied
     */
    public List<Object> values() {
        return bindings.bind(parameters, attributes);
    }
}
