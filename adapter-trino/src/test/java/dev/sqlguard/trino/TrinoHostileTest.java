package dev.sqlguard.trino;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

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
import dev.sqlguard.testing.ContractDataset;

/**
 * Trino's own risky surface, with the read-only user and with a user that may write the catalog
 * ({@code requireReadOnlyAccount: false}, so that only sqlguard's own controls stand): every vector
 * is refused or fails, no secret appears in a cell or a message, and the data is unchanged after all
 * of them. The policy hides {@code users.password} and {@code users.api_key}.
 */
@Tag("trino")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(1200)
class TrinoHostileTest {
    /** Vectors that reach for hidden or sensitive values through Trino's constructs. */
    static final List<String> SECRET_CARRIERS = List.of(
            "SELECT password FROM users", "SELECT u.api_key FROM users u", "SELECT * FROM users",
            "SELECT id FROM users WHERE password = 'hunter2-alice-pw'",
            "SELECT id FROM users WHERE EXISTS (SELECT 1 FROM users x WHERE x.password LIKE 'h%')",
            "SELECT (SELECT max(password) FROM users) AS p", "SELECT ssn FROM claims WHERE ssn LIKE '1%'",
"SELECT id FROM claims ORDER BY ssn", "SELECT ssn, count(*) AS n FROM claims GROUP BY ssn",
            "SELECT id FROM claims WHERE substr(ssn, 1, 1) = '1'", "SELECT codepoint(CAST(substr(ssn, 1, 1) AS varchar(1))) AS c FROM claims",
            "SELECT if(ssn > '5', 1, 0) AS b FROM claims", "SELECT max_by(id, ssn) AS x FROM claims",
            "SELECT CAST(ssn AS bigint) AS x FROM claims", "SELECT \"PASSWORD\" FROM users", "SELECT \"users\".\"password\" FROM users",
            "SELECT id FROM claims UNION SELECT password FROM users", "WITH x AS (SELECT password AS p FROM users) SELECT p FROM x",
            "SELECT t.p FROM (SELECT password AS p FROM users) t", "SELECT id FROM claims c JOIN users u ON u.password = c.status",
            "SELECT users FROM users", "SELECT u FROM users u", "SELECT ROW(u.name, u.password) AS r FROM users u",
            "SELECT * FROM TABLE(exclude_columns(input => TABLE(users), columns => DESCRIPTOR(name)))",
            "SELECT lpad(ssn, 1000000, 'x') AS p FROM claims", "SELECT repeat(ssn, 1000) AS r FROM claims",
            "SELECT replace(ssn, '-', repeat('x', 100000)) AS r FROM claims");

    private final QueryService service = new QueryService(AuditSink.discarding());
    private final Map<String, Engine> engines = new HashMap<>();
    private String schema;
    private String before;

    @BeforeAll
    void start() throws Exception {
        TestCluster.require();
        schema = TestCluster.createSchema();
        before = TestCluster.fingerprint(schema);
        GuardrailPolicy policy = new GuardrailPolicy(TableAllowlist.of(Map.of(
                "claims", List.of("*"), "regions", List.of("*"), "users", List.of("id", "name"))),
                Set.of(), Set.of(), Set.of(), Limits.defaults());
        for (String user : List.of(TestCluster.READ_ONLY, TestCluster.WRITER)) {
            Map<String, String> p = new HashMap<>(TestCluster.properties(schema, user));
            p.put("requireReadOnlyAccount", "false");
            engines.put(user, new TrinoEngineFactory().create(new EngineConfig("hostile", p, policy), EngineContext.of(Path.of("target"))));
        }
    }

    @AfterAll
    void stop() throws Exception {
        engines.values().forEach(Engine::close);
        if (schema != null) {
            assertThat(TestCluster.fingerprint(schema)).as("schema and data after every vector").isEqualTo(before);
            TestCluster.dropSchema(schema);
        }
    }

    static Stream<Arguments> vectors() {
        List<String> all = new ArrayList<>(TrinoVectors.FORBIDDEN);
        all.addAll(TrinoVectors.EXTERNAL);
        all.addAll(SECRET_CARRIERS);
        all.addAll(TrinoVectors.RED_TEAM_REFUSED);
        return Stream.of(TestCluster.READ_ONLY, TestCluster.WRITER).flatMap(user -> all.stream().map(sql -> Arguments.of(user, sql)));
    }

    /** Pieces of the secrets that a transformed (trimmed, reversed, cut) value would still show. */
    private static final List<String> SECRET_PIECES = List.of("45-6789", "9876-54", "hunter2", "s3cr3t", "carol-pw", "ak_live",
            "evil_ka");

    static Stream<Arguments> answerable() {
        return TrinoVectors.RED_TEAM_ANSWERED.stream().map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("answerable")
    void isAnsweredWithTheSensitiveValueRedactedAndNoHiddenValue(String sql) {
        ToolResult result = service.query(engines.get(TestCluster.READ_ONLY).binding(), new QueryRequest("hostile", sql, List.of(), "h"));
        String text = result.rows() + " " + result.error().map(e -> e.message()).orElse("");
        for (String secret : ContractDataset.SECRETS) {
            assertThat(text).as(sql).doesNotContain(secret);
        }
        for (String piece : SECRET_PIECES) {
            assertThat(text).as(sql).doesNotContain(piece);
        }
        assertThat(text).doesNotContain("io.trino").doesNotContain("Exception").doesNotContain("127.0.0.1").doesNotContain("Query failed");
        if (result.status() == ToolStatus.OK && !result.rows().isEmpty() && sql.toLowerCase(java.util.Locale.ROOT).contains("ssn")
                && !sql.equals("SELECT region AS ssn FROM claims")) {
            assertThat(text).as(sql + ": the sensitive value comes back redacted").contains("REDACTED");
        }
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("vectors")
    void isRefusedWithoutASecret(String user, String sql) {
        ToolResult result = service.query(engines.get(user).binding(), new QueryRequest("hostile", sql, List.of(), "h"));
        assertThat(result.status()).as(sql).isIn(ToolStatus.REJECTED, ToolStatus.ERROR);
        String text = result.rows() + " " + result.error().map(e -> e.message()).orElse("");
        for (String secret : ContractDataset.SECRETS) {
            assertThat(text).as(sql).doesNotContain(secret);
        }
        assertThat(text).doesNotContain("io.trino").doesNotContain("Exception").doesNotContain("127.0.0.1").doesNotContain("Query failed");
    }
}
