package dev.sqlguard.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
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
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;
import dev.sqlguard.ports.EngineFactory;
import dev.sqlguard.testing.ContractDataset;

/**
 * The same sensitive-flow decision on DuckDB and on MySQL/MariaDB for the same query shapes: both
 * engines only report facts (every column use, its position and the steps it passes through), and
 * the domain's one rule decides. Includes the error oracle of partial functions,
 * {@code pow(ascii(substring(password, 8, 1)), 154)} succeeding where {@code 155} fails. Lives in
 * the module that ships both adapters; the engines are found by name through ServiceLoader.
 */
@Tag("mysql")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(300)
class SensitiveFlowAcrossEnginesTest {
    private static final Set<String> FUNCTIONS = Set.of("count", "sum", "avg", "min", "max", "upper", "lower", "length",
            "coalesce", "concat", "pow", "ascii", "substring", "round", "row_number");

    private final QueryService service = new QueryService(AuditSink.discarding());
    private Path folder;
    private String mysqlDatabase;
    private Engine duckdb;
    private Engine mysql;

    @BeforeAll
    void setUp() throws Exception {
        String url = System.getenv("SQLGUARD_MYSQL_URL");
        assumeTrue(url != null && !url.isBlank(), "no MySQL-compatible server (SQLGUARD_MYSQL_URL)");
        GuardrailPolicy policy = policy();
        folder = Files.createTempDirectory("sqlguard-cross-engine-");
        Path file = Files.createDirectory(folder.resolve("db")).resolve("contract.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement s = c.createStatement()) {
            load(s);
        }
        Files.createDirectory(folder.resolve("work"));
        duckdb = factory("duckdb").create(new EngineConfig("contract", Map.of("database", file.toString()), policy),
                EngineContext.of(folder.resolve("work")));
        mysqlDatabase = "sqlguard_t_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12).toLowerCase(Locale.ROOT);
        try (Connection c = admin(url, ""); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE `" + mysqlDatabase + "`");
        }
        try (Connection c = admin(url, mysqlDatabase); Statement s = c.createStatement()) {
            load(s);
        }
        mysql = factory("mysql").create(new EngineConfig("contract", Map.of("url", url + "/" + mysqlDatabase,
                "username", System.getenv("SQLGUARD_MYSQL_RO_USER"), "password", System.getenv("SQLGUARD_MYSQL_RO_PASSWORD")),
                policy), EngineContext.of(folder.resolve("work")));
    }

    @AfterAll
    void tearDown() throws Exception {
        if (duckdb != null) {
            duckdb.close();
        }
        if (mysql != null) {
            mysql.close();
        }
        if (folder != null) {
            try (Stream<Path> files = Files.walk(folder)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        if (mysqlDatabase != null) {
            try (Connection c = admin(System.getenv("SQLGUARD_MYSQL_URL"), ""); Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS `" + mysqlDatabase + "`");
            }
        }
    }

    /** Shapes that would read a sensitive value through a filter, a join, an order, a comparison or a failing step. */
    static Stream<String> refused() {
        return Stream.of(
                "SELECT pow(ascii(substring(password, 8, 1)), 154) AS x FROM users WHERE id = 1",
                "SELECT pow(ascii(substring(password, 8, 1)), 155) AS x FROM users WHERE id = 1",
                "SELECT count(*) AS n FROM users WHERE password LIKE 'h%'",
                "SELECT count(*) AS n FROM users WHERE length(password) > 8",
                "SELECT id FROM users ORDER BY password",
                "SELECT password, count(*) AS n FROM users GROUP BY password",
                "SELECT count(*) AS n FROM claims c JOIN users u ON u.password = c.status",
                "SELECT DISTINCT password FROM users",
                "SELECT length(password) + 1 AS x FROM users",
                "SELECT password = 'x' AS hit FROM users",
                "SELECT CASE WHEN password LIKE 'a%' THEN 1 ELSE 0 END AS x FROM users",
                "SELECT id, row_number() OVER (ORDER BY password) AS r FROM users",
                "SELECT count(*) AS n FROM claims WHERE id IN (SELECT id FROM users WHERE password > 'm')",
                "SELECT count(*) AS n FROM regions WHERE region IN (SELECT password FROM users)",
                "SELECT count(*) AS n FROM claims WHERE EXISTS (SELECT 1 FROM users u WHERE u.password = 'hunter2-alice-pw')",
                "WITH p AS (SELECT id, password FROM users) SELECT count(*) AS n FROM p WHERE password LIKE 'h%'",
                "SELECT password FROM users INTERSECT SELECT 'hunter2-alice-pw'",
                "SELECT ssn FROM claims EXCEPT SELECT '123-45-6789'",
                "SELECT x.p FROM (SELECT password AS p FROM users) x ORDER BY x.p");
    }

    /** Shapes that only return a sensitive value, through total steps: answered, the value redacted. */
    static Stream<String> answered() {
        return Stream.of(
                "SELECT password FROM users",
                "SELECT upper(password) AS p, length(password) AS l FROM users WHERE name = 'alice'",
                "SELECT max(password) AS m, count(password) AS c FROM users",
                "SELECT x.p FROM (SELECT password AS p FROM users) x",
                "WITH p AS (SELECT id, password FROM users) SELECT id, password FROM p WHERE id > 1",
                "SELECT password FROM users UNION ALL SELECT api_key FROM users",
                "SELECT id FROM claims WHERE amount > (SELECT avg(amount) FROM claims)",
                "SELECT coalesce(ssn, region) AS s FROM claims WHERE id = 1");
    }

    @ParameterizedTest
    @MethodSource("refused")
    void bothEnginesRefuseTheSameShapes(String sql) {
        for (Engine engine : List.of(duckdb, mysql)) {
            ToolResult r = service.query(engine.binding(), QueryRequest.of("contract", sql));
            assertThat(r.status()).as("%s on %s", sql, engine.getClass().getSimpleName()).isEqualTo(ToolStatus.REJECTED);
            assertThat(r.error().orElseThrow().code()).as("%s on %s: %s", sql, engine.getClass().getSimpleName(), r.error())
                    .isEqualTo(ErrorCode.COLUMN_NOT_ALLOWED);
        }
    }

    @ParameterizedTest
    @MethodSource("answered")
    void bothEnginesAnswerTheSameShapesAndRedact(String sql) {
        for (Engine engine : List.of(duckdb, mysql)) {
            ToolResult r = service.query(engine.binding(), QueryRequest.of("contract", sql));
            assertThat(r.status()).as("%s on %s: %s", sql, engine.getClass().getSimpleName(), r.error()).isEqualTo(ToolStatus.OK);
            for (String secret : ContractDataset.SECRETS) {
                assertThat(r.rows().toString()).doesNotContain(secret);
            }
        }
        ToolResult onDuckDb = service.query(duckdb.binding(), QueryRequest.of("contract", sql));
        ToolResult onMySql = service.query(mysql.binding(), QueryRequest.of("contract", sql));
        assertThat(onMySql.rows().size()).as(sql).isEqualTo(onDuckDb.rows().size());
    }

    private static GuardrailPolicy policy() {
        Map<String, List<String>> tables = new TreeMap<>();
        tables.put("claims", List.of("id", "region", "amount", "status", "created", "ssn"));
        tables.put("regions", List.of("region", "manager"));
        tables.put("users", List.of("id", "name", "password", "api_key"));
        return new GuardrailPolicy(TableAllowlist.of(tables), FUNCTIONS, Set.of(), Set.of(), Limits.defaults());
    }

    private static void load(Statement s) throws SQLException {
        for (String ddl : ContractDataset.ddl()) {
            s.execute(ddl);
        }
        for (String insert : ContractDataset.inserts()) {
            s.execute(insert);
        }
    }

    private static Connection admin(String url, String database) throws SQLException {
        java.util.Properties p = new java.util.Properties();
        p.setProperty("user", Optional.ofNullable(System.getenv("SQLGUARD_MYSQL_ADMIN_USER")).orElse(""));
        p.setProperty("password", Optional.ofNullable(System.getenv("SQLGUARD_MYSQL_ADMIN_PASSWORD")).orElse(""));
        return DriverManager.getConnection(url + "/" + database, p);
    }

    private static EngineFactory factory(String name) {
        for (EngineFactory f : ServiceLoader.load(EngineFactory.class)) {
            if (f.name().equals(name)) {
                return f;
            }
        }
        throw new IllegalStateException("no engine named " + name);
    }
}
