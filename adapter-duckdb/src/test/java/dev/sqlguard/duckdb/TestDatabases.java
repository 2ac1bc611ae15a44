package dev.sqlguard.duckdb;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;
import dev.sqlguard.duckdb.internal.DuckDbEngine;
import dev.sqlguard.testing.ContractDataset;

/** Real DuckDB files for tests, created through a plain read-write connection that is closed before any engine opens them. */
public final class TestDatabases {
    /** Table {@code t (id, g)}: ids 0 to 99999 and {@code g = id % 100}, for scans and aggregates that take a while. */
    public static final String T_100K = "CREATE TABLE t AS SELECT i AS id, i % 100 AS g FROM range(100000) r(i)";

    private TestDatabases() {
    }

    /** Creates (or opens) {@code file} and runs {@code statements} on it; returns {@code file}. */
    public static Path create(Path file, String... statements) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement()) {
            for (String statement : statements) {
                st.execute(statement);
            }
        }
        return file;
    }

    /** A database holding {@link ContractDataset} plus a wide table for limit tests. */
    static Path contractDatabase(Path folder) throws SQLException {
        List<String> statements = new ArrayList<>(ContractDataset.ddl());
        statements.addAll(ContractDataset.inserts());
        statements.add("CREATE TABLE events AS SELECT i AS id, i % 7 AS bucket, TIMESTAMP '2024-01-01 00:00:00' + INTERVAL (i) MINUTE AS ts, "
                + "[i, i + 1] AS pair, {'k': i} AS info FROM range(5000) r(i)");
        statements.add("CREATE SEQUENCE sqlguard_seq"); // for the contract's sequence advance
        return create(folder.resolve("data.duckdb"), statements.toArray(String[]::new));
    }

    static DuckDbEngine engine(Path database, Path work, GuardrailPolicy policy) {
        return (DuckDbEngine) new DuckDbEngineFactory().create(
                new EngineConfig("claims", Map.of("database", database.toString()), policy), EngineContext.of(work));
    }

    static ToolResult query(DuckDbEngine engine, String sql, Object... params) {
        return new QueryService(AuditSink.discarding()).query(engine.binding(), QueryRequest.of("claims", sql, params));
    }

    /** SHA-256 of the file's bytes. */
    static String digest(Path file) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }
}
