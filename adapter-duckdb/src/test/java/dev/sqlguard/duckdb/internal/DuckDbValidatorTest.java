package dev.sqlguard.duckdb.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.ColumnUse;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.OutputColumn;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.domain.UsePosition;

/** What the validator puts into a plan: tables, columns, functions, lineage, parameters and the executed text. */
class DuckDbValidatorTest {
    @TempDir
    static Path folder;
    @TempDir
    static Path temp;
    static DuckDbEngine engine;

    @BeforeAll
    static void open() throws Exception {
        Path db = folder.resolve("v.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE claims (id BIGINT, region VARCHAR, amount DECIMAL(12,2))");
            st.execute("CREATE TABLE users (id BIGINT, name VARCHAR, password VARCHAR)");
            st.execute("CREATE SCHEMA other");
            st.execute("CREATE TABLE other.notes (id BIGINT, body VARCHAR)");
        }
        engine = DuckDbEngine.open("v", GuardrailPolicy.defaults().withFunctions(Set.of("max", "upper", "count", "sum")),
                new DuckDbSettings(db.toRealPath(), Optional.of(temp.toRealPath()), Optional.empty(), 256_000_000L, 1));
    }

    @AfterAll
    static void close() {
        engine.close();
    }

    private static QueryPlan plan(String sql, Object... params) {
        return engine.validator().validate(QueryRequest.of("v", sql, params));
    }

    private static ColumnRef col(String table, String column) {
        return ColumnRef.of(table, column);
    }

    @Test
    void planNamesTablesColumnsFunctionsAndLineage() {
        QueryPlan p = plan("WITH t AS (SELECT c.region AS r, max(u.password) AS m FROM claims c JOIN users u ON c.id = u.id GROUP BY 1) "
                + "SELECT upper(r) AS region, m AS x, 7 AS seven FROM t");
        assertThat(p.tables()).containsExactlyInAnyOrder(TableRef.of("claims"), TableRef.of("users"));
        assertThat(p.columns()).contains(col("claims", "region"), col("users", "password"), col("claims", "id"), col("users", "id"));
        assertThat(p.functions()).containsExactlyInAnyOrder("upper", "max");
        assertThat(p.outputs()).containsExactly(
                OutputColumn.traced("region", Set.of(col("claims", "region"))),
                OutputColumn.traced("x", Set.of(col("users", "password"))),
                OutputColumn.traced("seven", Set.of()));
        // x derives from the password: the wrapper replaces it by a constant of its type, under its label
        assertThat(p.maskedOutputs()).containsExactly(1);
        assertThat(p.executableSql()).startsWith("SELECT * REPLACE (CASE WHEN 1 = 0 THEN sqlguard_result.\"x\" END AS \"x\") FROM (WITH t AS")
                .endsWith(") AS sqlguard_result LIMIT 1001");
        assertThat(p.parameters()).isEmpty();
    }

    /**
     * Masked outputs are replaced in the row-bound wrapper under the labels DuckDB gives them (two
     * outputs named alike come back as {@code a} and {@code a_1}); a sensitive label is masked too, and a
     * query without a sensitive output runs exactly as before.
     */
    @Test
    void sensitiveOutputsAreReplacedInTheWrapperUnderDuckDbsLabels() {
        QueryPlan dup = plan("SELECT u.name AS n, u.password AS n, u.id FROM users u ORDER BY u.id DESC");
        assertThat(dup.maskedOutputs()).containsExactly(1);
        assertThat(dup.executableSql()).isEqualTo("SELECT * REPLACE (CASE WHEN 1 = 0 THEN sqlguard_result.\"n_1\" END AS \"n_1\") FROM "
                + "(SELECT u.name AS n, u.password AS n, u.id FROM users u ORDER BY u.id DESC) AS sqlguard_result LIMIT 1001");
        QueryPlan named = plan("SELECT name AS \"My \"\"Secret\"\"\", id FROM users");
        assertThat(named.maskedOutputs()).containsExactly(0);
        assertThat(named.executableSql()).startsWith("SELECT * REPLACE (CASE WHEN 1 = 0 THEN sqlguard_result.\"My \"\"Secret\"\"\" END AS \"My \"\"Secret\"\"\") FROM (");
        assertThat(plan("SELECT name, id FROM users ORDER BY id").executableSql())
                .isEqualTo("SELECT * FROM (SELECT name, id FROM users ORDER BY id) AS sqlguard_result LIMIT 1001");
    }

    @Test
    void theTextAsWrittenRunsWhenDuckDbParsesItWrappedToTheCheckedTreeAndDuckDbsRenderingOtherwise() {
        // as written: DuckDB parses the wrapped text to exactly the checked tree
        assertThat(plan("SELECT count(*) AS n FROM claims WHERE amount > ?", 5).executableSql())
                .isEqualTo("SELECT * FROM (SELECT count(*) AS n FROM claims WHERE amount > ?) AS sqlguard_result LIMIT 1001");
        assertThat(plan("SELECT count(*) AS n FROM claims -- the total").executableSql())
                .isEqualTo("SELECT * FROM (SELECT count(*) AS n FROM claims -- the total\n) AS sqlguard_result LIMIT 1001");
        // a statement-ending semicolon cannot stand inside the wrapper: the text without it runs, so the
        // shape is the same with or without it, with or without a parameter
        assertThat(plan("SELECT count(*) AS n FROM claims;").executableSql())
                .isEqualTo("SELECT * FROM (SELECT count(*) AS n FROM claims) AS sqlguard_result LIMIT 1001");
        assertThat(plan("SELECT count(*) AS n FROM claims WHERE amount > ? ;\n", 5).executableSql())
                .isEqualTo("SELECT * FROM (SELECT count(*) AS n FROM claims WHERE amount > ?) AS sqlguard_result LIMIT 1001");
        assertThat(plan("SELECT count(*) FROM claims -- the total;").executableSql())
                .isEqualTo("SELECT * FROM (SELECT count(*) FROM claims -- the total\n) AS sqlguard_result LIMIT 1001");
        // a form DuckDB renders differently (VALUES as a subquery) still runs as DuckDB's rendering
        assertThat(plan("SELECT count(*) AS n FROM (VALUES (1), (2)) v(x);").executableSql())
                .doesNotContain(";").endsWith(") AS sqlguard_result LIMIT 1001");
        // a block comment left open would swallow the wrapper's end: refused before anything is wrapped
        assertThatThrownBy(() -> plan("SELECT count(*) AS n FROM claims /* x"))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.SYNTAX_ERROR));
    }

    @Test
    void onlyTrailingSemicolonsAndBlanksAreDropped() {
        assertThat(DuckDbValidator.withoutStatementEnd("SELECT 1;")).isEqualTo("SELECT 1");
        assertThat(DuckDbValidator.withoutStatementEnd("SELECT 1 ; ;\n ")).isEqualTo("SELECT 1");
        assertThat(DuckDbValidator.withoutStatementEnd("SELECT 1  \n")).isEqualTo("SELECT 1  \n");
        assertThat(DuckDbValidator.withoutStatementEnd("SELECT ';'")).isEqualTo("SELECT ';'");
        assertThat(DuckDbValidator.withoutStatementEnd(";")).isEmpty();
        // a second statement after the semicolon is still two statements: refused
        assertThatThrownBy(() -> plan("SELECT 1; SELECT 2;"))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.MULTIPLE_STATEMENTS));
    }

    @Test
    void starExpandsFromTheCatalogAndOtherSchemasAreQualified() {
        QueryPlan p = plan("SELECT * FROM claims JOIN other.notes n USING (id)");
        assertThat(p.outputs()).extracting(OutputColumn::name).containsExactly("id", "region", "amount", "body");
        // DuckDB's * over USING shows the left key (its bound plan says so): the lineage is that column
        assertThat(p.outputs().get(0).lineage()).containsExactly(col("claims", "id"));
        assertThat(p.tables()).contains(TableRef.of("other", "notes"));
        assertThat(p.uses()).contains(ColumnUse.direct(new ColumnRef(TableRef.of("other", "notes"), "id"), UsePosition.JOIN));
    }

    @Test
    void unusedCtesAreCheckedToo() {
        // DuckDB does not read an unused CTE, and the plan says what DuckDB reads; the parse-tree gate still checks it
        assertThat(plan("WITH unused AS (SELECT name FROM users) SELECT id FROM claims").tables())
                .containsExactly(TableRef.of("claims"));
        assertThatThrownBy(() -> plan("WITH unused AS (SELECT * FROM read_text('x')) SELECT id FROM claims"))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.TABLE_FUNCTION_NOT_ALLOWED));
        assertThatThrownBy(() -> plan("WITH unused AS (SELECT lower(name) FROM users) SELECT id FROM claims"))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.FUNCTION_NOT_ALLOWED));
    }

    @Test
    void scalarSubqueriesCarryEveryColumnTheyRead() {
        QueryPlan p = plan("SELECT (SELECT count(*) FROM users WHERE name = 'x') AS n");
        // the count derives from no column's value; the column it filters on is a filter use
        assertThat(p.outputs().get(0).lineage()).isEmpty();
        assertThat(p.uses()).extracting(ColumnUse::column, ColumnUse::position)
                .contains(org.assertj.core.groups.Tuple.tuple(col("users", "name"), UsePosition.FILTER));
        assertThat(p.functions()).contains("count");
        // a sensitive column may not decide what the subquery counts (redaction hides values, not predicates)
        assertThatThrownBy(() -> engine.policy().authorize(plan("SELECT (SELECT count(*) FROM users WHERE password = 'x') AS n")))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED));
    }

    @Test
    void parametersAreCountedAndBoundInOrder() {
        QueryPlan p = plan("SELECT id FROM claims WHERE region = $1 OR amount > $2 OR region = $1", "north", 3L);
        assertThat(p.parameters()).containsExactly("north", 3L);
        assertThatThrownBy(() -> plan("SELECT id FROM claims WHERE region = ?"))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.PARAMETER_COUNT_MISMATCH));
        assertThatThrownBy(() -> plan("SELECT id FROM claims WHERE region = $name"))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.UNSUPPORTED_PARAMETER));
    }

    /**
     * A function DuckDB does not have (SQLite's {@code iif}, common in the BIRD benchmark) is refused as a function, named;
     * DuckDB's bind error says the function "does not exist", which was read as a missing table.
     */
    @Test
    void aFunctionDuckDbDoesNotHaveIsRefusedAsAFunction() throws Exception {
        // the engine's own default function list: a name no list has reaches DuckDB's binder
        try (DuckDbEngine defaults = DuckDbEngine.open("d", GuardrailPolicy.defaults(), new DuckDbSettings(
                folder.resolve("v.duckdb").toRealPath(), Optional.of(temp.toRealPath()), Optional.empty(), 256_000_000L, 1))) {
            for (String sql : List.of("SELECT iif(id > 1, 1, 0) AS x FROM claims", "SELECT sum(iif(id > 1, 1, 0)) AS x FROM claims")) {
                assertThatThrownBy(() -> defaults.validator().validate(QueryRequest.of("d", sql))).as(sql)
                        .isInstanceOfSatisfying(GuardException.class, e -> {
                            assertThat(e.code()).isEqualTo(ErrorCode.FUNCTION_NOT_ALLOWED);
                            assertThat(e.safeMessage()).contains("'iif'").doesNotContain("table");
                        });
            }
            assertThatThrownBy(() -> defaults.validator().validate(QueryRequest.of("d", "SELECT id FROM nosuch")))
                    .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.TABLE_NOT_ALLOWED));
        }
    }

    @Test
    void theConfiguredFunctionListReplacesTheDefaults() {
        assertThatThrownBy(() -> plan("SELECT lower(region) FROM claims"))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.FUNCTION_NOT_ALLOWED));
        // table functions keep their own default list
        assertThat(plan("SELECT * FROM range(3)").tableFunctions()).containsExactly("range");
        assertThatThrownBy(() -> plan("SELECT * FROM read_text('x')"))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.TABLE_FUNCTION_NOT_ALLOWED));
    }

    @Test
    void deepNestingIsRefusedAsTooComplex() {
        String deepFrom = "SELECT * FROM " + "(SELECT * FROM ".repeat(400) + "claims" + ")".repeat(400);
        assertThatThrownBy(() -> plan(deepFrom))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.QUERY_TOO_COMPLEX));
        String deepExpression = "SELECT " + "(".repeat(3000) + "1" + ")".repeat(3000);
        assertThatThrownBy(() -> plan(deepExpression))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.QUERY_TOO_COMPLEX));
    }

    @Test
    void theLeadingPragmaCheckWorksWithoutDuckDb() {
        for (String sql : List.of("PRAGMA version", "  /* x */ -- y\n pragma x", "(PRAGMA version)", ";PRAGMA\tversion")) {
            assertThatThrownBy(() -> LeadingPragma.requireNoLeadingPragma(sql))
                    .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.STATEMENT_NOT_ALLOWED));
        }
        LeadingPragma.requireNoLeadingPragma("SELECT 'PRAGMA'");
        LeadingPragma.requireNoLeadingPragma("pragmatic_view");
    }

    @Test
    void theWrapperCheckRejectsAnythingButTheBoundAroundTheCheckedTree() {
        DuckDbInstance instance = DuckDbInstance.acquire(engine.settings());
        DuckDbParser parser = new DuckDbParser(instance);
        try {
            var checked = DuckDbValidator.single(parser.serialize("SELECT id FROM claims")).path("node");
            var good = DuckDbValidator.single(parser.serialize("SELECT * FROM (SELECT id FROM claims) AS sqlguard_result LIMIT 11"));
            assertThat(DuckDbValidator.isWrapperAround(good, checked, 11)).isTrue();
            for (String bad : List.of(
                    "SELECT * FROM (SELECT id FROM claims) AS sqlguard_result LIMIT 12",
                    "SELECT * FROM (SELECT name FROM users) AS sqlguard_result LIMIT 11",
                    "SELECT * FROM (SELECT id FROM claims) AS sqlguard_result WHERE id > 0 LIMIT 11",
                    "SELECT *, 1 FROM (SELECT id FROM claims) AS sqlguard_result LIMIT 11",
                    "SELECT * FROM (SELECT id FROM claims) AS other LIMIT 11",
                    "SELECT * FROM (SELECT id FROM claims) AS sqlguard_result LIMIT 11 OFFSET 1")) {
                assertThat(DuckDbValidator.isWrapperAround(DuckDbValidator.single(parser.serialize(bad)), checked, 11)).as(bad).isFalse();
            }
        } finally {
            parser.close();
            instance.release();
        }
    }

    /** The masked wrapper is accepted exactly: the checked wrapper with a REPLACE list of the masked labels, each a never-true CASE. */
    @Test
    void theMaskedWrapperCheckRejectsAnythingButTheMasksOfTheGivenLabels() {
        DuckDbInstance instance = DuckDbInstance.acquire(engine.settings());
        DuckDbParser parser = new DuckDbParser(instance);
        try {
            var wrapper = DuckDbValidator.single(parser.serialize("SELECT * FROM (SELECT id, password AS p FROM users) AS sqlguard_result LIMIT 11"));
            String tail = " FROM (SELECT id, password AS p FROM users) AS sqlguard_result LIMIT 11";
            var good = DuckDbValidator.single(parser.serialize("SELECT * REPLACE (CASE WHEN 1 = 0 THEN sqlguard_result.\"p\" END AS \"p\")" + tail));
            assertThat(DuckDbValidator.isMaskedWrapperAround(good, wrapper, List.of("p"))).isTrue();
            assertThat(DuckDbValidator.isMaskedWrapperAround(good, wrapper, List.of("id"))).isFalse();
            assertThat(DuckDbValidator.isMaskedWrapperAround(good, wrapper, List.of())).isFalse();
            assertThat(DuckDbValidator.isMaskedWrapperAround(wrapper, wrapper, List.of("p"))).isFalse();
            for (String bad : List.of(
                    "SELECT * REPLACE (CASE WHEN 1 = 1 THEN sqlguard_result.\"p\" END AS \"p\")" + tail,
                    "SELECT * REPLACE (CASE WHEN 1 = 0 THEN sqlguard_result.\"id\" END AS \"p\")" + tail,
                    "SELECT * REPLACE (CASE WHEN 1 = 0 THEN sqlguard_result.\"p\" ELSE sqlguard_result.\"p\" END AS \"p\")" + tail,
                    "SELECT * REPLACE (CASE WHEN 1 = 0 THEN sqlguard_result.\"p\" WHEN 1 = 1 THEN 'x' END AS \"p\")" + tail,
                    "SELECT * REPLACE (CASE WHEN 1 = 0 THEN upper(sqlguard_result.\"p\") END AS \"p\")" + tail,
                    "SELECT * REPLACE (CASE WHEN 1 = 0 THEN other.\"p\" END AS \"p\")" + tail,
                    "SELECT * REPLACE (sqlguard_result.\"p\" AS \"p\")" + tail,
                    "SELECT * REPLACE (CASE WHEN 1 = 0 THEN sqlguard_result.\"p\" END AS \"p\") FROM (SELECT id, name AS p FROM users) AS sqlguard_result LIMIT 11",
                    "SELECT * REPLACE (CASE WHEN 1 = 0 THEN sqlguard_result.\"p\" END AS \"p\")" + tail.replace("LIMIT 11", "LIMIT 12"),
                    "SELECT * EXCLUDE (id) REPLACE (CASE WHEN 1 = 0 THEN sqlguard_result.\"p\" END AS \"p\")" + tail,
                    "SELECT * REPLACE (CASE WHEN 1 = 0 THEN sqlguard_result.\"p\" END AS \"p\"), 1 AS one" + tail,
                    "SELECT * REPLACE (CASE WHEN 1 = 0 THEN sqlguard_result.\"p\" END AS \"p\")" + tail.replace(" LIMIT", " WHERE id > 0 LIMIT"))) {
                assertThat(DuckDbValidator.isMaskedWrapperAround(DuckDbValidator.single(parser.serialize(bad)), wrapper, List.of("p")))
                        .as(bad).isFalse();
            }
        } finally {
            parser.close();
            instance.release();
        }
    }

    @Test
    void aStarOverAUsingJoinIsExpandedByDuckDbWithoutTheHiddenColumns() throws Exception {
        GuardrailPolicy policy = GuardrailPolicy.defaults().withTables(dev.sqlguard.domain.TableAllowlist.of(java.util.Map.of(
                "claims", List.of("*"), "users", List.of("id", "name"))));
        try (DuckDbEngine restricted = DuckDbEngine.open("v", policy,
                new DuckDbSettings(folder.resolve("v.duckdb").toRealPath(), Optional.of(temp.toRealPath()), Optional.empty(), 256_000_000L, 1))) {
            QueryPlan p = restricted.validator().validate(QueryRequest.of("v", "SELECT * FROM claims c JOIN users u USING (id)"));
            // DuckDB keeps the *, told to leave the hidden column out by its table's name
            assertThat(p.executableSql()).contains("EXCLUDE").containsIgnoringCase("password");
            assertThat(p.outputs()).extracting(OutputColumn::name).containsExactly("id", "region", "amount", "name");
            assertThat(p.outputs().get(3).lineage()).containsExactly(col("users", "name"));
            assertThat(p.columns()).doesNotContain(col("users", "password"));
            assertThat(p.outputs()).allSatisfy(o -> assertThat(o.lineage()).doesNotContain(col("users", "password")));
            // a qualified star over one side is named column by column, as over a single table
            QueryPlan side = restricted.validator().validate(QueryRequest.of("v", "SELECT u.* FROM claims c JOIN users u USING (id)"));
            assertThat(side.outputs()).extracting(OutputColumn::name).containsExactly("id", "name");
            assertThat(side.executableSql()).doesNotContainIgnoringCase("password");
            // the key itself hidden on one side: refused as a missing column, before any * is expanded
            assertThatThrownBy(() -> restricted.validator().validate(QueryRequest.of("v",
                    "SELECT * FROM users a JOIN users b USING (password)")))
                    .isInstanceOf(GuardException.class).extracting(e -> ((GuardException) e).code()).isEqualTo(ErrorCode.UNKNOWN_COLUMN);
        }
    }
}
