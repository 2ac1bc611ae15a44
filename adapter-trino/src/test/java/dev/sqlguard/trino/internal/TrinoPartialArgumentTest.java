package dev.sqlguard.trino.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
 * The casts the catalog prover found partial on Trino 483: a cast to {@code varchar(n)} or {@code char(n)}
 * fails when a number's text does not fit ({@code CAST(12345 AS varchar(3))}), so a sensitive value
 * reaching one is refused like any partial step, while a cast to unbounded {@code varchar} stays total.
 */
class TrinoPartialArgumentTest {
    private static final GuardrailPolicy POLICY = new GuardrailPolicy(
            new TableAllowlist(java.util.Optional.of("s1"), TableAllowlist.of(Map.of("claims", List.of("*"))).tables(), true),
            Set.of(), Set.of(), Set.of(), Limits.defaults()).withFunctions(FunctionCatalog.defaults()).withRedact(Set.of("amount"));
    private static final SchemaSnapshot SCHEMA = SchemaSnapshot.of("memory", "s1", List.of(new TableInfo("s1", "claims",
            List.of(new ColumnInfo("id", "bigint"), new ColumnInfo("region", "varchar(16)"), new ColumnInfo("amount", "decimal(12,2)"),
                    new ColumnInfo("created", "date")), OptionalLong.empty())));

    private static void validate(String sql) {
        new TrinoValidator("s", SCHEMA, POLICY, null).validate(QueryRequest.of("s", sql));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT CAST(amount AS varchar(3)) AS v FROM claims",
            "SELECT CAST(length(CAST(amount AS varchar)) AS varchar(1)) AS v FROM claims",
            "SELECT CAST(amount AS char(4)) AS v FROM claims"})
    void aSensitiveValueInALengthCastIsRefused(String sql) {
        assertThatThrownBy(() -> validate(sql)).as(sql).isInstanceOfSatisfying(GuardException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT CAST(amount AS varchar) AS v FROM claims",
            "SELECT CAST(id AS varchar(3)) AS v FROM claims"})
    void anUnboundedCastOrAnOrdinaryValueIsPlanned(String sql) {
        validate(sql);
    }
}
