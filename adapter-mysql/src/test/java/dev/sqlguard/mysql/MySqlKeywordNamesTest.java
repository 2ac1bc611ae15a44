package dev.sqlguard.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.SensitiveNames;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.testing.HonestCorpus;

/** Every word of MariaDB's keyword table ({@code information_schema.KEYWORDS}) that MariaDB takes as a bare column name runs guarded as raw. */
@Tag("mysql")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(600)
class MySqlKeywordNamesTest {
    private String database;
    private Engine engine;
    private final List<String> words = new ArrayList<>();
    private final QueryService service = new QueryService(AuditSink.discarding());

    @BeforeAll
    void setUp() throws Exception {
        assumeTrue(TestServer.available(), "no MySQL-compatible server");
        database = TestServer.createDatabase();
        try (Connection c = TestServer.admin(database); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT lower(WORD) FROM information_schema.KEYWORDS ORDER BY 1")) {
                while (rs.next()) {
                    String w = rs.getString(1);
                    if (w.matches("[a-z_][a-z0-9_]*") && !SensitiveNames.isSensitive(w, Set.of()) && !words.contains(w)) {
                        words.add(w);
                    }
                }
            }
            List<String> columns = new ArrayList<>();
            List<String> values = new ArrayList<>();
            for (int i = 0; i < words.size(); i++) {
                columns.add("`" + words.get(i) + "` integer");
                values.add(String.valueOf(i));
            }
            s.execute("CREATE TABLE kw (" + String.join(", ", columns) + ")");
            s.execute("INSERT INTO kw VALUES (" + String.join(", ", values) + ")");
        }
        GuardrailPolicy policy = new GuardrailPolicy(TableAllowlist.of(Map.of("kw", words)), Set.of(), Set.of(), Set.of(), Limits.defaults());
        engine = MySqlServerTest.engine(database, false, policy, Map.of());
    }

    @AfterAll
    void tearDown() {
        if (engine != null) {
            engine.close();
        }
        if (database != null) {
            TestServer.dropDatabase(database);
        }
    }

    @Test
    void everyKeywordMariaDbTakesAsAColumnNameRunsBare() {
        assertThat(words).hasSizeGreaterThan(500);
        List<String> corpus = new ArrayList<>();
        for (String w : words) {
            corpus.add("SELECT " + w + " FROM kw");
            corpus.add("SELECT " + w + " AS v, count(*) AS n FROM kw WHERE " + w + " >= 0 GROUP BY " + w + " ORDER BY " + w);
        }
        HonestCorpus.Outcome outcome = HonestCorpus.compare(corpus, sql -> {
            try (Connection c = TestServer.admin(database); Statement s = c.createStatement()) {
                return HonestCorpus.jdbc(s).rows(sql);
            }
        }, sql -> service.query(engine.binding(), QueryRequest.of("db", sql)), MySqlKeywordNamesTest::cell).print();
        outcome.different().forEach(System.out::println);
        assertThat(outcome.ran()).isGreaterThan(100);
        assertThat(outcome.different()).isEmpty();
        // current_user and current_role are MariaDB's functions even where a column has the name, and the policy refuses them
        assertThat(outcome.refused()).allSatisfy(r -> assertThat(r).contains("FUNCTION_NOT_ALLOWED").containsAnyOf("current_user", "current_role"));
    }

    /** A value as compared; a date or time (the bare words MariaDB reads as its clock functions) by its kind, not its instant. */
    private static String cell(Object v) {
        if (v instanceof java.time.temporal.Temporal || v instanceof java.util.Date
                || String.valueOf(v).matches("[0-9]{4}-[0-9]{2}-[0-9]{2}.*|[0-9]{2}:[0-9]{2}:[0-9]{2}.*")) {
            return "a date or time";
        }
        return String.valueOf(v);
    }
}
