package dev.sqlguard.duckdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.RowPolicy;
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
 * The tenant oracle of issue 31 on DuckDB: each generated SELECT runs guarded with {@code tenant = T} (T one
 * of the four regions, picked from the text) on a source whose claims and regions are filtered by region and
 * whose {@code regions.manager} is masked as {@code upper(manager)}, and raw on a copy of the file that
 * holds only T's rows (managers upper-cased): the same rows, or a refusal that policy explains. The honest
 * corpus gets the same comparison for every tenant. Sized by {@code -Dsqlguard.differential.tenant} (default
 * 10,000, the bar; first seed {@code -Dsqlguard.differential.seed}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DuckDbTenantDifferentialTest {
    @TempDir
    static Path dir;
    private DuckDbEngine engine;
    /** The same source without the row policy. */
    private DuckDbEngine plain;
    private final List<Connection> copies = new ArrayList<>();
    private final QueryService service = new QueryService(AuditSink.discarding());

    @BeforeAll
    void start() throws Exception {
        Path folder = Files.createDirectory(dir.resolve("db"));
        Path database = TestDatabases.contractDatabase(folder);
        for (String region : ContractDataset.REGIONS) {
            // a folder per tenant keeps the file's name, so the copy's catalog has the same name
            Path copy = Files.createDirectory(dir.resolve("only-" + region)).resolve(database.getFileName());
            Files.copy(database, copy);
            TestDatabases.create(copy, "DELETE FROM claims WHERE region <> '" + region + "'",
                    "DELETE FROM regions WHERE region <> '" + region + "'", "UPDATE regions SET manager = upper(manager)");
            Properties p = new Properties();
            p.setProperty("duckdb.read_only", "true");
            p.setProperty("threads", "1");
            copies.add(DriverManager.getConnection("jdbc:duckdb:" + copy, p));
        }
        GuardrailPolicy policy = FixtureEngine.plainPolicy(FixtureEngine.PLAIN_COLUMNS).withRows(RowPolicy.of(Optional.empty(),
                Map.of("claims", "region = :tenant", "regions", "region = :tenant"), Map.of("regions.manager", "upper(manager)")));
        Path work = Files.createDirectory(dir.resolve("work"));
        // the filtered engine's file also holds rows of no tenant's on which the generated expressions fail (the plain one's does not)
        Path trapped = Files.createDirectory(dir.resolve("trapped")).resolve(database.getFileName());
        Files.copy(database, trapped);
        TestDatabases.create(trapped, TenantCopy.trapRows().toArray(String[]::new));
        engine = TestDatabases.engine(trapped, work, policy.withLimits(policy.limits().withMaxRows(100_000).withMaxCellChars(100_000)));
        GuardrailPolicy unfiltered = FixtureEngine.plainPolicy(FixtureEngine.PLAIN_COLUMNS);
        plain = TestDatabases.engine(database, work, unfiltered.withLimits(unfiltered.limits().withMaxRows(100_000).withMaxCellChars(100_000)));
    }

    @AfterAll
    void stop() throws SQLException {
        for (Connection c : copies) {
            c.close();
        }
        if (engine != null) {
            engine.close();
        }
        if (plain != null) {
            plain.close();
        }
    }

    /** The tenant a text runs as: one of the four regions, the same for the raw and the guarded run. */
    private static int tenant(String sql) {
        return Math.floorMod(sql.hashCode(), ContractDataset.REGIONS.size());
    }

    private Target target(int fixedTenant) {
        return new Target() {
            @Override
            public Outcome raw(String sql) {
                return copysMeaning(copies.get(fixedTenant < 0 ? tenant(sql) : fixedTenant), sql);
            }

            @Override
            public Outcome guarded(String sql) {
                String region = ContractDataset.REGIONS.get(fixedTenant < 0 ? tenant(sql) : fixedTenant);
                return Outcomes.guarded(service.query(engine.binding(), QueryRequest.of("claims", sql)
                        .withAttributes(Map.of("tenant", region))), HonestCorpus::plainCell);
            }
        };
    }

    /** DuckDB 2.0's refusal of a sum it narrowed by the statistics of the table it read (see {@link #copysMeaning}). */
    private static final Pattern NARROWED_SUM = Pattern.compile(
            "^Conversion Error: Type INT128 with value -?[0-9]+ can't be cast because the value is out of range for the destination type U?INT(8|16|32)$");

    /**
     * The copy's answer to {@code sql}. DuckDB 2.0's compressed materialization narrows a {@code sum(DISTINCT ...)} by the
     * statistics of the table it reads and then fails on the sum ("Conversion Error: Type INT128 with value 450 can't be
     * cast because the value is out of range for the destination type UINT8", tenant seed 1,300,118: {@code sum(DISTINCT
     * c.id) ... WHERE ... < ALL (SELECT ...) GROUP BY ... ORDER BY 1, 2}; reproduced on a new 30-row table, raw). A copy
     * holds fewer and smaller ids than the filtered file, so only the copy fails so; there its answer is read again with
     * that optimizer off, which is the text's meaning. Only that refusal is read again.
     */
    private static Outcome copysMeaning(Connection copy, String sql) {
        Outcome raw = Outcomes.raw(copy, sql, HonestCorpus::plainCell);
        if (!(raw instanceof Outcome.Failed failed) || !NARROWED_SUM.matcher(failed.message()).matches()) {
            return raw;
        }
        try (Statement s = copy.createStatement()) {
            s.execute("SET disabled_optimizers = 'compressed_materialization'");
            try {
                return Outcomes.raw(copy, sql, HonestCorpus::plainCell);
            } finally {
                s.execute("RESET disabled_optimizers");
            }
        } catch (SQLException e) {
            throw new IllegalStateException("the copy's optimizer setting could not be changed", e);
        }
    }

    /**
     * Tenant seed 1,300,118: the copy refused a sum DuckDB had narrowed by the copy's statistics; the guard's answer is
     * the copy's with that optimizer off.
     */
    @Test
    void aSumDuckDbNarrowsWronglyOnTheCopyIsReadWithoutThatOptimizer() {
        String sql = "SELECT c.region, sum(DISTINCT c.id) AS x0 FROM claims c JOIN regions r ON c.region = r.region"
                + " WHERE substr(c.status, 2, 3) < ALL (SELECT r6.region FROM regions r6) GROUP BY c.region ORDER BY 1, 2";
        for (int t = 0; t < ContractDataset.REGIONS.size(); t++) {
            Outcome raw = target(t).raw(sql);
            assertThat(raw).as(sql).isInstanceOf(Outcome.Rows.class);
            assertThat(((Outcome.Rows) raw).rows()).as(sql).isNotEmpty();
            assertThat(target(t).guarded(sql)).as(sql).isEqualTo(raw);
        }
    }

    @Test
    void generatedQueriesAnswerAsTheTenantsCopy() {
        Differential differential = new Differential("duckdb-tenant", new QueryGenerator(Grammar.duckdb()), target(-1),
                Outcomes.refusalCodes());
        Differential.Report report = differential.tenant(Differential.seed(1),
                Differential.count("sqlguard.differential.tenant", 10_000), 10);
        System.out.println(report.summary());
        assertThat(report.refusals()).doesNotContainKey("MISSING_ATTRIBUTE");
        Outcomes.assertNoFindings(report);
        assertThat(report.bothRan()).as("cases answered guarded and raw").isGreaterThan(report.cases() / 2);
    }

    /**
     * {@code LIKE ... ESCAPE} and a {@code VALUES} list in FROM, which DuckDB 2.0 renders as another text of the same query
     * (the call {@code like_escape}; one more {@code SELECT *} around the list): over a filtered table they were refused
     * "cannot be executed exactly as checked" (148 of 10,000 fresh tenant cases from seed 200,001).
     */
    @Test
    void escapedPatternsAndValuesListsAnswerAsTheTenantsCopy() {
        for (String sql : List.of("SELECT region FROM regions WHERE region NOT LIKE '%!_%' ESCAPE '!' ORDER BY 1",
                "SELECT id, status ILIKE 'a%' ESCAPE '!' AS a FROM claims WHERE status LIKE '%E%' ESCAPE '!' ORDER BY 1",
                "SELECT claims.id, v.k FROM claims JOIN (VALUES (1, 'north'), (2, 'EAST'), (3, 'south')) v (k, region) USING (region) ORDER BY 1",
                "SELECT v.k, count(c.id) AS n FROM (VALUES (1, 'north'), (2, 'west')) v (k, region) LEFT JOIN claims c ON c.region = v.region"
                        + " GROUP BY 1 ORDER BY 1")) {
            for (int t = 0; t < ContractDataset.REGIONS.size(); t++) {
                Outcomes.assertAnswersAsRaw(target(t), sql);
            }
        }
    }

    /**
     * An unaliased output beside a star, or in the first SELECT of a set operation, is labelled as written: its label held
     * the derived table's text (the filter, and the name ssn, which had it redacted; tenant seed 1458 of the fourth wave).
     */
    @Test
    void unaliasedOutputsBesideAStarOrUnderASetOperationKeepTheirLabelsAsWritten() {
        for (String sql : List.of("SELECT s2.*, 'APPROVED' IN (SELECT c8.status FROM claims c8 WHERE c8.amount > 100) AND TRUE, rank() OVER w AS x0"
                        + " FROM (SELECT DATE '2024-09-13' AS x0, 8 AS x1, 10 AS amount FROM claims c) s2 WINDOW w AS (ORDER BY s2.amount)",
                "SELECT r.*, (SELECT count(*) FROM claims c2 WHERE c2.region = r.region) FROM regions r ORDER BY 1",
                "SELECT (SELECT count(*) FROM claims c2) UNION ALL SELECT 5 ORDER BY 1",
                "SELECT (SELECT max(c2.id) FROM claims c2), s.* FROM (SELECT region FROM regions) s UNION ALL SELECT 1, 'x' ORDER BY 2")) {
            for (int t = 0; t < ContractDataset.REGIONS.size(); t++) {
                Outcome raw = target(t).raw(sql);
                assertThat(raw).as(sql).isInstanceOf(Outcome.Rows.class);
                assertThat(target(t).guarded(sql)).as(sql).isEqualTo(raw);
                dev.sqlguard.domain.ToolResult result = service.query(engine.binding(), QueryRequest.of("claims", sql)
                        .withAttributes(Map.of("tenant", ContractDataset.REGIONS.get(t))));
                assertThat(result.columns()).as(sql).allSatisfy(c -> assertThat(c.name()).doesNotContain("main.claims", "$", "ssn"));
            }
        }
    }

    @Test
    void theHonestCorpusAnswersAsEachTenantsCopy() throws SQLException {
        for (int t = 0; t < ContractDataset.REGIONS.size(); t++) {
            Map<String, String> tenant = Map.of("tenant", ContractDataset.REGIONS.get(t));
            try (java.sql.Statement statement = copies.get(t).createStatement()) {
                HonestCorpus.Outcome outcome = HonestCorpus.compare(HonestCorpus.portable(), HonestCorpus.jdbc(statement),
                        sql -> service.query(engine.binding(), QueryRequest.of("claims", sql).withAttributes(tenant)),
                        HonestCorpus::plainCell).print();
                assertThat(outcome.different()).as("answers that differ from %s's copy", tenant).isEmpty();
                // the mask makes regions.manager sensitive for filters and grouping: those queries are refused by policy;
                // any other refusal is one the source without a row policy makes too
                for (String refused : outcome.refused()) {
                    String sql = refused.substring(0, refused.indexOf("\n    -> "));
                    if (!refused.contains("'manager' is sensitive")) {
                        assertThat(service.query(plain.binding(), QueryRequest.of("claims", sql)).error()).as(refused).isPresent();
                    }
                }
                assertThat(outcome.ran() - outcome.refused().size()).isGreaterThan(30);
            }
        }
    }
}
