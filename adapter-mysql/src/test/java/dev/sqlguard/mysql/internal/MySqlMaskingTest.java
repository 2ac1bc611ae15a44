package dev.sqlguard.mysql.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.domain.port.ResultCursor;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;
import dev.sqlguard.mysql.MySqlEngineFactory;
import dev.sqlguard.mysql.TestServer;
import dev.sqlguard.testing.FaultProxy;
import dev.sqlguard.testing.HonestCorpus;
import dev.sqlguard.testing.MaskedAnswers;
import dev.sqlguard.testing.MaskedAnswers.Secret;

/**
 * Sensitive values never leave MariaDB/MySQL (issue 24, cause 1): every output the policy redacts is a
 * constant in the SQL the server runs, so nothing measured on the wire (the byte and cell caps, the
 * streamed result, the time a value takes to arrive) depends on a secret. Proven on the wire itself
 * (the bytes the server sends, counted by a proxy), with the padding oracle of the issue and variants
 * over secrets of 1 character to 3 MB, and against the raw server's rows and order.
 */
@Tag("mysql")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(300)
class MySqlMaskingTest {
    private String database;
    private final QueryService service = new QueryService(AuditSink.discarding());

    @BeforeAll
    void create() throws SQLException {
        assumeTrue(TestServer.available(), "no MySQL-compatible server");
        database = TestServer.createDatabase();
        try (Connection c = TestServer.admin(database); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE vault (id BIGINT PRIMARY KEY, owner VARCHAR(16), password LONGTEXT)");
            for (Secret v : MaskedAnswers.VAULT) {
                s.execute("INSERT INTO vault VALUES (" + v.id() + ", '" + v.owner() + "', REPEAT('" + v.fill() + "', " + v.length() + "))");
            }
            s.execute("ANALYZE TABLE vault");
        }
    }

    @AfterAll
    void drop() {
        if (database != null) {
            TestServer.dropDatabase(database);
        }
    }

    private Engine engine(Limits limits) {
        GuardrailPolicy policy = new GuardrailPolicy(TableAllowlist.of(Map.of("vault", List.of("*"), "users", List.of("*"))),
                Set.of(), Set.of(), Set.of(), limits);
        return new MySqlEngineFactory().create(new EngineConfig("srv", TestServer.properties(database, false), policy),
                EngineContext.of(Path.of("target")));
    }

    /** What one raw read of a text brought: the labels, the cells as text, and the bytes the server sent for it. */
    private record Read(List<String> labels, List<List<String>> rows, long bytes) {
    }

    private static Read read(Connection c, FaultProxy proxy, String sql, List<Object> params) throws SQLException {
        long before = proxy.bytesFromServer();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.size(); i++) {
                ps.setObject(i + 1, params.get(i));
            }
            List<String> labels = new ArrayList<>();
            List<List<String>> rows = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                int n = rs.getMetaData().getColumnCount();
                for (int i = 1; i <= n; i++) {
                    labels.add(rs.getMetaData().getColumnLabel(i));
                }
                while (rs.next()) {
                    List<String> row = new ArrayList<>();
                    for (int i = 1; i <= n; i++) {
                        row.add(rs.getString(i));
                    }
                    rows.add(row);
                }
            }
            return new Read(labels, rows, proxy.bytesFromServer() - before);
        }
    }

    /**
     * Driver level: the plan's executable SQL, run through plain Connector/J as the read-only account,
     * returns the password column as NULL under its own label, and the server sends the same bytes for
     * a 3 MB secret as for a 1-character one. The same statement without its mask, run the same way,
     * sends the whole secret: the measurement sees it when it is there.
     */
    @Test
    void aSensitiveColumnsBytesNeverReachTheJvm() throws Exception {
        URI uri = URI.create(TestServer.url().substring("jdbc:".length()));
        try (Engine engine = engine(Limits.defaults()); FaultProxy proxy = FaultProxy.to(uri.getHost(), uri.getPort());
             Connection raw = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + proxy.port() + "/" + database,
                     TestServer.roUser(), TestServer.roPassword())) {
            QueryPlan plan = engine.validator().validate(QueryRequest.of("srv", "SELECT id, owner, password FROM vault WHERE id = ?", 3L));
            assertThat(plan.maskedOutputs()).containsExactly(2);
            System.out.println("MySQL masked SQL: " + plan.executableSql());
            read(raw, proxy, plan.executableSql(), List.of(4L)); // the driver's first round trips, once
            Read huge = read(raw, proxy, plan.executableSql(), List.of(3L));
            Read small = read(raw, proxy, plan.executableSql(), List.of(1L));
            assertThat(huge.labels()).containsExactly("id", "owner", "password");
            assertThat(huge.rows()).containsExactly(java.util.Arrays.asList("3", "bob", null));
            assertThat(small.rows()).containsExactly(java.util.Arrays.asList("1", "ann", null));
            assertThat(huge.bytes()).as("bytes the server sent for a 3 MB secret").isLessThan(2_000).isEqualTo(small.bytes());

            String statement = SelectRenderer.unmasked(plan, Optional.empty());
            Read clear = read(raw, proxy, statement, List.of(3L));
            assertThat(clear.rows().get(0).get(2)).hasSize(MaskedAnswers.HUGE);
            assertThat(clear.bytes()).isGreaterThan(MaskedAnswers.HUGE);
            System.out.printf("MySQL wire bytes: masked 3 MB secret %d, masked 1-char secret %d, unmasked 3 MB secret %d%n",
                    huge.bytes(), small.bytes(), clear.bytes());
        }
    }

    /** The red team's oracle and variants, under each limit that counts what crosses the wire. */
    private static List<String> paddedQueries() {
        String pad = "y".repeat(60_000);
        return List.of(
                "SELECT v.id, concat(v.password, '" + pad + "') AS p FROM vault v WHERE v.id = ?",
                "SELECT v.id, v.password FROM vault v WHERE v.id = ?",
                "SELECT v.id, concat_ws('-', v.password, '" + pad + "') AS p FROM vault v WHERE v.id = ?",
                "SELECT v.id, concat(v.password, v.password, '" + pad + "') AS p FROM vault v WHERE v.id = ?",
                "SELECT v.id, concat(reverse(v.password), '" + pad + "') AS p FROM vault v WHERE v.id = ?",
                "SELECT v.id, concat(hex(v.password), '" + pad + "') AS p FROM vault v WHERE v.id = ?",
                "SELECT v.id, length(v.password) AS n, upper(v.password) AS u FROM vault v WHERE v.id = ?",
                "SELECT v.id, group_concat(v.password) AS g FROM vault v WHERE v.id = ? GROUP BY v.id",
                "SELECT v.id, concat(v.owner, '" + pad + "') AS secret_note FROM vault v WHERE v.id = ?");
    }

    /**
     * The padding oracle of the issue ({@code concat(password, <large constant>)}, which on PostgreSQL
     * failed for a long secret and answered for a short one) and variants: masked, every variant answers
     * the same way for a 1-character, a 150 kB and a 3 MB secret, under the byte cap, the cell cap, a
     * small memory limit and the defaults. The positive control: run without its mask, the same
     * statement sends the secret, whose length then shows in the driver's result.
     */
    @Test
    void thePaddingOracleAnswersTheSameWhateverTheSecret() {
        List<Limits> limits = List.of(Limits.defaults().withMemoryBytes(200_000), Limits.defaults().withMaxBytes(40),
                Limits.defaults().withMaxCellChars(3), Limits.defaults());
        for (Limits limit : limits) {
            try (Engine engine = engine(limit)) {
                for (String sql : paddedQueries()) {
                    Set<String> outcomes = new LinkedHashSet<>();
                    for (Secret v : MaskedAnswers.VAULT) {
                        outcomes.add(MaskedAnswers.outcome(service.query(engine.binding(), QueryRequest.of("srv", sql, v.id()))));
                    }
                    assertThat(outcomes).as(limit + " " + sql.replaceAll("y{100,}", "y...")).hasSize(1);
                    assertThat(outcomes.iterator().next()).as(sql.replaceAll("y{100,}", "y...")).startsWith("OK - ");
                }
            }
        }
        try (Engine engine = engine(Limits.defaults())) {
            QueryPlan plan = engine.validator().validate(QueryRequest.of("srv", paddedQueries().get(0), 1L));
            QueryPlan unmasked = new QueryPlan(plan.sourceId(), plan.originalSql(), SelectRenderer.unmasked(plan, Optional.empty()),
                    plan.parameters(), plan.tables(), plan.uses(), plan.functions(), plan.outputs(), plan.amplifications(), plan.limits());
            assertThat(drain(engine, unmasked.withParameters(List.of(1L)))).isEqualTo(60_001);
            assertThat(drain(engine, unmasked.withParameters(List.of(2L)))).isEqualTo(60_000 + MaskedAnswers.LONG);
            assertThat(drain(engine, plan.withParameters(List.of(2L)))).isZero();
        }
    }

    /** The characters of column 2 the engine's cursor returned, over every row. */
    private static long drain(Engine engine, QueryPlan plan) {
        long chars = 0;
        try (ResultCursor cursor = engine.execution().execute(plan)) {
            while (cursor.next()) {
                Object value = cursor.get(1);
                chars += value == null ? 0 : value.toString().length();
            }
        }
        return chars;
    }

    /**
     * The mask comes after the query's own ordering, DISTINCT, grouping and set operations: each masked
     * query returns the raw server's rows, in its order, with the masked columns redacted. (A name that
     * is sensitive makes an output sensitive whatever it holds: {@code DISTINCT owner AS owner_secret}
     * keeps its three distinct rows, which a mask inside the DISTINCT would have folded into one.)
     */
    @Test
    void maskedQueriesKeepTheRawRowsAndTheirOrder() throws Exception {
        List<String> queries = List.of(
                "SELECT owner, password FROM vault ORDER BY owner DESC, id",
                "SELECT DISTINCT owner AS owner_secret FROM vault ORDER BY 1 DESC",
                "SELECT DISTINCT owner, 'x' AS secret FROM vault ORDER BY owner",
                "SELECT owner, count(*) AS n, max(password) AS m FROM vault GROUP BY owner ORDER BY n DESC, owner",
                "SELECT owner AS who, password AS pw FROM vault UNION ALL SELECT name, password FROM users ORDER BY 1 DESC",
                "SELECT owner AS secret FROM vault UNION SELECT name FROM users ORDER BY 1",
                "SELECT id, length(password) AS n FROM vault ORDER BY id DESC LIMIT 3",
                "SELECT owner, group_concat(password ORDER BY id) AS g FROM vault GROUP BY owner ORDER BY owner DESC",
                "SELECT id, api_key, name FROM users ORDER BY name DESC",
                "SELECT v.id, u.password, v.owner FROM vault v JOIN users u ON u.id = v.id ORDER BY v.owner DESC, v.id",
                "WITH o AS (SELECT owner, count(*) AS n FROM vault GROUP BY owner) SELECT o.owner, o.n AS token FROM o ORDER BY o.n DESC, o.owner");
        try (Engine engine = engine(Limits.defaults()); Connection c = TestServer.admin(database); Statement s = c.createStatement()) {
            List<String> differences = MaskedAnswers.differences(queries, HonestCorpus.jdbc(s),
                    sql -> service.query(engine.binding(), QueryRequest.of("srv", sql)), HonestCorpus::plainCell);
            assertThat(differences).isEmpty();
        }
    }
}
