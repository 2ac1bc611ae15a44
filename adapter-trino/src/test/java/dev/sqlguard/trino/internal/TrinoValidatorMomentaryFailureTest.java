package dev.sqlguard.trino.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.ColumnInfo;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.TableInfo;

/**
 * A validation that failed for a reason of the moment (the cluster did not answer its
 * {@code EXPLAIN} in time, or could not be reached) is not remembered for the text: the next call
 * asks the cluster again. Once, one slow {@code EXPLAIN} made every later call of the same text
 * answer {@code EXCEEDED_TIME_LIMIT} at once, as a refusal.
 */
class TrinoValidatorMomentaryFailureTest {
    private static final GuardrailPolicy POLICY = new GuardrailPolicy(
            new TableAllowlist(java.util.Optional.of("s1"), TableAllowlist.of(Map.of("claims", List.of("*"))).tables(), true),
            Set.of(), Set.of(), Set.of(), Limits.defaults()).withFunctions(FunctionCatalog.defaults());
    private static final SchemaSnapshot SCHEMA = SchemaSnapshot.of("memory", "s1", List.of(new TableInfo("s1", "claims",
            List.of(new ColumnInfo("id", "bigint"), new ColumnInfo("region", "varchar(16)")), OptionalLong.empty())));

    @Test
    void aClusterThatCouldNotBeReachedIsAskedAgainOnTheNextCall() {
        AtomicInteger asked = new AtomicInteger();
        TrinoValidator validator = new TrinoValidator("s", SCHEMA, POLICY, () -> {
            asked.incrementAndGet();
            throw new SQLException("Error starting query", new IOException("connection refused"));
        });
        for (int call = 1; call <= 2; call++) {
            assertThatThrownBy(() -> validator.validate(QueryRequest.of("s", "SELECT region FROM claims WHERE id > 1")))
                    .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.ENGINE_UNAVAILABLE));
            assertThat(asked).as("call %d asked the cluster", call).hasValue(call);
        }
    }
}
