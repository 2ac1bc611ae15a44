package dev.sqlguard.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a command loads at start-up (issue 15): the packaged jar run with the JVM's class-loading
 * log, each command checked for the libraries and commands it does not need. No timing: which
 * classes load is what decides start-up cost, and it does not depend on the machine's load.
 */
@Timeout(300)
class StartupClassesIT {
    private static final String OBJECT_MAPPER = "com.fasterxml.jackson.databind.ObjectMapper";
    private static final String GUICE = "com.google.inject.";
    private static final String GUAVA = "com.google.common.";
    private static final String DUCKDB_DRIVER = "org.duckdb.";
    private static final String DUCKDB_ENGINE = "dev.sqlguard.duckdb.";
    private static final String CLI = "dev.sqlguard.app.internal.cli.";
    private static final String PLANNER = "dev.sqlguard.app.agent.AnalystPlanner";
    private static final String MCP = "dev.sqlguard.app.internal.mcp.";
    /**
     * Option types that load only when picocli builds the {@code ask} and {@code eval} commands
     * (their classes themselves load, unbuilt, when the table of commands is made).
     */
    private static final String[] OTHER_COMMANDS_OPTIONS = {CLI + "AskCommand$Format", CLI + "EvalCommand$Format"};

    @TempDir
    Path dir;

    private JarRunner sqlguard;
    private Path log;

    @BeforeEach
    void setUp() throws IOException {
        Path work = Files.createDirectories(dir.resolve("work"));
        log = dir.resolve("classes.log");
        sqlguard = new JarRunner(dir.resolve("home"), work).jvmOption("-Xlog:class+load=info:file=" + log);
    }

    @Test
    void helpLoadsNoDataBindingNoGuiceAndNoEngine() throws IOException {
        JarRunner.Run help = sqlguard.run("help");

        assertThat(help.code()).as(help.err()).isZero();
        assertThat(help.out()).contains("load", "query", "check", "sources", "ask", "eval", "mcp", "completion", "help");
        List<String> classes = loaded();
        assertThat(classes).contains(CLI + "EvalCommand", CLI + "McpCommand"); // every command is listed
        assertThat(classes).noneMatch(c -> c.equals(OBJECT_MAPPER) || c.startsWith(GUICE) || c.startsWith(GUAVA)
                || c.startsWith(DUCKDB_DRIVER) || c.startsWith(DUCKDB_ENGINE));
    }

    @Test
    void helpToAPipeIsThePlainTextWithoutBuildingTheCommandTree() throws IOException {
        JarRunner.Run help = sqlguard.run("--help");

        assertThat(help.code()).as(help.err()).isZero();
        assertThat(help.out()).startsWith("Usage: sqlguard").contains("query", "check", "mcp", "completion");
        assertThat(loaded()).as("no picocli and no command class").noneMatch(c -> c.startsWith("picocli.")
                || (c.startsWith(CLI) && c.endsWith("Command")));
    }

    @Test
    void queryBuildsOnlyItsOwnCommandAndWiresWithoutGuice() throws IOException {
        JarRunner.Run query = sqlguard.run("query", "--sql", "SELECT region, avg(amount) FROM claims GROUP BY region");

        assertThat(query.code()).as(query.err()).isZero();
        assertThat(query.json().get("returned_count").asInt()).isEqualTo(5);
        List<String> classes = loaded();
        assertThat(classes).contains(CLI + "QueryCommand", DUCKDB_ENGINE + "DuckDbEngineFactory")
                .noneMatch(c -> c.startsWith(GUICE) || c.startsWith(GUAVA) || c.startsWith(MCP) || c.equals(PLANNER))
                .doesNotContain(OTHER_COMMANDS_OPTIONS);
    }

    @Test
    void checkWiresWithoutGuiceAndRunsNothing() throws IOException {
        JarRunner.Run check = sqlguard.run("check", "--sql", "SELECT region FROM claims");

        assertThat(check.code()).as(check.err()).isZero();
        assertThat(check.json().get("status").asText()).isEqualTo("OK");
        assertThat(loaded()).contains(CLI + "CheckCommand")
                .noneMatch(c -> c.startsWith(GUICE) || c.startsWith(GUAVA) || c.startsWith(MCP) || c.equals(PLANNER)
                        || c.equals("dev.sqlguard.domain.ResultProjector"))
                .doesNotContain(OTHER_COMMANDS_OPTIONS);
    }

    @Test
    void theMcpServerAnswersInitializeWithoutGuice() throws IOException {
        String initialize = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"it\",\"version\":\"1\"}}}\n";

        JarRunner.Run mcp = sqlguard.runWithInput(initialize, "mcp");

        assertThat(mcp.code()).as(mcp.err()).isZero();
        assertThat(mcp.json().get("result").get("serverInfo").get("name").asText()).isNotBlank();
        assertThat(loaded()).contains(MCP + "McpStdioServer")
                .noneMatch(c -> c.startsWith(GUICE) || c.startsWith(GUAVA) || c.equals(PLANNER))
                .doesNotContain(OTHER_COMMANDS_OPTIONS).doesNotContain(CLI + "OutputFormat");
    }

    /** The classes the last run loaded, by name, from the JVM's log ({@code [...] name source: ...}). */
    private List<String> loaded() throws IOException {
        return Files.readAllLines(log).stream()
                .filter(line -> line.contains("[class,load]"))
                .map(line -> line.substring(line.indexOf("[class,load]") + "[class,load]".length()).trim())
                .map(rest -> rest.split(" ", 2)[0])
                .toList();
    }
}
