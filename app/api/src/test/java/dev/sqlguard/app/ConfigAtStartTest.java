package dev.sqlguard.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;

/**
 * What a configuration file means once its engines start: relative paths are relative to the
 * file, and what an engine refuses names the file, the line and the key path; an audit file that
 * cannot be written is a {@link ConfigException} with its key path.
 */
class ConfigAtStartTest {
    @TempDir
    Path dir;

    private Path database() throws Exception {
        Path data = Files.createDirectories(dir.resolve("project/data")).resolve("claims.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + data); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE claims AS SELECT 1 AS id, 'north' AS region");
        }
        return data;
    }

    private Path config(String yaml) throws IOException {
        Path file = dir.resolve("project/sqlguard.yaml");
        Files.createDirectories(file.getParent());
        Files.writeString(file, yaml);
        return file;
    }

    @Test
    void aRelativeDatabasePathIsRelativeToTheConfigurationFile() throws Exception {
        database();
        Path config = config("sources:\n  claims:\n    engine: duckdb\n    database: data/claims.duckdb\n"
                + "    policy:\n      tables: {claims: [id, region]}\n");
        // the working directory (the module folder) has no data/claims.duckdb
        assertThat(Path.of("data/claims.duckdb")).doesNotExist();

        try (SqlGuard guard = SqlGuard.fromConfig(config, Map.of())) {
            ToolResult result = guard.query("claims", "SELECT region FROM claims");
            assertThat(result.status()).as(SqlGuard.toJson(result)).isEqualTo(ToolStatus.OK);
            assertThat(result.rows()).containsExactly(List.of("north"));
        }
    }

    @Test
    void aMissingDatabaseFileNamesTheFileLineAndKey() throws Exception {
        Path config = config("sources:\n  claims:\n    engine: duckdb\n    database: data/nosuch.duckdb\n");
        try (SqlGuard guard = SqlGuard.fromConfig(config, Map.of())) {
            assertThatThrownBy(() -> guard.start("claims")).isInstanceOf(ConfigException.class)
                    .hasMessageStartingWith(config + ", line 4, sources.claims.database: ")
                    .hasMessageContaining("must name an existing DuckDB file");
            ToolResult result = guard.query("claims", "SELECT 1");
            assertThat(result.error().orElseThrow().code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
            assertThat(result.error().orElseThrow().message()).as("results never carry file paths")
                    .doesNotContain(dir.toString());
        }
    }

    @Test
    void anAllowlistedTableOrColumnTheDatabaseLacksNamesItsLine() throws Exception {
        database();
        Path config = config("sources:\n  claims:\n    engine: duckdb\n    database: data/claims.duckdb\n"
                + "    policy:\n      tables:\n        claims: [id, region]\n        payments: [\"*\"]\n");
        try (SqlGuard guard = SqlGuard.fromConfig(config, Map.of())) {
            assertThatThrownBy(() -> guard.start("claims")).isInstanceOf(ConfigException.class)
                    .hasMessageStartingWith(config + ", line 8, sources.claims.policy.tables.payments: ")
                    .hasMessageContaining("payments");
        }
        Path columns = config("sources:\n  claims:\n    engine: duckdb\n    database: data/claims.duckdb\n"
                + "    policy:\n      tables:\n        claims: [id, nosuch]\n");
        try (SqlGuard guard = SqlGuard.fromConfig(columns, Map.of())) {
            assertThatThrownBy(() -> guard.start("claims")).isInstanceOf(ConfigException.class)
                    .hasMessageStartingWith(columns + ", line 7, sources.claims.policy.tables.claims: ")
                    .hasMessageContaining("nosuch");
        }
    }

    /**
     * The host decides on a function list when the source starts, on what the engine reports about the names
     * (EngineStart): a name DuckDB does not have, one it never allows and one without a cost class each name
     * the list's line.
     */
    @Test
    void aFunctionListTheEngineRefusesNamesItsLineWhyAndTheNearestName() throws Exception {
        database();
        Map<String, String> refused = Map.of(
                "[count, stdev_samp]", "policy.functions lists the function 'stdev_samp', which DuckDB does not know. Did you mean 'stddev_samp'?",
                "[count, sleep_ms]", "policy.functions lists the function 'sleep_ms', which is never allowed on DuckDB",
                "[to_aggregate_state]", "policy.functions lists the function 'to_aggregate_state', which sqlguard has no cost class for on DuckDB");
        for (Map.Entry<String, String> e : refused.entrySet()) {
            Path config = config("sources:\n  claims:\n    engine: duckdb\n    database: data/claims.duckdb\n"
                    + "    policy:\n      tables: {claims: [id, region]}\n      functions: " + e.getKey() + "\n");
            try (SqlGuard guard = SqlGuard.fromConfig(config, Map.of())) {
                assertThatThrownBy(() -> guard.start("claims")).as(e.getKey()).isInstanceOf(ConfigException.class)
                        .hasMessageStartingWith(config + ", line 7, sources.claims.policy.functions: Source 'claims': ")
                        .hasMessageContaining(e.getValue());
                ToolResult result = guard.query("claims", "SELECT count(*) AS n FROM claims");
                assertThat(result.error().orElseThrow().code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
            }
        }
        Path tables = config("sources:\n  claims:\n    engine: duckdb\n    database: data/claims.duckdb\n"
                + "    policy:\n      tables: {claims: [id, region]}\n      tableFunctions: [rnage]\n");
        try (SqlGuard guard = SqlGuard.fromConfig(tables, Map.of())) {
            assertThatThrownBy(() -> guard.start("claims")).isInstanceOf(ConfigException.class)
                    .hasMessageStartingWith(tables + ", line 7, sources.claims.policy.tableFunctions: ")
                    .hasMessageContaining("the table function 'rnage', which DuckDB does not know. Did you mean 'range'?");
        }
        Path good = config("sources:\n  claims:\n    engine: duckdb\n    database: data/claims.duckdb\n"
                + "    policy:\n      tables: {claims: [id, region]}\n      functions: [count, upper]\n");
        try (SqlGuard guard = SqlGuard.fromConfig(good, Map.of())) {
            ToolResult result = guard.query("claims", "SELECT count(*) AS n FROM claims");
            assertThat(result.status()).as(SqlGuard.toJson(result)).isEqualTo(ToolStatus.OK);
        }
    }

    @Test
    void anAuditFileThatCannotBeWrittenIsAConfigurationErrorWithItsKey() throws Exception {
        database();
        Files.writeString(dir.resolve("project/not-a-folder"), "x");
        Path config = config("sources:\n  claims:\n    engine: duckdb\n    database: data/claims.duckdb\n"
                + "audit:\n  file: not-a-folder/audit.jsonl\n");
        assertThatThrownBy(() -> SqlGuard.fromConfig(config, Map.of())).isInstanceOf(ConfigException.class)
                .hasMessage(config + ", line 6, audit.file: cannot be written: it is not a writable file, "
                        + "or its folder cannot be created.");
    }

    @Test
    void aRelativeAuditFileIsRelativeToTheConfigurationFileAndOnFailureIsRead() throws Exception {
        database();
        Path config = config("sources:\n  claims:\n    engine: duckdb\n    database: data/claims.duckdb\n"
                + "audit:\n  file: logs/audit.jsonl\n  onFailure: continue\n");
        try (SqlGuard guard = SqlGuard.fromConfig(config, Map.of())) {
            assertThat(guard.query("claims", "SELECT 1 AS n").status()).isEqualTo(ToolStatus.OK);
        }
        assertThat(Files.readString(dir.resolve("project/logs/audit.jsonl"))).contains("\"type\":\"audit\"");

        SqlGuardConfig.AuditConfig audit = dev.sqlguard.app.internal.config.ConfigReader.read(config, Map.<String, String>of()::get,
                dev.sqlguard.app.internal.wiring.EngineRegistry.discover()).audit();
        assertThat(audit.onFailure()).isEqualTo(QueryService.AuditFailure.CONTINUE);
        Path bad = config("sources:\n  claims:\n    engine: duckdb\n    database: data/claims.duckdb\naudit:\n  onFailure: maybe\n");
        assertThatThrownBy(() -> SqlGuard.fromConfig(bad, Map.of())).isInstanceOf(ConfigException.class)
                .hasMessage(bad + ", line 6, audit.onFailure: must be refuse (the default) or continue.");
    }
}
