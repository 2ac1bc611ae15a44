package dev.sqlguard.mysql.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.TableAllowlist;

/**
 * A sensitive value steered into an argument the catalog prover found partial ({@code nth_value}'s
 * position: MariaDB fails on {@code -9223372036854775808}) is refused exactly like any other partial
 * step, although the function is total; the same call with a literal position is planned.
 */
class MySqlPartialArgumentTest {
    private static GuardrailPolicy policy() {
        TableAllowlist tables = TableAllowlist.of(Optional.of(TestSchemas.SCHEMA), Map.of(
                "claims", List.of("id", "region", "amount", "status", "created", "ssn"),
                "regions", List.of("*"),
                "users", List.of("id", "name", "password", "api_key")));
        return TestSchemas.policy().withTables(tables).withFunctions(Set.of("count", "length", "nth_value", "lag", "substring",
                "upper", "crc32"));
    }

    private final MySqlValidator validator = new MySqlValidator("src", TestSchemas.snapshot(), policy(), Optional.empty());

    @ParameterizedTest(name = "[{index}] {0}")
    @ValueSource(strings = {
            "SELECT nth_value(id, length(password)) OVER (ORDER BY id) AS v FROM users",
            "SELECT nth_value(name, crc32(password)) OVER (ORDER BY id) AS v FROM users",
            "SELECT substring(password, 2) AS v FROM users"})
    void aSensitiveValueInAPartialArgumentIsRefusedLikeAnyPartialStep(String sql) {
        assertThatThrownBy(() -> TestSchemas.authorized(validator, policy(), sql)).as(sql)
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @ValueSource(strings = {
            "SELECT nth_value(password, 2) OVER (ORDER BY id) AS v FROM users",
            "SELECT nth_value(name, length(name)) OVER (ORDER BY id) AS v FROM users",
            "SELECT lag(upper(password), 1) OVER (ORDER BY id) AS v FROM users"})
    void theSameCallsOnOrdinaryValuesArePlanned(String sql) {
        assertThat(TestSchemas.authorized(validator, policy(), sql).executableSql()).isNotBlank();
    }
}
