package dev.sqlguard.domain.port;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

import dev.sqlguard.domain.Amplification;
import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.ColumnUse;
import dev.sqlguard.domain.FlowStep;
import dev.sqlguard.domain.OutputColumn;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.domain.UsePosition;

/**
 * The facts a validator establishes while it reads one statement, for the
 * {@link dev.sqlguard.domain.QueryPlan} the domain decides on: the tables read, every use of a base
 * column, the functions called, the amplifying calls and the output columns with their lineage. The
 * validator decides nothing itself. Not thread-safe: one instance per statement.
 *
 * <p>Uses that the policy would decide alike are kept once: one per column, position and first
 * non-total step; of the amplifying calls, the worst per function and kind ({@link WorstAmplifications}).
 */
public final class RecordedFacts {
    private final Set<TableRef> tables = new LinkedHashSet<>();
    private final Map<List<Object>, ColumnUse> uses = new LinkedHashMap<>();
    private final Set<String> functions = new TreeSet<>();
    private final WorstAmplifications amplifications = new WorstAmplifications();
    private final List<OutputColumn> outputs = new ArrayList<>();

    public void table(TableRef table) {
        tables.add(requireNonNull(table, "table is null"));
    }

    public void function(String name) {
        functions.add(requireNonNull(name, "name is null"));
    }

    /**
     * Records a use of {@code column} at {@code position}, unless one through the same first non-total
     * step is recorded there already.
     *
     * @param firstNonTotal the first step of the chain that is not total, or null when every step is
     * @param chain the steps the value passed through, innermost first; asked for only when the use is new
     */
    public void use(ColumnRef column, UsePosition position, FlowStep firstNonTotal, Supplier<List<FlowStep>> chain) {
        List<Object> key = List.of(column, position, firstNonTotal == null ? "" : firstNonTotal.operation());
        uses.computeIfAbsent(key, k -> new ColumnUse(column, position, chain.get()));
    }

    /** An output column of the statement and its lineage (its value's uses are recorded apart). */
    public void output(String name, Set<ColumnRef> lineage) {
        outputs.add(OutputColumn.traced(name, lineage));
    }

    /** Keeps, per function and kind, the call that could build the most ({@link WorstAmplifications}). */
    public void amplification(Amplification call) {
        amplifications.add(call);
    }

    /** Takes in another statement's tables, uses, functions and amplifications (not its outputs). */
    public void include(RecordedFacts other) {
        tables.addAll(other.tables);
        other.uses.forEach(uses::putIfAbsent);
        functions.addAll(other.functions);
        amplifications.addAll(other.amplifications);
    }

    /** The tables read, in the order first recorded. */
    public Set<TableRef> tables() {
        return Collections.unmodifiableSet(tables);
    }

    /** The uses, in the order first recorded. */
    public Set<ColumnUse> uses() {
        return new LinkedHashSet<>(uses.values());
    }

    /** The functions called, sorted. */
    public Set<String> functions() {
        return Collections.unmodifiableSet(functions);
    }

    public List<Amplification> amplifications() {
        return amplifications.list();
    }

    public List<OutputColumn> outputs() {
        return Collections.unmodifiableList(outputs);
    }
}
