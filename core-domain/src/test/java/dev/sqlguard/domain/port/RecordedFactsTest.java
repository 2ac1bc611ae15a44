package dev.sqlguard.domain.port;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.Amplification;
import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.ColumnUse;
import dev.sqlguard.domain.FlowStep;
import dev.sqlguard.domain.OutputColumn;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.domain.UsePosition;

class RecordedFactsTest {
    private static final TableRef CLAIMS = TableRef.of("s", "claims");
    private static final ColumnRef SSN = new ColumnRef(CLAIMS, "ssn");
    private static final FlowStep UPPER = FlowStep.total("upper");
    private static final FlowStep CAST = FlowStep.partial("cast");

    @Test
    void usesDecidedAlikeAreKeptOnceAndTheirChainIsBuiltOnlyForANewOne() {
        RecordedFacts facts = new RecordedFacts();
        AtomicInteger built = new AtomicInteger();
        facts.use(SSN, UsePosition.FILTER, CAST, () -> {
            built.incrementAndGet();
            return List.of(UPPER, CAST);
        });
        facts.use(SSN, UsePosition.FILTER, CAST, () -> {
            built.incrementAndGet();
            return List.of(CAST);
        });
        facts.use(SSN, UsePosition.FILTER, null, () -> List.of(UPPER));
        facts.use(SSN, UsePosition.OUTPUT, CAST, () -> List.of(CAST));
        assertThat(built).hasValue(1);
        assertThat(facts.uses()).containsExactly(new ColumnUse(SSN, UsePosition.FILTER, List.of(UPPER, CAST)),
                new ColumnUse(SSN, UsePosition.FILTER, List.of(UPPER)), new ColumnUse(SSN, UsePosition.OUTPUT, List.of(CAST)));
    }

    @Test
    void theWorstAmplificationPerFunctionAndKindIsKept() {
        RecordedFacts facts = new RecordedFacts();
        facts.amplification(Amplification.absolute("lpad", 10));
        facts.amplification(Amplification.absolute("lpad", 500));
        facts.amplification(Amplification.absolute("lpad", 20));
        facts.amplification(Amplification.relative("repeat", 3));
        facts.amplification(Amplification.unbounded("repeat"));
        facts.amplification(Amplification.absolute("repeat", 7));
        facts.amplification(Amplification.relative("repeat", 2));
        assertThat(facts.amplifications()).containsExactly(Amplification.absolute("lpad", 500), Amplification.relative("repeat", 3),
                Amplification.unbounded("repeat"));
    }

    @Test
    void includeTakesInEverythingButTheOutputs() {
        RecordedFacts outer = new RecordedFacts();
        outer.table(CLAIMS);
        outer.function("upper");
        outer.output("s", Set.of(SSN));
        outer.use(SSN, UsePosition.OUTPUT, null, List::of);
        outer.amplification(Amplification.absolute("lpad", 10));
        RecordedFacts inner = new RecordedFacts();
        TableRef users = TableRef.of("s", "users");
        inner.table(users);
        inner.function("abs");
        inner.output("x", Set.of());
        inner.use(SSN, UsePosition.OUTPUT, null, () -> List.of(UPPER));
        inner.use(SSN, UsePosition.JOIN, null, List::of);
        inner.amplification(Amplification.absolute("lpad", 99));
        outer.include(inner);
        assertThat(outer.tables()).containsExactly(CLAIMS, users);
        assertThat(outer.functions()).containsExactly("abs", "upper");
        assertThat(outer.outputs()).containsExactly(OutputColumn.traced("s", Set.of(SSN)));
        assertThat(outer.uses()).containsExactly(ColumnUse.direct(SSN, UsePosition.OUTPUT), ColumnUse.direct(SSN, UsePosition.JOIN));
        assertThat(outer.amplifications()).containsExactly(Amplification.absolute("lpad", 99));
    }
}
