package dev.sqlguard.duckdb;

import static dev.sqlguard.duckdb.TestDatabases.query;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.ErrorType;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.duckdb.internal.DuckDbEngine;
import dev.sqlguard.testing.ContractDataset;

/**
 * Every way measured on DuckDB 2.0 to write, read files, change settings or run SQL text that a
 * read-only, locked instance still allows, and every vector the engine's guardrails exist to stop,
 * each sent through QueryService and the whole engine. After each one the database file is byte-for-byte
 * unchanged, no WAL file appeared, nothing was written into the temp directory, and an honest
 * query still works.
 */
class DuckDbHostileTest {
    @TempDir
    static Path folder;
    @TempDir
    static Path work;

    static Path db;
    static Path temp;
    static String digest;
    static DuckDbEngine engine;

    @BeforeAll
    static void open() throws Exception {
        db = TestDatabases.contractDatabase(folder);
        digest = TestDatabases.digest(db);
        engine = TestDatabases.engine(db, work, GuardrailPolicy.defaults());
        temp = engine.settings().tempDirectory().orElseThrow();
    }

    @AfterAll
    static void close() {
        engine.close();
    }

    @AfterEach
    void databaseIsUnchangedAndStillAnswers() throws Exception {
        assertThat(TestDatabases.digest(db)).isEqualTo(digest);
        try (Stream<Path> files = Files.list(folder)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("data.duckdb");
        }
        try (Stream<Path> files = Files.list(temp)) {
            assertThat(files).isEmpty();
        }
        ToolResult honest = query(engine, "SELECT count(*) FROM claims");
        assertThat(honest.error()).isEmpty();
        assertThat(honest.rows().get(0).get(0)).isEqualTo(60L);
    }

    static List<String> writesIntoAllowedPaths() {
        List<String> out = new ArrayList<>();
        for (String target : List.of(db.toString(), db + ".wal", db + ".wal.checkpoint", db + ".wal.recovery",
                temp.resolve("x.csv").toString())) {
            out.add("COPY (SELECT 'x') TO '" + target + "' (FORMAT csv, USE_TMP_FILE false)");
            out.add("COPY claims TO '" + target + "'");
            out.add("ATTACH '" + target + "' AS w (READ_WRITE)");
            out.add("ATTACH '" + target + "' AS r (READ_ONLY)");
        }
        out.add("EXPORT DATABASE '" + temp.resolve("export") + "'");
        out.add("EXPORT DATABASE '" + folder + "'");
        out.add("IMPORT DATABASE '" + temp + "'");
        out.add("ATTACH '" + temp.resolve("side.duckdb") + "' AS side; SELECT 1");
        out.add("SELECT 1; ATTACH '" + temp.resolve("side.duckdb") + "' AS side");
        out.add("DETACH data");
        out.add("USE memory");
        return out;
    }

    /** DuckDB itself allows writing the file, its WAL files and the temp folder; none of them is writable through the engine. */
    @ParameterizedTest
    @MethodSource("writesIntoAllowedPaths")
    void copyExportAndAttachIntoTheDatabaseItsWalAndItsTempFolderAreRefused(String sql) {
        assertRefusedBeforeRunning(sql);
    }

    static List<String> readsOfTheDatabaseFile() {
        List<String> out = new ArrayList<>();
        for (String path : List.of(db.toString(), db + ".wal", "/etc/passwd", temp.toString() + "/*")) {
            out.add("SELECT * FROM read_blob('" + path + "')");
            out.add("SELECT content FROM read_text('" + path + "')");
            out.add("SELECT * FROM read_csv('" + path + "')");
            out.add("SELECT * FROM read_parquet('" + path + "')");
            out.add("SELECT * FROM read_json('" + path + "')");
            out.add("SELECT * FROM glob('" + path + "')");
            out.add("SELECT * FROM sniff_csv('" + path + "')");
            out.add("FROM '" + path + "'");
            out.add("SELECT * FROM '" + path + "'");
            out.add("SELECT (SELECT content FROM read_text('" + path + "')) AS x");
            out.add("SELECT 1 WHERE EXISTS (SELECT * FROM read_blob('" + path + "'))");
            out.add("WITH f AS (SELECT * FROM read_text('" + path + "')) SELECT count(*) FROM f");
            out.add("DESCRIBE SELECT * FROM read_csv('" + path + "')");
            out.add("SUMMARIZE SELECT * FROM read_text('" + path + "')");
            out.add("SELECT * FROM claims, read_text('" + path + "') t");
            out.add("SELECT * FROM main.read_text('" + path + "')");
        }
        out.add("FROM 'https://example.com/x.csv'");
        out.add("SELECT * FROM read_csv('s3://bucket/x.csv')");
        return out;
    }

    /** On DuckDB 2.0, read_blob/read_text of the database file return every column, redacted ones included. */
    @ParameterizedTest
    @MethodSource("readsOfTheDatabaseFile")
    void fileReadersAndFilePathsAsTablesAreRefused(String sql) {
        ToolResult r = assertRefusedBeforeRunning(sql);
        assertThat(r.error().get().code()).isIn(ErrorCode.TABLE_FUNCTION_NOT_ALLOWED, ErrorCode.TABLE_NOT_ALLOWED,
                ErrorCode.FUNCTION_NOT_ALLOWED, ErrorCode.STATEMENT_NOT_ALLOWED);
    }

    static List<String> stateAndConfiguration() {
        return List.of(
                "CREATE TEMP TABLE t1 AS SELECT 1 AS a",
                "CREATE TEMP VIEW v1 AS SELECT * FROM users",
                "CREATE TEMP MACRO m1(x) AS x + 1",
                "CREATE TEMP SEQUENCE s1",
                "CREATE TABLE t2 (a INT)",
                "INSERT INTO claims (id) VALUES (999)",
                "UPDATE users SET password = 'x'",
                "DELETE FROM users",
                "DROP TABLE users",
                "ALTER TABLE users ADD COLUMN z INT",
                "SET VARIABLE leak = 42",
                "SELECT getvariable('leak')",
                "PREPARE p AS SELECT password FROM users",
                "EXECUTE p",
                "DEALLOCATE p",
                "CHECKPOINT",
                "FORCE CHECKPOINT",
                "VACUUM",
                "SELECT * FROM checkpoint()",
                "SET enable_external_access = true",
                "SET GLOBAL enable_external_access = true",
                "RESET enable_external_access",
                "SET lock_configuration = false",
                "RESET lock_configuration",
                "SET memory_limit = '100GB'",
                "SET threads = 64",
                "SET temp_directory = '/tmp'",
                "SET allowed_paths = ['/etc/passwd']",
                "SET search_path = 'main'",
                "SET schema = 'main'",
                "PRAGMA enable_external_access",
                "PRAGMA version",
                "  /* hidden */ -- and\n PRAGMA version",
                "pragma database_list",
                "SELECT * FROM pragma_version()",
                "SELECT * FROM pragma_table_info('users')",
                "CALL pragma_version()",
                "CALL duckdb_settings()",
                "INSTALL httpfs",
                "LOAD httpfs",
                "LOAD json",
                "FORCE INSTALL excel",
                "CREATE SECRET s1 (TYPE s3, KEY_ID 'k', SECRET 'v')",
                "CREATE PERSISTENT SECRET s2 (TYPE s3, KEY_ID 'k', SECRET 'v')",
                "DROP SECRET s1",
                "SELECT * FROM duckdb_secrets()",
                "SELECT * FROM which_secret('s3://x', 's3')",
                "SELECT * FROM duckdb_settings()",
                "SELECT * FROM duckdb_tables()",
                "SELECT * FROM duckdb_databases()",
                "SELECT * FROM information_schema.tables",
                "SELECT * FROM pg_catalog.pg_class",
                "SELECT * FROM sqlite_master",
                "SELECT * FROM duckdb_tables",
                "SELECT current_setting('memory_limit')",
                "SELECT current_setting('home_directory')",
                "SELECT getenv('HOME')",
                "SELECT current_database()",
                "SELECT * FROM query('SELECT password FROM users')",
                "SELECT * FROM query_table('users')",
                "SELECT * FROM json_execute_serialized_sql(json_serialize_sql('SELECT password FROM users'))",
                "SELECT json_execute_serialized_sql('x')",
                "SELECT list_transform([1], lambda x: query('SELECT 1'))",
                "SELECT nextval('s1')",
                "SELECT * FROM users AT (VERSION => 1)",
                "EXPLAIN SELECT 1",
                "EXPLAIN ANALYZE SELECT * FROM claims",
                "SUMMARIZE duckdb_settings()",
                "PIVOT claims ON region USING sum(amount)",
                "SELECT system.main.abs(1)",
                "SELECT main.query('x')",
                "SELECT * FROM system.main.duckdb_settings()",
                "SELECT pg_sleep(100)",
                "SELECT error('boom')",
                "SHOW databases",
                "SELECT $name",
                "BEGIN TRANSACTION",
                "COMMIT",
                "ROLLBACK",
                "",
                ";",
                "-- only a comment");
    }

    /** These work on a locked read-only DuckDB connection; the engine refuses every one before DuckDB prepares it. */
    @ParameterizedTest
    @MethodSource("stateAndConfiguration")
    void stateConfigurationSecretsExtensionsAndSqlRunningFunctionsAreRefused(String sql) {
        assertRefusedBeforeRunning(sql);
    }

    static List<String> multiStatements() {
        return List.of(
                "SELECT 1; CREATE TEMP TABLE t1 AS SELECT 1",
                "CREATE TEMP TABLE t1 AS SELECT password FROM users; SELECT * FROM t1",
                "SET VARIABLE x = 1; SELECT getvariable('x')",
                "SELECT 1; SELECT 2",
                "SELECT 1;; SELECT 2",
                "SELECT 1; COPY (SELECT 'x') TO '" + db + "'",
                "COPY (SELECT 'x') TO '" + db + "' (FORMAT csv, USE_TMP_FILE false); SELECT 1",
                "SELECT 1 /* ; */; PRAGMA version",
                "SELECT ';'; SELECT 2");
    }

    /** DuckDB's prepareStatement("A; B") runs A at prepare time. The engine classifies before preparing, so nothing of A runs. */
    @ParameterizedTest
    @MethodSource("multiStatements")
    void multiStatementTextRunsNothing(String sql) {
        ToolResult r = assertRefusedBeforeRunning(sql);
        assertThat(r.error().get().code()).isIn(ErrorCode.MULTIPLE_STATEMENTS, ErrorCode.STATEMENT_NOT_ALLOWED);
    }

    @Test
    void aFailedSecretDoesNotBreakLaterQueries() {
        assertRefusedBeforeRunning("CREATE SECRET s1 (TYPE s3, KEY_ID 'k', SECRET 'v')");
        assertRefusedBeforeRunning("SELECT * FROM duckdb_secrets()");
        assertThat(query(engine, "SELECT name FROM users ORDER BY id").error()).isEmpty();
    }

    /** Errors raised by DuckDB while running carry a code and a sentence of ours: no path, PID, or DuckDB text. */
    @Test
    void runtimeErrorsCarryNoPathPidOrDuckDbText() {
        String pid = Long.toString(ProcessHandle.current().pid());
        for (String sql : List.of(
                "SELECT region + 1 FROM claims",
                "SELECT CAST('not a number' AS INTEGER)",
                "SELECT id FROM claims GROUP BY region",
                "SELECT nosuch FROM claims",
                "SELECT c.nosuch FROM claims c",
                "SELECT abs('x', 'y')",
                "SELECT CAST(" + "'" + db + "' AS DATE)",
                "SELECT id FROM claims, regions WHERE region = 'x'")) {
            ToolResult r = query(engine, sql);
            assertThat(r.error()).as(sql).isPresent();
            String message = r.error().get().message();
            assertThat(message).as(sql)
                    .doesNotContain(folder.toString()).doesNotContain(work.toString()).doesNotContain("data.duckdb")
                    .doesNotContain(System.getProperty("java.home")).doesNotContain(System.getProperty("user.home"))
                    .doesNotContain(pid).doesNotContain("Error:").doesNotContain("Binder").doesNotContain("Conversion")
                    .doesNotContain("Exception").doesNotContainIgnoringCase("duckdb");
            for (String secret : ContractDataset.SECRETS) {
                assertThat(message).doesNotContain(secret);
            }
        }
    }

    /** Refused queries name no path either, even when the model put one in the SQL. */
    @Test
    void refusalsDoNotEchoPaths() {
        for (String sql : readsOfTheDatabaseFile()) {
            String message = query(engine, sql).error().orElseThrow().message();
            assertThat(message).as(sql).doesNotContain(folder.toString()).doesNotContain("/etc/passwd").doesNotContain("data.duckdb");
        }
    }

    private static ToolResult assertRefusedBeforeRunning(String sql) {
        ToolResult r = query(engine, sql);
        assertThat(r.status()).as(sql).isEqualTo(ToolStatus.REJECTED);
        assertThat(r.sql()).as(sql).isEmpty();
        assertThat(r.error()).as(sql).isPresent();
        assertThat(r.error().get().code().type()).as(sql).isIn(ErrorType.POLICY, ErrorType.USER, ErrorType.RESOURCES);
        assertThat(Set.of(ErrorCode.INTERNAL_ERROR)).doesNotContain(r.error().get().code());
        return r;
    }
}
