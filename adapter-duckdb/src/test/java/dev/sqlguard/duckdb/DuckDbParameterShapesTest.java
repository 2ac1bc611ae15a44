package dev.sqlguard.duckdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.duckdb.internal.DuckDbEngine;

/**
 * Parameter shapes raw DuckDB binds once the value comes, although {@code json_serialize_plan} cannot
 * serialize their plan without it (a parameter whose type only its value gives), and a struct
 * literal's field named like a sensitive column: each answers as raw DuckDB does.
 */
class DuckDbParameterShapesTest {
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
        if (engine != null) {
            engine.close();
        }
    }

    private static List<List<Object>> answer(String sql, Object... params) {
        ToolResult r = TestDatabases.query(engine, sql, params);
        assertThat(r.status()).as(sql + " " + r.error()).isEqualTo(ToolStatus.OK);
        return r.rows();
    }

    @Test
    void aParameterTypedOnlyByItsValueIsAnswered() {
        assertThat(answer("SELECT ? AS x", (Object) null)).containsExactly(Arrays.asList((Object) null));
        assertThat(answer("SELECT ? AS x", 7)).containsExactly(List.of(7L));
        assertThat(answer("SELECT count(*) AS n FROM range(?)", 5).get(0).get(0)).isEqualTo(5L);
        assertThat(answer("SELECT $1 AS x, $1 AS y", "a")).containsExactly(List.of("a", "a"));
        assertThat(answer("SELECT ? + 1 AS x", 2).get(0).get(0).toString()).isEqualTo("3");
    }

    @Test
    void aParameterStillCannotReachASensitiveColumn() {
        ToolResult r = TestDatabases.query(engine, "SELECT ssn FROM claims WHERE id = ?", 1);
        assertThat(r.rows()).allSatisfy(row -> assertThat(row.get(0)).isNotEqualTo("123-45-6789"));
    }

    @Test
    void aStructLiteralsFieldNamedLikeASecretIsNoColumn() {
        assertThat(answer("SELECT list_transform([{'password': 'x'}], lambda u: u.password) AS l")).hasSize(1);
        // a lambda parameter named like a table alias: whatever DuckDB binds, no password comes back
        for (String sql : new String[] {"SELECT list_transform([1], lambda u: u.password) AS l FROM users u",
                "SELECT list_transform([{'password': 'x'}], lambda u: u.password) AS l FROM users u"}) {
            ToolResult r = TestDatabases.query(engine, sql);
            for (dev.sqlguard.testing.ContractDataset.User user : dev.sqlguard.testing.ContractDataset.users()) {
                assertThat(String.valueOf(r.rows())).as(sql).doesNotContain(user.password());
            }
        }
    }
}
