package dev.sqlguard.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.testing.ContractDataset;
import dev.sqlguard.testing.FixtureEngine;
import dev.sqlguard.testing.HonestCorpus;
import dev.sqlguard.testing.differential.Differential;
import dev.sqlguard.testing.differential.Grammar;
import dev.sqlguard.testing.differential.Outcome;
import dev.sqlguard.testing.differential.Outcomes;
import dev.sqlguard.testing.differential.Target;
import dev.sqlguard.testing.differential.TenantCopy;

/**
 * The tenant oracle on PostgreSQL (issue 31): generated SELECTs through an engine whose {@code claims} and
 * {@code regions} are filtered by the caller's tenant answer what the same text answers raw, on the
 * least-privilege role, in a copy of the schema holding only that tenant's rows. Each tenant in turn;
 * sized by {@code -Dsqlguard.differential.tenant} (default 10,000).
 */
@Tag("postgresql")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresTenantDifferentialTest {
    private FixtureEngine<PostgresFixture> server;
    private final Map<String, String> copies = new LinkedHashMap<>();
    private final Map<String, Connection> raw = new LinkedHashMap<>();
    private final Map<String, Statement> statements = new LinkedHashMap<>();
    private final QueryService service = new QueryService(AuditSink.discarding());

    @BeforeAll
    void start() throws SQLException {
        assumeTrue(TestServer.available(), "no PostgreSQL server");
        GuardrailPolicy policy = FixtureEngine.plainPolicy(FixtureEngine.PLAIN_COLUMNS).withRows(TenantCopy.rows());
        server = FixtureEngine.open(new PostgresFixture(false), "tenant", policy.withLimits(policy.limits().withMaxRows(100_000).withMaxCellChars(100_000)));
        TestServer.Coordinates c = server.fixture().server();
        try (Connection admin = TestServer.admin(c); Statement s = admin.createStatement()) {
            s.execute("SET search_path = " + server.fixture().schema());
            for (String sql : TenantCopy.trapRows()) {
                s.execute(sql);
            }
        }
        for (String tenant : ContractDataset.REGIONS) {
            String copy = TestServer.createSchema(c);
            copies.put(tenant, copy);
            try (Connection admin = TestServer.admin(c); Statement s = admin.createStatement()) {
                s.execute("SET search_path = " + copy);
                for (String sql : TenantCopy.keepOnly(tenant)) {
                    s.execute(sql);
                }
            }
            Connection connection = DriverManager.getConnection(c.url(), c.roUser(), c.roPassword());
            Statement statement = connection.createStatement();
            statement.execute("SET search_path = " + copy);
            statement.setQueryTimeout(10);
            raw.put(tenant, connection);
            statements.put(tenant, statement);
        }
    }

    @AfterAll
    void stop() throws SQLException {
        for (Connection c : raw.values()) {
            c.close();
        }
        if (server != null) {
            for (String copy : copies.values()) {
                TestServer.dropSchema(server.fixture().server(), copy);
            }
            server.close();
        }
    }

    private Target target(String tenant) {
        return new Target() {
            @Override
            public Outcome raw(String sql) {
                return Outcomes.raw(statements.get(tenant), sql, HonestCorpus::plainCell);
            }

            @Override
            public Outcome guarded(String sql) {
                return Outcomes.guarded(service.query(server.engine().binding(),
                        new QueryRequest("tenant", sql, List.of(), "t", Map.of(TenantCopy.ATTRIBUTE, tenant))), HonestCorpus::plainCell);
            }
        };
    }

    /**
     * Seed 2443 (shrunk): grouped by CUBE and ordered by the grouped column, the filtered text came back unordered.
     * PostgreSQL 15 pulled the filtered derived table up, read {@code region = $1} as the column being constant and
     * dropped it as a sort key, although CUBE makes it NULL in the rolled-up rows; the copy holding only the
     * tenant's rows orders them. The filtered table is now planned apart wherever the statement groups by
     * grouping sets ({@code OFFSET 0}). Seed 1089: a constant grouping key inside ROLLUP is refused.
     */
    @Test
    void aFilteredTableUnderGroupingSetsOrdersAsTheTenantsCopy() {
        for (String sql : List.of(
                "SELECT c.region AS x0, 1 AS region, sum(6) AS x1, count(20) AS amount FROM claims c JOIN regions r ON c.region = r.region"
                        + " GROUP BY CUBE (x0, c.id) ORDER BY 1, 2, 3, 4",
                "SELECT region, id, count(*) AS n FROM claims GROUP BY ROLLUP (region, id) ORDER BY 1, 2, 3",
                "SELECT region, count(*) AS n FROM claims GROUP BY GROUPING SETS ((region), ()) ORDER BY 1, 2")) {
            for (String tenant : List.of("north", "south")) {
                Outcome raw = target(tenant).raw(sql);
                assertThat(raw).as(sql).isInstanceOf(Outcome.Rows.class);
                assertThat(target(tenant).guarded(sql)).as(sql).isEqualTo(raw);
            }
        }
        // seed 1089: a constant key inside ROLLUP, whose rolled-up row PostgreSQL 15 gives or not by plan, is refused
        Outcome constant = target("north").guarded("SELECT DISTINCT 'x', c.amount AS created, min(c.region) FROM claims c"
                + " JOIN regions r ON c.region = r.region GROUP BY ROLLUP (1, 2) HAVING min(c.id) >= 4");
        assertThat(constant).isInstanceOfSatisfying(Outcome.Failed.class, f -> assertThat(f.code()).isEqualTo("CONSTRUCT_NOT_ALLOWED"));
    }

    @Test
    void generatedQueriesGiveTheTenantsOwnAnswer() {
        TenantCopy.assertEachTenant("postgresql", Grammar.postgresql(), this::target, Outcomes.refusalCodes(),
                Differential.count("sqlguard.differential.tenant", 10_000), Differential.seed(1));
    }
}
