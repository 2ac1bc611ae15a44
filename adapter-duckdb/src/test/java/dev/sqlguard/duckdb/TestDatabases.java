package dev.sqlguard.duckdb;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
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
final class TestDatabases {
    private TestDatabases() {
    }

    /** A database holding {@link ContractDataset} plus a wide table for limit tests. */
    static Path contractDatabase(Path folder) throws SQLException {
        Path file = folder.resolve("data.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement st = c.createStatement()) {
            for (String ddl : ContractDataset.ddl()) {
                st.execute(ddl);
            }
            for (String insert : ContractDataset.inserts()) {
                st.execute(insert);
            }
            st.execute("CREATE TABLE events AS SELECT i AS id, i % 7 AS bucket, TIMESTAMP '2024-01-01 00:00:00' + INTERVAL (i) MINUTE AS ts, "
                    + "[i, i + 1] AS pair, {'k': i} AS info FROM range(5000) r(i)");
        }
        return file;
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
