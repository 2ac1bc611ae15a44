package dev.sqlguard.app.e2e;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import dev.sqlguard.testing.MaskedAnswers;
import dev.sqlguard.testing.MaskedAnswers.Secret;

/**
 * The {@code vault} table of {@link MaskedAnswers} (secrets of 1 character, 150 kB and 3 MB) on every
 * engine this machine runs, for the end-to-end masking tests of the CLI batch and the MCP server: a
 * DuckDB file always, and a PostgreSQL schema and a MariaDB/MySQL database when the CI variables name
 * their servers ({@code SQLGUARD_PG_*}, {@code SQLGUARD_MYSQL_*}). Each is a source of the YAML
 * {@link #config(String)} gives, read by the least-privilege account; closing drops what was created.
 */
final class Vaults implements AutoCloseable {
    /** The padding oracle of issue 24 and variants, each with one parameter: the row's id. */
    static final List<String> ORACLES = List.of(
            "SELECT v.id, concat(v.password, '" + "y".repeat(20_000) + "') AS p FROM vault v WHERE v.id = ?",
            "SELECT v.id, v.password FROM vault v WHERE v.id = ?",
            "SELECT v.id, length(v.password) AS n, upper(v.password) AS u FROM vault v WHERE v.id = ?",
            "SELECT v.id, concat(v.password, v.password) AS p FROM vault v WHERE v.id = ?");

    private final Map<String, String> sources = new LinkedHashMap<>();
    private String pgSchema;
    private String mysqlDatabase;

    private Vaults() {
    }

    static Vaults create(Path folder) throws SQLException {
        Vaults vaults = new Vaults();
        try {
            vaults.duckdb(folder.resolve("vault.duckdb"));
            vaults.postgres();
            vaults.mysql();
        } catch (SQLException | RuntimeException e) {
            vaults.close();
            throw e;
        }
        return vaults;
    }

    /** The sources, in the order DuckDB, PostgreSQL, MySQL (those whose server this machine runs). */
    List<String> sources() {
        return List.copyOf(sources.keySet());
    }

    /** A configuration with every source, each under {@code limits} (flow-map entries such as {@code bytes: 60}). */
    String config(String limits) {
        StringBuilder yaml = new StringBuilder("sources:\n");
        sources.forEach((name, block) -> yaml.append("  ").append(name).append(":\n").append(block)
                .append("    policy:\n      tables: {vault: [\"*\"]}\n      limits: {").append(limits).append("}\n"));
        return yaml.toString();
    }

    /**
     * What a result could tell about the row's secret: everything but the row's id (status, code,
     * limits hit, truncation, rows and every other cell).
     */
    static String outcome(JsonNode result) {
        StringBuilder rows = new StringBuilder();
        for (JsonNode row : result.path("rows")) {
            for (int i = 1; i < row.size(); i++) {
                rows.append(row.get(i)).append(',');
            }
            rows.append(';');
        }
        return result.path("status").asText() + " " + result.path("error").path("code").asText("-") + " " + result.path("limits_hit")
                + " " + result.path("truncated").asText() + " " + result.path("returned_count").asText() + " " + rows;
    }

    private void duckdb(Path file) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE vault (id BIGINT, owner VARCHAR, password VARCHAR)");
            for (Secret v : MaskedAnswers.VAULT) {
                s.execute("INSERT INTO vault VALUES (" + v.id() + ", '" + v.owner() + "', repeat('" + v.fill() + "', " + v.length() + "))");
            }
        }
        sources.put("vault_duckdb", "    engine: duckdb\n    database: " + file + "\n");
    }

    private void postgres() throws SQLException {
        if (ServerAccounts.postgresUrl().isEmpty()) {
            return;
        }
        pgSchema = ServerAccounts.unique();
        try (Connection c = ServerAccounts.postgresAdmin(); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA " + pgSchema);
            s.execute("CREATE TABLE " + pgSchema + ".vault (id bigint, owner varchar(16), password text)");
            for (Secret v : MaskedAnswers.VAULT) {
                s.execute("INSERT INTO " + pgSchema + ".vault VALUES (" + v.id() + ", '" + v.owner() + "', repeat('" + v.fill() + "', "
                        + v.length() + "))");
            }
            ServerAccounts.grantPostgresRead(s, pgSchema);
        }
        sources.put("vault_postgresql", ServerAccounts.postgresSource(pgSchema));
    }

    private void mysql() throws SQLException {
        if (ServerAccounts.mysqlUrl().isEmpty()) {
            return;
        }
        mysqlDatabase = ServerAccounts.unique();
        try (Connection c = ServerAccounts.mysqlAdmin(); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE `" + mysqlDatabase + "`");
            s.execute("CREATE TABLE `" + mysqlDatabase + "`.vault (id BIGINT, owner VARCHAR(16), password LONGTEXT)");
            for (Secret v : MaskedAnswers.VAULT) {
                s.execute("INSERT INTO `" + mysqlDatabase + "`.vault VALUES (" + v.id() + ", '" + v.owner() + "', REPEAT('" + v.fill() + "', "
                        + v.length() + "))");
            }
        }
        sources.put("vault_mysql", ServerAccounts.mysqlSource(mysqlDatabase));
    }

    @Override
    public void close() throws SQLException {
        ServerAccounts.drop(pgSchema, mysqlDatabase);
    }
}
