package dev.sqlguard.duckdb.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import dev.sqlguard.domain.Amplification;
import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.ColumnUse;
import dev.sqlguard.domain.OutputColumn;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.domain.UsePosition;

/** What reading one bound plan established: the facts a {@link dev.sqlguard.domain.QueryPlan} carries. */
final class PlanFacts {
    private final Set<TableRef> tables = new LinkedHashSet<>();
    private final Set<ColumnRef> reads = new LinkedHashSet<>();
    private final Map<Object, ColumnUse> uses = new LinkedHashMap<>();
    private final Set<String> functions = new TreeSet<>();
    private final Map<String, Amplification> amplifications = new LinkedHashMap<>();
    private final List<OutputColumn> outputs = new ArrayList<>();

    void table(TableRef table) {
        tables.add(table);
    }

    void read(ColumnRef column) {
        reads.add(column);
    }

    void function(String name) {
        functions.add(name);
    }

    /** Whether the plan is DuckDB's own fixed program (SUMMARIZE of a table): every use is a direct output. */
    private boolean fixedProgram;

    void fixedProgram() {
        fixedProgram = true;
    }

    /** While set, every use but an output is recorded at this position instead. */
    private UsePosition override;

    /** Sets the override (null for none) and returns the previous one. */
    UsePosition override(UsePosition position) {
        UsePosition previous = override;
        override = position;
        return previous;
    }

    /** Records every flow of {@code value} as a use at {@code position}. */
    void use(PlanValue value, UsePosition requested) {
        UsePosition position = fixedProgram ? UsePosition.OUTPUT
                : override != null && requested != UsePosition.OUTPUT ? override : requested;
        for (PlanValue.Flow flow : value.flows) {
            if (fixedProgram) {
                uses.putIfAbsent(List.of(flow.column(), position, ""), ColumnUse.direct(flow.column(), position));
                continue;
            }
            List<Object> key = List.of(flow.column(), position,
                    flow.chain().firstNonTotal == null ? "" : flow.chain().firstNonTotal.operation());
            uses.computeIfAbsent(key, k -> new ColumnUse(flow.column(), position, flow.chain().steps()));
        }
    }

    /** Keeps, per function and kind, the call that could build the most. */
    void amplification(Amplification call) {
        String key = call.function() + (call.relative() ? "/relative" : "/absolute");
        Amplification known = amplifications.get(key);
        if (known == null || worse(call, known)) {
            amplifications.put(key, call);
        }
    }

    private static boolean worse(Amplification a, Amplification b) {
        if (a.bound().isEmpty()) {
            return true;
        }
        return b.bound().isPresent() && a.bound().getAsLong() > b.bound().getAsLong();
    }

    /** Takes in another plan's tables, reads, uses, functions and amplifications (not its outputs). */
    void include(PlanFacts other) {
        tables.addAll(other.tables);
        reads.addAll(other.reads);
        other.uses.forEach(uses::putIfAbsent);
        functions.addAll(other.functions);
        other.amplifications.values().forEach(this::amplification);
    }

    void output(String name, PlanValue value) {
        outputs.add(OutputColumn.traced(name, value.lineage()));
        use(value, UsePosition.OUTPUT);
    }

    Set<TableRef> tables() {
        return tables;
    }

    Set<ColumnRef> reads() {
        return reads;
    }

    Set<ColumnUse> uses() {
        return new LinkedHashSet<>(uses.values());
    }

    Set<String> functions() {
        return functions;
    }

    List<Amplification> amplifications() {
        return new ArrayList<>(amplifications.values());
    }

    List<OutputColumn> outputs() {
        return outputs;
    }
}
