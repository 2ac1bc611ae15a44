package dev.sqlguard.duckdb;

import static dev.sqlguard.duckdb.TestDatabases.query;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.ResultColumn;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.testing.ContractDataset;
import dev.sqlguard.duckdb.internal.DuckDbEngine;
import dev.sqlguard.duckdb.internal.FunctionDefaults;

/**
 * Attacks on the bound-plan design: names DuckDB's binder resolves differently from how they read
 * (a bare FROM-item name is its whole row; an output alias shadows a column in ORDER BY, HAVING,
 * DISTINCT ON and QUALIFY; a position hides in {@code 1 COLLATE NOCASE}; {@code #n} counts the
 * duplicated key of a {@code USING} join), cost amplification (including constant arguments DuckDB's
 * binder evaluates while it binds), and schema probing under a restricted allowlist. Each class is
 * sent through many carriers (plain, CTE, derived table, VALUES, LATERAL, recursive CTE, renamed
 * table, window, QUALIFY, set operation, scalar subquery, IN/EXISTS) over the contract database,
 * next to honest controls of the same shape that must run and return the right rows.
 *
 * <p>Every attack is first run on raw DuckDB (a plain read-write connection, closed before the
 * engines open the file) to prove it works there: value attacks return a secret, filter oracles
 * answer differently for a right and a wrong guess, ordering oracles return rows in the order of a
 * secret. Guarded, each must then be refused with the code the design gives, or answer without the
 * secret: no cell (nested list and struct text included) holds a secret, its reverse or its hash,
 * and an oracle answers the same for both guesses.
 *
 * <p>Queries that still leak are kept in separate test methods whose names start with {@code leak},
 * failing until the engine closes them.
 */
class DuckDbBoundPlanHostileTest {
    /** Replaced by a fragment of alice's password (right) or by text no row holds (wrong). */
    private static final String GUESS = "GUESS";
    private static final String RIGHT = "hunter2";
    private static final String WRONG = "qqqq-no-such";
    /** Passwords in ascending order belong to users 3, 1, 2 (carol-pw-zz9, hunter2-alice-pw, s3cr3t-bob-pw). */
    private static final List<Long> PASSWORD_ORDER = List.of(3L, 1L, 2L);
    private static final Pattern SSN_SHAPE = Pattern.compile("\\d{3}-\\d{2}-\\d{4}");

    @TempDir
    static Path folder;
    @TempDir
    static Path work;

    static DuckDbEngine engine;
    /** claims without ssn, regions; users hidden. */
    static DuckDbEngine restricted;
    /** The default functions plus list_resize, so that its amplification reaches the cost rule. */
    static DuckDbEngine resizing;
    /** Default limits but a 2 s timeout, for the runaways that must be stopped while they run. */
    static DuckDbEngine impatient;
    static List<String> secretTexts;

    /** Raw DuckDB's answers, keyed by the SQL text that ran. */
    static final Map<String, RawAnswer> raw = new LinkedHashMap<>();

    record RawAnswer(List<List<String>> rows, String error) {
        boolean holdsASecret() {
            return rows.stream().flatMap(List::stream).anyMatch(DuckDbBoundPlanHostileTest::holdsSecret);
        }
    }

    // ------------------------------------------------------------------------------------------
    // The attacks

    /** Whole-row references whose value comes back: must be refused or come back without any secret. */
    static List<String> wholeRowValues() {
        return List.of(
                // plain: the bare alias, table name and SQL value names bind to the whole row first
                "SELECT id AS u, u FROM users u",
                "SELECT u FROM users u",
                "SELECT users FROM users",
                "SELECT current_date FROM users AS \"current_date\"",
                "SELECT localtime FROM users AS localtime",
                "SELECT current_timestamp FROM (SELECT * FROM users) AS current_timestamp",
                "SELECT u::VARCHAR AS v FROM users u",
                "SELECT upper(u::VARCHAR) AS v FROM users u",
                "SELECT struct_extract(u, 'password') AS v FROM users u",
                "SELECT [u] AS v FROM users u",
                "SELECT {'r': u} AS v FROM users u",
                // CTE
                "WITH c AS (SELECT * FROM users) SELECT c FROM c",
                "WITH current_date AS (SELECT * FROM users) SELECT current_date FROM current_date",
                "WITH c AS (SELECT u FROM users u) SELECT * FROM c",
                // derived table
                "SELECT d FROM (SELECT * FROM users) d",
                "SELECT d::VARCHAR AS v FROM (SELECT password FROM users) d",
                // VALUES
                "SELECT v FROM users u, (VALUES (u.password)) v(p)",
                "SELECT v::VARCHAR AS s FROM users u, (VALUES (u.api_key, 1)) v(p, n)",
                // LATERAL
                "SELECT l FROM users u, LATERAL (SELECT u.password AS p) l",
                "SELECT l.w FROM users u, LATERAL (SELECT u AS w) l",
                // recursive CTE
                "WITH RECURSIVE r AS (SELECT id, password FROM users UNION ALL SELECT id, password FROM r WHERE false) SELECT r FROM r",
                "WITH RECURSIVE r(n, w) AS (SELECT 1, u FROM users u UNION ALL SELECT n + 1, w FROM r WHERE n < 2) SELECT w FROM r",
                // renamed table
                "SELECT x FROM users AS x(a, b, c, d)",
                "SELECT x::VARCHAR AS v FROM users AS x(a, b, c, d)",
                // window
                "SELECT first_value(u) OVER (ORDER BY u.id) AS f FROM users u",
                "SELECT lag(u) OVER (ORDER BY u.id) AS f FROM users u",
                "SELECT max(u::VARCHAR) OVER () AS f FROM users u",
                // QUALIFY
                "SELECT u FROM users u QUALIFY row_number() OVER (ORDER BY u.id) = 1",
                // set operation
                "SELECT u::VARCHAR AS v FROM users u UNION ALL SELECT 'x'",
                "SELECT 'x' AS v UNION ALL SELECT u::VARCHAR FROM users u",
                // scalar subquery: the inner bare name binds to the inner row before the outer column
                "SELECT (SELECT u FROM users u WHERE u.id = x.u) AS v FROM (SELECT 1 AS u) x",
                "SELECT (SELECT max(u::VARCHAR) FROM users u) AS v",
                "SELECT (SELECT list(u ORDER BY u.id) FROM users u) AS v",
                // SUMMARIZE computes min and max of the summarized values
                "SUMMARIZE SELECT u::VARCHAR AS v FROM users u",
                "SUMMARIZE SELECT current_date FROM users AS current_date",
                // #n after USING / NATURAL counts the duplicated key: #7 is v.password, #3 is password
                "SELECT #7 AS v FROM users u JOIN users v USING (id)",
                "SELECT #3 AS v FROM users NATURAL JOIN (SELECT id, name FROM users) x",
                "SELECT #4 AS v FROM (VALUES (1)) t(id) JOIN users USING (id)");
    }

    /**
     * Oracles: the query's answer depends on whether a secret matches {@code GUESS}. Raw DuckDB answers
     * differently for the right and the wrong guess; guarded, the query must be refused (or answer the same).
     */
    static List<String> filterOracles() {
        return List.of(
                // 1. whole-row references in filter positions, through every carrier
                "SELECT id FROM users u WHERE u::VARCHAR LIKE '%GUESS%'",
                "SELECT count(*) AS n FROM users u WHERE contains(u::VARCHAR, 'GUESS')",
                "SELECT id FROM users AS current_date WHERE current_date::VARCHAR LIKE '%GUESS%'",
                "SELECT 'zz' AS u FROM users u WHERE u::VARCHAR LIKE '%GUESS%'",
                "SELECT count(*) AS n FROM users u GROUP BY u::VARCHAR LIKE '%GUESS%'",
                "SELECT count(*) AS n FROM users u HAVING bool_or(u::VARCHAR LIKE '%GUESS%')",
                "SELECT count(*) AS n FROM users u JOIN regions r ON u::VARCHAR LIKE '%GUESS%'",
                "WITH c AS (SELECT * FROM users) SELECT id FROM c WHERE c::VARCHAR LIKE '%GUESS%'",
                "WITH current_date AS (SELECT * FROM users) SELECT id FROM current_date WHERE current_date::VARCHAR LIKE '%GUESS%'",
                "WITH c AS (SELECT id FROM users u WHERE u::VARCHAR LIKE '%GUESS%') SELECT count(*) AS n FROM c",
                "SELECT id FROM (SELECT * FROM users) d WHERE d::VARCHAR LIKE '%GUESS%'",
                "SELECT id FROM (SELECT * FROM users) AS current_timestamp WHERE current_timestamp::VARCHAR LIKE '%GUESS%'",
                "SELECT id FROM (SELECT * FROM users) AS localtime WHERE localtime::VARCHAR LIKE '%GUESS%'",
                "SELECT count(*) AS n FROM (SELECT id FROM users u WHERE u::VARCHAR LIKE '%GUESS%') d",
                "SELECT u.id FROM users u, (VALUES (u.password)) v(p) WHERE v::VARCHAR LIKE '%GUESS%'",
                "SELECT u.id FROM users u, LATERAL (SELECT u.password AS p) l WHERE l::VARCHAR LIKE '%GUESS%'",
                "SELECT u.id FROM users u, LATERAL (SELECT 1 AS one WHERE u::VARCHAR LIKE '%GUESS%') l",
                "WITH RECURSIVE r AS (SELECT id, password FROM users UNION ALL SELECT id, password FROM r WHERE false) "
                        + "SELECT id FROM r WHERE r::VARCHAR LIKE '%GUESS%'",
                "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r, users u WHERE n < 2 AND u::VARCHAR LIKE '%GUESS%') "
                        + "SELECT count(*) AS c FROM r",
                "SELECT a FROM users AS x(a, b, c, d) WHERE x::VARCHAR LIKE '%GUESS%'",
                "SELECT id, count(*) OVER (PARTITION BY u::VARCHAR LIKE '%GUESS%') AS n FROM users u",
                "SELECT id, count(*) FILTER (WHERE u::VARCHAR LIKE '%GUESS%') OVER () AS n FROM users u",
                "SELECT id FROM users u QUALIFY count(*) OVER () > 0 AND u::VARCHAR LIKE '%GUESS%'",
                "SELECT id FROM users u WHERE u::VARCHAR LIKE '%GUESS%' UNION ALL SELECT 0",
                "SELECT count(*) AS n FROM (SELECT u::VARCHAR LIKE '%GUESS%' AS hit FROM users u UNION SELECT false)",
                "SELECT (SELECT count(*) FROM users u WHERE u::VARCHAR LIKE '%GUESS%') AS n",
                "SELECT (SELECT count(*) FROM users u WHERE u::VARCHAR LIKE '%GUESS%') AS n FROM (SELECT 1 AS u) x",
                "SELECT (SELECT count(*) FROM regions WHERE u::VARCHAR LIKE '%GUESS%') AS n FROM users u",
                "SELECT count(*) AS n FROM regions WHERE EXISTS (SELECT 1 FROM users u WHERE u::VARCHAR LIKE '%GUESS%')",
                "SELECT count(*) AS n FROM users WHERE id IN (SELECT u.id FROM users u WHERE u::VARCHAR LIKE '%GUESS%')",
                "SELECT count(*) AS n FROM users u WHERE NOT EXISTS (SELECT 1 WHERE u::VARCHAR LIKE '%GUESS%')",
                "SELECT count(*) AS n FROM regions WHERE true IN (SELECT u::VARCHAR LIKE '%GUESS%' FROM users u)",
                "SELECT id FROM users LIMIT (SELECT max(CASE WHEN u::VARCHAR LIKE '%GUESS%' THEN 2 ELSE 1 END) FROM users u)",
                "SELECT count(*) AS n FROM range((SELECT count(*) FROM users u WHERE u::VARCHAR LIKE '%GUESS%'))",
                // 1b. a whole row computed on in the select list: the output itself would answer the guess
                "SELECT id, CASE WHEN u::VARCHAR LIKE '%GUESS%' THEN 1 ELSE 0 END AS hit FROM users u",
                "SELECT id, u::VARCHAR LIKE '%GUESS%' AS hit FROM users u",
                "SELECT id, len(list_filter([1], lambda x: u::VARCHAR LIKE '%GUESS%')) AS hit FROM users u",
                "SELECT count(*) FILTER (WHERE u::VARCHAR LIKE '%GUESS%') AS hits FROM users u",
                "SELECT sum(CASE WHEN d::VARCHAR LIKE '%GUESS%' THEN 1 ELSE 0 END) AS hits FROM (SELECT * FROM users) d",
                "SELECT CAST(CASE WHEN u::VARCHAR LIKE '%GUESS%' THEN 'x' ELSE '1' END AS INTEGER) AS v FROM users u",
                "SELECT id, CASE WHEN current_date::VARCHAR LIKE '%GUESS%' THEN 1 ELSE 0 END AS hit FROM users AS current_date",
                "SELECT id, (SELECT count(*) FROM regions WHERE l::VARCHAR LIKE '%GUESS%') AS hit FROM users u, LATERAL (SELECT u.password AS p) l",
                // 2. an output alias shadowing a column (HAVING, QUALIFY) or standing alone
                "SELECT id, max(password) AS name FROM users GROUP BY id HAVING name LIKE '%GUESS%'",
                "SELECT id, password AS pw2, row_number() OVER (ORDER BY id) AS r FROM users QUALIFY pw2 LIKE '%GUESS%'",
                "WITH x AS (SELECT id, max(password) AS name FROM users GROUP BY id HAVING name LIKE '%GUESS%') SELECT count(*) AS n FROM x",
                "SELECT count(*) AS n FROM (SELECT id, max(password) AS name FROM users GROUP BY id HAVING name LIKE '%GUESS%')",
                "SELECT count(*) AS n FROM regions WHERE EXISTS (SELECT id, max(password) AS name FROM users GROUP BY id HAVING name LIKE '%GUESS%')",
                "SELECT (SELECT count(*) FROM (SELECT id, max(password) AS name FROM users GROUP BY id HAVING name LIKE '%GUESS%')) AS n",
                "SELECT id, max(password) AS name FROM users GROUP BY id HAVING name LIKE '%GUESS%' UNION ALL SELECT 0, 'x'",
                "SELECT a, max(c) AS b FROM users AS x(a, b, c, d) GROUP BY a HAVING b LIKE '%GUESS%'",
                // 3. a position hidden in COLLATE: DISTINCT ON the password merges a guessed duplicate
                "SELECT count(*) AS n FROM (SELECT DISTINCT ON (1 COLLATE NOCASE) p, i "
                        + "FROM (SELECT password, id FROM users UNION ALL SELECT upper('GUESS-alice-pw'), 0) t(p, i))",
                "WITH t(p, i) AS (SELECT password, id FROM users UNION ALL SELECT upper('GUESS-alice-pw'), 0) "
                        + "SELECT count(*) AS n FROM (SELECT DISTINCT ON (1 COLLATE NOCASE) p, i FROM t)",
                // 4. #n after USING / NATURAL joins, through every carrier
                "SELECT u.id FROM users u JOIN users v USING (id) WHERE #7 LIKE '%GUESS%'",
                "SELECT count(*) AS n FROM users NATURAL JOIN (SELECT id, name FROM users) x WHERE #3 LIKE '%GUESS%'",
                "SELECT count(*) AS n FROM (VALUES (1)) t(id) JOIN users USING (id) WHERE #4 LIKE '%GUESS%'",
                "SELECT count(*) AS n FROM users AS x(id, b, c, d) JOIN users AS y(id, e, f, g) USING (id) WHERE #7 LIKE '%GUESS%'",
                "WITH j AS (SELECT u.id FROM users u JOIN users v USING (id) WHERE #7 LIKE '%GUESS%') SELECT count(*) AS n FROM j",
                "SELECT count(*) AS n FROM (SELECT u.id FROM users u JOIN users v USING (id) WHERE #7 LIKE '%GUESS%')",
                "SELECT x.id FROM users x, LATERAL (SELECT 1 AS one FROM users u JOIN users v USING (id) WHERE #7 LIKE '%GUESS%' AND u.id = x.id) l",
                "WITH RECURSIVE r AS (SELECT u.id FROM users u JOIN users v USING (id) WHERE #7 LIKE '%GUESS%' "
                        + "UNION ALL SELECT id FROM r WHERE false) SELECT count(*) AS n FROM r",
                "SELECT u.id, count(*) OVER (PARTITION BY #7 LIKE '%GUESS%') AS n FROM users u JOIN users v USING (id)",
                "SELECT u.id FROM users u JOIN users v USING (id) QUALIFY count(*) OVER () > 0 AND #7 LIKE '%GUESS%'",
                "SELECT count(*) AS n FROM users u JOIN users v USING (id) GROUP BY #7 LIKE '%GUESS%'",
                "SELECT u.id FROM users u JOIN users v USING (id) WHERE #7 LIKE '%GUESS%' UNION ALL SELECT 0",
                "SELECT (SELECT count(*) FROM users u JOIN users v USING (id) WHERE #7 LIKE '%GUESS%') AS n",
                "SELECT count(*) AS n FROM users WHERE id IN (SELECT u.id FROM users u JOIN users v USING (id) WHERE #7 LIKE '%GUESS%')",
                "SELECT count(*) AS n FROM regions WHERE EXISTS (SELECT 1 FROM users u NATURAL JOIN users v WHERE #3 LIKE '%GUESS%')");
    }

    /**
     * Ordering oracles: raw DuckDB returns the ids (first column) in the order of the passwords. Guarded,
     * each must be refused with COLUMN_NOT_ALLOWED.
     */
    static List<String> orderOracles() {
        return List.of(
                // 1. a whole row whose first field is the password
                "SELECT d.id FROM (SELECT password, id FROM users) d ORDER BY d",
                "WITH c AS (SELECT password, id FROM users) SELECT id FROM c ORDER BY c",
                "SELECT id FROM (SELECT password, id FROM users) AS current_date ORDER BY current_date",
                "SELECT d.id, row_number() OVER (ORDER BY d) AS r FROM (SELECT password, id FROM users) d ORDER BY r",
                "SELECT DISTINCT ON (d) d.id FROM (SELECT password, id FROM users) d ORDER BY d",
                "SELECT string_agg(d.id::VARCHAR, ',' ORDER BY d) AS s FROM (SELECT password, id FROM users) d",
                "SELECT list(d.id ORDER BY d) AS s FROM (SELECT password, id FROM users) d",
                // 2. an output alias shadowing a column in ORDER BY and DISTINCT ON
                "SELECT id, password AS name FROM users ORDER BY name",
                "SELECT id, password AS name FROM users ORDER BY name DESC NULLS LAST",
                "SELECT DISTINCT ON (name) id, password AS name FROM users ORDER BY name",
                "WITH x AS (SELECT id, password AS name FROM users ORDER BY name LIMIT 1) SELECT id FROM x",
                "SELECT id FROM (SELECT id, password AS name FROM users ORDER BY name LIMIT 1)",
                "SELECT u.id, v.p AS name FROM users u, (VALUES (u.password)) v(p) ORDER BY name",
                "SELECT u.id, l.name FROM users u, LATERAL (SELECT u.password AS name) l ORDER BY name",
                "WITH RECURSIVE r AS (SELECT id, name FROM users UNION ALL SELECT id, name FROM r WHERE false) "
                        + "SELECT r.id, u.password AS name FROM r JOIN users u USING (id) ORDER BY name",
                "SELECT a, c AS b FROM users AS x(a, b, c, d) ORDER BY b",
                "SELECT id, password AS name, row_number() OVER (ORDER BY id) AS r FROM users ORDER BY name",
                "SELECT id, password AS name FROM users QUALIFY row_number() OVER (ORDER BY id) > 0 ORDER BY name",
                "SELECT id, password AS name FROM users UNION ALL SELECT 0, 'zz' ORDER BY name",
                "SELECT (SELECT id FROM (SELECT id, password AS name FROM users) ORDER BY name LIMIT 1) AS v",
                "SELECT id FROM users WHERE id IN (SELECT id FROM (SELECT id, password AS name FROM users ORDER BY name LIMIT 1))",
                // 3. a position hidden in COLLATE
                "SELECT id, password FROM users ORDER BY 2 COLLATE NOCASE",
                "SELECT id, password FROM users ORDER BY 2 COLLATE NOCASE DESC",
                "SELECT id, password FROM users ORDER BY (2) COLLATE NOCASE",
                "SELECT DISTINCT ON (2 COLLATE NOCASE) id, password FROM users ORDER BY 2 COLLATE NOCASE",
                "WITH x AS (SELECT id, password FROM users ORDER BY 2 COLLATE NOCASE LIMIT 1) SELECT id FROM x",
                "SELECT id FROM (SELECT id, password FROM users ORDER BY 2 COLLATE NOCASE LIMIT 1)",
                "SELECT u.id, v.p FROM users u, (VALUES (u.password)) v(p) ORDER BY 2 COLLATE NOCASE",
                "SELECT u.id, l.p FROM users u, LATERAL (SELECT u.password AS p) l ORDER BY 2 COLLATE NOCASE",
                "WITH RECURSIVE r AS (SELECT id, password FROM users UNION ALL SELECT id, password FROM r WHERE false) "
                        + "SELECT id, password FROM r ORDER BY 2 COLLATE NOCASE",
                "SELECT a, c FROM users AS x(a, b, c, d) ORDER BY 2 COLLATE NOCASE",
                "SELECT id, password, row_number() OVER () AS r FROM users ORDER BY 2 COLLATE NOCASE",
                "SELECT id, password FROM users QUALIFY row_number() OVER (ORDER BY id) > 0 ORDER BY 2 COLLATE NOCASE",
                "SELECT id, password FROM users UNION ALL SELECT 0, 'zz' ORDER BY 2 COLLATE NOCASE",
                "SELECT (SELECT id FROM (SELECT id, password FROM users ORDER BY 2 COLLATE NOCASE LIMIT 1)) AS v",
                "SELECT id FROM users WHERE id IN (SELECT id FROM (SELECT id, password FROM users ORDER BY 2 COLLATE NOCASE LIMIT 1))");
    }

    static List<String> amplifications() {
        return CostVectors.amplifications();
    }

    static List<String> amplificationsThatRun() {
        return CostVectors.constantGrowth();
    }

    /** Honest queries of the same shapes, over ordinary columns: they run and return these rows. */
    static Stream<Arguments> honestControls() {
        return Stream.of(
                // whole rows, aliases and carriers over ordinary columns
                Arguments.of("SELECT u.id, u.name FROM users u WHERE u.name LIKE '%ali%'", "[[1, alice]]"),
                Arguments.of("SELECT u.id AS u, u.name FROM users u ORDER BY u.id", "[[1, alice], [2, bob], [3, carol]]"),
                Arguments.of("WITH c AS (SELECT * FROM regions) SELECT c.manager FROM c WHERE c.region = 'north'", "[[Nadia]]"),
                Arguments.of("SELECT d.manager FROM (SELECT * FROM regions) d WHERE d.manager LIKE 'N%'", "[[Nadia]]"),
                Arguments.of("SELECT v.p FROM (VALUES ('a'), ('b')) v(p) WHERE v.p > 'a'", "[[b]]"),
                Arguments.of("SELECT l.n FROM users u, LATERAL (SELECT u.name AS n) l WHERE l.n LIKE 'b%'", "[[bob]]"),
                Arguments.of("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT n FROM r ORDER BY n", "[[1], [2], [3]]"),
                Arguments.of("SELECT x.b FROM users AS x(a, b, c, d) WHERE x.b LIKE 'c%'", "[[carol]]"),
                Arguments.of("SELECT u.id, row_number() OVER (ORDER BY u.name DESC) AS r FROM users u ORDER BY u.id", "[[1, 3], [2, 2], [3, 1]]"),
                Arguments.of("SELECT u.id FROM users u QUALIFY row_number() OVER (ORDER BY u.name) = 1", "[[1]]"),
                Arguments.of("SELECT u.name FROM users u WHERE u.id = 1 UNION ALL SELECT r.manager FROM regions r WHERE r.region = 'west' ORDER BY 1",
                        "[[Wes], [alice]]"),
                Arguments.of("SELECT (SELECT u.name FROM users u WHERE u.id = x.u) AS v FROM (SELECT 2 AS u) x", "[[bob]]"),
                Arguments.of("SELECT count(*) AS n FROM regions WHERE EXISTS (SELECT 1 FROM users u WHERE u.name LIKE '%ali%')", "[[4]]"),
                Arguments.of("SELECT count(*) AS n FROM users WHERE id IN (SELECT u.id FROM users u WHERE u.name LIKE 'c%')", "[[1]]"),
                Arguments.of("SELECT current_date IS NOT NULL AS today FROM users LIMIT 1", "[[true]]"),
                // output aliases in ORDER BY, HAVING, DISTINCT ON and QUALIFY
                Arguments.of("SELECT id, name AS label FROM users ORDER BY label DESC", "[[3, carol], [2, bob], [1, alice]]"),
                Arguments.of("SELECT region, count(*) AS n FROM claims GROUP BY region HAVING n = 15 ORDER BY region",
                        "[[east, 15], [north, 15], [south, 15], [west, 15]]"),
                Arguments.of("SELECT DISTINCT ON (label) region AS label, id FROM claims ORDER BY label, id",
                        "[[east, 2], [north, 4], [south, 1], [west, 3]]"),
                Arguments.of("SELECT id, name AS label, row_number() OVER (ORDER BY id) AS r FROM users QUALIFY label > 'b' ORDER BY id",
                        "[[2, bob, 2], [3, carol, 3]]"),
                Arguments.of("WITH x AS (SELECT id, name AS label FROM users ORDER BY label DESC LIMIT 1) SELECT id FROM x", "[[3]]"),
                // positions in expressions
                Arguments.of("SELECT id, name FROM users ORDER BY 2 COLLATE NOCASE DESC", "[[3, carol], [2, bob], [1, alice]]"),
                Arguments.of("SELECT DISTINCT ON (1 COLLATE NOCASE) region, id FROM claims ORDER BY 1, 2",
                        "[[east, 2], [north, 4], [south, 1], [west, 3]]"),
                // #n after USING and NATURAL, before the duplicated key
                Arguments.of("SELECT #2 AS n FROM users u JOIN users v USING (id) ORDER BY n", "[[alice], [bob], [carol]]"),
                Arguments.of("SELECT #2 AS m FROM regions r JOIN claims c USING (region) WHERE c.id = 1", "[[Sam]]"),
                Arguments.of("SELECT #3 AS a FROM regions r NATURAL JOIN claims c ORDER BY a LIMIT 2", "[[1], [2]]"),
                // bounded amplifying calls with literal arguments
                Arguments.of("SELECT repeat('x', 10) AS a, lpad(name, 8, '.') AS b, range(3) AS c, format('{:>6}', name) AS d, "
                        + "printf('%3d', id) AS e, replace(name, 'a', 'AA') AS f, regexp_replace(name, 'a', '\\0\\0') AS g, "
                        + "levenshtein(name, 'alice') AS h FROM users WHERE id = 1",
                        "[[xxxxxxxxxx, ...alice, [0, 1, 2],  alice,   1, AAlice, aalice, 0]]"),
                Arguments.of("SELECT list_transform([1, 2, 3], lambda x: x * 2) AS l, length(repeat('ab', 900)) AS m", "[[[2, 4, 6], 1800]]"),
                Arguments.of("SELECT list_transform([id, id + 1], lambda x: x * 2) AS l FROM users WHERE id = 2", "[[[4, 6]]]"),
                Arguments.of(CostVectors.nestedDoubling("SELECT name AS x FROM users WHERE id = 2", 3), "[[24]]"),
                Arguments.of("WITH RECURSIVE r(n, s) AS (SELECT 1, name FROM users WHERE id = 2 UNION ALL SELECT n + 1, s FROM r WHERE n < 3) "
                        + "SELECT max(n) AS n, max(s) AS s FROM r", "[[3, bob]]"));
    }

    /** Under the restricted allowlist: a hidden name answered exactly like a missing one. */
    static Stream<Arguments> hiddenAndMissingNames() {
        return Stream.of(
                Arguments.of("SELECT ssn FROM claims", "SELECT nosuch FROM claims"),
                Arguments.of("SELECT c.ssn FROM claims c", "SELECT c.nosuch FROM claims c"),
                Arguments.of("SELECT claims.ssn FROM claims", "SELECT claims.nosuch FROM claims"),
                Arguments.of("SELECT count(*) FROM claims WHERE ssn LIKE '1%'", "SELECT count(*) FROM claims WHERE nosuch LIKE '1%'"),
                Arguments.of("SELECT id FROM claims GROUP BY ALL HAVING max(ssn) > '1'", "SELECT id FROM claims GROUP BY ALL HAVING max(nosuch) > '1'"),
                Arguments.of("SELECT 1 FROM claims WHERE EXISTS (SELECT ssn)", "SELECT 1 FROM claims WHERE EXISTS (SELECT nosuch)"),
                Arguments.of("WITH x AS (SELECT ssn FROM claims) SELECT count(*) FROM x", "WITH x AS (SELECT nosuch FROM claims) SELECT count(*) FROM x"),
                Arguments.of("SELECT * FROM users", "SELECT * FROM nosuch"),
                Arguments.of("SELECT count(*) FROM main.users", "SELECT count(*) FROM main.nosuch"),
                Arguments.of("FROM users", "FROM nosuch"),
                Arguments.of("DESCRIBE users", "DESCRIBE nosuch"),
                Arguments.of("SUMMARIZE users", "SUMMARIZE nosuch"),
                Arguments.of("SELECT (SELECT count(*) FROM users) AS n", "SELECT (SELECT count(*) FROM nosuch) AS n"),
                Arguments.of("SELECT users FROM users", "SELECT nosuch FROM nosuch"),
                Arguments.of("SELECT c FROM claims c", "SELECT c FROM regions c"),
                Arguments.of("SELECT id FROM claims c WHERE c::VARCHAR LIKE '%123-45%'", "SELECT region FROM regions c WHERE c::VARCHAR LIKE '%123-45%'"));
    }

    /** Probes whose answer today differs between a hidden and a missing name: each reveals a hidden column. */
    static Stream<Arguments> hiddenNamesThatAnswerDifferently() {
        return Stream.of(
                // the position of a hidden column versus one past the end: reveals how many columns claims has
                Arguments.of("SELECT #6 FROM claims", "SELECT #7 FROM claims"),
                // a column alias list one longer than the visible columns: reveals the count too
                Arguments.of("SELECT * FROM claims AS c(a, b, c2, d, e, f)", "SELECT * FROM claims AS c(a, b, c2, d, e, f, g)"),
                // NATURAL / USING / EXCLUDE on a guessed name: reveals that 'ssn' exists
                Arguments.of("SELECT count(*) FROM claims NATURAL JOIN (SELECT '123-45-6789' AS ssn)",
                        "SELECT count(*) FROM claims NATURAL JOIN (SELECT '123-45-6789' AS nosuch)"),
                Arguments.of("SELECT count(*) FROM claims JOIN (SELECT 'x' AS ssn) x USING (ssn)",
                        "SELECT count(*) FROM claims JOIN (SELECT 'x' AS nosuch) x USING (nosuch)"),
                Arguments.of("SELECT * EXCLUDE (ssn) FROM claims", "SELECT * EXCLUDE (nosuch) FROM claims"));
    }

    // ------------------------------------------------------------------------------------------
    // Setup

    @BeforeAll
    static void open() throws Exception {
        Path db = TestDatabases.contractDatabase(folder);
        secretTexts = secretTexts();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db)) {
            for (String sql : wholeRowValues()) {
                raw.put(sql, rawAnswer(c, sql));
            }
            for (String template : filterOracles()) {
                raw.put(guess(template, RIGHT), rawAnswer(c, guess(template, RIGHT)));
                raw.put(guess(template, WRONG), rawAnswer(c, guess(template, WRONG)));
            }
            for (String sql : orderOracles()) {
                raw.put(sql, rawAnswer(c, sql));
            }
        }
        engine = TestDatabases.engine(db, work, GuardrailPolicy.defaults());
        restricted = TestDatabases.engine(db, work, GuardrailPolicy.defaults().withTables(TableAllowlist.of(Map.of(
                "claims", List.of("id", "region", "amount", "status", "created"),
                "regions", List.of("region", "manager")))));
        Set<String> functions = new HashSet<>(FunctionDefaults.FUNCTIONS);
        functions.add("list_resize");
        resizing = TestDatabases.engine(db, work, GuardrailPolicy.defaults().withFunctions(functions));
        impatient = TestDatabases.engine(db, work, GuardrailPolicy.defaults().withLimits(
                Limits.defaults().withTimeout(Duration.ofSeconds(2))));
    }

    @AfterAll
    static void close() {
        for (DuckDbEngine e : new DuckDbEngine[] {impatient, resizing, restricted, engine}) {
            if (e != null) {
                e.close();
            }
        }
    }

    private static String guess(String template, String value) {
        return template.replace(GUESS, value);
    }

    private static RawAnswer rawAnswer(Connection c, String sql) {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            List<List<String>> rows = new ArrayList<>();
            while (rs.next()) {
                List<String> row = new ArrayList<>(n);
                for (int i = 1; i <= n; i++) {
                    row.add(String.valueOf(rs.getObject(i)));
                }
                rows.add(row);
            }
            return new RawAnswer(rows, null);
        } catch (SQLException e) {
            return new RawAnswer(List.of(), e.getMessage().lines().findFirst().orElse(""));
        }
    }

    /** Every secret, reversed, and its MD5 and SHA-256 in hex, plus fragments that identify one. */
    private static List<String> secretTexts() throws Exception {
        List<String> out = new ArrayList<>();
        for (String s : ContractDataset.SECRETS) {
            out.add(s);
            out.add(new StringBuilder(s).reverse().toString());
            for (String algorithm : List.of("MD5", "SHA-256")) {
                out.add(HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(s.getBytes(StandardCharsets.UTF_8))));
            }
        }
        out.addAll(List.of("hunter2", "s3cr3t", "carol-pw", "ak_live", "123-45-67"));
        return List.copyOf(out);
    }

    static boolean holdsSecret(String text) {
        String lower = text.toLowerCase(Locale.ROOT);
        return secretTexts.stream().anyMatch(s -> lower.contains(s.toLowerCase(Locale.ROOT)));
    }

    // ------------------------------------------------------------------------------------------
    // Checks

    private static ToolResult run(DuckDbEngine on, String sql) {
        ToolResult r = query(on, sql);
        assertNoSecret(r, sql);
        return r;
    }

    /** No cell (nested list, struct and map text included) and no message holds a secret. */
    private static void assertNoSecret(ToolResult r, String sql) {
        for (List<Object> row : r.rows()) {
            for (Object cell : row) {
                assertThat(holdsSecret(String.valueOf(cell))).as("a secret in a cell of %s: %s", sql, row).isFalse();
            }
        }
        r.error().ifPresent(e -> assertThat(holdsSecret(e.message())).as("a secret in the message for %s", sql).isFalse());
    }

    private static void assertRefused(ToolResult r, String sql, ErrorCode... codes) {
        assertThat(r.status()).as("%s answered %s", sql, r.rows()).isIn(ToolStatus.REJECTED, ToolStatus.ERROR);
        assertThat(r.rows()).as(sql).isEmpty();
        if (codes.length > 0) {
            assertThat(r.error().orElseThrow().code()).as("%s: %s", sql, r.error().orElseThrow().message()).isIn((Object[]) codes);
        }
    }

    /** The ids of the first column, or of a list or comma-separated first cell, without the filler id 0. */
    private static List<Long> ids(List<List<String>> rows) {
        List<Long> out = new ArrayList<>();
        for (List<String> row : rows) {
            for (String id : row.get(0).replaceAll("[\\[\\]\\s]", "").split(",")) {
                if (!id.isEmpty() && !"0".equals(id)) {
                    out.add(Long.valueOf(id));
                }
            }
        }
        return out;
    }

    private static boolean inPasswordOrder(List<Long> ids) {
        List<Long> descending = new ArrayList<>(PASSWORD_ORDER);
        Collections.reverse(descending);
        return !ids.isEmpty() && ids.size() <= 3
                && (ids.equals(PASSWORD_ORDER.subList(0, ids.size())) || ids.equals(descending.subList(0, ids.size())));
    }

    // ------------------------------------------------------------------------------------------
    // Tests

    /** The attacks are real: raw DuckDB returns the secret, answers the guess, or orders by the secret. */
    @Test
    void everyAttackWorksOnRawDuckDb() {
        List<String> broken = new ArrayList<>();
        for (String sql : wholeRowValues()) {
            RawAnswer a = raw.get(sql);
            if (a.error() != null || !a.holdsASecret()) {
                broken.add("value: " + sql + " -> " + (a.error() != null ? a.error() : a.rows()));
            }
        }
        for (String template : filterOracles()) {
            RawAnswer right = raw.get(guess(template, RIGHT));
            RawAnswer wrong = raw.get(guess(template, WRONG));
            boolean bothFailed = right.error() != null && wrong.error() != null;
            if (bothFailed || (right.error() == null && wrong.error() == null && right.rows().equals(wrong.rows()))) {
                broken.add("oracle: " + template + " -> " + (right.error() != null ? right.error() : right.rows())
                        + " / " + (wrong.error() != null ? wrong.error() : wrong.rows()));
            }
        }
        for (String sql : orderOracles()) {
            RawAnswer a = raw.get(sql);
            if (a.error() != null || !inPasswordOrder(ids(a.rows()))) {
                broken.add("order: " + sql + " -> " + (a.error() != null ? a.error() : a.rows()));
            }
        }
        assertThat(broken).as("attacks that do not work on raw DuckDB test nothing").isEmpty();
    }

    @ParameterizedTest
    @MethodSource("wholeRowValues")
    void aWholeRowOrHiddenPositionNeverReturnsASecret(String sql) {
        ToolResult r = run(engine, sql);
        if (r.error().isPresent()) {
            assertRefused(r, sql, ErrorCode.COLUMN_NOT_ALLOWED, ErrorCode.UNKNOWN_COLUMN);
        }
    }

    @ParameterizedTest
    @MethodSource("filterOracles")
    void aSecretCannotDecideWhichRowsComeBack(String template) {
        ToolResult right = run(engine, guess(template, RIGHT));
        ToolResult wrong = run(engine, guess(template, WRONG));
        if (right.error().isEmpty() || wrong.error().isEmpty()) {
            assertThat(right.rows()).as("an oracle answered the guess: %s", template).isEqualTo(wrong.rows());
        }
        // the design refuses a sensitive column (or a whole row holding one, or a name the parse tree
        // cannot see as a column) wherever it decides which rows come back
        assertRefused(right, template, ErrorCode.COLUMN_NOT_ALLOWED, ErrorCode.UNKNOWN_COLUMN);
        assertRefused(wrong, template, ErrorCode.COLUMN_NOT_ALLOWED, ErrorCode.UNKNOWN_COLUMN);
    }

    @ParameterizedTest
    @MethodSource("orderOracles")
    void aSecretCannotDecideTheOrder(String sql) {
        ToolResult r = run(engine, sql);
        assertRefused(r, sql, ErrorCode.COLUMN_NOT_ALLOWED, ErrorCode.UNKNOWN_COLUMN);
    }

    @ParameterizedTest
    @MethodSource("amplifications")
    @Timeout(60)
    void anAmplificationIsRefusedOrStopped(String sql) {
        ToolResult r = run(engine, sql);
        if (r.status() == ToolStatus.REJECTED) {
            assertRefused(r, abbreviated(sql), ErrorCode.UNBOUNDED_COST);
        } else {
            // stopped while running: the memory limit or the deadline
            assertRefused(r, abbreviated(sql), ErrorCode.QUERY_FAILED, ErrorCode.EXCEEDED_MEMORY_LIMIT, ErrorCode.EXCEEDED_TIME_LIMIT);
        }
    }

    static List<String> runaways() {
        return CostVectors.runaways();
    }

    /**
     * Work that grows with rows is not refused; the deadline, the memory limit or the spill bound
     * stops it, and the engine answers the next call. (How late and with how much resident memory
     * is measured by the benchmarks' cost-vector run, not here.)
     */
    @ParameterizedTest
    @MethodSource("runaways")
    @Timeout(60)
    void aRunawayIsStoppedWhileItRunsAndTheEngineKeepsAnswering(String sql) {
        ToolResult r = run(impatient, sql);
        assertThat(r.status()).as(sql).isEqualTo(ToolStatus.ERROR);
        assertThat(r.error().orElseThrow().code()).as(sql).isIn(ErrorCode.EXCEEDED_TIME_LIMIT, ErrorCode.EXCEEDED_MEMORY_LIMIT,
                ErrorCode.EXCEEDED_DISK_LIMIT, ErrorCode.QUERY_FAILED);
        assertThat(run(impatient, "SELECT count(*) AS n FROM users").rows().toString()).isEqualTo("[[3]]");
    }

    @Test
    void listResizeIsRefusedByDefaultAndByItsCostRuleWhenAllowlisted() {
        String sql = "SELECT list_resize([1], 1000000000) AS v";
        assertRefused(run(engine, sql), sql, ErrorCode.FUNCTION_NOT_ALLOWED);
        assertRefused(run(resizing, sql), sql, ErrorCode.UNBOUNDED_COST);
        assertRefused(run(resizing, "SELECT len(list_resize([1], 1000000000)) AS n"), sql, ErrorCode.UNBOUNDED_COST);
        ToolResult honest = run(resizing, "SELECT list_resize([1, 2], 4, 0) AS v");
        assertThat(honest.rows().toString()).isEqualTo("[[[1, 2, 0, 0]]]");
    }

    @ParameterizedTest
    @MethodSource("honestControls")
    void theSameShapesOverOrdinaryColumnsRun(String sql, String rows) {
        ToolResult r = run(engine, sql);
        assertThat(r.error()).as(sql).isEmpty();
        assertThat(r.rows().toString()).as(sql).isEqualTo(rows);
    }

    @ParameterizedTest
    @MethodSource("hiddenAndMissingNames")
    void aHiddenNameIsAnsweredExactlyLikeAMissingOne(String hidden, String missing) {
        ToolResult h = run(restricted, hidden);
        ToolResult m = run(restricted, missing);
        assertRefused(h, hidden, ErrorCode.UNKNOWN_COLUMN, ErrorCode.TABLE_NOT_ALLOWED);
        assertRefused(m, missing);
        assertThat(h.error().orElseThrow().code()).as(hidden).isEqualTo(m.error().orElseThrow().code());
        assertThat(neutral(h.error().orElseThrow().message())).as(hidden).isEqualTo(neutral(m.error().orElseThrow().message()));
        assertThat(h.error().orElseThrow().message()).as(hidden).doesNotContainPattern(SSN_SHAPE);
    }

    /** The names a probe chose itself are the only difference a message may show. */
    private static String neutral(String message) {
        return message.replaceAll("\\b(ssn|nosuch|users|c\\.ssn|c\\.nosuch|claims\\.ssn|claims\\.nosuch)\\b", "<name>");
    }

    @Test
    void aStarOverATableWithAHiddenColumnNeverNamesIt() {
        for (String sql : List.of("SELECT * FROM claims ORDER BY id LIMIT 2", "SELECT claims.* FROM claims ORDER BY id LIMIT 2",
                "SELECT x.* FROM (SELECT * FROM claims) x ORDER BY id LIMIT 2", "FROM claims LIMIT 2",
                "SELECT * FROM claims NATURAL JOIN regions ORDER BY id LIMIT 2", "SELECT * EXCLUDE (amount) FROM claims LIMIT 2",
                "DESCRIBE claims", "SUMMARIZE claims", "SELECT * FROM claims AS c(a, b, c2, d, e)",
                "SELECT c::VARCHAR AS v FROM claims c LIMIT 2", "SELECT current_date FROM claims AS current_date LIMIT 2",
                "SELECT typeof(current_date) AS t FROM claims AS current_date LIMIT 1",
                "SELECT current_timestamp::VARCHAR AS v FROM (SELECT id, region FROM claims) AS current_timestamp, claims LIMIT 2",
                "SUMMARIZE SELECT current_date FROM claims AS current_date")) {
            ToolResult r = run(restricted, sql);
            for (ResultColumn column : r.columns()) {
                assertThat(column.name()).as(sql).doesNotContainIgnoringCase("ssn");
            }
            assertThat(r.rows().toString()).as(sql).doesNotContainPattern(SSN_SHAPE).doesNotContainIgnoringCase("ssn");
            r.error().ifPresent(e -> assertThat(e.message()).as(sql).doesNotContainIgnoringCase("ssn"));
        }
        ToolResult named = run(restricted, "SELECT id, region FROM claims ORDER BY id LIMIT 2");
        assertThat(named.rows().toString()).isEqualTo("[[1, south], [2, east]]");
        ToolResult regions = run(restricted, "SELECT region, manager FROM regions ORDER BY region");
        assertThat(regions.rows()).hasSize(4);
    }

    /** Stars over USING joins next to the hidden claims.ssn (inner, outer, self, chained, qualified, nested, after EXCLUDE). */
    static List<String> starsOverUsingJoins() {
        return List.of(
                "SELECT * FROM claims c JOIN regions USING (region) ORDER BY id LIMIT 5",
                "SELECT * FROM regions r LEFT JOIN claims c USING (region) ORDER BY id LIMIT 5",
                "SELECT * FROM claims c RIGHT JOIN regions USING (region) ORDER BY id LIMIT 5",
                "SELECT * FROM (SELECT * FROM regions WHERE region <> 'east') r FULL JOIN claims c USING (region) ORDER BY id LIMIT 8",
                "SELECT * FROM claims c FULL JOIN (SELECT * FROM regions WHERE region <> 'east') r USING (region) ORDER BY id LIMIT 8",
                "SELECT * EXCLUDE (amount) FROM claims c JOIN regions USING (region) ORDER BY id LIMIT 5",
                "SELECT * FROM claims a JOIN claims b USING (id) ORDER BY id LIMIT 5",
                "SELECT * FROM claims a JOIN claims b USING (id, region) ORDER BY id LIMIT 5",
                "SELECT c.*, regions.* FROM claims c JOIN regions USING (region) ORDER BY id LIMIT 5",
                "SELECT regions.*, c.* FROM claims c FULL JOIN regions USING (region) ORDER BY id LIMIT 5",
                "SELECT * FROM claims AS \"C\" JOIN regions USING (region) ORDER BY id LIMIT 5",
                "WITH j AS (SELECT * FROM claims c JOIN regions USING (region)) SELECT * FROM j ORDER BY id LIMIT 5",
                "SELECT * FROM (SELECT * FROM claims JOIN regions USING (region)) x ORDER BY id LIMIT 5",
                "SELECT * FROM claims JOIN regions USING (region) JOIN (SELECT region, count(*) AS n FROM claims GROUP BY region) k"
                        + " USING (region) ORDER BY id LIMIT 5",
                "SELECT * FROM claims c JOIN regions USING (region), regions r2 WHERE r2.region = 'east' ORDER BY id LIMIT 5");
    }

    /**
     * A {@code *} over a USING join next to a hidden column runs, and returns exactly what DuckDB
     * returns for the same {@code *} where every column is allowlisted, minus the hidden column: the
     * same column names in the same order (the merged key once, from the side DuckDB takes it), the
     * same rows. The hidden column never comes back, by name or by value.
     */
    @ParameterizedTest
    @MethodSource("starsOverUsingJoins")
    void aStarOverAUsingJoinReturnsWhatDuckDbReturnsMinusTheHiddenColumn(String sql) {
        ToolResult all = query(engine, sql);
        assertThat(all.error()).as(sql).isEmpty();
        assertThat(all.columns()).extracting(ResultColumn::name).as(sql).anyMatch(name -> name.matches("ssn(_[0-9]+)?"));
        ToolResult r = run(restricted, sql);
        assertThat(r.error()).as(sql).isEmpty();
        assertThat(r.columns()).extracting(ResultColumn::name).as(sql).isEqualTo(withoutSsn(all.columns().stream()
                .map(ResultColumn::name).toList(), all.columns()));
        List<List<Object>> expected = new ArrayList<>();
        for (List<Object> row : all.rows()) {
            expected.add(withoutSsn(row, all.columns()));
        }
        assertThat(r.rows()).as(sql).isNotEmpty().isEqualTo(expected);
        assertThat(r.rows().toString()).as(sql).doesNotContainPattern(SSN_SHAPE);
    }

    private static <T> List<T> withoutSsn(List<T> values, List<ResultColumn> columns) {
        List<T> out = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            // the result names a repeated column name_1, name_2, ...
            if (!columns.get(i).name().matches("ssn(_[0-9]+)?")) {
                out.add(values.get(i));
            }
        }
        return out;
    }

    /**
     * The merged key of a USING join is never a hidden column: USING a column hidden on either side is
     * answered like USING a missing one, NATURAL joins stay refused under a restricted allowlist, and a
     * qualified EXCLUDE is sqlguard's own (the model's is refused, hidden or missing alike). A visible
     * column that shares the hidden column's name on the other side stays.
     */
    @Test
    void aHiddenColumnIsNeverTheMergedKeyOfAStarOverAUsingJoin() {
        for (String[] pair : new String[][] {
                {"SELECT * FROM claims a JOIN claims b USING (ssn)", "SELECT * FROM claims a JOIN claims b USING (nosuch)"},
                {"SELECT * FROM claims a JOIN claims b USING (id, ssn)", "SELECT * FROM claims a JOIN claims b USING (id, nosuch)"},
                {"SELECT * FROM (SELECT 2 AS id, 'mine' AS ssn) x JOIN claims USING (ssn)",
                        "SELECT * FROM (SELECT 2 AS id, 'mine' AS nosuch) x JOIN claims USING (nosuch)"},
                {"SELECT * FROM claims RIGHT JOIN (SELECT 'mine' AS ssn) x USING (ssn)",
                        "SELECT * FROM claims RIGHT JOIN (SELECT 'mine' AS nosuch) x USING (nosuch)"},
                {"SELECT * EXCLUDE (c.ssn) FROM claims c JOIN regions USING (region)",
                        "SELECT * EXCLUDE (c.nosuch) FROM claims c JOIN regions USING (region)"}}) {
            ToolResult h = run(restricted, pair[0]);
            ToolResult m = run(restricted, pair[1]);
            assertRefused(h, pair[0], ErrorCode.UNKNOWN_COLUMN, ErrorCode.CONSTRUCT_NOT_ALLOWED);
            assertThat(h.error().orElseThrow().code()).as(pair[0]).isEqualTo(m.error().orElseThrow().code());
            assertThat(neutral(h.error().orElseThrow().message())).as(pair[0]).isEqualTo(neutral(m.error().orElseThrow().message()));
        }
        assertRefused(run(restricted, "SELECT * FROM claims NATURAL JOIN regions"), "NATURAL", ErrorCode.JOIN_NOT_ALLOWED);
        ToolResult mine = run(restricted, "SELECT * FROM (SELECT 2 AS id, 'mine' AS ssn) x JOIN claims USING (id)");
        assertThat(mine.error()).isEmpty();
        assertThat(mine.columns()).extracting(ResultColumn::name).containsExactly("id", "ssn", "region", "amount", "status", "created");
        assertThat(mine.rows()).hasSize(1);
        assertThat(mine.rows().toString()).doesNotContainPattern(SSN_SHAPE);
    }

    // ------------------------------------------------------------------------------------------
    // Leaks this test found on its first run, closed since: kept as regression tests

    /** A format width from an argument, or a constant doubled through CTEs, built megabytes; see {@link CostVectors#constantGrowth()}. */
    @ParameterizedTest
    @MethodSource("amplificationsThatRun")
    @Timeout(60)
    void aFormatWidthFromAnArgumentOrADoubledConstantIsRefused(String sql) {
        ToolResult r = run(engine, sql);
        assertRefused(r, abbreviated(sql), ErrorCode.UNBOUNDED_COST);
    }

    /**
     * DESCRIBE of a query whose select list holds a whole-row reference under an SQL value name: DuckDB
     * types it as a STRUCT of every column of the table, the hidden one included, and the engine returns
     * that type. The same select lists run as queries are refused.
     */
    static List<String> describesOfAWholeRow() {
        return List.of(
                "DESCRIBE SELECT current_date FROM claims AS current_date",
                "DESCRIBE SELECT current_timestamp FROM claims AS current_timestamp",
                "DESCRIBE SELECT localtime AS v FROM claims AS localtime",
                "DESCRIBE SELECT id, current_date FROM claims AS current_date");
    }

    /** DESCRIBE of a whole-row reference named the hidden column ssn and its type. */
    @ParameterizedTest
    @MethodSource("describesOfAWholeRow")
    void describeOfAWholeRowNeverNamesAHiddenColumn(String sql) {
        ToolResult r = run(restricted, sql);
        assertThat(r.columns().stream().map(ResultColumn::name)).as(sql).noneMatch(n -> n.toLowerCase(Locale.ROOT).contains("ssn"));
        assertThat(r.rows().toString()).as(sql).doesNotContainIgnoringCase("ssn");
    }

    /** Under a restricted allowlist these probes answered differently for a hidden and a missing name. */
    @ParameterizedTest
    @MethodSource("hiddenNamesThatAnswerDifferently")
    void aHiddenColumnIsAnsweredExactlyLikeAMissingOneInEveryClause(String hidden, String missing) {
        ToolResult h = run(restricted, hidden);
        ToolResult m = run(restricted, missing);
        assertThat(h.error().map(e -> e.code() + ": " + neutral(e.message())).orElse("answered " + h.rows().size() + " rows"))
                .as(hidden + " vs " + missing)
                .isEqualTo(m.error().map(e -> e.code() + ": " + neutral(e.message())).orElse("answered " + m.rows().size() + " rows"));
    }

    private static String abbreviated(String sql) {
        return sql.length() <= 200 ? sql : sql.substring(0, 200) + "... (" + sql.length() + " chars)";
    }

    /**
     * Honest-looking amplifications whose size comes from the data: a text bar chart sized by a
     * column, an edit distance between two columns. They are refused by design (a data value decides
     * how much one uninterruptible call builds or works), with a message that says what to change;
     * the literal forms run.
     */
    @Test
    void anAmplificationSizedByTheDataIsRefusedWithWhatToChange() {
        for (String sql : List.of("SELECT id, repeat('*', CAST(amount // 1000 AS INTEGER)) AS bar FROM claims ORDER BY id LIMIT 5",
                "SELECT levenshtein(region, status) AS d FROM claims", "SELECT lpad(region, CAST(id AS INTEGER), '.') FROM claims")) {
            ToolResult r = run(engine, sql);
            assertRefused(r, sql, ErrorCode.UNBOUNDED_COST);
            assertThat(r.error().orElseThrow().message()).as(sql).contains("literals");
        }
        assertThat(run(engine, "SELECT repeat('*', 10) AS bar, lpad(region, 8, '.') AS r, levenshtein(region, 'north') AS d "
                + "FROM claims ORDER BY id LIMIT 3").rows()).hasSize(3);
    }
}
