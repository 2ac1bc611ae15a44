package dev.sqlguard.mysql.internal;

import java.util.List;
import java.util.Set;

import dev.sqlguard.domain.Amplification;
import dev.sqlguard.domain.ColumnUse;
import dev.sqlguard.domain.OutputColumn;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.domain.UsePosition;
import dev.sqlguard.domain.port.RecordedFacts;

/**
 * What rendering one statement established: the facts its {@link dev.sqlguard.domain.QueryPlan}
 * carries for the domain to decide on, recorded by the domain's {@link RecordedFacts} from the
 * renderer's {@link Value}s. The renderer decides nothing about sensitive columns itself.
 */
final class Facts {
    private final RecordedFacts recorded = new RecordedFacts();

    void table(TableRef table) {
        recorded.table(table);
    }

    void function(String name) {
        recorded.function(name);
    }

    /** Records every flow of {@code value} as a use at {@code position}. */
    void use(Value value, UsePosition position) {
        for (Value.Flow flow : value.flows()) {
            recorded.use(flow.column(), position, flow.firstNonTotal().orElse(null), flow::chain);
        }
    }

    /** An output column of the statement: its lineage, and its value used as output. */
    void output(String name, Value value) {
        recorded.output(name, value.lineage());
        use(value, UsePosition.OUTPUT);
    }

    /** Keeps, per function and kind, the call that could build the most. */
    void amplification(Amplification call) {
        recorded.amplification(call);
    }

    Set<TableRef> tables() {
        return recorded.tables();
    }

    Set<ColumnUse> uses() {
        return recorded.uses();
    }

    Set<String> functions() {
        return recorded.functions();
    }

    List<Amplification> amplifications() {
        return recorded.amplifications();
    }

    List<OutputColumn> outputs() {
        return recorded.outputs();
    }
}
