package dev.sqlguard.mysql.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import dev.sqlguard.domain.Amplification;
import dev.sqlguard.domain.ColumnUse;
import dev.sqlguard.domain.FlowStep;
import dev.sqlguard.domain.OutputColumn;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.domain.UsePosition;

/**
 * What rendering one statement established: the facts its {@link dev.sqlguard.domain.QueryPlan}
 * carries for the domain to decide on. The renderer decides nothing about sensitive columns itself.
 */
final class Facts {
    private final Set<TableRef> tables = new LinkedHashSet<>();
    private final Map<Object, ColumnUse> uses = new LinkedHashMap<>();
    private final Set<String> functions = new TreeSet<>();
    private final Map<String, Amplification> amplifications = new LinkedHashMap<>();
    private final List<OutputColumn> outputs = new ArrayList<>();

    void table(TableRef table) {
        tables.add(table);
    }

    void function(String name) {
        functions.add(name);
    }

    /** Records every flow of {@code value} as a use at {@code position}. */
    void use(Value value, UsePosition position) {
        for (Value.Flow flow : value.flows()) {
            List<Object> key = List.of(flow.column(), position, flow.firstNonTotal().map(FlowStep::operation).orElse(""));
            uses.putIfAbsent(key, new ColumnUse(flow.column(), position, flow.chain()));
        }
    }

    /** An output column of the statement: its lineage, and its value used as output. */
    void output(String name, Value value) {
        outputs.add(OutputColumn.traced(name, value.lineage()));
        use(value, UsePosition.OUTPUT);
    }

    /** Keeps, per function and kind, the call that could build the most. */
    void amplification(Amplification call) {
        String key = call.function() + (call.relative() ? "/relative" : "/absolute");
        Amplification known = amplifications.get(key);
        if (known == null || known.bound().isPresent()
                && (call.bound().isEmpty() || call.bound().getAsLong() > known.bound().getAsLong())) {
            amplifications.put(key, call);
        }
    }

    Set<TableRef> tables() {
        return tables;
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
