package dev.sqlguard.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.sqlguard.testing.MaskedAnswers;

/** End-to-end: the real fat jar, the real DuckDB engine and loader, as a user runs them. */
@Timeout(300)
class JarIT {
    @TempDir
    Path dir;

    private Path home;
    private Path work;
    private JarRunner sqlguard;

    @BeforeEach
    void setUp() throws IOException {
        home = dir.resolve("home");
        work = Files.createDirectories(dir.resolve("work"));
        sqlguard = new JarRunner(home, work);
    }

    @Test
    void theDemoDefaultAnswersTheReadmeQueryAndReusesItsCache() throws IOException {
        JarRunner.Run first = sqlguard.run("query", "--sql", "SELECT region, avg(amount) FROM claims GROUP BY region");

        assertThat(first.code()).as(first.err()).isZero();
        JsonNode result = first.json();
        assertThat(result.get("status").asText()).isEqualTo("OK");
        assertThat(result.get("source").asText()).isEqualTo("demo");
        assertThat(result.get("returned_count").asInt()).isEqualTo(5);
        assertThat(result.get("rows")).extracting(r -> r.get(0).asText())
                .containsExactlyInAnyOrder("north", "south", "east", "west", "central");
        assertThat(first.err()).contains("building the demo database").contains("\"type\":\"audit\"");

        JarRunner.Run second = sqlguard.run("query", "--sql", "SELECT count(*) AS n FROM claims");
        assertThat(second.code()).as(second.err()).isZero();
        assertThat(second.json().get("rows").get(0).get(0).asLong()).isEqualTo(3000);
        assertThat(second.err()).doesNotContain("building the demo database");
        try (Stream<Path> files = Files.list(home.resolve("cache/sqlguard"))) {
            assertThat(files.map(p -> p.getFileName().toString()).toList())
                    .singleElement().asString().matches("demo-claims-.+-[0-9a-f]{8}\\.duckdb")
                    // the CRC-32 read from the jar's index is the one computed over the dataset's bytes
                    .endsWith(String.format("-%08x.duckdb", dev.sqlguard.app.internal.demo.DemoDatabase.checksum()));
        }
    }

    @Test
    void twoProcessesBuildingTheDemoAtOnceBothSucceed() throws Exception {
        CompletableFuture<JarRunner.Run> a = CompletableFuture.supplyAsync(() -> sqlguard.run("query", "--sql", "SELECT count(*) FROM claims"));
        CompletableFuture<JarRunner.Run> b = CompletableFuture.supplyAsync(() -> sqlguard.run("query", "--sql", "SELECT count(*) FROM claims"));

        for (JarRunner.Run run : List.of(a.get(), b.get())) {
            assertThat(run.code()).as(run.err()).isZero();
            assertThat(run.json().get("rows").get(0).get(0).asLong()).isEqualTo(3000);
        }
        try (Stream<Path> files = Files.list(home.resolve("cache/sqlguard"))) {
            assertThat(files.toList()).as("one complete file, no build leftovers").hasSize(1);
        }
    }

    @Test
    void theDemoTruncatesAndRedacts() {
        JarRunner.Run run = sqlguard.run("query", "--sql", "SELECT id, claimant_ssn, amount FROM claims ORDER BY id");

        assertThat(run.code()).as(run.err()).isZero();
        JsonNode result = run.json();
        assertThat(result.get("returned_count").asInt()).isEqualTo(1000);
        assertThat(result.get("truncated").asBoolean()).isTrue();
        assertThat(result.get("limits_hit")).extracting(JsonNode::asText).containsExactly("rows");
        assertThat(run.out()).doesNotContainPattern("9\\d\\d-\\d\\d-\\d{4}");
        assertThat(result.get("rows").get(0).get(2).decimalValue()).isEqualTo(new BigDecimal("6682.00"));
    }

    /** Issue 13: nested values are JSON, not toString text; times keep their zero seconds; redaction covers a nested cell. */
    @Test
    void nestedValuesAreJsonArraysAndObjectsAndTimesAreOneIsoFormat() {
        JarRunner.Run run = sqlguard.run("query", "--sql", "SELECT ['a, b'] AS one, ['a', 'b'] AS two,"
                + " {'k': 1, 'v': [2.50, NULL]} AS s, MAP {'x': [true]} AS m, TIME '10:00:00' AS t0, TIME '10:00:05' AS t5,"
                + " TIMESTAMP '2024-01-01 10:00:00' AS ts");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).contains("\"rows\":[[[\"a, b\"],[\"a\",\"b\"],{\"k\":1,\"v\":[2.50,null]},{\"x\":[true]},"
                + "\"10:00:00\",\"10:00:05\",\"2024-01-01T10:00:00\"]]");

        JarRunner.Run redacted = sqlguard.run("query", "--sql",
                "SELECT [region, claimant_ssn] AS l, {'s': claimant_ssn} AS s, region FROM claims ORDER BY id LIMIT 1");
        assertThat(redacted.code()).as(redacted.err()).isZero();
        assertThat(redacted.json().get("rows").get(0)).extracting(JsonNode::asText).startsWith("[REDACTED]", "[REDACTED]")
                .last().isIn("north", "south", "east", "west", "central");
        assertThat(redacted.out()).doesNotContainPattern("\\d\\d\\d-\\d\\d-\\d{4}");
    }

    @Test
    void loadThenQueryWithParametersAndExactDecimals() throws IOException {
        Files.writeString(work.resolve("sales.csv"), """
                id,region,amount
                1,north,10.10
                2,north,20.20
                3,south,0.05
                """);

        JarRunner.Run load = sqlguard.run("load", "--db", "sales.duckdb", "--table", "sales",
                "-o", "types=amount:DECIMAL(10,2)", "sales.csv");
        assertThat(load.code()).as(load.err()).isZero();
        JsonNode report = load.json();
        assertThat(report.get("table").asText()).isEqualTo("sales");
        assertThat(report.get("rows_loaded").asLong()).isEqualTo(3);
        assertThat(report.get("rows_in_table").asLong()).isEqualTo(3);

        Files.writeString(work.resolve("sqlguard.yaml"), """
                sources:
                  sales:
                    engine: duckdb
                    database: sales.duckdb
                    policy:
                      tables: {sales: [id, region, amount]}
                      limits: {rows: 100, timeout: 5s, memory: 128MB}
                """);
        JarRunner.Run query = sqlguard.run("query", "--sql", "SELECT sum(amount) AS total FROM sales WHERE region = ?",
                "--param", "north");
        assertThat(query.code()).as(query.err()).isZero();
        assertThat(query.json().get("rows").get(0).get(0).decimalValue()).isEqualTo(new BigDecimal("30.30"));

        JarRunner.Run mismatch = sqlguard.run("load", "--db", "sales.duckdb", "--table", "sales", "sales.csv");
        assertThat(mismatch.code()).as("DOUBLE input into a DECIMAL column fails; the table is unchanged").isEqualTo(4);
        assertThat(mismatch.out()).isEmpty();
        assertThat(mismatch.err()).contains("LOAD_FAILED");

        JarRunner.Run append = sqlguard.run("load", "--db", "sales.duckdb", "--table", "sales",
                "-o", "types=amount:DECIMAL(10,2)", "sales.csv");
        assertThat(append.code()).as(append.err()).isZero();
        assertThat(append.json().get("rows_in_table").asLong()).isEqualTo(6);

        JarRunner.Run missing = sqlguard.run("load", "--db", "sales.duckdb", "--table", "sales", "nope.csv");
        assertThat(missing.code()).isIn(2, 4);
        assertThat(missing.out()).isEmpty();
    }

    @Test
    void aBatchOfHostileAndHonestLinesIsAnsweredLineByLine() {
        String batch = String.join("\n",
                "{\"id\": 1, \"sql\": \"SELECT region, count(*) AS n FROM claims GROUP BY region ORDER BY region\"}",
                "{\"id\": 2, \"sql\": \"SELECT read_text('/etc/passwd')\"}",
                "{\"id\": 3, \"sql\": \"SELECT 1; DROP TABLE claims\"}",
                "{\"id\": 4, \"sql\": \"COPY claims TO '/tmp/sqlguard-it-leak.csv'\"}",
                "{\"id\": 5, \"sql\": \"ATTACH '/tmp/other.duckdb' AS o\"}",
                "{\"id\": \"six\", \"sql\": \"SELECT count(*) FROM claims WHERE status = ?\", \"params\": [\"DENIED\"]}",
                "this is not JSON",
                "{\"id\": 8, \"sql\": \"SELECT count(*) FROM claims WHERE id = ?\", \"params\": [{\"$ne\": 1}]}",
                "{\"id\": 9}",
                "{\"id\": 10, \"sql\": \"SELECT * FROM duckdb_settings()\"}",
                "{\"id\": 11, \"sql\": \"SELECT count(*) AS n FROM claims\"}");

        JarRunner.Run run = sqlguard.runWithInput(batch, "query", "--batch", "-");

        assertThat(run.code()).as(run.err()).isZero();
        List<JsonNode> lines = run.lines();
        assertThat(lines).hasSize(11);
        assertThat(lines).extracting(l -> l.get("status").asText()).containsExactly(
                "OK", "REJECTED", "REJECTED", "REJECTED", "REJECTED", "OK", "REJECTED", "REJECTED", "REJECTED", "REJECTED", "OK");
        assertThat(lines).extracting(l -> l.get("id").isNull() ? "null" : l.get("id").asText())
                .containsExactly("1", "2", "3", "4", "5", "six", "null", "8", "9", "10", "11");
        assertThat(lines.get(10).get("rows").get(0).get(0).asLong()).isEqualTo(3000);
        assertThat(Path.of("/tmp/sqlguard-it-leak.csv")).doesNotExist();
        assertThat(run.out()).doesNotContain("root:");
    }

    /**
     * Issue 24: a secret never crosses the wire, so its length changes no answer. Through the CLI batch,
     * on every engine this machine runs (DuckDB; PostgreSQL and MariaDB where CI names their servers),
     * the padding oracle and its variants answer alike for secrets of 1 character, 150 kB and 3 MB,
     * under the byte and cell caps and under the defaults; each executed SQL masks the sensitive output.
     */
    @Test
    void aSecretsLengthNeverChangesABatchAnswer() throws Exception {
        try (Vaults vaults = Vaults.create(work)) {
            System.err.println("[masking] sources: " + vaults.sources());
            for (String limits : List.of("bytes: 60, cellChars: 3", "rows: 100")) {
                Files.writeString(work.resolve("sqlguard.yaml"), vaults.config(limits));
                for (String source : vaults.sources()) {
                    StringBuilder batch = new StringBuilder();
                    for (int q = 0; q < Vaults.ORACLES.size(); q++) {
                        for (MaskedAnswers.Secret v : MaskedAnswers.VAULT) {
                            batch.append("{\"id\": \"").append(q).append('-').append(v.id()).append("\", \"sql\": \"")
                                    .append(Vaults.ORACLES.get(q)).append("\", \"params\": [").append(v.id()).append("]}\n");
                        }
                    }
                    JarRunner.Run run = sqlguard.runWithInput(batch.toString(), "query", "--source", source, "--batch", "-");
                    assertThat(run.code()).as(source + " " + run.err()).isZero();
                    List<JsonNode> lines = run.lines();
                    assertThat(lines).as(source).hasSize(Vaults.ORACLES.size() * MaskedAnswers.VAULT.size());
                    for (int q = 0; q < Vaults.ORACLES.size(); q++) {
                        java.util.Set<String> outcomes = new java.util.LinkedHashSet<>();
                        for (int i = 0; i < MaskedAnswers.VAULT.size(); i++) {
                            JsonNode line = lines.get(q * MaskedAnswers.VAULT.size() + i);
                            outcomes.add(Vaults.outcome(line));
                            assertThat(line.get("sql").asText()).as(source).contains("CASE WHEN 1 = 0 THEN");
                        }
                        assertThat(outcomes).as(source + " " + limits + " query " + q).hasSize(1);
                        assertThat(outcomes.iterator().next()).as(source + " query " + q).startsWith("OK - ").contains("[REDACTED]");
                    }
                    assertThat(run.out()).doesNotContain("zzzzzzzzzz").doesNotContain("xxxxxxxxxx");
                }
            }
        }
    }

    /**
     * Issue 24's cost and derived-column attacks through the batch, the way an agent's runner sends
     * them: with the demo's defaults, and with a policy that allowlists the fixed-factor expanders,
     * nested 19 deep as the red team did (about 1 GB under a 256 MB limit before) and 2 deep (within the
     * bound: answered).
     */
    @Test
    void aBatchOfCostAndDerivedColumnAttacksIsRefusedLineByLine() throws IOException {
        JarRunner.Run demo = sqlguard.run("query", "--sql", "SELECT 1 AS one");
        assertThat(demo.code()).as(demo.err()).isZero();
        Path demoDb;
        try (Stream<Path> files = Files.list(home.resolve("cache/sqlguard"))) {
            demoDb = files.filter(p -> p.toString().endsWith(".duckdb")).findFirst().orElseThrow();
        }
        Files.writeString(work.resolve("expanders.yaml"), """
                sources:
                  demo:
                    engine: duckdb
                    database: %s
                    policy:
                      functions: [count, length, max, hex, bin, url_encode, to_json, to_base64, list, list_transform, regexp_matches]
                """.formatted(demoDb));
        String hex19 = "region";
        for (int i = 0; i < 19; i++) {
            hex19 = "hex(" + hex19 + ")";
        }
        String batch = String.join("\n",
                "{\"id\": 1, \"sql\": \"SELECT max(length(" + hex19 + ")) AS n FROM claims\"}",
                "{\"id\": 2, \"sql\": \"SELECT max(length(bin(bin(region)))) AS n FROM claims\"}",
                "{\"id\": 3, \"sql\": \"SELECT max(length(hex(hex(region)))) AS n FROM claims\"}",
                "{\"id\": 4, \"sql\": \"SELECT count(*) AS n FROM claims WHERE regexp_matches(region, status || '.*')\"}",
                "{\"id\": 5, \"sql\": \"SELECT count(*) AS n FROM claims WHERE regexp_matches(region, '^n')\"}",
                "{\"id\": 6, \"sql\": \"SELECT length(to_json(list_transform(l, lambda y: list_transform(l, lambda z: l)))) AS n "
                        + "FROM (SELECT list(region) AS l FROM claims)\"}",
                "{\"id\": 7, \"sql\": \"SELECT max(length(hex(to_json(region)))) AS n FROM claims\"}");
        JarRunner.Run run = sqlguard.runWithInput(batch, "query", "--config", "expanders.yaml", "--batch", "-");
        assertThat(run.code()).as(run.err()).isZero();
        List<JsonNode> lines = run.lines();
        assertThat(lines).extracting(l -> l.get("status").asText())
                .containsExactly("REJECTED", "REJECTED", "OK", "REJECTED", "OK", "REJECTED", "OK");
        assertThat(lines).extracting(l -> l.at("/error/code").asText())
                .containsExactly("UNBOUNDED_COST", "UNBOUNDED_COST", "", "UNBOUNDED_COST", "", "UNBOUNDED_COST", "");
        assertThat(lines.get(3).at("/error/message").asText()).contains("write the pattern as a literal");

        String defaults = String.join("\n",
                "{\"id\": 1, \"sql\": \"SELECT column_name FROM (SUMMARIZE claims) WHERE max LIKE '9%'\"}",
                "{\"id\": 2, \"sql\": \"SELECT column_name, max FROM (SUMMARIZE claims) WHERE column_name = 'claimant_ssn'\"}",
                "{\"id\": 3, \"sql\": \"SELECT count(*) AS n FROM range(2048) t(i) WHERE regexp_matches('x', '.{1000}' || i::VARCHAR)\"}");
        JarRunner.Run summaries = sqlguard.runWithInput(defaults, "query", "--batch", "-");
        assertThat(summaries.code()).as(summaries.err()).isZero();
        List<JsonNode> answers = summaries.lines();
        assertThat(answers).extracting(l -> l.get("status").asText()).containsExactly("REJECTED", "OK", "REJECTED");
        assertThat(answers.get(0).at("/error/code").asText()).isEqualTo("COLUMN_NOT_ALLOWED");
        assertThat(answers.get(1).get("rows").get(0).get(1).asText()).isEqualTo("[REDACTED]");
        assertThat(answers.get(2).at("/error/code").asText()).isEqualTo("UNBOUNDED_COST");
        assertThat(summaries.out()).doesNotContainPattern("\\d{3}-\\d{2}-\\d{4}");
    }

    @Test
    void checkValidatesWithoutRunning() {
        JarRunner.Run ok = sqlguard.run("check", "--sql", "SELECT region, sum(amount) FROM claims GROUP BY region");
        assertThat(ok.code()).as(ok.err()).isZero();
        assertThat(ok.json().get("status").asText()).isEqualTo("OK");
        assertThat(ok.json().get("sql").asText()).contains("LIMIT");
        assertThat(ok.json().get("rows").size()).isZero();

        JarRunner.Run refused = sqlguard.run("check", "--sql", "DELETE FROM claims");
        assertThat(refused.code()).isEqualTo(3);
        assertThat(refused.json().get("status").asText()).isEqualTo("REJECTED");
    }

    @Test
    void aConfigErrorExitsTwoWithItsPathAndLine() throws IOException {
        Files.writeString(work.resolve("sqlguard.yaml"), """
                sources:
                  claims:
                    engine: duckdb
                    database: claims.duckdb
                    policy:
                      limits:
                        rows: 10
                        timeout: whenever
                """);

        JarRunner.Run run = sqlguard.run("query", "--sql", "SELECT 1");

        assertThat(run.code()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).contains("line 8, sources.claims.policy.limits.timeout: must be a positive duration");
    }

    @Test
    void aMissingEnvironmentVariableIsNamedAndASetOneIsUsed() throws IOException {
        Path config = work.resolve("env.yaml");
        Files.writeString(config, """
                sources:
                  claims:
                    engine: duckdb
                    database: ${SQLGUARD_IT_DB}
                """);

        JarRunner.Run missing = sqlguard.run("query", "--config", "env.yaml", "--sql", "SELECT 1");
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.out()).isEmpty();
        assertThat(missing.err()).contains("environment variable SQLGUARD_IT_DB is not set");

        JarRunner.Run demo = sqlguard.run("query", "--sql", "SELECT 1 AS one");
        assertThat(demo.code()).as(demo.err()).isZero();
        Path demoDb;
        try (Stream<Path> files = Files.list(home.resolve("cache/sqlguard"))) {
            demoDb = files.filter(p -> p.toString().endsWith(".duckdb")).findFirst().orElseThrow();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        JarRunner.Run set = sqlguard.env("SQLGUARD_IT_DB", demoDb.toString())
                .run("query", "--config", "env.yaml", "--sql", "SELECT count(*) FROM claims");
        assertThat(set.code()).as(set.err()).isZero();
        assertThat(set.json().get("rows").get(0).get(0).asLong()).isEqualTo(3000);
    }

    @Test
    void everyExitCode() {
        assertThat(sqlguard.run("query", "--sql", "SELECT region FROM claims WHERE id = ?", "--param", "1").code()).isZero();
        assertThat(sqlguard.run("query", "--sql", "SELECT region FROM claims WHERE id = -1").code()).isZero(); // NO_EVIDENCE

        JarRunner.Run usage = sqlguard.run("query");
        assertThat(usage.code()).isEqualTo(2);
        assertThat(usage.out()).isEmpty();

        JarRunner.Run rejected = sqlguard.run("query", "--sql", "SELECT password FROM users");
        assertThat(rejected.code()).isEqualTo(3);
        assertThat(rejected.json().get("status").asText()).isEqualTo("REJECTED");

        JarRunner.Run error = sqlguard.run("query", "--sql", "SELECT CAST(region AS INTEGER) AS r FROM claims");
        assertThat(error.code()).isEqualTo(4);
        assertThat(error.json().get("status").asText()).isEqualTo("ERROR");
        assertThat(error.json().get("error").get("code").asText()).isEqualTo("QUERY_FAILED");

        JarRunner.Run batch = sqlguard.runWithInput("{\"sql\": \"DELETE FROM claims\"}\n", "query", "--batch", "-");
        assertThat(batch.code()).isZero();
        assertThat(batch.json().get("status").asText()).isEqualTo("REJECTED");
    }

    @Test
    void sourcesAndHelp() {
        JarRunner.Run sources = sqlguard.run("sources");
        assertThat(sources.code()).as(sources.err()).isZero();
        JsonNode table = sources.json().get("sources").get(0).get("tables").get(0);
        assertThat(table.get("name").asText()).isEqualTo("claims");
        assertThat(table.get("row_count").asLong()).isEqualTo(3000);

        JarRunner.Run help = sqlguard.run("--help");
        assertThat(help.code()).isZero();
        assertThat(help.out()).contains("query").contains("check").contains("load").contains("sources");
    }
}
