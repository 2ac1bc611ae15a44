package dev.sqlguard.duckdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.duckdb.internal.DuckDbEngine;
import dev.sqlguard.testing.ContractDataset;
import dev.sqlguard.testing.FixtureEngine;
import dev.sqlguard.testing.HonestCorpus;
import dev.sqlguard.testing.differential.Differential;
import dev.sqlguard.testing.differential.Grammar;
import dev.sqlguard.testing.differential.Outcome;
import dev.sqlguard.testing.differential.Outcomes;
import dev.sqlguard.testing.differential.QueryGenerator;
import dev.sqlguard.testing.differential.Target;
import dev.sqlguard.testing.differential.TenantCopy;

/**
 * The tenant oracle on DuckDB (issue 31): generated SELECTs through an engine whose {@code claims} and
 * {@code regions} are filtered by the caller's tenant answer exactly what the same text answers raw on a
 * copy of the file holding only that tenant's rows. Each tenant of the contract dataset in turn, a
 * quarter of the cases each; sized by {@code -Dsqlguard.differential.tenant} (default 2,000), first seed
 * {@code -Dsqlguard.differential.seed} (default 1).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DuckDbTenantDifferentialTest {
    @TempDir
    static Path dir;
    private DuckDbEngine engine;
    private final Map<String, Connection> copies = new LinkedHashMap<>();
    private final QueryService service = new QueryService(AuditSink.discarding());

    @BeforeAll
    void start() throws Exception {
        Path folder = Files.createDirectory(dir.resolve("db"));
        Path database = TestDatabases.contractDatabase(folder);
        for (String tenant : ContractDataset.REGIONS) {
            Path copy = dir.resolve("raw-" + tenant + ".duckdb");
            Files.copy(database, copy);
            try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + copy); Statement s = c.createStatement()) {
                for (String sql : TenantCopy.keepOnly(tenant)) {
                    s.execute(sql);
                }
            }
            Properties p = new Properties();
            p.setProperty("duckdb.read_only", "true");
            p.setProperty("threads", "1");
            copies.put(tenant, DriverManager.getConnection("jdbc:duckdb:" + copy, p));
        }
        GuardrailPolicy policy = FixtureEngine.plainPolicy(FixtureEngine.PLAIN_COLUMNS).withRows(TenantCopy.rows());
        engine = TestDatabases.engine(database, Files.createDirectory(dir.resolve("work")),
                policy.withLimits(policy.limits().withMaxRows(100_000)));
    }

    @AfterAll
    void stop() throws SQLException {
        for (Connection c : copies.values()) {
            c.close();
        }
        if (engine != null) {
            engine.close();
        }
    }

    private Target target(String tenant) {
        return new Target() {
            @Override
            public Outcome raw(String sql) {
                return Outcomes.raw(copies.get(tenant), sql, HonestCorpus::plainCell);
            }

            @Override
            public Outcome guarded(String sql) {
                return Outcomes.guarded(service.query(engine.binding(),
                        QueryRequest.of("claims", sql).withAttributes(Map.of(TenantCopy.ATTRIBUTE, tenant))), HonestCorpus::plainCell);
            }
        };
    }

    @Test
    void generatedQueriesGiveTheTenantsOwnAnswer() {
        int total = Differential.count("sqlguard.differential.tenant", 2_000);
        long seed = Differential.seed(1);
        int each = Math.max(1, total / ContractDataset.REGIONS.size());
        for (String tenant : ContractDataset.REGIONS) {
            Differential.Report report = new Differential("duckdb", new QueryGenerator(Grammar.duckdb()), target(tenant),
                    Outcomes.refusalCodes()).tenant(seed, each, 10);
            System.out.println("tenant " + tenant + ": " + report.summary());
            assertThat(report.refusals()).doesNotContainKey("MISSING_ATTRIBUTE");
            Outcomes.assertNoFindings(report);
            seed += each;
        }
    }
}
