package dev.sqlguard.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.ResultProjector;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.ToolError;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.testing.ContractDataset;

/**
 * Sensitive columns used as oracles (filters, joins, grouping, ordering, DISTINCT, value-dependent
 * errors) through QueryService and the engine, with both accounts: refused before the server sees
 * them; honest queries over the same tables still run and come back redacted.
 */
@Tag("mysql")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
class SensitiveOracleServerTest {
    private String database;
    private BothAccounts engines;
    private final QueryService service = new QueryService(AuditSink.discarding());

    @BeforeAll
    void setUp() throws Exception {
        assumeTrue(TestServer.available(), "no MySQL-compatible server");
        database = TestServer.createDatabase();
        GuardrailPolicy policy = new GuardrailPolicy(TableAllowlist.of(Map.of(
                "claims", List.of("id", "region", "amount", "status", "created", "ssn"),
                "regions", List.of("*"),
                "users", List.of("id", "name", "password", "api_key"))),
                Set.of("count", "sum", "avg", "min", "max", "upper", "length", "concat"), Set.of(), Set.of(), Limits.defaults());
        engines = BothAccounts.open(database, policy);
    }

    @AfterAll
    void tearDown() {
        if (engines != null) {
            engines.close();
        }
        if (database != null) {
            TestServer.dropDatabase(database);
        }
    }

    private Engine engine(String account) {
        return engines.engine(account);
    }

    static List<String> oracles() {
        return List.of(
                "SELECT count(*) AS n FROM users WHERE password LIKE 'h%'",
                "SELECT count(*) AS n FROM users WHERE password > 'm'",
                "SELECT count(*) AS n FROM users WHERE password IN ('hunter2-alice-pw', 'x')",
                "SELECT id FROM users ORDER BY password",
                "SELECT password AS p, id FROM users ORDER BY p",
                "SELECT password, id FROM users ORDER BY 1",
                "SELECT id, password FROM users ORDER BY (2) DESC",
                "SELECT id, password FROM users ORDER BY +2 DESC",
                "SELECT ssn, count(*) AS n FROM claims GROUP BY ssn",
                "SELECT count(*) AS n FROM users u JOIN claims c ON u.password = c.status",
                "SELECT region, count(*) AS n FROM claims GROUP BY region HAVING max(ssn) > '5'",
                // a HAVING naming the alias of an item over a sensitive column filters by that column
                "SELECT region, max(ssn) AS m FROM claims GROUP BY region HAVING m > '5'",
                "SELECT id, upper(password) AS u FROM users HAVING u LIKE 'H%'",
                "SELECT name, max(password) AS m, count(*) AS n FROM users GROUP BY name HAVING n > 0 AND m > 'm'",
                "SELECT name, concat(password, '') AS p FROM users GROUP BY name HAVING max(p) > 'm'",
                "SELECT count(*) AS n FROM users WHERE CASE WHEN api_key LIKE 'ak_live_a%' THEN 1 ELSE 0 END = 1",
                "SELECT DISTINCT password FROM users",
                "SELECT CASE WHEN password LIKE 'h%' THEN CAST(0 AS UNSIGNED) - 1 ELSE 0 END AS x FROM users WHERE id = 1");
    }

    static Stream<Arguments> oracleCases() {
        return oracles().stream().flatMap(v -> Stream.of(Arguments.of("ro", v), Arguments.of("admin", v)));
    }

    @ParameterizedTest(name = "[{index}] {0}: {1}")
    @MethodSource("oracleCases")
    void oraclesAreRefusedBeforeTheServer(String account, String sql) {
        ToolResult r = service.query(engine(account).binding(), QueryRequest.of("db", sql));
        assertThat(r.status()).as(sql).isEqualTo(ToolStatus.REJECTED);
        assertThat(r.error().map(ToolError::code)).as(sql).contains(ErrorCode.COLUMN_NOT_ALLOWED);
        assertThat(r.error().orElseThrow().message()).contains("is sensitive");
        assertThat(r.rows()).isEmpty();
        for (String secret : ContractDataset.SECRETS) {
            assertThat(r.toString()).doesNotContain(secret);
        }
    }

    @Test
    void positiveControlTheOraclesWouldLeakIfTheyRan() throws Exception {
        // run raw on the server, the first vector tells a matching prefix from a wrong one,
        // and the CASE vector fails only when the secret matches
        try (Connection c = TestServer.admin(database); Statement s = c.createStatement()) {
            assertThat(count(s, "SELECT count(*) FROM users WHERE password LIKE 'hunter2%'")).isEqualTo(1);
            assertThat(count(s, "SELECT count(*) FROM users WHERE password LIKE 'zzz%'")).isZero();
            // a HAVING on the alias of an expression item filters by the secret: one row for the right prefix, none otherwise
            assertThat(count(s, "SELECT count(*) FROM (SELECT id, upper(password) AS u FROM users HAVING u LIKE 'HUNTER2%') x")).isEqualTo(1);
            assertThat(count(s, "SELECT count(*) FROM (SELECT id, upper(password) AS u FROM users HAVING u LIKE 'ZZZ%') x")).isZero();
            assertThat(count(s, "SELECT CASE WHEN password LIKE 'zzz%' THEN CAST(0 AS UNSIGNED) - 1 ELSE 0 END FROM users WHERE id = 1"))
                    .isZero();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> count(s,
                    "SELECT CASE WHEN password LIKE 'hunter2%' THEN CAST(0 AS UNSIGNED) - 1 ELSE 0 END FROM users WHERE id = 1"))
                    .isInstanceOf(java.sql.SQLException.class);
        }
    }

    private static long count(Statement s, String sql) throws java.sql.SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    static Stream<Arguments> honestCases() {
        return Stream.of("ro", "admin").flatMap(a -> Stream.of(
                Arguments.of(a, "SELECT id, password, api_key FROM users WHERE name <> 'nobody' ORDER BY id", 3),
                Arguments.of(a, "SELECT max(password) AS m, count(DISTINCT api_key) AS d, count(*) AS n FROM users", 1),
                Arguments.of(a, "SELECT region, count(DISTINCT ssn) AS d FROM claims WHERE amount > 0 GROUP BY region ORDER BY region", 4),
                Arguments.of(a, "SELECT c.id, u.password FROM claims c JOIN users u ON u.id = c.id ORDER BY c.id", 3),
                Arguments.of(a, "SELECT upper(password) AS shout, concat(name, password) AS y, length(password) AS l FROM users ORDER BY id", 3)));
    }

    @ParameterizedTest(name = "[{index}] {0}: {1}")
    @MethodSource("honestCases")
    void honestQueriesRunAndComeBackRedacted(String account, String sql, int rows) {
        ToolResult r = service.query(engine(account).binding(), QueryRequest.of("db", sql));
        assertThat(r.status()).as(sql + " " + r.error()).isEqualTo(ToolStatus.OK);
        assertThat(r.rows()).hasSize(rows);
        for (int i = 0; i < r.columns().size(); i++) {
            String name = r.columns().get(i).name();
            boolean sensitive = Set.of("password", "api_key", "m", "d", "shout", "y", "l").contains(name);
            int col = i;
            if (sensitive) {
                assertThat(r.rows()).as(name).allSatisfy(row -> assertThat(row.get(col)).isEqualTo(ResultProjector.REDACTED));
            } else {
                assertThat(r.rows()).as(name).allSatisfy(row -> assertThat(row.get(col)).isNotEqualTo(ResultProjector.REDACTED));
            }
        }
        for (String secret : ContractDataset.SECRETS) {
            assertThat(r.toString()).doesNotContain(secret);
        }
    }
}
