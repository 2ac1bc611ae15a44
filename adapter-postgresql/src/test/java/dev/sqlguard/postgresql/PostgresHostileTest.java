package dev.sqlguard.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.postgresql.internal.FunctionCatalog;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.testing.ContractDataset;

/**
 * Hostile vectors against the local PostgreSQL, each through both roles (least-privilege and
 * superuser with {@code requireReadOnlyAccount: false}): every one is refused or fails without
 * a secret in any cell or message, no file appears, and the schema and data are unchanged.
 */
@Tag("postgresql")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(300)
class PostgresHostileTest {
    private static final Path PROBE = Path.of("/tmp/sqlguard-pg-hostile-probe");

    private PostgresFixture ro;
    private PostgresFixture admin;
    private Engine roEngine;
    private Engine adminEngine;
    private String roPrint;
    private String adminPrint;
    private final QueryService service = new QueryService(AuditSink.discarding());

    @BeforeAll
    void start() throws Exception {
        assumeTrue(TestServer.available(), "no PostgreSQL server");
        ro = new PostgresFixture(false);
        admin = new PostgresFixture(true);
        roEngine = ro.engine("hostile", policy());
        adminEngine = admin.engine("hostile", policy());
        roPrint = ro.fingerprint();
        adminPrint = admin.fingerprint();
    }

    @AfterAll
    void stop() {
        for (AutoCloseable c : new AutoCloseable[] {roEngine, adminEngine, ro, admin}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                // best effort
            }
        }
    }

    private static GuardrailPolicy policy() {
        return new GuardrailPolicy(TableAllowlist.of(Map.of("claims", List.of("id", "region", "amount", "status", "created", "ssn"),
                "regions", List.of("region", "manager"), "users", List.of("id", "name", "password"))),
                Set.of(), Set.of(), Set.of(), Limits.defaults().withTimeout(java.time.Duration.ofSeconds(5)));
    }

    static List<String> vectors() {
        List<String> v = new ArrayList<>(List.of(
                // writes and statements that are not one SELECT
                "DELETE FROM claims", "UPDATE claims SET amount = 0", "INSERT INTO claims (id) VALUES (999)",
                "DROP TABLE claims", "TRUNCATE claims", "ALTER TABLE claims ADD COLUMN z int", "CREATE TABLE x (a int)",
                "CREATE TEMP TABLE x AS SELECT id FROM claims", "CREATE FUNCTION f() RETURNS int AS 'SELECT 1' LANGUAGE sql",
                "GRANT ALL ON claims TO PUBLIC", "REVOKE SELECT ON claims FROM PUBLIC", "BEGIN", "COMMIT", "ROLLBACK",
                "SAVEPOINT s", "SET ROLE postgres", "SET SESSION AUTHORIZATION postgres", "RESET ROLE",
                "SET default_transaction_read_only = off", "SET transaction_read_only = off", "SET search_path = public",
                "SET statement_timeout = 0", "RESET ALL", "DISCARD ALL", "LOCK TABLE claims IN ACCESS EXCLUSIVE MODE",
                "VACUUM claims", "ANALYZE claims", "CHECKPOINT", "LISTEN x", "NOTIFY x, 'y'", "UNLISTEN *",
                "PREPARE p AS DELETE FROM claims", "EXECUTE p", "DEALLOCATE p", "DO $$BEGIN DELETE FROM claims; END$$",
                "CALL p()", "COPY claims FROM '/etc/passwd'", "COPY claims TO '/tmp/sqlguard-pg-hostile-probe'",
                "COPY (SELECT 1) TO PROGRAM 'touch /tmp/sqlguard-pg-hostile-probe'", "COPY claims TO STDOUT",
                "CREATE EXTENSION dblink", "LOAD 'plpgsql'", "ALTER SYSTEM SET work_mem = '1GB'", "SELECT pg_reload_conf()",
                "EXPLAIN ANALYZE DELETE FROM claims", "EXPLAIN SELECT id FROM claims", "SHOW ALL", "TABLE claims",
                "VALUES (1)", "SELECT id INTO TEMP evil FROM claims", "SELECT id INTO evil FROM claims",
                "WITH x AS (DELETE FROM claims RETURNING id) SELECT id FROM x",
                "WITH x AS (UPDATE claims SET amount = 0 RETURNING id) SELECT count(*) FROM x",
                "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r",
                "SELECT id FROM claims FOR UPDATE", "SELECT id FROM claims FOR SHARE", "SELECT id FROM claims FOR KEY SHARE",
                "SELECT id FROM claims FOR NO KEY UPDATE SKIP LOCKED", "SELECT id FROM claims FOR UPDATE NOWAIT",
                // more than one statement, comments and quoting tricks
                "SELECT id FROM claims; DELETE FROM claims", "SELECT 1; SELECT 2", "SELECT id FROM claims;;",
                "SELECT id FROM claims /* /* nested */ ; DELETE FROM claims */", "SELECT id FROM claims -- x\n; DELETE FROM claims",
                "SELECT $$;DELETE FROM claims;$$ AS x", "SELECT $a$ x $a$ AS x", "SELECT E'\\'' AS x", "SELECT e'a\\nb' AS x",
                "SELECT U&'\\0041' AS x", "SELECT U&\"\\0061\" FROM claims", "SELECT B'101' AS x", "SELECT X'1F' AS x",
                "SELECT N'x' AS x", "SELECT 'a' 'b' AS x", "SELECT 'a'\n'b' AS x", "SELECT id FROM claims WHERE region = 'north\\' OR 1=1 --'",
                "SELECT id FROM claims WHERE $1 = 'x'", "SELECT id FROM claims WHERE id = :id", "SELECT id FROM claims WHERE id = @x",
                "SELECT `id` FROM claims", "SELECT id FROM claims WHERE region ~ '^n'", "SELECT id FROM claims WHERE region ~* 'N'",
                "SELECT id FROM claims WHERE region !~ 'n'", "SELECT id FROM claims WHERE region SIMILAR TO 'n%'",
                "SELECT 2 ^ 62 AS x", "SELECT |/ 16 AS x", "SELECT @ -5 AS x", "SELECT 5 & 3 AS x", "SELECT 5 | 3 AS x",
                "SELECT 5 # 3 AS x", "SELECT ~ 5 AS x", "SELECT 1 << 62 AS x", "SELECT id FROM claims WHERE region::text[] @> '{n}'",
                "SELECT ARRAY[1,2][1] AS x", "SELECT '{\"a\":1}'::json->>'a' AS x", "SELECT id FROM claims WHERE 1 =ANY('{1}')",
                "SELECT id FROM claims WHERE region = ANY (SELECT password FROM users)",
                // catalogs and other schemas
                "SELECT rolname, rolpassword FROM pg_authid", "SELECT usename, passwd FROM pg_shadow", "SELECT * FROM pg_roles",
                "SELECT relname FROM pg_catalog.pg_class", "SELECT table_name FROM information_schema.tables",
                "SELECT column_name FROM information_schema.columns", "SELECT query FROM pg_stat_activity",
                "SELECT id FROM public.claims", "SELECT id FROM pg_temp.claims", "SELECT id FROM test.public.claims",
                "SELECT id FROM \"Claims\"", "SELECT api_key FROM users", "SELECT * FROM users", "SELECT u.* FROM users u",
                "SELECT * FROM users NATURAL JOIN (SELECT 1 AS id) x", "SELECT api_key FROM users JOIN claims USING (id)",
                "SELECT id FROM ONLY claims", "SELECT id FROM claims TABLESAMPLE SYSTEM (50)",
                "SELECT id FROM LATERAL (SELECT id FROM claims) x", "SELECT g FROM generate_series(1, 100000000000) g",
                "SELECT * FROM unnest(ARRAY[1,2]) AS u", "SELECT * FROM pg_ls_dir('/') AS f",
                // sensitive-column oracles
                "SELECT count(*) FROM users WHERE password = 'hunter2-alice-pw'", "SELECT count(*) FROM users WHERE password LIKE 'h%'",
                "SELECT id FROM users ORDER BY password", "SELECT id FROM users GROUP BY id, password",
                "SELECT DISTINCT password FROM users", "SELECT count(DISTINCT password) FROM users",
                "SELECT length(password) > 10 AS b FROM users", "SELECT CASE WHEN password > 'm' THEN 1 END AS b FROM users",
                "SELECT substring(password, 1, 1) AS c FROM users", "SELECT ascii(password) AS c FROM users",
                "SELECT CAST(password AS integer) AS c FROM users", "SELECT password::date AS c FROM users",
                "SELECT nullif(password, 'x') AS c FROM users", "SELECT greatest(password, 'm') AS c FROM users",
                "SELECT strpos(password, 'a') AS c FROM users", "SELECT split_part(ssn, '-', 1) AS c FROM claims",
                "SELECT id FROM claims WHERE ssn IN ('123-45-6789')", "SELECT id FROM claims WHERE ssn BETWEEN '1' AND '2'",
                "SELECT id FROM claims WHERE ssn IS NULL", "SELECT rank() OVER (ORDER BY ssn) AS r FROM claims",
                "SELECT count(*) OVER (PARTITION BY ssn) AS r FROM claims", "SELECT id FROM claims c JOIN users u ON u.password = c.ssn",
                "SELECT name FROM users UNION SELECT password FROM users", "SELECT name FROM users INTERSECT SELECT password FROM users",
                "SELECT name FROM users EXCEPT SELECT password FROM users",
                "SELECT id FROM users WHERE EXISTS (SELECT 1 FROM users u2 WHERE u2.password = 'x')",
                "SELECT (SELECT count(*) FROM users WHERE password > 'm') AS n",
                "SELECT x.p FROM (SELECT password AS p FROM users) x WHERE x.p > 'm'",
                "WITH s AS (SELECT password AS p FROM users) SELECT count(*) FROM s WHERE p LIKE 'h%'",
                "SELECT string_agg(name, ',' ORDER BY password) AS s FROM users", "SELECT count(*) FILTER (WHERE password > 'm') AS n FROM users",
                "SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY password) AS p FROM users",
                "SELECT id FROM users LIMIT (SELECT length(password) FROM users LIMIT 1)",
                "SELECT sum(length(password)) AS n FROM users", "SELECT max(password) > 'm' AS b FROM users",
                "SELECT id, ssn AS region FROM claims ORDER BY region", "SELECT id, ssn AS region FROM claims GROUP BY 1, 2 ORDER BY 2",
                // grouping sets, ROLLUP, CUBE, GROUPING() and FETCH FIRST carry a sensitive column like their plain forms
                "SELECT count(*) AS n FROM users GROUP BY ROLLUP (password)", "SELECT count(*) AS n FROM users GROUP BY CUBE (name, (id, password))",
                "SELECT count(*) AS n FROM users GROUP BY GROUPING SETS ((password), ())",
                "SELECT GROUPING(password) AS g, count(*) AS n FROM users GROUP BY ROLLUP (password)",
                "SELECT count(*) AS n FROM claims GROUP BY ROLLUP (region, ssn)", "SELECT count(*) AS n FROM users GROUP BY ROLLUP (name, api_key)",
                "SELECT name FROM users ORDER BY password FETCH FIRST 1 ROW ONLY", "SELECT name FROM users ORDER BY name FETCH FIRST 1 ROWS WITH TIES",
                "SELECT count(*) AS n FROM users GROUP BY \"rollup\"(password)",
                // whole-row references
                "SELECT u FROM users u", "SELECT users FROM users", "SELECT c FROM claims c WHERE c.id = 1",
                "SELECT id FROM users u WHERE u::text LIKE '%hunter2%'", "SELECT id FROM users u WHERE CAST(u AS text) LIKE '%h%'",
                "SELECT row_to_json(u) AS j FROM users u", "SELECT to_json(u) AS j FROM users u", "SELECT ROW(u.*) AS r FROM users u",
                "SELECT (SELECT u FROM users u WHERE u.id = x.u) AS v FROM (SELECT 1 AS u) x",
                // functions that reach files, the network, sessions or other queries
                "SELECT pg_read_file('/etc/passwd') AS f", "SELECT pg_read_binary_file('/etc/passwd') AS f",
                "SELECT pg_catalog.pg_read_file('/etc/passwd') AS f", "SELECT \"pg_read_file\"('/etc/passwd') AS f",
                "SELECT public.upper(name) AS n FROM users", "SELECT lo_import('/etc/passwd') AS f",
                "SELECT lo_export(1, '/tmp/sqlguard-pg-hostile-probe') AS f", "SELECT query_to_xml('SELECT password FROM users', true, true, '') AS x",
                "SELECT dblink('dbname=test', 'SELECT password FROM users') AS d", "SELECT pg_sleep(10)", "SELECT pg_sleep_for('10 s')",
                "SELECT pg_advisory_lock(42)", "SELECT pg_try_advisory_lock(42)", "SELECT set_config('search_path', 'public', false)",
                "SELECT current_setting('data_directory')", "SELECT pg_terminate_backend(pg_backend_pid())",
                "SELECT pg_cancel_backend(1)", "SELECT nextval('s')", "SELECT setval('s', 1)", "SELECT txid_current()",
                "SELECT version()", "SELECT current_user", "SELECT session_user", "SELECT user", "SELECT current_database()",
                "SELECT inet_server_addr()", "SELECT format('%s', name) AS f FROM users", "SELECT random() AS r",
                // cost amplification
                "SELECT repeat(name, 100000000) AS r FROM users", "SELECT repeat('x', 1000000000) AS r",
                "SELECT lpad(name, 2000000000) AS r FROM users", "SELECT rpad('x', 1000000000, 'y') AS r",
                "SELECT repeat(name, id::integer) AS r FROM users", "SELECT lpad(name, id::integer * 1000000) AS r FROM users",
                "SELECT generate_series(1, 1000000000) AS g", "SELECT generate_series(1, id) AS g FROM claims",
                "SELECT replace(name, 'a', repeat('b', 1000000)) AS r FROM users",
                "SELECT levenshtein(name, name) AS d FROM users", "SELECT id FROM claims ORDER BY random()",
                // USING and NATURAL joins: a hidden or sensitive column as the join key, the merged output, a filter or an ordering
                "SELECT count(*) AS n FROM users JOIN (SELECT 'ak_live_alice_0001' AS api_key) x USING (api_key)",
                "SELECT api_key FROM users u JOIN users v USING (id)", "SELECT u.api_key FROM users u NATURAL JOIN users v",
                "SELECT * FROM users u JOIN (SELECT 1 AS id) x USING (id)", "SELECT u.* FROM users u JOIN regions r ON TRUE",
                "SELECT count(*) AS n FROM users JOIN (SELECT 'hunter2-alice-pw' AS password) x USING (password)",
                "SELECT count(*) AS n FROM users NATURAL JOIN (SELECT 1 AS id, 'hunter2-alice-pw' AS password) x",
                "SELECT count(*) AS n FROM claims NATURAL JOIN (SELECT '123-45-6789' AS ssn) x",
                "SELECT k FROM (SELECT ssn AS k FROM claims) a JOIN (SELECT '123-45-6789' AS k) b USING (k)",
                "SELECT count(*) AS n FROM (SELECT password AS k FROM users) a FULL JOIN (SELECT 'x' AS k) b USING (k) WHERE k > 'm'",
                "SELECT k FROM (SELECT password AS k FROM users) a RIGHT JOIN (SELECT 'x' AS k) b USING (k) ORDER BY k",
                "SELECT u.id FROM users u JOIN users v USING (id) WHERE v.password LIKE 'h%'",
                "SELECT region FROM claims JOIN regions USING (region) ORDER BY ssn",
                "SELECT substring(k, 1, 1) AS c FROM (SELECT password AS k FROM users) a NATURAL FULL JOIN (SELECT 'x' AS k) b",
                "SELECT count(*) AS n FROM users a JOIN users b USING (name) JOIN users c USING (password)",
                // LATERAL: outer hidden or sensitive columns inside the subquery
                "SELECT x.k FROM users u, LATERAL (SELECT u.api_key AS k) x", "SELECT x.k FROM users u, LATERAL (SELECT api_key AS k) x",
                "SELECT x.n FROM users u CROSS JOIN LATERAL (SELECT count(*) AS n FROM claims WHERE u.password LIKE 'h%') x",
                "SELECT u.name FROM users u JOIN LATERAL (SELECT 1 AS one) x ON u.password = 'hunter2-alice-pw'",
                "SELECT x.v FROM users u LEFT JOIN LATERAL (SELECT u AS v) x ON TRUE",
                "SELECT x.p FROM users u, LATERAL (SELECT substring(u.password, 1, 1) AS p) x",
                "SELECT x.* FROM users u, LATERAL (SELECT u.*) x",
                "SELECT u.id FROM users u, LATERAL (SELECT v.id FROM users v WHERE v.api_key = 'ak_live_alice_0001') x",
                "SELECT x.n FROM users u, LATERAL (SELECT count(*) AS n FROM claims c WHERE c.ssn = u.name) x",
                "SELECT x.n FROM users u FULL JOIN LATERAL (SELECT u.id AS n) x ON TRUE",
                "SELECT x.n FROM claims c, users u JOIN LATERAL (SELECT c.ssn AS n) x ON TRUE",
                "SELECT x.r FROM users u, LATERAL (SELECT rank() OVER (ORDER BY u.password) AS r) x",
                "SELECT x.n FROM users u, LATERAL (SELECT id AS n FROM claims WHERE claims.id = u.id ORDER BY u.password) x",
                // WITH RECURSIVE: unbounded or exponential recursion, hidden and sensitive columns through the recursive term
                "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 0 FROM r WHERE n < 10) SELECT count(*) AS c FROM r",
                "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10 OR TRUE) SELECT count(*) AS c FROM r",
                "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 1000000000) SELECT count(*) AS c FROM r",
                "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT r.n + 1 FROM r CROSS JOIN claims WHERE r.n < 50) SELECT count(*) AS c FROM r",
                "WITH RECURSIVE r(s, d) AS (SELECT name, 0 FROM users UNION ALL SELECT r.s || r.s, r.d + 1 FROM r WHERE r.d < 40) SELECT length(s) AS l FROM r",
                "WITH RECURSIVE r(s, d) AS (SELECT name, 0 FROM users UNION ALL SELECT repeat(r.s, 2), r.d + 1 FROM r WHERE r.d < 40) SELECT length(s) AS l FROM r",
                "WITH RECURSIVE r(s, d) AS (SELECT password, 0 FROM users UNION ALL SELECT r.s, r.d + 1 FROM r WHERE r.d < 3 AND r.s LIKE 'h%')"
                        + " SELECT count(*) AS n FROM r",
                "WITH RECURSIVE r(k, d) AS (SELECT api_key, 0 FROM users UNION ALL SELECT k, d + 1 FROM r WHERE d < 3) SELECT k FROM r",
                "WITH RECURSIVE r(k, d) AS (SELECT 'x', 0 UNION ALL SELECT u.api_key, r.d + 1 FROM r JOIN users u ON u.id = r.d WHERE r.d < 3) SELECT k FROM r",
                "WITH RECURSIVE r(id, d) AS (SELECT id, 0 FROM users UNION ALL SELECT u.id, r.d + 1 FROM r JOIN users u ON u.password > 'm' WHERE r.d < 2)"
                        + " SELECT id FROM r",
                "WITH RECURSIVE r(s, d) AS (SELECT password, 0 FROM users UNION ALL SELECT substring(r.s, 2), r.d + 1 FROM r WHERE r.d < 20) SELECT s FROM r",
                "WITH RECURSIVE r(s, d) AS (SELECT password, 0 FROM users UNION SELECT r.s, r.d + 1 FROM r WHERE r.d < 3) SELECT count(*) AS n FROM r",
                "WITH RECURSIVE r(s, d) AS (SELECT ssn, 0 FROM claims UNION ALL SELECT r.s, r.d + 1 FROM r WHERE r.d < 2) SELECT count(*) AS n FROM r"
                        + " GROUP BY s",
                "WITH RECURSIVE r(s, d) AS (SELECT 'x', 0 UNION ALL SELECT c.ssn, r.d + 1 FROM r JOIN claims c ON c.id = r.d WHERE r.d < 3)"
                        + " SELECT s FROM r ORDER BY s",
                "WITH RECURSIVE a AS (SELECT n FROM b), b(n) AS (SELECT 1) SELECT n FROM a",
                "WITH RECURSIVE users AS (SELECT id, name FROM users) SELECT name FROM users",
                "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT (SELECT count(*) FROM r) + 1 FROM r WHERE n < 5) SELECT n FROM r",
                "WITH RECURSIVE r(u, d) AS (SELECT 1, 0 UNION ALL SELECT r.u, r.d + 1 FROM r WHERE r.d < 2) SELECT (SELECT u FROM users u LIMIT 1) AS v FROM r"));
        for (String f : new TreeSet<>(FunctionCatalog.NEVER)) {
            v.add("SELECT " + f + "('x') AS v");
        }
        return v;
    }

    Stream<Arguments> vectorsForBothRoles() {
        return vectors().stream().flatMap(sql -> Stream.of(Arguments.of("least-privilege", sql), Arguments.of("superuser", sql)));
    }

    @Test
    void thereAreAtLeast150Vectors() {
        assertThat(vectors()).hasSizeGreaterThanOrEqualTo(150).doesNotHaveDuplicates();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("vectorsForBothRoles")
    void everyVectorIsRefusedOrFailsWithoutLeaking(String role, String sql) {
        Engine engine = role.equals("superuser") ? adminEngine : roEngine;
        ToolResult result = service.query(engine.binding(), new QueryRequest("hostile", sql, List.of(), "h-" + System.nanoTime()));
        assertThat(result.status()).as(sql).isIn(ToolStatus.REJECTED, ToolStatus.ERROR);
        assertThat(result.rows()).as(sql).isEmpty();
        String message = result.error().orElseThrow().message();
        assertThat(message).doesNotContainIgnoringCase("exception").doesNotContain("jdbc:").doesNotContain("/etc").doesNotContain("\n");
        for (String secret : ContractDataset.SECRETS) {
            assertThat(message).doesNotContain(secret);
        }
        assertThat(Files.exists(PROBE)).as(sql).isFalse();
        if (result.status() == ToolStatus.ERROR) {
            // an error that reached the server is never a permission error: sqlguard refuses first, whatever the role may do
            assertThat(result.error().orElseThrow().code()).as(sql).isNotIn(ErrorCode.PERMISSION_DENIED, ErrorCode.READ_ONLY_NOT_ENFORCED);
        }
    }

    /**
     * A hidden column is absent (issue 25): NATURAL does not join on the hidden {@code api_key}, so a
     * guessed key changes nothing in the answer, which is the same as for a name that exists nowhere.
     */
    @Test
    void aNaturalJoinOnAHiddenColumnAnswersAsIfItDidNotExist() {
        for (Engine engine : List.of(roEngine, adminEngine)) {
            List<String> answers = new java.util.ArrayList<>();
            for (String key : List.of("ak_live_alice_0001", "nope")) {
                for (String column : List.of("api_key", "zzzz")) {
                    ToolResult r = service.query(engine.binding(), new QueryRequest("hostile",
                            "SELECT x.id FROM users NATURAL JOIN (SELECT 1 AS id, '" + key + "' AS " + column + ") x", List.of(), "n"));
                    answers.add(r.status() + " " + r.rows());
                }
            }
            assertThat(new java.util.HashSet<>(answers)).as(answers.toString()).hasSize(1);
        }
    }

    @Test
    void theDatabasesAreUnchangedAfterEveryVector() {
        for (String sql : vectors()) {
            service.query(roEngine.binding(), new QueryRequest("hostile", sql, List.of(), "x"));
            service.query(adminEngine.binding(), new QueryRequest("hostile", sql, List.of(), "y"));
        }
        assertThat(ro.fingerprint()).isEqualTo(roPrint);
        assertThat(admin.fingerprint()).isEqualTo(adminPrint);
        assertThat(Arrays.asList(Files.exists(PROBE))).containsExactly(false);
    }
}
