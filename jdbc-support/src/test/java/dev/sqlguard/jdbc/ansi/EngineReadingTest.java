package dev.sqlguard.jdbc.ansi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.ColumnUse;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.domain.UsePosition;

class EngineReadingTest {
    private static final TableRef CLAIMS = TableRef.of("s", "claims");
    private static final TableRef USERS = TableRef.of("s", "users");
    private static final ColumnRef REGION = new ColumnRef(CLAIMS, "region");
    private static final ColumnRef SSN = new ColumnRef(CLAIMS, "ssn");
    /** The checked plan reads claims.region only. */
    private static final QueryPlan PLAN = new QueryPlan("s", "SELECT region FROM claims", "SELECT ...", List.of(), Set.of(CLAIMS),
            Set.of(ColumnUse.direct(REGION, UsePosition.OUTPUT)), Set.of(), List.of(), List.of(), Limits.defaults());

    @Test
    void aReadingWithinTheCheckedPlanPasses() {
        new EngineReading(Set.of(CLAIMS), Set.of(REGION), true).requireWithin(PLAN);
        new EngineReading(Set.of(), Set.of(), true).requireWithin(PLAN);
    }

    @Test
    void anotherTableAnotherColumnOrAnIncompleteReadingIsADispute() {
        for (EngineReading disputed : List.of(new EngineReading(Set.of(CLAIMS, USERS), Set.of(REGION), true),
                new EngineReading(Set.of(CLAIMS), Set.of(REGION, SSN), true), new EngineReading(Set.of(CLAIMS), Set.of(REGION), false))) {
            assertThatThrownBy(() -> disputed.requireWithin(PLAN)).as(disputed.toString()).isInstanceOfSatisfying(GuardException.class, e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.UNSAFE_SYNTAX);
                assertThat(e.safeMessage()).isEqualTo("The database reads this query differently from the check; rewrite it more plainly.");
            });
        }
    }
}
