package dev.sqlguard.app.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

/** {@code sqlguard load} in-process with the real DuckDB loader: the report, the summary line, the errors. */
class LoadCommandTest {
    @TempDir
    Path dir;

    private CliRun load(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "load";
        System.arraycopy(args, 0, all, 1, args.length);
        return CliRun.of(dir, "", Map.of(), all);
    }

    @Test
    void runningTheSameLoadTwiceSaysItAppendedAndReplaceSaysItReplaced() throws IOException {
        Files.writeString(dir.resolve("claims.csv"), "id,region,amount\n1,north,10.10\n2,south,20.25\n");

        CliRun first = load("--db", "claims.duckdb", "--table", "claims", "claims.csv");
        CliRun second = load("--db", "claims.duckdb", "--table", "claims", "claims.csv");
        CliRun replaced = load("--db", "claims.duckdb", "--table", "claims", "--replace", "claims.csv");

        assertThat(first.code()).as(first.err()).isZero();
        assertThat(first.json().get("mode").asText()).isEqualTo("created");
        assertThat(second.json().get("mode").asText()).isEqualTo("appended");
        assertThat(second.json().get("rows_in_table").asLong()).isEqualTo(4);
        assertThat(second.err()).contains("Committed: appended 2 rows to table \"claims\"; it now has 4 rows"
                + " (append is the default; --replace swaps the table)");
        assertThat(replaced.json().get("mode").asText()).isEqualTo("replaced");
        assertThat(replaced.json().get("rows_in_table").asLong()).isEqualTo(2);
        assertThat(replaced.err()).contains("Committed: replaced table \"claims\"; it now has 2 rows");
    }

    @Test
    void renamedColumnsAreInTheReport() throws IOException {
        Files.writeString(dir.resolve("dup.csv"), "a,a,b\n1,2,3\n");

        CliRun run = load("--db", "d.duckdb", "--table", "d", "dup.csv");

        assertThat(run.code()).as(run.err()).isZero();
        JsonNode report = run.json();
        assertThat(report.get("columns").toString()).isEqualTo("[\"a\",\"a_2\",\"b\"]");
        assertThat(report.get("renamed_columns").toString())
                .isEqualTo("[{\"input\":\"dup.csv\",\"header\":\"a\",\"column\":\"a_2\"}]");
        assertThat(run.err()).contains("dup.csv: column \"a\" repeats an earlier name; loaded as \"a_2\"");
    }

    @Test
    void brokenCsvFilesFailWithTheFileAndLineAndNoDriverText() throws IOException {
        Files.writeString(dir.resolve("quote.csv"), "id,name\n1,\"abc\n2,def\n");
        Files.writeString(dir.resolve("empty.csv"), "");

        CliRun quote = load("--db", "b.duckdb", "--table", "t", "quote.csv");
        CliRun empty = load("--db", "b.duckdb", "--table", "t", "empty.csv");

        assertThat(quote.code()).isEqualTo(4);
        assertThat(quote.out()).isEmpty();
        assertThat(quote.err()).contains("load failed: LOAD_FAILED: quote.csv, line 2: a quoted field is never closed")
                .doesNotContain("Error:", "\tat ", "sniff");
        assertThat(empty.code()).isEqualTo(4);
        assertThat(empty.err()).contains("empty.csv, line 1: the file is empty");
        assertThat(dir.resolve("b.duckdb")).doesNotExist();
    }

    @Test
    void aTypeHintForAMissingColumnIsAUsageErrorThatNamesIt() throws IOException {
        Files.writeString(dir.resolve("a.csv"), "id,amount\n1,2\n");

        CliRun run = load("--db", "a.duckdb", "--table", "t", "-o", "types=amout:DECIMAL(10,2)", "a.csv");

        assertThat(run.code()).isEqualTo(2);
        assertThat(run.err()).contains("The types option names column 'amout', which a.csv does not have;"
                + " its columns are [id, amount].");
    }

    @Test
    void europeanNumbersAndDatesLoadWithTheDecimalAndDateformatOptions() throws IOException {
        Files.writeString(dir.resolve("eu.csv"), "id;amount;day\n1;1.234,56;31.01.2024\n2;7,5;01.02.2024\n");

        CliRun run = load("--db", "eu.duckdb", "--table", "eu", "-o", "decimal=,", "-o", "dateformat=%d.%m.%Y",
                "eu.csv");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.json().get("rows_loaded").asLong()).isEqualTo(2);
        assertThat(run.err()).contains("eu.csv: column \"amount\" holds fixed-point numbers: DECIMAL(18,2)");
    }

    @Test
    void theHelpSaysAppendingIsTheDefault() {
        CliRun help = load("--help");

        assertThat(help.out() + help.err()).contains("Appends to an existing table unless --replace is given.")
                .contains("decimal").contains("dateformat");
    }
}
