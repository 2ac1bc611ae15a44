package dev.sqlguard.app.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.sqlguard.domain.LimitKind;
import dev.sqlguard.domain.ResultColumn;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;

/** csv, tsv and markdown: rows only on stdout, exactly quoted; what the result says beside them on stderr. */
class OutputFormatsTest {
    @TempDir
    Path dir;

    private static final ToolResult TRICKY = new ToolResult("r1", ToolStatus.OK, "s", Optional.of("SELECT a, b FROM t LIMIT 3"),
            List.of(new ResultColumn("a,b", "VARCHAR"), new ResultColumn("n", "BIGINT")),
            List.of(Arrays.asList("x,\"y\"\nz", 1L), Arrays.asList("", null), Arrays.asList(" lead|pipe\t<b>\\", 3L)),
            true, Set.of(LimitKind.ROWS), Optional.empty(), 7);

    private static String[] print(OutputFormat format, ToolResult result) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ResultPrinter.of(format, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8))
                .print(result, null);
        return new String[] {out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
    }

    @Test
    void csvQuotesAsRfc4180AndTellsNullFromTheEmptyString() {
        String[] printed = print(OutputFormat.csv, TRICKY);
        assertThat(printed[0]).isEqualTo("\"a,b\",n\n\"x,\"\"y\"\"\nz\",1\n\"\",\n\" lead|pipe\t<b>\\\",3\n");
        assertThat(printed[1]).isEqualTo("sql: SELECT a, b FROM t LIMIT 3\n(3 rows, OK, truncated, limits hit: rows, 7 ms)\n");
    }

    @Test
    void tsvEscapesTabsLineBreaksAndBackslashesAndWritesNullAsBackslashN() {
        String[] printed = print(OutputFormat.tsv, TRICKY);
        assertThat(printed[0]).isEqualTo("a,b\tn\nx,\"y\"\\nz\t1\n\t\\N\n lead|pipe\\t<b>\\\\\t3\n");
    }

    @Test
    void markdownEscapesPipesAndLineBreaksAndRightAlignsNumbers() {
        String[] printed = print(OutputFormat.markdown, TRICKY);
        assertThat(printed[0]).isEqualTo("| a,b | n |\n| --- | ---: |\n| x,\"y\"<br>z | 1 |\n|  | NULL |\n"
                + "|  lead\\|pipe\\\\t&lt;b>\\\\ | 3 |\n");
    }

    @Test
    void aRefusalPrintsNothingOnStdoutAndItsErrorOnStderr() {
        ToolResult refused = ToolResult.failure("r2", ToolStatus.REJECTED, "s", Optional.empty(), Set.of(),
                new dev.sqlguard.domain.GuardException(dev.sqlguard.domain.ErrorCode.STATEMENT_NOT_ALLOWED), 3);
        for (OutputFormat format : List.of(OutputFormat.csv, OutputFormat.tsv, OutputFormat.markdown)) {
            String[] printed = print(format, refused);
            assertThat(printed[0]).as(format.name()).isEmpty();
            assertThat(printed[1]).as(format.name()).contains("REJECTED STATEMENT_NOT_ALLOWED: ").contains("(0 rows, REJECTED, 3 ms)");
        }
    }

    @BeforeEach
    void writeConfig() throws IOException {
        Files.writeString(dir.resolve("sqlguard.yaml"), """
                sources:
                  claims:
                    engine: fake
                    rows: 2
                    policy:
                      tables: {claims: [id, region, ssn]}
                """);
    }

    @Test
    void queryWithCsvKeepsStdoutAPureDataStream() {
        CliRun run = CliRun.of(dir, "", Map.of(), "query", "--format", "csv", "--sql", "SELECT n, amount, label FROM t");
        assertThat(run.code()).isZero();
        assertThat(run.out()).isEqualTo("n,amount,label\n1,12345678901234567891.123456789,row-1\n2,12345678901234567892.123456789,row-2\n");
        assertThat(run.err()).contains("sql: SELECT n, amount, label FROM t /* checked */").contains("(2 rows, OK, ");

        CliRun refused = CliRun.of(dir, "", Map.of(), "query", "--format", "tsv", "--sql", "DELETE FROM t");
        assertThat(refused.code()).isEqualTo(3);
        assertThat(refused.out()).isEmpty();

        CliRun batch = CliRun.of(dir, "{\"id\": 1, \"sql\": \"SELECT n FROM t\"}\n{\"id\": 2, \"sql\": \"SELECT empty\"}\n", Map.of(),
                "query", "--format", "markdown", "--batch", "-");
        assertThat(batch.code()).isZero();
        assertThat(batch.out()).startsWith("| n | amount | label |\n").contains("\n\n| n | amount | label |\n");
        assertThat(batch.err()).contains("id: 1").contains("id: 2");
    }

    @Test
    void tablesAndDescribeListTheCatalogInEveryFormat() {
        CliRun json = CliRun.of(dir, "", Map.of(), "tables");
        assertThat(json.code()).as(json.err()).isZero();
        assertThat(json.out()).isEqualTo("{\"source\":\"claims\",\"tables\":[{\"name\":\"claims\",\"row_count\":2,\"columns\":3}]}\n");
        CliRun csv = CliRun.of(dir, "", Map.of(), "describe", "--format", "csv", "claims");
        assertThat(csv.out()).isEqualTo("column,type,redacted\nid,VARCHAR,false\nregion,VARCHAR,false\nssn,VARCHAR,true\n");
        CliRun described = CliRun.of(dir, "", Map.of(), "describe", "CLAIMS");
        assertThat(described.json().get("tables").get(0).get("columns")).hasSize(3);
        CliRun missing = CliRun.of(dir, "", Map.of(), "describe", "claim");
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err()).contains("no allowlisted table is named 'claim' in source claims. Did you mean 'claims'?");
        CliRun sources = CliRun.of(dir, "", Map.of(), "sources", "--format", "tsv");
        assertThat(sources.out()).startsWith("source\ttable\tcolumn\ttype\tredacted\nclaims\tclaims\tid\tVARCHAR\tfalse\n");
    }
}
