package dev.sqlguard.app.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sqlguard shell} driven through stdin, as a script or a person would type it. */
class ShellTest {
    @TempDir
    Path dir;

    @BeforeEach
    void writeConfig() throws IOException {
        Files.writeString(dir.resolve("sqlguard.yaml"), """
                sources:
                  claims:
                    engine: fake
                    rows: 2
                    policy:
                      tables: {claims: [id, region, ssn]}
                  other:
                    engine: fake
                    rows: 1
                    policy:
                      tables: {orders: [id]}
                """);
    }

    private CliRun shell(String stdin, String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "shell";
        System.arraycopy(args, 0, all, 1, args.length);
        return CliRun.of(dir, stdin, Map.of(), all);
    }

    /** A run whose context says a person is at a terminal (prompts, banner), with stdin piped. */
    private CliRun atTerminal(String stdin, Map<String, String> env, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CliContext ctx = new CliContext(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                env, dir, true);
        int code = Main.run(args, ctx);
        return new CliRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void statementsEndAtSemicolonsSpanLinesAndEachIsAuditedLikeAQuery() {
        CliRun run = shell("SELECT n,\n  amount, label\nFROM t;\nSELECT n FROM t; SELECT empty FROM t;\n", "--format", "json");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.lines()).hasSize(3);
        assertThat(run.lines().get(0).get("status").asText()).isEqualTo("OK");
        assertThat(run.lines().get(0).get("returned_count").asInt()).isEqualTo(2);
        assertThat(run.lines().get(2).get("status").asText()).isEqualTo("NO_EVIDENCE");
        // one audit event per statement, as `query` writes them; the fake refuses a ';', so none reached it
        assertThat(Arrays.stream(run.err().split("\n")).filter(l -> l.contains("\"type\":\"audit\"")).count()).isEqualTo(3);
        assertThat(run.out()).doesNotContain("=>");
    }

    @Test
    void catalogCommandsListTablesAndColumnsWithoutAQuery() {
        CliRun run = shell("\\dt\n.tables\n\\d claims\n.schema nope\n\\d\n");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).contains("table  | row_count | columns").contains("claims |         2 |       3")
                .contains("column | type    | redacted").contains("ssn    | VARCHAR | true").contains("(3 rows)");
        assertThat(run.err()).contains("no allowlisted table is named 'nope' in source claims.")
                .doesNotContain("\"type\":\"audit\"");
    }

    @Test
    void formatsSwitchAndParametersBindToTheNextStatementOnly() {
        CliRun run = shell("\\format csv\nSELECT n, label FROM t;\n.mode markdown\n\\bind 42 north\nSELECT params ?, ?;\n"
                + "\\pset format json\nSELECT params ?;\n\\format xml\n");

        assertThat(run.out()).contains("n,amount,label\n1,12345678901234567891.123456789,row-1\n")
                .contains("| p1 | p2 |\n| ---: | --- |\n| 42 | north |\n");
        // \bind held for one statement: the next one has no value for its ?
        assertThat(run.out()).contains("\"status\":\"REJECTED\"").contains("PARAMETER_COUNT_MISMATCH");
        assertThat(run.err()).contains("unknown output format 'xml'");
        assertThat(run.code()).as("piped: the worst result").isEqualTo(3);
    }

    @Test
    void switchingSourcesAndUnknownCommandsAreSaidOnStderr() {
        CliRun run = shell("\\sources\n\\c other\n\\dt\n\\c nope\n\\frobnicate\nexit\nSELECT n FROM t;\n");

        assertThat(run.out()).contains("* claims (fake)").contains("  other (fake)").contains("orders");
        assertThat(run.err()).contains("no source is named 'nope'").contains("unknown command '\\frobnicate'");
        assertThat(run.out()).as("nothing runs after exit").doesNotContain("row-1");
        assertThat(run.code()).isZero();
    }

    @Test
    void aStatementLeftWithoutSemicolonAtTheEndOfAPipeStillRuns() {
        CliRun run = shell("SELECT n FROM t", "--format", "json");
        assertThat(run.lines()).hasSize(1);
        assertThat(run.code()).isZero();
    }

    @Test
    void sqlguardAloneAtATerminalStartsTheShellWithPromptsAndKeepsAuditOffTheScreen() {
        Path state = dir.resolve("state");
        CliRun run = atTerminal("SELECT n\nFROM t;\n\\q\n", Map.of("XDG_STATE_HOME", state.toString()));

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).contains("shell on source claims (fake)").contains("claims=> ").contains("claims-> ")
                .contains("row-2");
        assertThat(run.err()).doesNotContain("\"type\":\"audit\"").contains("audit lines go to " + state);
        assertThat(state.resolve("sqlguard/audit.jsonl")).exists();
    }

    @Test
    void withoutATerminalSqlguardAloneStillAsksForACommand() {
        CliRun run = CliRun.of(dir, "", Map.of());
        assertThat(run.code()).isEqualTo(2);
        assertThat(run.err()).contains("a command is required");
    }
}
