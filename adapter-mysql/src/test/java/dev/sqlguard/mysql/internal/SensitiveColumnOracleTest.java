package dev.sqlguard.mysql.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.TableAllowlist;

/**
 * A sensitive column (built-in name patterns plus the policy's {@code redact} list) may only be
 * returned; every other use is an oracle on its value and is refused with COLUMN_NOT_ALLOWED.
 */
class SensitiveColumnOracleTest {
    /** The test schema with ssn allowlisted too, and a few more functions. */
    private static GuardrailPolicy policy() {
        TableAllowlist tables = TableAllowlist.of(Optional.of(TestSchemas.SCHEMA), Map.of(
                "claims", List.of("id", "region", "amount", "status", "created", "ssn"),
                "regions", List.of("*"),
                "users", List.of("id", "name", "password", "api_key")));
        return TestSchemas.policy().withTables(tables)
                .withFunctions(Set.of("count", "sum", "avg", "min", "max", "upper", "lower", "length", "concat", "coalesce", "round"));
    }

    private final MySqlValidator validator = new MySqlValidator("src", TestSchemas.snapshot(), policy(), Optional.empty());

    private QueryPlan plan(String sql, Object... params) {
        return TestSchemas.authorized(validator, policy(), sql, params);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @ValueSource(strings = {
            // filters
            "SELECT count(*) AS n FROM users WHERE password LIKE 'a%'",
            "SELECT count(*) AS n FROM users WHERE password > 'm'",
            "SELECT count(*) AS n FROM users WHERE password >= ?",
            "SELECT count(*) AS n FROM users WHERE password IN ('a', 'b')",
            "SELECT count(*) AS n FROM users WHERE 'x' IN (password, name)",
            "SELECT count(*) AS n FROM users WHERE password BETWEEN 'a' AND 'b'",
            "SELECT count(*) AS n FROM users WHERE password IS NULL",
            "SELECT count(*) AS n FROM users WHERE NOT (password = 'x')",
            "SELECT count(*) AS n FROM users WHERE length(password) > 8",
            "SELECT count(*) AS n FROM users WHERE upper(users.password) = 'X'",
            "SELECT count(*) AS n FROM users u WHERE u.api_key = 'k'",
            "SELECT count(*) AS n FROM users WHERE id = 1 AND CASE WHEN password LIKE 'a%' THEN 1 ELSE 0 END = 1",
            "SELECT count(*) AS n FROM users WHERE CASE password WHEN 'a' THEN TRUE ELSE FALSE END",
            "SELECT count(*) AS n FROM users WHERE id = CASE WHEN name = 'a' THEN 1 ELSE length(password) END",
            "SELECT count(*) AS n FROM claims WHERE ssn LIKE '123%'",
            "SELECT count(*) AS n FROM users WHERE coalesce(password, 'x') = 'x'",
            "SELECT count(*) AS n FROM users WHERE CAST(password AS SIGNED) > 5",
            // joins
            "SELECT count(*) AS n FROM users u JOIN claims c ON u.password = c.status",
            "SELECT count(*) AS n FROM claims c LEFT JOIN users u ON u.id = c.id AND u.password LIKE 'a%'",
            "SELECT count(*) AS n FROM claims c JOIN regions r ON r.region = c.region AND c.ssn > '5'",
            // grouping
            "SELECT count(*) AS n FROM claims GROUP BY ssn",
            "SELECT region, count(*) AS n FROM claims GROUP BY region, ssn",
            "SELECT count(*) AS n FROM users GROUP BY length(password)",
            "SELECT max(ssn) AS m FROM claims GROUP BY ssn = ssn",
            "SELECT ssn, count(*) AS n FROM claims GROUP BY ssn",
            "SELECT ssn AS s, count(*) AS n FROM claims GROUP BY s",
            "SELECT ssn, count(*) AS n FROM claims GROUP BY 1",
            "SELECT region, count(*) AS n FROM claims GROUP BY region HAVING max(ssn) > '5'",
            "SELECT region, count(*) AS n FROM claims GROUP BY region HAVING count(DISTINCT ssn) > 1",
            "SELECT region, max(ssn) AS m FROM claims GROUP BY region HAVING m > '5'",
            "SELECT region, max(ssn) AS m FROM claims GROUP BY region HAVING m IS NULL OR region = 'x'",
            // ordering
            "SELECT id FROM users ORDER BY password",
            "SELECT id FROM users ORDER BY users.password DESC",
            "SELECT id FROM users ORDER BY id, length(api_key)",
            "SELECT password AS p, id FROM users ORDER BY p",
            "SELECT password, id FROM users ORDER BY password",
            "SELECT password, id FROM users ORDER BY 1",
            "SELECT id, upper(password) AS u FROM users ORDER BY 2 DESC",
            "SELECT id, password FROM users ORDER BY (2)",
            "SELECT id, password FROM users ORDER BY +2 DESC",
            "SELECT id, password FROM users ORDER BY (+(+2)) DESC",
            "SELECT password, count(*) AS n FROM users GROUP BY (1)",
            "SELECT id, concat(name, password) AS x FROM users ORDER BY x",
            "SELECT region, max(ssn) AS m FROM claims GROUP BY region ORDER BY m",
            "SELECT region, count(DISTINCT ssn) AS d FROM claims GROUP BY region ORDER BY d",
            "SELECT id, password AS p FROM users ORDER BY p IS NULL",
            // DISTINCT row count over a sensitive item
            "SELECT DISTINCT password FROM users",
            "SELECT DISTINCT name, upper(api_key) AS k FROM users",
            // operators around a sensitive column inside the select list (value-dependent errors)
            "SELECT CASE WHEN password LIKE 'a%' THEN CAST(0 AS UNSIGNED) - 1 ELSE 0 END AS x FROM users WHERE id = 1",
            "SELECT CAST(ssn AS UNSIGNED) - 2000 AS x FROM claims WHERE id = 1",
            "SELECT password = 'x' AS hit FROM users",
            "SELECT -password AS x FROM users",
            "SELECT max(length(password) + 1) AS x FROM users",
            "SELECT id, password IN ('a', 'b') AS x FROM users",
    })
    void oraclesOnSensitiveColumnsAreRefused(String sql) {
        Object[] params = sql.contains("?") ? new Object[] {"m"} : new Object[0];
        assertThatThrownBy(() -> plan(sql, params)).as(sql)
                .isInstanceOfSatisfying(GuardException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
                    assertThat(e.getMessage()).contains("is sensitive");
                });
    }

    @Test
    void theMessageNamesTheColumnAndTheRuleButNoData() {
        assertThatThrownBy(() -> plan("SELECT count(*) AS n FROM users WHERE password LIKE 'hunter2%'"))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.getMessage())
                        .isEqualTo("Column 'password' is sensitive: its values may be selected (they come back redacted)"
                                + " but not used to filter rows.")
                        .doesNotContain("hunter2"));
        assertThatThrownBy(() -> plan("SELECT password AS p FROM users ORDER BY p"))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.getMessage()).startsWith("Column 'password' is sensitive"));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @ValueSource(strings = {
            "SELECT password FROM users",
            "SELECT id, password, api_key FROM users WHERE name = 'alice' ORDER BY id",
            "SELECT password AS p FROM users WHERE id = ? ORDER BY id",
            "SELECT max(password) AS x, min(api_key) AS y, count(DISTINCT password) AS d FROM users",
            "SELECT region, count(DISTINCT ssn) AS d, max(ssn) AS m FROM claims WHERE status = 'OPEN' GROUP BY region HAVING count(*) > 1 ORDER BY region",
            "SELECT upper(password) AS shout, concat(name, password) AS y, length(password) AS n FROM users ORDER BY id",
            "SELECT coalesce(ssn, region) AS s FROM claims WHERE id = 1",
            "SELECT CAST(ssn AS CHAR(4)) AS s, length(ssn) AS l FROM claims WHERE id = 1",
            "SELECT c.id, u.password FROM claims c JOIN users u ON u.id = c.id WHERE c.amount > 10 ORDER BY c.id DESC",
            "SELECT region, sum(amount) AS total FROM claims GROUP BY 1 ORDER BY 2 DESC",
            "SELECT DISTINCT region FROM claims",
            "SELECT name AS password FROM users ORDER BY 1",
            "SELECT id, length(region) + 1 AS l, CASE WHEN amount > 10 THEN 'big' ELSE 'small' END AS size FROM claims",
    })
    void honestQueriesStillPass(String sql) {
        Object[] params = sql.contains("?") ? new Object[] {1} : new Object[0];
        QueryPlan plan = plan(sql, params);
        assertThat(SelectRenderer.unmasked(plan, Optional.empty())).as(sql).startsWith("SELECT ");
        // every output the policy redacts, and only those, is masked inside the server
        assertThat(plan.maskedOutputs()).as(sql).isEqualTo(policy().outputsToMask(plan.outputs()));
    }

    @Test
    void theRedactListOfThePolicyMakesAColumnSensitiveToo() {
        GuardrailPolicy redacting = policy().withRedact(Set.of("region"));
        MySqlValidator redactingRegion = new MySqlValidator("src", TestSchemas.snapshot(), redacting, Optional.empty());
        assertThatThrownBy(() -> TestSchemas.authorized(redactingRegion, redacting, "SELECT count(*) AS n FROM claims WHERE region = 'north'"))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED));
        assertThatThrownBy(() -> TestSchemas.authorized(redactingRegion, redacting, "SELECT region, count(*) AS n FROM claims GROUP BY region"))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED));
        assertThat(TestSchemas.authorized(redactingRegion, redacting, "SELECT region, amount FROM claims WHERE status = 'OPEN' ORDER BY id").outputs())
                .hasSize(2);
        // the same query is fine where region is not sensitive
        assertThat(plan("SELECT count(*) AS n FROM claims WHERE region = 'north'").executableSql()).contains("WHERE (`t1`.`region` = 'north')");
    }

    @Test
    void aPositionOutsideTheSelectListIsLeftToTheServer() {
        // ORDER BY 3 with two items: the server refuses it (unknown column); nothing sensitive is read here
        assertThat(SelectRenderer.unmasked(plan("SELECT id, password FROM users ORDER BY 1"), Optional.empty())).endsWith("ORDER BY 1 LIMIT 101");
        assertThat(SelectRenderer.unmasked(plan("SELECT id, password FROM users ORDER BY 3"), Optional.empty())).endsWith("ORDER BY 3 LIMIT 101");
    }
}
