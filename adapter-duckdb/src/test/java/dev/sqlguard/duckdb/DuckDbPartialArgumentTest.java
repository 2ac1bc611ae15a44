package dev.sqlguard.duckdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.duckdb.internal.DuckDbEngine;

/**
 * A sensitive value steered into an argument the catalog prover found partial (the count of a top-n
 * {@code max(x, n)}, {@code arg_max(x, y, n)}, a list dimension, histogram bins) is refused exactly like
 * any other partial step, although the function itself is total; the same calls on ordinary values run.
 */
class DuckDbPartialArgumentTest {
    @TempDir
    static Path folder;
    @TempDir
    static Path work;

    static DuckDbEngine engine;

    @BeforeAll
    static void open() throws Exception {
        engine = TestDatabases.engine(TestDatabases.contractDatabase(folder), work, GuardrailPolicy.defaults());
    }

    @AfterAll
    static void close() {
        engine.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            // fails exactly when the password is made of the trimmed characters: length 0 is an invalid n
            "SELECT max(id, length(ltrim(password, 'abcdefghijklmnopqrstuvwxyz0123456789'))) AS m FROM users",
            "SELECT min(name, length(password)) AS m FROM users",
            "SELECT arg_max(name, id, length(ltrim(password, 'abcdefghijklmnopqrstuvwxyz'))) AS m FROM users",
            "SELECT max_by(status, id, length(ssn)) AS m FROM claims",
            "SELECT array_length([1, 2], length(password)) AS m FROM users",
            "SELECT histogram(id, list_value(length(password))) AS m FROM users",
            "SELECT substring(password, 2) AS m FROM users"})
    void aSensitiveValueInAPartialArgumentIsRefusedLikeAnyPartialStep(String sql) {
        ToolResult r = TestDatabases.query(engine, sql);
        assertThat(r.error()).as(sql).isPresent();
        assertThat(r.error().get().code()).as(sql).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
        assertThat(r.rows()).as(sql).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT max(password) AS m, min(name, 2) AS n FROM users",
            "SELECT max(id, 2) AS m FROM users",
            "SELECT arg_max(name, id, 2) AS m FROM users",
            "SELECT max_by(password, id) AS m FROM users"})
    void theSameCallsOnOrdinaryValuesRun(String sql) {
        ToolResult r = TestDatabases.query(engine, sql);
        assertThat(r.error()).as(sql).isEmpty();
        assertThat(r.rows()).as(sql).isNotEmpty();
    }
}
