package dev.sqlguard.domain;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * A validated statement, ready to run. Only a {@link port.StatementValidator} creates plans, and an
 * {@link port.ExecutionPort} runs exactly {@link #executableSql()}, never the text the model sent.
 *
 * @param sourceId the logical source
 * @param originalSql the text the model sent (for audit only; never executed)
 * @param executableSql the exact text the engine executes, with the row bound applied
 * @param parameters the bound parameter values, in placeholder order
 * @param tables the base tables referenced
 * @param columns the base-table columns referenced anywhere in the statement
 * @param functions the functions called (lower case)
 * @param outputs each output column with its lineage, in output order
 * @param limits the bounds that apply
 */
public record QueryPlan(
        String sourceId,
        String originalSql,
        String executableSql,
        List<Object> parameters,
        Set<TableRef> tables,
        Set<ColumnRef> columns,
        Set<String> functions,
        List<OutputColumn> outputs,
        Limits limits) {

    public QueryPlan {
        requireNonNull(sourceId, "sourceId is null");
        requireNonNull(originalSql, "originalSql is null");
        requireNonNull(executableSql, "executableSql is null");
        if (executableSql.isBlank()) {
            throw new IllegalArgumentException("executableSql is blank");
        }
        parameters = Collections.unmodifiableList(new java.util.ArrayList<>(requireNonNull(parameters, "parameters is null")));
        tables = Set.copyOf(requireNonNull(tables, "tables is null"));
        columns = Set.copyOf(requireNonNull(columns, "columns is null"));
        functions = Set.copyOf(requireNonNull(functions, "functions is null"));
        outputs = List.copyOf(requireNonNull(outputs, "outputs is null"));
        requireNonNull(limits, "limits is null");
    }

    /** The same plan with other parameter values (plan reuse: validate once, bind many times). */
    public QueryPlan withParameters(List<Object> values) {
        if (values.size() != parameters.size()) {
            throw new GuardException(ErrorCode.PARAMETER_COUNT_MISMATCH,
                    "The SQL has " + parameters.size() + " parameter placeholder(s) but " + values.size() + " value(s) were supplied.");
        }
        return new QueryPlan(sourceId, originalSql, executableSql, values, tables, columns, functions, outputs, limits);
    }
}
