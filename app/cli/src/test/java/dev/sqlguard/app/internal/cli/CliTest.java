package dev.sqlguard.app.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

/** The CLI run in-process against the fake engine: parsing, exit codes, stdout discipline. */
class CliTest {
    @TempDir
    Path dir;

    private Path config;

    @BeforeEach
    void writeConfig() throws IOException {
        config = dir.resolve("sqlguard.yaml");
        Files.writeString(config, "\uFEFF" + """
                sources:
                  claims:
                    engine: fake
                    rows: 3
                    policy:
                      tables: {claims: [id, region, ssn]}
                """);
    }

    private CliRun run(String... args) {
        return runWith("", Map.of(), args);
    }

    private CliRun runWith(String stdin, Map<String, String> env, String... args) {
        return CliRun.of(dir, stdin, env, args);
    }

    @Test
    void anHonestQueryPrintsOneResultAndExitsZero() {
        CliRun run = run("query", "--config", config.toString(), "--sql", "SELECT n, amount, label FROM t");

        assertThat(run.code()).isZero();
        JsonNode result = run.json();
        assertThat(result.get("status").asText()).isEqualTo("OK");
        assertThat(result.get("source").asText()).isEqualTo("claims");
        assertThat(result.get("returned_count").asInt()).isEqualTo(3);
        assertThat(result.get("rows").get(0).get(1).decimalValue()).isEqualByComparingTo("12345678901234567891.123456789");
        assertThat(run.out()).contains("12345678901234567891.123456789");
        assertThat(run.err()).contains("\"type\":\"audit\"").contains("\"verdict\":\"OK\"").doesNotContain("SELECT");
    }

    @Test
    void theDefaultConfigFileIsReadFromTheWorkingDirectory() {
        CliRun run = run("query", "--sql", "SELECT 1");

        assertThat(run.code()).isZero();
        assertThat(run.json().get("source").asText()).isEqualTo("claims");
    }

    @Test
    void exitCodesFollowTheStatus() {
        assertThat(run("query", "--sql", "SELECT empty").code()).isZero();
        assertThat(run("query", "--sql", "SELECT empty").json().get("status").asText()).isEqualTo("NO_EVIDENCE");

        CliRun rejected = run("query", "--sql", "DELETE FROM claims");
        assertThat(rejected.code()).isEqualTo(3);
        assertThat(rejected.json().get("error").get("code").asText()).isEqualTo("STATEMENT_NOT_ALLOWED");

        CliRun failed = run("query", "--sql", "SELECT fail");
        assertThat(failed.code()).isEqualTo(4);
        assertThat(failed.json().get("status").asText()).isEqualTo("ERROR");
        assertThat(failed.json().get("error").get("code").asText()).isEqualTo("QUERY_FAILED");
    }

    @Test
    void usageErrorsExitTwoAndPrintNothingOnStdout() {
        for (String[] args : List.of(
                new String[] {},
                new String[] {"frobnicate"},
                new String[] {"query"},
                new String[] {"query", "--sql", "SELECT 1", "--batch", "-"},
                new String[] {"query", "--batch", "-", "--param", "1"},
                new String[] {"query", "--sql", "SELECT 1", "--format", "xml"},
                new String[] {"query", "--sql", "SELECT 1", "--source", "nope"},
                new String[] {"query", "--sql", "SELECT ?", "--param", "[1]"},
                new String[] {"query", "--sql", "SELECT 1", "--config", "missing.yaml"},
                new String[] {"query", "--batch", "missing.jsonl"},
                new String[] {"load", "--db", "x.duckdb"})) {
            CliRun run = run(args);
            assertThat(run.code()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(run.out()).as(String.join(" ", args)).isEmpty();
            assertThat(run.err()).as(String.join(" ", args)).isNotEmpty();
        }
    }

    @Test
    void everyCommandHasHelp() {
        for (String command : List.of("query", "check", "sources", "load")) {
            CliRun run = run(command, "--help");
            assertThat(run.code()).as(command).isZero();
            assertThat(run.out()).as(command).contains("Usage:").contains(command);
        }
        CliRun root = run("--help");
        assertThat(root.code()).isZero();
        assertThat(root.out()).contains("query").contains("check").contains("sources").contains("load");
    }

    @Test
    void paramsAreTypedAsJsonLiterals() {
        CliRun run = run("query", "--sql", "SELECT params ?, ?, ?, ?, ?", "--param", "42", "--param", "north",
                "--param", "\"42\"", "--param", "4.50", "--param", "null");

        assertThat(run.code()).isZero();
        JsonNode row = run.json().get("rows").get(0);
        assertThat(row.get(0).isIntegralNumber()).isTrue();
        assertThat(row.get(0).asLong()).isEqualTo(42);
        assertThat(row.get(1).asText()).isEqualTo("north");
        assertThat(row.get(2).isTextual()).isTrue();
        assertThat(row.get(3).decimalValue()).isEqualByComparingTo("4.50");
        assertThat(row.get(4).isNull()).isTrue();
    }

    @Test
    void checkValidatesWithoutRunning() {
        CliRun ok = run("check", "--sql", "SELECT fail");
        assertThat(ok.code()).isZero();
        assertThat(ok.json().get("status").asText()).isEqualTo("OK");
        assertThat(ok.json().get("sql").asText()).isEqualTo("SELECT fail /* checked */");
        assertThat(ok.json().get("rows").size()).isZero();

        CliRun rejected = run("check", "--sql", "SELECT * FROM secret_table");
        assertThat(rejected.code()).isEqualTo(3);
        assertThat(rejected.json().get("error").get("code").asText()).isEqualTo("TABLE_NOT_ALLOWED");
    }

    @Test
    void aBatchMixesHostileAndHonestLinesAndNeverStops() {
        String batch = String.join("\n",
                "{\"id\": \"a\", \"sql\": \"SELECT n FROM t\"}",
                "{\"id\": 2, \"sql\": \"DROP TABLE claims\"}",
                "not json at all",
                "",
                "{\"id\": \"c\", \"sql\": \"SELECT 1; DELETE FROM claims\"}",
                "{\"id\": \"d\"}",
                "{\"id\": \"e\", \"sql\": \"SELECT params ?\", \"params\": [{\"x\": 1}]}",
                "{\"id\": \"f\", \"sql\": \"SELECT params ?\", \"params\": [7]}",
                "{\"id\": \"g\", \"sql\": \"SELECT fail\"}",
                "{\"sql\": \"SELECT empty\"}",
                "{\"id\": [1], \"sql\": \"SELECT 1\"}");

        CliRun run = runWith(batch, Map.of(), "query", "--batch", "-");

        assertThat(run.code()).isZero();
        List<JsonNode> lines = run.lines();
        assertThat(lines).extracting(l -> l.get("status").asText()).containsExactly(
                "OK", "REJECTED", "REJECTED", "REJECTED", "REJECTED", "REJECTED", "OK", "ERROR", "NO_EVIDENCE", "REJECTED");
        assertThat(lines.get(0).get("id").asText()).isEqualTo("a");
        assertThat(lines.get(1).get("id").isInt()).isTrue();
        assertThat(lines.get(1).get("id").asInt()).isEqualTo(2);
        assertThat(lines.get(2).get("id").isNull()).isTrue();
        assertThat(lines.get(2).get("error").get("code").asText()).isEqualTo("INVALID_ARGUMENT");
        assertThat(lines.get(3).get("error").get("code").asText()).isEqualTo("MULTIPLE_STATEMENTS");
        assertThat(lines.get(4).get("id").asText()).isEqualTo("d");
        assertThat(lines.get(5).get("error").get("code").asText()).isEqualTo("UNSUPPORTED_PARAMETER");
        assertThat(lines.get(6).get("rows").get(0).get(0).asLong()).isEqualTo(7);
        assertThat(lines.get(8).get("id").asText()).isNotBlank();
        assertThat(lines.get(9).get("id").isNull()).isTrue();
    }

    @Test
    void aBatchFileIsReadAndAnOverlongLineIsRefused() throws IOException {
        Path file = dir.resolve("batch.jsonl");
        Files.writeString(file, "\uFEFF{\"id\": 1, \"sql\": \"SELECT n FROM t\"}\r\n"
                + "{\"id\": 2, \"sql\": \"" + "x".repeat(AbstractQueryCommand.MAX_LINE_CHARS) + "\"}\n"
                + "{\"id\": 3, \"sql\": \"SELECT n FROM t\"}");

        CliRun run = run("check", "--batch", file.toString());

        assertThat(run.code()).isZero();
        assertThat(run.lines()).extracting(l -> l.get("status").asText()).containsExactly("OK", "REJECTED", "OK");
        assertThat(run.lines().get(1).get("error").get("code").asText()).isEqualTo("QUERY_TOO_LONG");
        assertThat(run.lines().get(2).get("id").asInt()).isEqualTo(3);
    }

    @Test
    void aConfigErrorExitsTwoWithPathAndLine() throws IOException {
        Files.writeString(config, """
                sources:
                  claims:
                    engine: fake
                    policy:
                      limits: {timeout: forever}
                """);

        CliRun run = run("query", "--sql", "SELECT 1");

        assertThat(run.code()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).contains("line 5, sources.claims.policy.limits.timeout: must be a positive duration");
    }

    @Test
    void aMissingEnvironmentVariableIsNamed() throws IOException {
        Files.writeString(config, """
                sources:
                  claims:
                    engine: fake
                    password: ${FAKE_DB_PASSWORD}
                """);

        CliRun missing = run("query", "--sql", "SELECT 1");
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err()).contains("environment variable FAKE_DB_PASSWORD is not set");

        CliRun present = runWith("", Map.of("FAKE_DB_PASSWORD", "hunter2-very-secret"), "query", "--sql", "SELECT 1");
        assertThat(present.code()).isZero();
        assertThat(present.out() + present.err()).doesNotContain("hunter2-very-secret");
    }

    @Test
    void anEngineConfigurationErrorExitsTwoAndMasksTheSecret() throws IOException {
        Files.writeString(config, """
                sources:
                  claims:
                    engine: fake
                    mode: badconfig
                    password: ${FAKE_DB_PASSWORD}
                """);

        CliRun run = runWith("", Map.of("FAKE_DB_PASSWORD", "hunter2-very-secret"), "query", "--sql", "SELECT 1");

        assertThat(run.code()).isEqualTo(2);
        assertThat(run.err()).contains("rejected credentials ****").doesNotContain("hunter2-very-secret")
                .as("names the file, line and key path").contains("sqlguard.yaml, line 2, sources.claims: ");
    }

    @Test
    void anUnavailableEngineIsAnErrorResult() throws IOException {
        Files.writeString(config, "sources: {claims: {engine: fake, mode: unavailable}}\n");

        CliRun run = run("query", "--sql", "SELECT 1");

        assertThat(run.code()).isEqualTo(4);
        assertThat(run.json().get("error").get("code").asText()).isEqualTo("ENGINE_UNAVAILABLE");
    }

    @Test
    void severalSourcesNeedSource() throws IOException {
        Files.writeString(config, "sources: {a: {engine: fake}, b: {engine: fake, rows: 1}}\n");

        CliRun ambiguous = run("query", "--sql", "SELECT 1");
        assertThat(ambiguous.code()).isEqualTo(2);
        assertThat(ambiguous.err()).contains("choose one with --source");

        CliRun chosen = run("query", "--source", "b", "--sql", "SELECT n FROM t");
        assertThat(chosen.code()).isZero();
        assertThat(chosen.json().get("source").asText()).isEqualTo("b");
        assertThat(chosen.json().get("returned_count").asInt()).isEqualTo(1);
    }

    @Test
    void anUnknownEngineExitsTwoListingTheEngines() throws IOException {
        Files.writeString(config, "sources: {a: {engine: oracle}}\n");

        CliRun run = run("query", "--sql", "SELECT 1");

        assertThat(run.code()).isEqualTo(2);
        assertThat(run.err()).contains("unknown engine 'oracle'; engines found: ").contains("fake");
    }

    @Test
    void sourcesListsTheAllowlistedSchema() {
        CliRun run = run("sources");

        assertThat(run.code()).isZero();
        JsonNode source = run.json().get("sources").get(0);
        assertThat(source.get("id").asText()).isEqualTo("claims");
        assertThat(source.get("engine").asText()).isEqualTo("fake");
        JsonNode table = source.get("tables").get(0);
        assertThat(table.get("name").asText()).isEqualTo("claims");
        assertThat(table.get("columns")).extracting(c -> c.get("name").asText()).containsExactly("id", "region", "ssn");
        assertThat(table.get("columns").get(2).get("redacted").asBoolean()).isTrue();
        assertThat(source.get("error").isNull()).isTrue();
    }

    @Test
    void sourcesAsATableShowEachTableWithItsRowCountAndColumns() throws IOException {
        Files.writeString(config, "sources:\n  one: {engine: fake, rows: 1, policy: {tables: {claims: [id]}}}\n"
                + "  three: {engine: fake, policy: {tables: {claims: [id, ssn]}}}\n");

        CliRun run = run("sources", "--format", "table");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("source one (fake)\n  claims (1 row)\n    id VARCHAR\n"
                + "source three (fake)\n  claims (3 rows)\n    id VARCHAR\n    ssn VARCHAR  [redacted]\n");
    }

    @Test
    void sourcesStillListsEverySourceWhenOneIsBroken() throws IOException {
        Files.writeString(config, "sources: {good: {engine: fake}, down: {engine: fake, mode: unavailable}}\n");
        CliRun unreachable = run("sources");
        assertThat(unreachable.code()).isEqualTo(4);
        assertThat(unreachable.json().get("sources")).extracting(s -> s.get("error").isNull()).containsExactly(true, false);

        Files.writeString(config, "sources: {good: {engine: fake}, bad: {engine: fake, mode: badconfig}}\n");
        CliRun misconfigured = run("sources");
        assertThat(misconfigured.code()).isEqualTo(2);
        assertThat(misconfigured.json().get("sources").get(1).get("error").get("code").asText()).isEqualTo("CONFIGURATION_ERROR");
    }

    @Test
    void tableFormatIsReadableAndNeutralisesControlCharacters() {
        CliRun run = run("query", "--sql", "SELECT params ?, ?", "--param", "\"\\u001b[31mred\"", "--param", "7", "--format", "table");

        assertThat(run.code()).isZero();
        assertThat(run.out()).contains("p1").contains("\\u001b[31mred").doesNotContain("\u001b").contains("(1 row, OK");

        CliRun rejected = run("query", "--sql", "DROP TABLE x", "--format", "TABLE");
        assertThat(rejected.code()).isEqualTo(3);
        assertThat(rejected.out()).contains("REJECTED STATEMENT_NOT_ALLOWED: ");
    }

    @Test
    void loadWithoutAnyInputIsAUsageError() {
        CliRun run = run("load", "--db", dir.resolve("x.duckdb").toString(), "--table", "t");

        assertThat(run.code()).isEqualTo(2);
        assertThat(run.err()).contains("INPUT");
    }

    @Test
    void aBatchFolderOrMissingFileIsAUsageErrorNamingIt() throws IOException {
        Files.createDirectories(dir.resolve("lines"));
        CliRun folder = run("query", "--batch", "lines");
        assertThat(folder.code()).isEqualTo(2);
        assertThat(folder.err()).contains("--batch lines: is a folder, not a file.");
        assertThat(folder.out()).isEmpty();

        CliRun missing = run("check", "--batch", "nosuch.jsonl");
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err()).contains("--batch nosuch.jsonl: the file does not exist.");
    }

    @Test
    void sqlIsReadFromStdinWithADashOrWhenPipedAlone() {
        CliRun dash = runWith("SELECT n FROM t\r\n\n", Map.of(), "query", "--sql", "-");
        assertThat(dash.code()).as(dash.err()).isZero();
        assertThat(dash.json().get("returned_count").asInt()).isEqualTo(3);
        // echo's line break is not part of the query: the same text runs, and is audited, as with --sql
        assertThat(auditedSqlHash(dash)).isEqualTo(auditedSqlHash(run("query", "--sql", "SELECT n FROM t")));

        CliRun piped = runWith("\uFEFFDELETE FROM claims", Map.of(), "check");
        assertThat(piped.code()).isEqualTo(3);
        assertThat(piped.json().get("error").get("code").asText()).isEqualTo("STATEMENT_NOT_ALLOWED");

        CliRun empty = runWith("  \n", Map.of(), "query");
        assertThat(empty.code()).isEqualTo(2);
        assertThat(empty.err()).contains("no SQL on stdin");

        CliRun tooLong = runWith("SELECT " + "1,".repeat(AbstractQueryCommand.MAX_LINE_CHARS / 2) + "1", Map.of(), "query", "--sql", "-");
        assertThat(tooLong.code()).isEqualTo(3);
        assertThat(tooLong.json().get("error").get("code").asText()).isEqualTo("QUERY_TOO_LONG");
    }

    @Test
    void helpAndCompletionAreCommands() {
        CliRun help = run("help");
        assertThat(help.code()).isZero();
        assertThat(help.out()).contains("Usage: sqlguard").contains("query").contains("completion");

        CliRun queryHelp = run("help", "query");
        assertThat(queryHelp.code()).isZero();
        assertThat(queryHelp.out()).contains("Usage: sqlguard query").contains("--batch");

        CliRun completion = run("completion");
        assertThat(completion.code()).as(completion.err()).isZero();
        assertThat(completion.out()).contains("complete -F").contains("sqlguard").contains("query").contains("--batch")
                .contains("bashcompinit");
    }

    @Test
    void thePlainHelpIsExactlyPicocliHelpWithoutColours() throws IOException {
        java.io.ByteArrayOutputStream plain = new java.io.ByteArrayOutputStream();
        PlainHelp.write(plain);
        String picocli = runWith("", Map.of("NO_COLOR", "1"), "--help").out();
        assertThat(plain.toString(java.nio.charset.StandardCharsets.UTF_8))
                .as("app/cli/src/main/resources/dev/sqlguard/app/internal/cli/help.txt must be exactly what picocli "
                        + "prints for --help without colours; copy the output of NO_COLOR=1 sqlguard --help into it")
                .isEqualTo(picocli);
    }

    @Test
    void thePlainHelpIsUsedOnlyForHelpAloneWherePicocliWouldPrintNoColours() {
        assertThat(PlainHelp.applies(new String[] {"--help"}, false, Map.of())).isTrue();
        assertThat(PlainHelp.applies(new String[] {"-h"}, false, Map.of())).isTrue();
        assertThat(PlainHelp.applies(new String[] {"--help"}, true, Map.of())).as("a terminal gets colours").isFalse();
        assertThat(PlainHelp.applies(new String[] {"--help"}, false, Map.of("CLICOLOR_FORCE", "1"))).isFalse();
        assertThat(PlainHelp.applies(new String[] {"query", "--help"}, false, Map.of())).isFalse();
        assertThat(PlainHelp.applies(new String[] {"help"}, false, Map.of())).isFalse();
        assertThat(PlainHelp.applies(new String[] {}, false, Map.of())).isFalse();
    }

    @Test
    void aDumbTerminalOrNoColorGetsNoColours() {
        String before = System.getProperty("picocli.ansi");
        System.setProperty("picocli.ansi", "true"); // as on a colour terminal
        try {
            assertThat(runWith("", Map.of(), "--help").out()).as("colours where the terminal shows them").contains("\u001b[");
            assertThat(runWith("", Map.of("TERM", "dumb"), "--help").out()).doesNotContain("\u001b");
            assertThat(runWith("", Map.of("NO_COLOR", "1"), "query", "--help").out()).doesNotContain("\u001b");
        } finally {
            if (before == null) {
                System.clearProperty("picocli.ansi");
            } else {
                System.setProperty("picocli.ansi", before);
            }
        }
    }

    @Test
    void askWithoutAModelSaysHowToConfigureOneOnce() {
        CliRun run = run("ask", "How many claims?");

        assertThat(run.code()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).contains("no usable model endpoint");
        assertThat(run.err().split("SQLGUARD_MODEL_BASE_URL", -1)).as(run.err()).hasSize(2);
    }

    /**
     * The README and docs/configuration.md say which lines each call writes on stderr; they must say
     * what runs: one audit line per call, and before a query that runs its start (issue 28: no
     * terminal lifecycle line repeats the audit line).
     */
    @Test
    void eachCallWritesOneAuditLineAndAQueryThatRunsItsStartLineTheDocsName() throws IOException {
        assertThat(stderrRecords(run("query", "--sql", "SELECT n FROM t")))
                .containsExactly("lifecycle STARTED", "audit OK");
        assertThat(stderrRecords(run("query", "--sql", "SELECT fail FROM t")))
                .containsExactly("lifecycle STARTED", "audit ERROR");
        assertThat(stderrRecords(run("query", "--sql", "DROP TABLE t"))).containsExactly("audit REJECTED");

        String readme = Files.readString(Path.of("../../README.md")).replaceAll("\\s+", " ");
        assertThat(readme).contains("one audit event per call, plus, before each query that runs, one lifecycle line `STARTED`");
        String configuration = Files.readString(Path.of("../../docs/configuration.md")).replaceAll("\\s+", " ");
        assertThat(configuration).contains("a query that runs also writes, before it runs, one lifecycle line");
        assertThat(readme + configuration).doesNotContain("FINISHED").doesNotContain("`COMPLETED`");
    }

    private static String auditedSqlHash(CliRun run) {
        for (String line : run.err().split("\n")) {
            if (line.startsWith("{\"type\":\"audit\"")) {
                return CliRun.parse(line).get("sql_sha256").asText();
            }
        }
        throw new AssertionError("no audit line: " + run.err());
    }

    /** Each JSON record on stderr as "type phase" (lifecycle) or "type verdict" (audit). */
    private static List<String> stderrRecords(CliRun run) {
        List<String> records = new java.util.ArrayList<>();
        for (String line : run.err().split("\n")) {
            if (line.startsWith("{")) {
                JsonNode record = CliRun.parse(line);
                String type = record.get("type").asText();
                records.add(type + " " + record.get(type.equals("lifecycle") ? "phase" : "verdict").asText());
            }
        }
        return records;
    }

    @Test
    void withTablesAuditLinesGoToTheStateFolderNotBetweenTheTables() throws IOException {
        Path state = dir.resolve("state");
        String batch = "{\"id\": 1, \"sql\": \"SELECT n FROM t\"}\n{\"id\": 2, \"sql\": \"DROP TABLE t\"}\n";
        CliRun run = runWith(batch, Map.of("XDG_STATE_HOME", state.toString()), "query", "--batch", "-", "--format", "table");

        assertThat(run.code()).isZero();
        assertThat(run.out()).contains("(3 rows, OK").contains("REJECTED STATEMENT_NOT_ALLOWED");
        assertThat(run.err()).doesNotContain("\"type\":\"audit\"").doesNotContain("\"type\":\"lifecycle\"")
                .contains("audit lines go to " + state.resolve("sqlguard/audit.jsonl"));
        assertThat(Files.readAllLines(state.resolve("sqlguard/audit.jsonl")))
                .filteredOn(line -> line.contains("\"type\":\"audit\"")).hasSize(2);

        Files.writeString(config, "sources: {claims: {engine: fake}}\naudit: {file: mine.jsonl}\n");
        CliRun configured = runWith("", Map.of("XDG_STATE_HOME", state.toString()), "query", "--sql", "SELECT 1", "--format", "table");
        assertThat(configured.code()).isZero();
        assertThat(Files.readString(dir.resolve("mine.jsonl"))).as("audit.file wins").contains("\"type\":\"audit\"");

        Files.writeString(config, "sources: {claims: {engine: fake}}\n");
        CliRun json = runWith("", Map.of("XDG_STATE_HOME", state.toString()), "query", "--sql", "SELECT 1");
        assertThat(json.err()).as("JSON output keeps audit lines on stderr").contains("\"type\":\"audit\"");
    }
}
