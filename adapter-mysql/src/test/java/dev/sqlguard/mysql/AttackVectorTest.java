package dev.sqlguard.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.testing.ContractDataset;

/**
 * Every vector against what a naive MySQL engine would trust (the parser's view of the text, the
 * driver's read-only flag, setMaxRows, the driver's timeout, grants) and every MySQL, MariaDB and
 * JSqlParser pitfall measured on a real server, run through QueryService and the engine against the
 * server with both accounts. Nothing may be written (the
 * data fingerprint, a sequence, a procedure's side table and the OUTFILE path are checked) and no
 * secret may appear in any result or message.
 */
@Tag("mysql")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(300)
class AttackVectorTest {
    private String database;
    private BothAccounts engines;
    private BothAccounts withDefaultFunctions;
    /** A policy that lists the stored function {@code f_write}, which writes. */
    private dev.sqlguard.domain.GuardrailPolicy writing;
    private final QueryService service = new QueryService(AuditSink.discarding());
    private static final String OUTFILE = "/tmp/sqlguard-outfile-" + UUID.randomUUID();

    @BeforeAll
    void setUp() throws Exception {
        assumeTrue(TestServer.available(), "no MySQL-compatible server");
        database = TestServer.createDatabase();
        try (Connection c = TestServer.admin(database); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE side (n INT)");
            s.execute("CREATE SEQUENCE seq");
            s.execute("CREATE PROCEDURE p_write() INSERT INTO side VALUES (1)");
            s.execute("CREATE FUNCTION f_write() RETURNS INT MODIFIES SQL DATA BEGIN INSERT INTO side VALUES (2); RETURN 1; END");
        }
        var policy = MySqlServerTest.policy(Limits.defaults().withTimeout(Duration.ofSeconds(3)))
                .withFunctions(java.util.Set.of("count", "sum", "avg", "min", "max", "lower"));
        writing = policy.withFunctions(java.util.Set.of("count", "f_write"));
        engines = BothAccounts.open(database, policy);
        // the curated default function list: every catalogued function, partial ones included
        withDefaultFunctions = BothAccounts.open(database, policy.withFunctions(java.util.Set.of()));
    }

    @AfterAll
    void tearDown() {
        if (engines != null) {
            engines.close();
        }
        if (withDefaultFunctions != null) {
            withDefaultFunctions.close();
        }
        if (database != null) {
            TestServer.dropDatabase(database);
        }
    }

    /** A stored function sqlguard cannot cost (one that writes, here) cannot be allowlisted: the source does not start. */
    @org.junit.jupiter.api.Test
    void aPolicyListingAStoredFunctionThatWritesDoesNotStart() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> BothAccounts.open(database, writing).close())
                .isInstanceOfSatisfying(dev.sqlguard.domain.GuardException.class, e -> {
                    assertThat(e.code()).isEqualTo(dev.sqlguard.domain.ErrorCode.CONFIGURATION_ERROR);
                    assertThat(e.getMessage()).contains("f_write");
                });
    }

    @org.junit.jupiter.api.Test
    void positiveControlTheFileChecksCanSeeAWrite() throws Exception {
        // this server lets a privileged account write files (secure_file_priv is empty here): the
        // OUTFILE assertions above would see a file if any vector reached the server
        String probe = "/tmp/sqlguard-probe-" + UUID.randomUUID();
        try (Connection c = TestServer.admin(database); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT @@secure_file_priv IS NULL OR @@secure_file_priv = ''")) {
            rs.next();
            org.junit.jupiter.api.Assumptions.assumeTrue(rs.getBoolean(1), "the server restricts file writes");
            s.execute("SELECT 1 INTO OUTFILE '" + probe + "'");
        }
        assertThat(Files.exists(Path.of(probe))).isTrue();
        Files.deleteIfExists(Path.of(probe));
    }

    static List<String> vectors() {
        return List.of(
                // writes and state changes
                "INSERT INTO claims (id) VALUES (999)", "UPDATE claims SET amount = 0", "DELETE FROM claims",
                "DROP TABLE claims", "TRUNCATE claims", "CREATE TABLE x (a INT)", "ALTER TABLE claims ADD COLUMN z INT",
                "REPLACE INTO regions VALUES ('x', 'y')", "CREATE TEMPORARY TABLE t AS SELECT id FROM claims",
                "SELECT id FROM claims; DELETE FROM claims", "SELECT id FROM claims;DELETE FROM claims",
                "CALL p_write()", "SELECT f_write() AS w", "SELECT f_write() AS w FROM claims",
                "SELECT NEXTVAL(seq)", "SELECT nextval(seq) AS n FROM claims", "DO NEXTVAL(seq)",
                "PREPARE s FROM 'DELETE FROM claims'", "EXECUTE s", "LOCK TABLES claims WRITE", "LOCK TABLES claims READ",
                "HANDLER users OPEN", "HANDLER users READ FIRST", "DO sleep(2)", "SET SESSION TRANSACTION READ WRITE",
                "SET SESSION tx_read_only = 0", "SET tx_read_only = 0", "SET @@session.tx_read_only = 0",
                "SET STATEMENT tx_read_only = 0 FOR DELETE FROM claims", "SET STATEMENT max_statement_time=0 FOR SELECT id FROM claims",
                "SET GLOBAL max_connections = 1", "SET sql_mode = ''",
                // files
                "SELECT id FROM claims INTO OUTFILE '" + OUTFILE + "'", "SELECT id INTO DUMPFILE '" + OUTFILE + "' FROM claims",
                "SELECT id INTO @v FROM claims", "SELECT load_file('/etc/passwd') AS f", "LOAD DATA INFILE '/etc/passwd' INTO TABLE side",
                // reads outside the allowlist
                "SELECT user, password FROM mysql.user", "SELECT * FROM users", "SELECT u.* FROM users u", "SELECT ssn FROM claims",
                "SELECT table_name FROM information_schema.tables", "SHOW TABLES", "SHOW GRANTS", "DESCRIBE users",
                "SELECT @@version", "SELECT @@secure_file_priv", "SELECT version()", "SELECT user()", "SELECT current_user()",
                // locks and cost
                "SELECT id FROM claims FOR UPDATE", "SELECT id FROM claims FOR SHARE", "SELECT id FROM claims LOCK IN SHARE MODE",
                "SELECT sleep(5)", "SELECT benchmark(100000000, md5('x'))", "SELECT get_lock('x', 10)",
                "SELECT id FROM claims WHERE " + "(".repeat(2000) + "1" + ")".repeat(2000),
                "SELECT id FROM claims WHERE id IN (" + "1,".repeat(60_000) + "1)",
                // parser differentials: executable comments
                "SELECT id FROM claims WHERE id = 1 /*! OR 1=1 */",
                "SELECT name /*!, (SELECT password FROM users LIMIT 1) AS p */ FROM users",
                "SELECT id FROM claims /*!50000 UNION SELECT api_key FROM users */",
                "SELECT id FROM claims /*M!100000 UNION SELECT password FROM users */",
                "/*!INSERT INTO side VALUES (3)*/ SELECT id FROM claims",
                "SELECT id FROM claims /*! INTO OUTFILE '" + OUTFILE + "' */",
                "/*! SET STATEMENT max_statement_time=0 FOR */ SELECT count(*) AS n FROM claims",
                "SELECT /*+ MAX_EXECUTION_TIME(100000) */ id FROM claims",
                // comment and escape differentials
                "SELECT id FROM claims --x\nUNION SELECT password FROM users",
                "SELECT id FROM claims WHERE 1 = 1 //x\nUNION SELECT password FROM users",
                "SELECT id FROM claims # x\nUNION SELECT password FROM users",
                "SELECT id FROM claims WHERE region = 'a\\' UNION SELECT password FROM users -- '",
                "SELECT id FROM claims WHERE region = \"a\\\" UNION SELECT password FROM users -- \"",
                "SELECT id FROM claims WHERE region = \"north\"",
                "SELECT 'x' FROM claims WHERE region = 'north' -- '\nUNION SELECT password FROM users",
                "SELECT {fn user()} AS u",
                // parse() ignoring text after ';', subqueries everywhere
                "SELECT id FROM claims; SELECT password FROM users",
                "SELECT (SELECT password FROM users LIMIT 1) AS p FROM claims",
                "SELECT id FROM claims ORDER BY (SELECT ascii(password) FROM users LIMIT 1)",
                "SELECT region FROM claims GROUP BY region, (SELECT password FROM users LIMIT 1)",
                "SELECT c.id FROM claims c JOIN regions r ON r.region = (SELECT password FROM users LIMIT 1)",
                "SELECT id FROM claims UNION SELECT password FROM users",
                "WITH x AS (SELECT password FROM users) SELECT password FROM x",
                "SELECT id FROM claims c, users u",
                // USING, NATURAL, CONVERT and ROLLUP next to a hidden column (claims.ssn)
                "SELECT count(*) AS n FROM claims JOIN (SELECT '123-45-6789' AS ssn) x USING (ssn)",
                "SELECT count(*) AS n FROM claims c1 JOIN claims c2 USING (id, ssn)", "SELECT CONVERT(ssn, CHAR) AS s FROM claims",
                "SELECT region, count(*) AS n FROM claims GROUP BY region, ssn WITH ROLLUP");
    }

    /**
     * Subqueries, CTEs and set operations as carriers of a sensitive value into a position that
     * decides which rows come back, or through a step that can fail on the value: each is refused
     * by the domain's rule, on both accounts, before the server sees it.
     */
    static List<String> hostileCarriers() {
        return List.of(
                "SELECT count(*) AS n FROM claims c WHERE EXISTS (SELECT 1 FROM users u WHERE u.password LIKE 'h%')",
                "SELECT count(*) AS n FROM claims WHERE id IN (SELECT id FROM users WHERE password > 'm')",
                "SELECT count(*) AS n FROM users WHERE password IN (SELECT 'hunter2-alice-pw')",
                "SELECT count(*) AS n FROM claims WHERE region IN (SELECT password FROM users)",
                "SELECT count(*) AS n FROM claims WHERE amount > (SELECT max(length(password)) FROM users)",
                "WITH p AS (SELECT id, password FROM users) SELECT count(*) AS n FROM p WHERE password LIKE 'h%'",
                "WITH p AS (SELECT id, password AS x FROM users) SELECT id FROM p WHERE x = 'hunter2-alice-pw'",
                "WITH p AS (SELECT password FROM users) SELECT count(*) AS n FROM claims WHERE region IN (SELECT password FROM p)",
                "SELECT password FROM users INTERSECT SELECT 'hunter2-alice-pw'",
                "SELECT 'hunter2-alice-pw' INTERSECT SELECT password FROM users",
                "SELECT password FROM users EXCEPT SELECT 'x'",
                "SELECT password FROM users UNION SELECT password FROM users",
                "SELECT count(*) AS n FROM (SELECT password FROM users INTERSECT SELECT 'hunter2-alice-pw') x",
                "SELECT x.p FROM (SELECT password AS p FROM users) x ORDER BY x.p",
                "SELECT x.p, count(*) AS n FROM (SELECT password AS p FROM users) x GROUP BY x.p",
                "SELECT id FROM users u WHERE (SELECT u.password) = 'hunter2-alice-pw'",
                "SELECT count(*) AS n FROM claims WHERE 'h' = ANY (SELECT left(password, 1) FROM users)",
                // rows of values carry each value as a single value is carried
                "SELECT count(*) AS n FROM users WHERE (id, password) IN (SELECT 1, 'hunter2-alice-pw')",
                "SELECT count(*) AS n FROM users WHERE (id, password) = (1, 'hunter2-alice-pw')",
                "SELECT count(*) AS n FROM users WHERE (id, password) > (1, 'h')",
                "SELECT count(*) AS n FROM claims WHERE (id, region) IN (SELECT id, password FROM users)",
                "SELECT count(*) AS n FROM users WHERE (id, left(password, 1)) NOT IN ((1, 'h'), (2, 's'))",
                "SELECT (id, password) <=> (1, 'hunter2-alice-pw') AS x FROM users",
                "SELECT id, row_number() OVER (ORDER BY password) AS r FROM users",
                "SELECT pow(ascii(substring(password, 8, 1)), 154) AS x FROM users WHERE id = 1",
                "SELECT 1 AS one FROM (SELECT pow(ascii(substring(password, 8, 1)), 155) AS x FROM users) t",
                "SELECT coalesce(password, pow(10, 400 + id - id)) AS x FROM users WHERE id = 1",
                "WITH RECURSIVE r (n, p) AS (SELECT 1, password FROM users WHERE id = 1 UNION ALL SELECT n + 1, p FROM r WHERE n < 3"
                        + " AND p LIKE 'h%') SELECT n FROM r",
                // pattern matching, collations, character sets and named windows carry the value like their plain forms
                "SELECT count(*) AS n FROM users WHERE password REGEXP '^h'",
                "SELECT count(*) AS n FROM users WHERE password NOT RLIKE '^hunter'",
                "SELECT password REGEXP '^h' AS x FROM users",
                "SELECT id FROM users ORDER BY password COLLATE utf8mb4_bin",
                "SELECT count(*) AS n FROM users WHERE CONVERT(password USING latin1) LIKE 'h%'",
                "SELECT id, row_number() OVER w AS r FROM users WINDOW w AS (ORDER BY password)",
                "SELECT id, count(*) OVER w AS n FROM users WINDOW w AS (PARTITION BY password COLLATE utf8mb4_bin)",
                // USING and NATURAL join on the common columns; CONVERT(x, type) is a CAST; ROLLUP groups
                "SELECT u.id FROM users u JOIN (SELECT 'hunter2-alice-pw' AS password) g USING (password)",
                "SELECT count(*) AS n FROM users u LEFT JOIN (SELECT 'hunter2-alice-pw' AS password) g USING (password) WHERE g.password IS NOT NULL",
                "SELECT count(*) AS n FROM (SELECT 1 AS id, 'hunter2-alice-pw' AS password) g NATURAL JOIN users",
                "SELECT count(*) AS n FROM users NATURAL RIGHT JOIN (SELECT id, name, password, api_key FROM users WHERE password LIKE 'h%') x",
                "SELECT id FROM users JOIN (SELECT id, password AS pw FROM users) x USING (id) WHERE pw LIKE 'h%'",
                "SELECT count(*) AS n FROM users WHERE CONVERT(password, CHAR(1)) = 'h'",
                "SELECT CONVERT(password, SIGNED) AS x FROM users",
                "SELECT id FROM users ORDER BY CONVERT(password, BINARY)",
                "SELECT password, count(*) AS n FROM users GROUP BY password WITH ROLLUP",
                // (an expression key such as left(password, 1) is refused before: WITH ROLLUP groups by columns only)
                "SELECT left(password, 1) AS p, count(*) AS n FROM users GROUP BY password WITH ROLLUP");
    }

    /**
     * On the server a NATURAL self-join of claims joins on ssn too (positive control: the same rows
     * with a changed ssn drop out). Guarded, ssn is absent (issue 25): the join is on the allowlisted
     * common columns only, as for a column that exists nowhere, so it cannot be used to probe ssn.
     */
    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"ro", "admin"})
    void aNaturalJoinNeverJoinsOnAHiddenColumn(String account) throws Exception {
        try (Connection c = TestServer.admin(database); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM claims c1 NATURAL JOIN (SELECT id, region, amount, status, created,"
                     + " concat(ssn, 'x') AS ssn FROM claims) c2")) {
            rs.next();
            assertThat(rs.getLong(1)).as("the raw server joins on ssn").isZero();
        }
        for (String sql : List.of("SELECT count(*) AS n FROM claims c1 NATURAL JOIN claims c2",
                "SELECT count(*) AS n FROM claims c1 NATURAL LEFT JOIN (SELECT id, '123-45-6789' AS ssn FROM claims) c2")) {
            // a hidden column is absent (issue 25): NATURAL joins on the allowlisted common columns only, so the
            // answer is the one a name that exists nowhere gets, whatever the guessed value
            ToolResult r = service.query(engines.engine(account).binding(), QueryRequest.of("db", sql));
            ToolResult absent = service.query(engines.engine(account).binding(), QueryRequest.of("db",
                    sql.replace("'123-45-6789' AS ssn", "'nope' AS nosuch")));
            assertThat(r.status()).as(sql).isEqualTo(ToolStatus.OK);
            assertThat(r.rows()).as(sql).isEqualTo(absent.rows());
            assertThat(r.rows().get(0).get(0).toString()).as(sql).isEqualTo("60");
        }
        // the allowlisted common columns join as on the server
        ToolResult ok = service.query(engines.engine(account).binding(),
                QueryRequest.of("db", "SELECT count(*) AS n FROM claims c1 JOIN claims c2 USING (id, region)"));
        assertThat(ok.status()).isEqualTo(ToolStatus.OK);
        assertThat(ok.rows().get(0).get(0).toString()).isEqualTo("60");
    }

    /**
     * A select item labelled like the hidden {@code claims.ssn}: in HAVING the guard renders the alias
     * only where the server reads it in the select list, and writes the item out where the server would
     * read the table's column first (an aggregate's arguments, an ORDER BY expression). Positive control:
     * run raw, {@code HAVING max(ssn)} and {@code ORDER BY -ssn} read the table's ssn; guarded, each
     * query returns exactly what it returns with the alias renamed (the column labelled {@code ssn} is
     * redacted by its name, so the others are compared), so the hidden column is never read.
     */
    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"ro", "admin"})
    void aHavingAliasNamedLikeAHiddenColumnNeverReadsIt(String account) throws Exception {
        String inAggregate = "SELECT region, id % 3 AS k, count(*) AS n, id % 3 AS ssn FROM claims GROUP BY region, id % 3"
                + " HAVING max(ssn) > 0 ORDER BY region, k";
        String inOrderBy = "SELECT id, amount + 0 AS ssn FROM claims ORDER BY -ssn, id LIMIT 5";
        try (Connection c = TestServer.admin(database); Statement s = c.createStatement()) {
            // raw, max(ssn) is the table's ssn ('900-00-...' > 0 in every group), so all 12 groups come back
            assertThat(rawRows(s, inAggregate)).as("the raw server reads claims.ssn in max(ssn)").hasSize(12);
            // raw, -ssn is the table's ssn read as a number (-900 for every id but 1), so id 2 comes first
            assertThat(rawRows(s, inOrderBy).get(0).get(0)).as("the raw server orders by claims.ssn").isEqualTo("2");
        }
        Engine engine = engines.engine(account);
        for (String sql : List.of(
                "SELECT region, count(*) AS ssn, max(id) AS m FROM claims GROUP BY region HAVING ssn > 14 ORDER BY region",
                "SELECT region, count(*) AS ssn, max(id) AS m FROM claims GROUP BY region HAVING ssn > 14 AND ssn < 16 ORDER BY region",
                inAggregate, inOrderBy)) {
            ToolResult named = service.query(engine.binding(), QueryRequest.of("db", sql));
            ToolResult renamed = service.query(engine.binding(), QueryRequest.of("db", sql.replace("ssn", "x")));
            assertThat(named.status()).as(sql + " " + named.error()).isEqualTo(ToolStatus.OK);
            assertThat(renamed.status()).as(sql + " " + renamed.error()).isEqualTo(ToolStatus.OK);
            assertThat(without(named, "ssn")).as(sql).isNotEmpty().isEqualTo(without(renamed, "x"));
            assertThat(named.toString()).doesNotContain("900-00-").doesNotContain("123-45-6789");
        }
        ToolResult parity = service.query(engine.binding(), QueryRequest.of("db", inAggregate));
        assertThat(parity.rows()).as("max(ssn) is max(id % 3): only the groups where it is not 0").hasSize(8)
                .allSatisfy(row -> assertThat(row.get(1).toString()).isNotEqualTo("0"));
        ToolResult ordered = service.query(engine.binding(), QueryRequest.of("db", inOrderBy));
        assertThat(ordered.rows().get(0).get(0).toString()).as("-ssn is -(amount + 0): the largest amount first").isEqualTo("60");
    }

    /** The result's rows without the column labelled {@code name}. */
    private static List<List<Object>> without(ToolResult r, String name) {
        int skip = -1;
        for (int i = 0; i < r.columns().size(); i++) {
            if (r.columns().get(i).name().equals(name)) {
                skip = i;
            }
        }
        assertThat(skip).as("a column labelled " + name).isNotNegative();
        List<List<Object>> out = new java.util.ArrayList<>();
        for (List<Object> row : r.rows()) {
            List<Object> kept = new java.util.ArrayList<>(row);
            kept.remove(skip);
            out.add(kept);
        }
        return out;
    }

    private static List<List<String>> rawRows(Statement s, String sql) throws java.sql.SQLException {
        List<List<String>> out = new java.util.ArrayList<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> row = new java.util.ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    row.add(rs.getString(i));
                }
                out.add(row);
            }
        }
        return out;
    }

    static Stream<Arguments> hostileCases() {
        return hostileCarriers().stream().flatMap(v -> Stream.of(Arguments.of("ro", v), Arguments.of("admin", v)));
    }

    @ParameterizedTest(name = "[{index}] {0}: {1}")
    @MethodSource("hostileCases")
    void sensitiveValuesCarriedBySubqueriesCtesAndSetOperationsAreRefused(String account, String sql) {
        ToolResult r = service.query(withDefaultFunctions.engine(account).binding(), QueryRequest.of("db", sql));
        assertThat(r.status()).as(sql).isEqualTo(ToolStatus.REJECTED);
        assertThat(r.error().orElseThrow().code()).as(sql).isEqualTo(dev.sqlguard.domain.ErrorCode.COLUMN_NOT_ALLOWED);
        for (String secret : ContractDataset.SECRETS) {
            assertThat(r.toString()).doesNotContain(secret);
        }
    }

    static Stream<Arguments> cases() {
        return vectors().stream().flatMap(v -> Stream.of(Arguments.of("ro", v), Arguments.of("admin", v)));
    }

    @ParameterizedTest(name = "[{index}] {0}: {1}")
    @MethodSource("cases")
    void nothingIsWrittenAndNothingLeaks(String account, String sql) throws Exception {
        Engine engine = engines.engine(account);
        String before = TestServer.fingerprint(database);
        ToolResult r = service.query(engine.binding(), QueryRequest.of("db", sql));
        String text = r.toString();
        for (String secret : ContractDataset.SECRETS) {
            assertThat(text).doesNotContain(secret);
        }
        assertThat(text).doesNotContain(TestServer.adminPassword()).doesNotContain(TestServer.roPassword())
                .doesNotContain("root:x:0:0");
        if (r.status() == ToolStatus.OK || r.status() == ToolStatus.NO_EVIDENCE) {
            // what ran was a checked SELECT of allowlisted columns: say so
            assertThat(r.sql().orElseThrow()).matches("(?s)(SELECT |WITH ).*").doesNotContain("/*!").doesNotContain(";");
        }
        assertThat(TestServer.fingerprint(database)).isEqualTo(before);
        assertThat(Files.exists(Path.of(OUTFILE))).isFalse();
        try (Connection c = TestServer.admin(database); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM side")) {
                rs.next();
                assertThat(rs.getLong(1)).isZero();
            }
            try (ResultSet rs = s.executeQuery("SELECT next_not_cached_value FROM seq")) {
                rs.next();
                assertThat(rs.getLong(1)).isEqualTo(1);
            }
            try (ResultSet rs = s.executeQuery("SELECT @@global.max_connections > 1")) {
                rs.next();
                assertThat(rs.getBoolean(1)).isTrue();
            }
        }
    }
}
