package dev.sqlguard.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.port.AuditSink;

/**
 * A value used twice at every level of nested CTEs or derived tables: MariaDB merges them and
 * doubles the expression at every level (measured raw: 22 levels of {@code a.x + a.x} over a constant
 * took 3.2 s, 26 levels ran 44 s under a 5 s max_statement_time, 30 levels over 60 s). Through the
 * engine such a query is refused before it runs, over a column as over a constant; using the value
 * once per level still runs.
 */
@Tag("mysql")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
class ExpressionCopiesServerTest {
    private String database;
    private BothAccounts engines;
    private final QueryService service = new QueryService(AuditSink.discarding());

    @BeforeAll
    void setUp() throws Exception {
        assumeTrue(TestServer.available(), "no MySQL-compatible server");
        database = TestServer.createDatabase();
        GuardrailPolicy policy = new GuardrailPolicy(TableAllowlist.of(Map.of("claims", List.of("id", "region", "amount"))),
                Set.of("count", "sum", "concat", "length"), Set.of(), Set.of(), Limits.defaults().withTimeout(Duration.ofSeconds(3)));
        engines = BothAccounts.open(database, policy);
    }

    @AfterAll
    void tearDown() {
        if (engines != null) {
            engines.close();
        }
        if (database != null) {
            TestServer.dropDatabase(database);
        }
    }

    private ToolResult run(String sql) {
        return service.query(engines.engine("ro").binding(), QueryRequest.of("db", sql));
    }

    static String doubled(String first, String from, String left, String op, String right, int levels) {
        StringBuilder sql = new StringBuilder("WITH a0 AS (SELECT " + first + " AS x" + from + ")");
        for (int i = 1; i <= levels; i++) {
            String p = "a" + (i - 1) + ".x";
            sql.append(", a").append(i).append(" AS (SELECT ").append(left).append(p).append(op).append(p).append(right)
                    .append(" AS x FROM a").append(i - 1).append(')');
        }
        return sql.append(" SELECT a").append(levels).append(".x FROM a").append(levels).toString();
    }

    @Test
    void aValueDoubledThroughCtesIsRefusedBeforeItRuns() {
        for (String[] c : List.of(new String[] {"1", ""}, new String[] {"id", " FROM claims"}, new String[] {"(SELECT count(*) FROM claims)", ""})) {
            for (String[] op : List.of(new String[] {"", " + ", ""}, new String[] {"concat(", ", ", ")"})) {
                ToolResult r = run(doubled(c[0], c[1], op[0], op[1], op[2], 26));
                assertThat(r.error()).as("%s %s", c[0], op[1]).isPresent();
                assertThat(r.error().orElseThrow().code()).as("%s %s: %s", c[0], op[1], r.error().orElseThrow().message())
                        .isEqualTo(ErrorCode.UNBOUNDED_COST);
            }
        }
        ToolResult once = run(doubled("1", "", "", " + ", "", 0).replace("SELECT a0.x", "SELECT a0.x + 1"));
        assertThat(once.error()).isEmpty();
    }
}
