package dev.sqlguard.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;
import dev.sqlguard.testing.HonestCorpus;
import dev.sqlguard.testing.PrivateDatabaseFixture;
import dev.sqlguard.testing.differential.Outcome;
import dev.sqlguard.testing.differential.Outcomes;

/**
 * A hidden column named like a word of the grammar (a type's word, an interval unit, {@code zone}, {@code interval})
 * cannot be told from a column that does not exist: each text answers through an engine whose table has those
 * hidden columns exactly what it answers through an engine whose table lacks them (the same rows, or the same code
 * and message). Two private schemas: {@code ev} with the hidden columns {@code day}, {@code precision}, {@code zone},
 * {@code "interval"}, {@code "time"}, {@code second} and {@code at} beside the allowlisted {@code id}, {@code ts} and
 * {@code amount}, and {@code ev} with the allowlisted columns only.
 */
@Tag("postgresql")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
class PostgresAbsentNamesTest {
    private static final String ROWS = "INSERT INTO ev (id, ts, amount) VALUES (1, '2024-01-31 23:30', 10.5), (2, '2024-02-29 00:15', 20),"
            + " (3, '2024-12-31 12:00', 0.25)";
    private final QueryService service = new QueryService(AuditSink.discarding());
    private TestServer.Coordinates server;
    private String withHidden;
    private String without;
    private Engine hidden;
    private Engine absent;

    @BeforeAll
    void start() throws SQLException {
        assumeTrue(TestServer.available(), "no PostgreSQL server");
        server = TestServer.defaults();
        withHidden = PrivateDatabaseFixture.uniqueName();
        without = PrivateDatabaseFixture.uniqueName();
        try (Connection c = TestServer.admin(server); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA " + withHidden);
            s.execute("CREATE TABLE " + withHidden + ".ev (id int, ts timestamp, amount numeric(10,2), day int, precision int,"
                    + " zone int, \"interval\" int, \"time\" int, second int, at int)");
            s.execute("CREATE SCHEMA " + without);
            s.execute("CREATE TABLE " + without + ".ev (id int, ts timestamp, amount numeric(10,2))");
            for (String schema : List.of(withHidden, without)) {
                s.execute("SET search_path = " + schema);
                s.execute(ROWS);
                TestServer.grantReadOnly(s, server, schema);
            }
        }
        hidden = engine(withHidden);
        absent = engine(without);
    }

    @AfterAll
    void stop() throws Exception {
        for (Engine e : new Engine[] {hidden, absent}) {
            if (e != null) {
                e.close();
            }
        }
        for (String schema : new String[] {withHidden, without}) {
            if (schema != null) {
                TestServer.dropSchema(server, schema);
            }
        }
    }

    private Engine engine(String schema) {
        Map<String, String> properties = new HashMap<>(TestServer.properties(server, schema, false));
        properties.put("poolSize", "1");
        GuardrailPolicy policy = new GuardrailPolicy(TableAllowlist.of(Map.of("ev", List.of("id", "ts", "amount"))), Set.of(), Set.of(),
                Set.of(), Limits.defaults().withTimeout(java.time.Duration.ofSeconds(10)));
        return new PostgresEngineFactory().create(new EngineConfig("absent", properties, policy), EngineContext.of(java.nio.file.Path.of("target")));
    }

    private Outcome call(Engine on, String sql) {
        return Outcomes.guarded(service.query(on.binding(), new QueryRequest("absent", sql, List.of(), "a-" + System.nanoTime())),
                HonestCorpus::plainCell);
    }

    /** Texts that answer rows through both engines: the grammar's words named like the hidden columns stay as written. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "SELECT id, CAST(ts AS date) AS d, ts + INTERVAL '1 day' AS next FROM ev ORDER BY id",
        "SELECT id, CAST(ts AS timestamp with time zone) AS b FROM ev ORDER BY id",
        "SELECT id, CAST(ts AS time without time zone) AS t, CAST(ts AS timestamp without time zone) AS u FROM ev ORDER BY id",
        "SELECT id, amount::double precision AS a, ts::timestamp without time zone AS b, ts::date AS c FROM ev ORDER BY id",
        "SELECT id, ts::time without time zone AS t, amount::double precision zone FROM ev ORDER BY id",
        "SELECT id, CAST('1 day' AS interval) AS i, '1 day'::interval AS j, TIME '10:00' AS t FROM ev ORDER BY id",
        "SELECT id, TIMESTAMP WITH TIME ZONE '2024-01-01 00:00' AS t FROM ev ORDER BY id",
        "SELECT id, ts - interval '1 day 2 hours' AS earlier, DATE '2024-02-01' AS d FROM ev ORDER BY id",
        "SELECT id, extract(day FROM ts) AS d, extract(second FROM ts) AS s FROM ev ORDER BY id",
        "SELECT id, CAST(ts AS date) + 1 AS day FROM ev ORDER BY day",
        "SELECT id, id::int zone FROM ev ORDER BY zone",
        "SELECT count(*) AS n FROM ev WHERE ts < TIMESTAMP '2024-06-01 00:00'"})
    void aWordOfTheGrammarNamedLikeAHiddenColumnAnswersAsWithoutThatColumn(String sql) {
        Outcome withoutIt = call(absent, sql);
        assertThat(withoutIt).isInstanceOf(Outcome.Rows.class);
        assertThat(call(hidden, sql)).isEqualTo(withoutIt);
    }

    /** Texts that name a hidden column: the same refusal as for a column that does not exist. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "SELECT id, \"interval\" FROM ev",
        "SELECT id, ev.zone FROM ev",
        "SELECT id, CAST(ev.second AS date) AS d FROM ev",
        "SELECT id, ev.at::int zone FROM ev"})
    void aHiddenColumnNamedLikeAWordOfTheGrammarIsRefusedAsAMissingOne(String sql) {
        Outcome withoutIt = call(absent, sql);
        assertThat(withoutIt).isInstanceOf(Outcome.Failed.class);
        assertThat(call(hidden, sql)).isEqualTo(withoutIt);
    }

    /**
     * Texts where the hidden names stand as bare words (a column, an alias without AS): whatever the answer, the same as
     * with those columns absent. The renderer quoted a keyword-named column of the whole schema, hidden ones included,
     * so {@code SELECT id, day FROM ev} was an unknown column with {@code day} hidden and UNSAFE_SYNTAX without it; and
     * the renamed alias of {@code ts::date second} was plannable, where PostgreSQL refuses {@code second} as a label
     * without AS (the text is now read over the visible columns, with nothing renamed).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "SELECT id, day FROM ev",
        "SELECT id FROM ev ORDER BY day",
        "SELECT id FROM ev WHERE precision > 0",
        "SELECT id day FROM ev",
        "SELECT id, ts::date second FROM ev",
        "SELECT id, amount::double precision day FROM ev",
        "SELECT id::int AS zone, id::int day FROM ev"})
    void aBareWordNamedLikeAHiddenColumnAnswersAsWithoutThatColumn(String sql) {
        assertThat(call(hidden, sql)).isEqualTo(call(absent, sql));
    }
}
