package dev.sqlguard.postgresql;

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

import dev.sqlguard.domain.Amplification;
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

/**
 * Fixed-factor expanders on PostgreSQL (issue 24): {@code quote_ident}, {@code quote_literal} and
 * {@code quote_nullable} double every quote or backslash they meet, so nested they grow as a power
 * of two, in one PostgreSQL call no statement_timeout interrupts (measured on PostgreSQL 15:
 * {@code quote_ident} 30 deep ran 35 s under a 3 s statement_timeout and asked for 1.6 GB). Each is
 * nested k deep, in one expression, through CTEs and through a recursive CTE: refused exactly where
 * the product of the factors passes {@link Amplification#MAX_RELATIVE}, and the accepted depths run.
 */
@Tag("postgresql")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(300)
class PostgresExpanderTest {
    private PostgresFixture ro;
    private Engine engine;
    private final QueryService service = new QueryService(AuditSink.discarding());

    @BeforeAll
    void start() throws Exception {
        assumeTrue(TestServer.available(), "no PostgreSQL server");
        ro = new PostgresFixture(false);
        engine = ro.engine("expanders", new GuardrailPolicy(TableAllowlist.of(Map.of("users", List.of("id", "name"))),
                Set.of(), Set.of(), Set.of(), Limits.defaults().withTimeout(Duration.ofSeconds(3))));
    }

    @AfterAll
    void stop() throws Exception {
        if (engine != null) {
            engine.close();
        }
        if (ro != null) {
            ro.close();
        }
    }

    private ToolResult run(String sql) {
        return service.query(engine.binding(), QueryRequest.of("expanders", sql));
    }

    /** Both quotes and a capital letter: every one of the three functions doubles something in it. */
    private static final String BASE = "('\"''' || upper(name))";

    @Test
    void nestedInOneExpressionTheyAreRefusedExactlyPastTheLimit() {
        for (String f : List.of("quote_ident", "quote_literal", "quote_nullable")) {
            String expression = BASE;
            for (int k = 1; k <= 9; k++) {
                expression = f + "(" + expression + ")";
                ToolResult r = run("SELECT max(length(" + expression + ")) AS n FROM users");
                boolean refused = (1L << k) > Amplification.MAX_RELATIVE;
                assertThat(r.status()).as("%s %d deep", f, k).isEqualTo(refused ? ToolStatus.REJECTED : ToolStatus.OK);
                if (refused) {
                    assertThat(r.error().orElseThrow().code()).isEqualTo(ErrorCode.UNBOUNDED_COST);
                } else {
                    // every level at most doubles and adds 3 (E'...'): within the model's factor of the input
                    long n = ((Number) r.rows().get(0).get(0)).longValue();
                    assertThat(n).as("%s %d deep", f, k).isLessThanOrEqualTo((1L << k) * (5 + 2) + 3L * (1L << k));
                }
            }
        }
    }

    @Test
    void throughCtesAndAcrossFunctionsTheFactorsMultiply() {
        for (int levels : new int[] {6, 7}) {
            StringBuilder sql = new StringBuilder("WITH a0 AS (SELECT " + BASE + " AS x FROM users)");
            for (int i = 1; i <= levels; i++) {
                sql.append(", a").append(i).append(" AS (SELECT quote_ident(a").append(i - 1).append(".x) AS x FROM a").append(i - 1).append(')');
            }
            sql.append(" SELECT max(length(x)) AS n FROM a").append(levels);
            ToolResult r = run(sql.toString());
            assertThat(r.status()).as("%d levels", levels).isEqualTo(levels == 6 ? ToolStatus.OK : ToolStatus.REJECTED);
        }
        ToolResult mixed = run("SELECT length(quote_literal(quote_ident(quote_nullable(quote_ident(quote_literal(quote_ident("
                + "quote_nullable(" + BASE + "))))))) || 'x') AS n FROM users");
        assertThat(mixed.error().orElseThrow().code()).as(mixed.error().orElseThrow().message()).isEqualTo(ErrorCode.UNBOUNDED_COST);
        ToolResult recursive = run("WITH RECURSIVE r(n, s) AS (SELECT 1, name::text FROM users UNION ALL "
                + "SELECT r.n + 1, quote_ident(r.s) FROM r WHERE r.n < 12) SELECT max(length(r.s)) AS m FROM r");
        assertThat(recursive.error().orElseThrow().code()).isEqualTo(ErrorCode.UNBOUNDED_COST);
    }

    /** The measured 30 deep is too deep to parse; 12 deep parses and is refused by its cost, through CTEs as well. */
    @Test
    @Timeout(60)
    void deepNestingsAreRefusedBeforeTheyRun() {
        for (int depth : new int[] {12, 30}) {
            String expression = BASE;
            for (int k = 0; k < depth; k++) {
                expression = "quote_ident(" + expression + ")";
            }
            ToolResult r = run("SELECT length(" + expression + ") AS n FROM users");
            assertThat(r.error().orElseThrow().code()).as("%d deep", depth)
                    .isEqualTo(depth == 12 ? ErrorCode.UNBOUNDED_COST : ErrorCode.QUERY_TOO_COMPLEX);
        }
        StringBuilder sql = new StringBuilder("WITH a0 AS (SELECT " + BASE + " AS x FROM users)");
        for (int i = 1; i <= 30; i++) {
            sql.append(", a").append(i).append(" AS (SELECT quote_ident(a").append(i - 1).append(".x) AS x FROM a").append(i - 1).append(')');
        }
        ToolResult r = run(sql.append(" SELECT max(length(x)) AS n FROM a30").toString());
        assertThat(r.error().orElseThrow().code()).isEqualTo(ErrorCode.UNBOUNDED_COST);
    }

    /** CTEs over a constant, each using the previous one twice; {@code op} joins the two uses. */
    private static String doubled(String first, String op, int levels) {
        StringBuilder sql = new StringBuilder("WITH a0 AS (SELECT " + first + " AS x)");
        for (int i = 1; i <= levels; i++) {
            String prev = "a" + (i - 1);
            sql.append(", a").append(i).append(" AS (SELECT ").append(prev).append(".x ").append(op).append(' ')
                    .append(prev).append(".x AS x FROM ").append(prev).append(')');
        }
        return sql.append(" SELECT length(a").append(levels).append(".x::text) AS n FROM a").append(levels).toString();
    }

    /**
     * Found last round, not closed until now: a constant doubled through 29 inlined CTEs grew a backend to
     * 13 GB, ignoring statement_timeout, until the kernel killed it and the server restarted. A value
     * computed from no column now counts its copies like a column's: refused past the concatenation's
     * relative cost, and for any operator past the copies an expression may carry, before anything runs.
     */
    @Test
    void aConstantDoubledThroughCtesIsRefusedLikeAColumn() {
        ToolResult six = run(doubled("'abcd'", "||", 6));
        assertThat(six.error()).as("64 copies of a 4-character constant").isEmpty();
        assertThat(((Number) six.rows().get(0).get(0)).longValue()).isEqualTo(4L * 64);
        ToolResult seven = run(doubled("'abcd'", "||", 7));
        assertThat(seven.error().orElseThrow().code()).isEqualTo(ErrorCode.UNBOUNDED_COST);
        for (String first : List.of("'abcd'", "1", "(SELECT count(*) FROM users)")) {
            ToolResult deep = run(doubled(first, first.startsWith("'") ? "||" : "+", 29));
            assertThat(deep.error().orElseThrow().code()).as(first).isEqualTo(ErrorCode.UNBOUNDED_COST);
        }
        // the same through derived tables, and a constant used once per level still runs
        StringBuilder nested = new StringBuilder("SELECT 'ab' AS x");
        for (int i = 0; i < 8; i++) { // deeper nesting is refused as too complex to parse
            nested = new StringBuilder("SELECT d.x || d.x AS x FROM (" + nested + ") d");
        }
        assertThat(run(nested.toString()).error().orElseThrow().code()).isEqualTo(ErrorCode.UNBOUNDED_COST);
        StringBuilder once = new StringBuilder("WITH a0 AS (SELECT 'ab' AS x)");
        for (int i = 1; i <= 29; i++) {
            once.append(", a").append(i).append(" AS (SELECT a").append(i - 1).append(".x || 'c' AS x FROM a").append(i - 1).append(')');
        }
        ToolResult linear = run(once.append(" SELECT length(a29.x) AS n FROM a29").toString());
        assertThat(linear.error()).isEmpty();
        assertThat(((Number) linear.rows().get(0).get(0)).longValue()).isEqualTo(2L + 29);
    }

    @Test
    void oneCallStillRuns() {
        ToolResult r = run("SELECT quote_ident(upper(name)) AS q, quote_literal(name) AS l FROM users ORDER BY id");
        assertThat(r.error()).isEmpty();
        assertThat(r.rows().get(0)).containsExactly("\"ALICE\"", "'alice'");
    }
}
