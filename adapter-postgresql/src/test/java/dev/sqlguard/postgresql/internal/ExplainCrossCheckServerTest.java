package dev.sqlguard.postgresql.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.jdbc.ansi.EngineReading;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.ColumnInfo;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.TableInfo;
import dev.sqlguard.postgresql.TestServer;

/**
 * The EXPLAIN cross-check reaches into USING/NATURAL joins, LATERAL subqueries and recursive terms:
 * for each rendered statement, the server's plan reads exactly the relations the checked tree reports,
 * only base columns it reports, and among them the ones read only inside the construct.
 */
@Tag("postgresql")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
class ExplainCrossCheckServerTest {
    private TestServer.Coordinates server;
    private String schema;
    private PostgresValidator validator;
    private SchemaSnapshot snapshot;

    @BeforeAll
    void start() throws SQLException {
        assumeTrue(TestServer.available(), "no PostgreSQL server");
        server = TestServer.defaults();
        schema = TestServer.createSchema(server);
        snapshot = SchemaSnapshot.of(schema, List.of(
                new TableInfo(schema, "claims", List.of(new ColumnInfo("id", "bigint"), new ColumnInfo("region", "varchar(16)"),
                        new ColumnInfo("amount", "numeric(12,2)"), new ColumnInfo("status", "varchar(16)"),
                        new ColumnInfo("created", "date"), new ColumnInfo("ssn", "varchar(16)")), OptionalLong.empty()),
                new TableInfo(schema, "regions", List.of(new ColumnInfo("region", "varchar(16)"), new ColumnInfo("manager", "varchar(32)")),
                        OptionalLong.empty()),
                new TableInfo(schema, "users", List.of(new ColumnInfo("id", "bigint"), new ColumnInfo("name", "varchar(64)"),
                        new ColumnInfo("password", "varchar(64)"), new ColumnInfo("api_key", "varchar(64)")), OptionalLong.empty())));
        TableAllowlist tables = new TableAllowlist(java.util.Optional.of(schema), TableAllowlist.of(Map.of(
                "claims", List.of("id", "region", "amount", "status", "created"), "regions", List.of("region", "manager"),
                "users", List.of("id", "name"))).tables(), true);
        validator = new PostgresValidator("t", snapshot, new GuardrailPolicy(tables, Set.of(), Set.of(), Set.of(), Limits.defaults())
                .withFunctions(FunctionCatalog.defaults()), null);
    }

    @AfterAll
    void stop() {
        if (schema != null) {
            TestServer.dropSchema(server, schema);
        }
    }

    Stream<Arguments> statements() {
        return Stream.of(
                Arguments.of("SELECT region, count(*) AS n FROM claims c RIGHT JOIN regions r USING (region) GROUP BY region", "claims", "region"),
                Arguments.of("SELECT manager FROM claims NATURAL FULL JOIN regions WHERE status = 'DENIED'", "claims", "status"),
                Arguments.of("SELECT r.region, x.a FROM regions r CROSS JOIN LATERAL (SELECT c.amount AS a FROM claims c"
                        + " WHERE c.region = r.region ORDER BY c.created DESC LIMIT 1) x", "claims", "created"),
                Arguments.of("WITH RECURSIVE p(id, d) AS (SELECT CAST(1 AS bigint), 0 UNION ALL SELECT c.id, p.d + 1 FROM p JOIN claims c"
                        + " ON c.id = p.id + 1 AND c.status <> 'X' WHERE p.d < 5) SELECT count(*) AS n FROM p", "claims", "status"),
                Arguments.of("WITH RECURSIVE p(n, who) AS (SELECT 1, CAST('' AS text) UNION ALL SELECT p.n + 1, u.name FROM p JOIN users u"
                        + " ON u.id = p.n WHERE p.n < 3) SELECT who FROM p", "users", "name"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("statements")
    void theServersReadingIsWithinTheCheckedTree(String sql, String table, String column) throws SQLException {
        QueryPlan plan = validator.plan(sql);
        String json;
        try (Connection c = TestServer.admin(server); Statement s = c.createStatement()) {
            s.execute("SET search_path = pg_catalog, " + schema);
            try (ResultSet rs = s.executeQuery("EXPLAIN (VERBOSE, FORMAT JSON) " + plan.executableSql())) {
                rs.next();
                json = rs.getString(1);
            }
        }
        EngineReading reading = ExplainCheck.read(json, t -> snapshot.tables().containsKey(t)
                ? snapshot.tables().get(t).columns().stream().map(ColumnInfo::name).toList() : null);
        assertThat(reading.complete()).isTrue();
        assertThat(reading.tables()).containsExactlyInAnyOrderElementsOf(plan.tables());
        assertThat(plan.columns()).containsAll(reading.columns());
        assertThat(reading.columns()).contains(new ColumnRef(TableRef.of(schema, table), column));
    }
}
