package dev.sqlguard.trino;


import java.sql.Connection;
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
import org.junit.jupiter.api.Timeout;

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
 * The tenant oracle on Trino (issue 31): generated SELECTs through an engine whose {@code claims} and
 * {@code regions} are filtered by the caller's tenant answer what the same text answers raw, as the
 * read-only user, in a memory schema holding only that tenant's rows (made with CREATE TABLE AS: the
 * memory connector deletes no rows). Trino answers a few cases a second here, so the default is small:
 * {@code -Dsqlguard.differential.tenant} (default 400, about 2 minutes) widens it.
 */
@Tag("trino")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(7200)
class TrinoTenantDifferentialTest {
    private FixtureEngine<TrinoFixture> server;
    private final Map<String, String> copies = new LinkedHashMap<>();
    private final Map<String, Connection> raw = new LinkedHashMap<>();
    private final QueryService service = new QueryService(AuditSink.discarding());

    @BeforeAll
    void start() throws SQLException {
        TestCluster.require();
        GuardrailPolicy policy = FixtureEngine.plainPolicy(FixtureEngine.PLAIN_COLUMNS).withRows(TenantCopy.rows());
        server = FixtureEngine.open(new TrinoFixture(TestCluster.READ_ONLY), "tenant", policy.withLimits(policy.limits().withMaxRows(100_000).withMaxCellChars(100_000)));
        String source = server.fixture().schema();
        try (Connection c = TestCluster.connect(TestCluster.ADMIN, source); Statement s = c.createStatement()) {
            for (String sql : TenantCopy.trapRows()) {
                s.execute(sql);
            }
        }
        for (String tenant : ContractDataset.REGIONS) {
            String copy = TestCluster.createSchema();
            copies.put(tenant, copy);
            try (Connection c = TestCluster.connect(TestCluster.ADMIN, copy); Statement s = c.createStatement()) {
                for (String table : List.of("claims", "regions")) {
                    s.execute("DROP TABLE " + table);
                    s.execute("CREATE TABLE " + table + " AS SELECT * FROM memory." + source + "." + table + " WHERE "
                            + TenantCopy.predicate(tenant));
                }
            }
            raw.put(tenant, TestCluster.connect(TestCluster.READ_ONLY, copy));
        }
    }

    @AfterAll
    void stop() throws SQLException {
        for (Connection c : raw.values()) {
            c.close();
        }
        copies.values().forEach(TestCluster::dropSchema);
        if (server != null) {
            server.close();
        }
    }

    private Target target(String tenant) {
        return new Target() {
            @Override
            public Outcome raw(String sql) {
                try (Statement s = raw.get(tenant).createStatement()) {
                    s.setQueryTimeout(30);
                    return Outcomes.raw(s, sql, HonestCorpus::plainCell);
                } catch (SQLException e) {
                    return new Outcome.Failed("RAW", String.valueOf(e.getMessage()));
                }
            }

            @Override
            public Outcome guarded(String sql) {
                return Outcomes.guarded(service.query(server.engine().binding(),
                        new QueryRequest("tenant", sql, List.of(), "t", Map.of(TenantCopy.ATTRIBUTE, tenant))), HonestCorpus::plainCell);
            }
        };
    }

    @Test
    void generatedQueriesGiveTheTenantsOwnAnswer() {
        TenantCopy.assertEachTenant("trino", Grammar.trino(), this::target, Outcomes.refusalCodes(),
                Differential.count("sqlguard.differential.tenant", 400), Differential.seed(1));
    }

    /**
     * Grouping sets over filtered tables give each tenant's own answer, in order: PostgreSQL 15 needed a fence for this
     * (it took the filter's {@code region = ?} for a constant and dropped the key from the sort), Trino does not.
     */
    @Test
    void groupingSetsGiveTheTenantsOwnAnswer() {
        for (String sql : List.of("SELECT region, id, count(*) AS n FROM claims GROUP BY CUBE (region, id) ORDER BY 1, 2",
                "SELECT region, status, count(*) AS n, grouping(region, status) AS g FROM claims GROUP BY ROLLUP (region, status) ORDER BY 1, 2",
                "SELECT c.region, c.status, sum(c.amount) AS s FROM claims c JOIN regions r ON r.region = c.region"
                        + " GROUP BY GROUPING SETS ((c.region), (c.status), ()) ORDER BY 1, 2")) {
            for (String tenant : dev.sqlguard.testing.ContractDataset.REGIONS) {
                Outcomes.assertAnswersAsRaw(target(tenant), sql);
            }
        }
    }
}
