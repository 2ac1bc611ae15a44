package dev.sqlguard.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.ports.Engine;

/**
 * A sensitive value steered into an argument the catalog prover found partial (a unit, a time zone, a
 * format) or amplifying (a scale, an exponent) is refused exactly like any other partial step; the
 * same calls on non-sensitive values, and with literal parameters, still answer.
 */
@Tag("postgresql")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
class PostgresPartialArgumentTest {
    private PostgresFixture fixture;
    private Engine engine;
    private final QueryService service = new QueryService(AuditSink.discarding());

    @BeforeAll
    void start() throws Exception {
        assumeTrue(TestServer.available(), "no PostgreSQL server");
        fixture = new PostgresFixture(false);
        engine = fixture.engine("partial", new GuardrailPolicy(TableAllowlist.of(Map.of(
                "claims", List.of("id", "region", "amount", "status", "created", "ssn"),
                "users", List.of("id", "name", "password"))), Set.of(), Set.of(), Set.of(), Limits.defaults()));
    }

    @AfterAll
    void stop() throws Exception {
        if (engine != null) {
            engine.close();
        }
        if (fixture != null) {
            fixture.close();
        }
    }

    private ToolResult run(String sql) {
        return service.query(engine.binding(), new QueryRequest("partial", sql, List.of(), "p-" + System.nanoTime()));
    }

    @Test
    void aPartialStepOnASensitiveValueIsRefusedWithTheColumnCode() {
        ToolResult result = run("SELECT substring(password, 2) AS v FROM users");
        assertThat(result.status()).isEqualTo(ToolStatus.REJECTED);
        assertThat(result.error().orElseThrow().code()).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT date_trunc(password, now()) AS v FROM users",
            // the oracle: a unit built from one character of the password
            "SELECT date_trunc(concat('da', translate(right(left(u.password, 1), 1), 'P', 'y')), c.created) AS v"
                    + " FROM users u CROSS JOIN claims c WHERE u.id = 1 AND c.id = 1",
            "SELECT date_trunc('day', now(), password) AS v FROM users",
            "SELECT date_trunc('day', now(), concat('UT', left(password, 1))) AS v FROM users",
            "SELECT date_part(password, now()) AS v FROM users",
            "SELECT date_part(upper(left(ssn, 1)), created) AS v FROM claims",
            "SELECT to_char(now(), ssn) AS v FROM claims",
            "SELECT to_char(amount, lower(ssn)) AS v FROM claims",
            "SELECT to_char(created, concat('YYYY', right(ssn, 1))) AS v FROM claims",
            "SELECT CAST(length(password) AS numeric(1, 0)) AS v FROM users",
            "SELECT count(*) AS n FROM claims WHERE to_char(created, ssn) IS NOT NULL"})
    void aSensitiveValueInAPartialArgumentIsRefusedLikeAnyPartialStep(String sql) {
        ToolResult result = run(sql);
        assertThat(result.status()).as(sql).isEqualTo(ToolStatus.REJECTED);
        assertThat(result.error().orElseThrow().code()).as(sql).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
        assertThat(result.rows()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT round(amount, length(ssn)) AS v FROM claims",
            "SELECT power(amount, length(password)) AS v FROM claims CROSS JOIN users",
            "SELECT exp(length(ssn)) AS v FROM claims",
            "SELECT factorial(length(password)) AS v FROM users"})
    void aSensitiveValueInASizeArgumentIsRefused(String sql) {
        ToolResult result = run(sql);
        assertThat(result.status()).as(sql).isEqualTo(ToolStatus.REJECTED);
        assertThat(result.error().orElseThrow().code()).as(sql).isIn(ErrorCode.COLUMN_NOT_ALLOWED, ErrorCode.UNBOUNDED_COST);
        assertThat(result.rows()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT round(1, 100000) AS v",
            "SELECT trunc(amount, id) AS v FROM claims",
            "SELECT power(2.0, 100000) AS v",
            "SELECT factorial(id * 1000) AS v FROM claims"})
    void aSizeArgumentThatIsNotASmallLiteralIsRefused(String sql) {
        ToolResult result = run(sql);
        assertThat(result.status()).as(sql).isEqualTo(ToolStatus.REJECTED);
        assertThat(result.error().orElseThrow().code()).as(sql).isEqualTo(ErrorCode.UNBOUNDED_COST);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT date_trunc('month', created) AS m, count(*) AS n FROM claims GROUP BY 1 ORDER BY 1",
            "SELECT date_trunc('day', now(), 'UTC') IS NOT NULL AS v",
            "SELECT to_char(created, 'YYYY-MM') AS m FROM claims ORDER BY id LIMIT 3",
            "SELECT date_part('year', created) AS y FROM claims ORDER BY id LIMIT 3",
            "SELECT round(avg(amount), 2) AS a, trunc(sum(amount), 1) AS t, power(max(id), 2) AS p FROM claims",
            "SELECT to_char(now(), name) IS NOT NULL AS v FROM users ORDER BY id",
            "SELECT upper(password) AS p, date_trunc('year', now()) IS NOT NULL AS y FROM users ORDER BY id"})
    void theSameCallsOnOrdinaryValuesStillAnswer(String sql) {
        ToolResult result = run(sql);
        assertThat(result.status()).as(sql + " " + result.error()).isEqualTo(ToolStatus.OK);
        assertThat(result.rows()).isNotEmpty();
    }
}
