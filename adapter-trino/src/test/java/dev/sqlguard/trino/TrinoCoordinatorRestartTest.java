package dev.sqlguard.trino;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

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
import dev.sqlguard.testing.ContractDataset;
import dev.sqlguard.testing.FaultProxy;
import io.trino.jdbc.TrinoDriver;

/**
 * Issue 26: a Trino source under a failing coordinator. The coordinator (a cluster of this test's
 * own, behind a {@link FaultProxy} that stands for its address) is killed, and a new one comes up at
 * the same address without the source's schema (a coordinator that has not loaded its catalog):
 * every call in between is {@code ENGINE_UNAVAILABLE}, retryable, never {@code QUERY_FAILED} nor a
 * policy code such as {@code TABLE_NOT_ALLOWED}; once the schema is back, the same engine serves
 * again without a restart. Run it under the machine-wide Trino lock: it starts two clusters.
 */
@Tag("trino")
class TrinoCoordinatorRestartTest {
    private static final TrinoDriver DRIVER = new TrinoDriver();
    private final QueryService service = new QueryService(AuditSink.discarding());

    private static TrinoClusterProcess startCluster(Path work, String name) throws Exception {
        Path rules = work.resolve("trino-rules-" + UUID.randomUUID() + ".json");
        try (InputStream in = TestCluster.class.getResourceAsStream("test-cluster-rules.json")) {
            Files.copy(in, rules, StandardCopyOption.REPLACE_EXISTING);
        }
        return TrinoClusterProcess.start(TestCluster.java25().orElseThrow(), Path.of(System.getProperty("sqlguard.trino.classpath")),
                Path.of(System.getProperty("sqlguard.trino.launcher")), rules, TestCluster.NODES, work.resolve("trino-" + name + ".log"));
    }

    private static void createSchema(String url, String schema) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", TestCluster.ADMIN);
        p.setProperty("catalog", "memory");
        p.setProperty("schema", "default");
        try (Connection c = DRIVER.connect(url, p); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA memory." + schema);
            for (String ddl : ContractDataset.ddl()) {
                s.execute(ddl.replace(" PRIMARY KEY", "").replaceFirst("CREATE TABLE (\\w+)", "CREATE TABLE memory." + schema + ".$1"));
            }
            for (String insert : ContractDataset.inserts()) {
                s.execute(insert.replaceFirst("INSERT INTO (\\w+)", "INSERT INTO memory." + schema + ".$1"));
            }
        }
    }

    private ToolResult call(Engine engine, String sql) {
        return service.query(engine.binding(), QueryRequest.of("db", sql));
    }

    /** A call while no coordinator serves the source: retryable ENGINE_UNAVAILABLE. */
    private void unavailable(Engine engine, String sql, String when) {
        ToolResult r = call(engine, sql);
        assertThat(r.status()).as("%s: %s", when, r.error()).isEqualTo(ToolStatus.ERROR);
        assertThat(r.error().orElseThrow().code()).as("%s: %s", when, r.error()).isEqualTo(ErrorCode.ENGINE_UNAVAILABLE);
        assertThat(r.error().orElseThrow().retryable()).isTrue();
    }

    @Test
    @Timeout(value = 900, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aKilledAndRestartedCoordinatorIsEngineUnavailableUntilItServesTheSourceAgain() throws Exception {
        assumeTrue(TestCluster.unavailableReason().isEmpty(), () -> TestCluster.unavailableReason().orElse(""));
        Path work = Path.of(System.getenv().getOrDefault("SQLGUARD_TEST_TMP", "target/test-tmp"));
        Files.createDirectories(work);
        String schema = "sqlguard_t_restart";
        TrinoClusterProcess first = startCluster(work, "first");
        TrinoClusterProcess second = null;
        try {
            URI a = URI.create(first.awaitUrl().substring("jdbc:".length()));
            createSchema("jdbc:trino://" + a.getHost() + ":" + a.getPort(), schema);
            try (FaultProxy proxy = FaultProxy.to(a.getHost(), a.getPort())) {
                GuardrailPolicy policy = new GuardrailPolicy(TableAllowlist.of(Map.of("claims", List.of("id", "region", "amount", "status"))),
                        Set.of("count", "sum"), Set.of(), Set.of(), Limits.defaults().withTimeout(Duration.ofSeconds(10)));
                Map<String, String> props = Map.of("url", "jdbc:trino://127.0.0.1:" + proxy.port(), "user", TestCluster.READ_ONLY,
                        "catalog", "memory", "schema", schema, "requireReadOnlyAccount", "true");
                try (Engine engine = new TrinoEngineFactory().create(new EngineConfig("db", props, policy), EngineContext.of(Path.of("target")))) {
                    String known = "SELECT count(*) AS n FROM claims";
                    ToolResult ok = call(engine, known);
                    assertThat(ok.status()).as("%s", ok.error()).isEqualTo(ToolStatus.OK);

                    first.terminate(); // the coordinator dies (and its worker with it)
                    unavailable(engine, known, "dead coordinator, known plan");
                    unavailable(engine, "SELECT sum(amount) AS s FROM claims", "dead coordinator, new text");

                    second = startCluster(work, "second");
                    URI b = URI.create(second.awaitUrl().substring("jdbc:".length()));
                    proxy.retarget(b.getHost(), b.getPort()); // the restarted coordinator, at the source's address
                    unavailable(engine, known, "restarted coordinator without the schema, known plan");
                    unavailable(engine, "SELECT count(*) AS n FROM claims WHERE id > 3", "restarted coordinator without the schema, new text");

                    createSchema("jdbc:trino://" + b.getHost() + ":" + b.getPort(), schema);
                    ToolResult back = call(engine, known);
                    assertThat(back.status()).as("%s", back.error()).isEqualTo(ToolStatus.OK);
                    assertThat(((Number) back.rows().get(0).get(0)).longValue()).isEqualTo(ContractDataset.claims().size());
                }
            }
        } finally {
            first.terminate();
            if (second != null) {
                second.terminate();
            }
        }
    }
}
