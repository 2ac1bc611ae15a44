package dev.sqlguard.domain;

import static java.util.Objects.requireNonNull;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What one source allows. Engines enforce it with their own parser.
 *
 * @param tables the table and column allowlist
 * @param functions scalar and aggregate functions allowed (lower case); empty means the engine's
 *     documented default list
 * @param tableFunctions table functions allowed (lower case); empty means the engine's default
 * @param redact column names to redact on top of {@link SensitiveNames}' built-in patterns
 * @param limits resource bounds
 * @param rows row filters and column masks bound to the caller's attributes (multi-tenancy)
 */
public record GuardrailPolicy(
        TableAllowlist tables,
        Set<String> functions,
        Set<String> tableFunctions,
        Set<String> redact,
        Limits limits,
        RowPolicy rows) {

    public GuardrailPolicy {
        requireNonNull(tables, "tables is null");
        functions = foldAll(functions, "functions");
        tableFunctions = foldAll(tableFunctions, "tableFunctions");
        redact = foldAll(redact, "redact");
        requireNonNull(limits, "limits is null");
        requireNonNull(rows, "rows is null");
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
     * Decides on the facts an engine established about a statement, the same way for every engine:
     * every table and column it reads is allowlisted (a hidden one is refused exactly like a missing
     * one), sensitive values follow {@link SensitiveFlow}, every amplifying call stays within the
     * bound the limits derive ({@link Amplification}), and every output that must be redacted is
     * masked inside the engine ({@link #requireSensitiveOutputsMasked}).
     *
     * @throws GuardException with a policy or resources code for the first fact that breaks the policy
     */
    public void authorize(QueryPlan plan) {
        for (TableRef table : plan.tables()) {
            if (!tables.allowsTable(table)) {
                throw Refusals.unknownTable(table.table());
            }
        }
        for (ColumnUse use : plan.uses()) {
            if (!tables.allowsColumn(use.column().table(), use.column().column())) {
                throw Refusals.hiddenColumnRead();
            }
        }
        SensitiveFlow.check(plan.uses(), this::isFlowSensitive);
        for (Amplification call : plan.amplifications()) {
            call.requireWithin(plan.limits());
        }
        requireSensitiveOutputsMasked(plan);
    }

    /** The functions to enforce: the configured ones, or {@code engineDefault} when none are configured. */
    public Set<String> functionsOr(Set<String> engineDefault) {
        return functions.isEmpty() ? engineDefault : functions;
    }

    public Set<String> tableFunctionsOr(Set<String> engineDefault) {
        return tableFunctions.isEmpty() ? engineDefault : tableFunctions;
    }

    public GuardrailPolicy withTables(TableAllowlist value) {
        return new GuardrailPolicy(value, functions, tableFunctions, redact, limits, rows);
    }

    public GuardrailPolicy withFunctions(Set<String> value) {
        return new GuardrailPolicy(tables, value, tableFunctions, redact, limits, rows);
    }

    public GuardrailPolicy withTableFunctions(Set<String> value) {
        return new GuardrailPolicy(tables, functions, value, redact, limits, rows);
    }

    public GuardrailPolicy withRedact(Set<String> value) {
        return new GuardrailPolicy(tables, functions, tableFunctions, value, limits, rows);
    }

    public GuardrailPolicy withLimits(Limits value) {
        return new GuardrailPolicy(tables, functions, tableFunctions, redact, value, rows);
    }

    public GuardrailPolicy withRows(RowPolicy value) {
        return new GuardrailPolicy(tables, functions, tableFunctions, redact, limits, value);
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
